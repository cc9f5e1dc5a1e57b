"""Wall time of a whole-game analysis (``/analyse``): ``python bench/analysis.py [--budget 10] [--games iago ...]``.

Plays one seeded game of each game between levels 1 and 2 (Polygo on 19x19 by default, the largest board, and
13x13), then runs the analysis the bot runs in its worker (``sessions.thinking.judge``) on player 0's moves with
the game's budget, in this process, and prints how long it took against the budget, with the moves judged and
the mistakes it found. The CPU seconds are the analysis's own work: on a busy machine the wall time is longer
(the searches' deadlines are wall-clock, so they think less, but what cannot be cut short takes longer).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import ai
import games
from sessions.thinking import judge

CASES: dict[str, list[dict[str, Any]]] = {"iago": [{}], "isaac": [{}], "polygo": [{"size": 19}, {"size": 13}]}


def play(name: str, options: dict[str, Any], seed: int) -> list[str]:
    rng = random.Random(seed)
    state = games.find(name).new_game(**options)
    while not state.is_over:
        if state.chance:
            state.play(rng.choice(state.legal_moves()))
        else:
            state.play(ai.choose_move(state, 1 + state.turn, seed=rng.randrange(1 << 30)))
    return state.moves


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--budget", type=float, default=10.0, help="seconds for the whole game (ANALYSIS_SECONDS)")
    parser.add_argument("--games", nargs="*", default=list(CASES), choices=list(CASES))
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"analysis of player 0's moves, budget {args.budget:g} s a game (wall seconds)")
    print(f"{'game':<18}{'moves':>7}{'judged':>8}{'wall s':>9}{'CPU s':>8}{'over':>8}  mistakes found")
    for name in args.games:
        entry = games.find(name)
        for options in CASES[name]:
            moves = play(name, options, args.seed)
            started, cpu = time.perf_counter(), time.process_time()
            found = judge(entry.engine.__name__, entry.ai or "", options, moves, args.budget, side=0)
            wall, cpu = time.perf_counter() - started, time.process_time() - cpu
            costly = sum(1 for _, move, best, drop in found if drop > 0.05 and move != best)
            label = name + "".join(f" {k}={v}" for k, v in options.items())
            over = wall - args.budget
            print(f"{label:<18}{len(moves):>7}{len(found):>8}{wall:>9.2f}{cpu:>8.2f}{over:>+8.2f}  {costly}")


if __name__ == "__main__":
    main()
