"""Fixed-work matches between Iago searches: ``python bench/tune_iago.py mcts@1200 uct:300 --pairs 20``.

Players: ``random``; ``uct:N`` or ``uct~S`` (bench/uct.py with N iterations or S seconds a move); ``mcts@N``
or ``mcts~S`` (ai/iago/mcts.py; ``mcts@N=path`` reads another weights file, ``mcts@N:exploration=1`` or
``:prior_temperature=0.3`` sets a knob); ``net@D`` (alpha-beta on the learned evaluation, D plies; ``net@D=path``)
or ``net~S`` (S seconds); ``hand@D`` (the old hand-weighted evaluation, D plies); and ``L1``..``L4`` (the levels
as shipped; ``L3@D`` passes ``max_depth=D`` with no clock, which makes it fixed work). Games come in pairs from the
same seeded random opening with the sides swapped. Prints the first player's score with a 95% interval, and
seconds per move. Fixed work gives the same answer however loaded the machine is.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ai import iago
from ai.iago.alphabeta import IagoSearch, move_name
from ai.iago.board import Board, hand_evaluate
from ai.iago.evaluation import Evaluator, load
from ai.iago.mcts import TreeSearch
from ai.search import Deadline, think
from bench.uct import UCT, best_child
from engines import iago as engine

Player = Callable[[Any, random.Random], str]


def make_player(spec: str) -> Player:
    if spec == "random":
        return lambda state, rng: rng.choice(state.legal_moves())
    if spec.startswith("L"):
        level, _, depth = spec[1:].partition("@")
        budget = math.inf if depth else None
        cap = int(depth) if depth else None
        return lambda state, rng: iago.choose_move(state.copy(), int(level), rng, budget_s=budget, max_depth=cap)
    if spec.startswith(("uct:", "uct~")):
        searcher = UCT(1)
        amount = float(spec[4:])

        def reference(state: Any, rng: random.Random) -> str:
            moves = state.legal_moves()
            if len(moves) == 1:
                return moves[0]
            searcher.rng.seed(rng.randrange(1 << 62))
            if spec[3] == ":":
                root = searcher.search(state, int(amount))
            else:
                root = searcher.search(state, 10**9, seconds=amount)
            return best_child(root).move  # type: ignore[return-value]

        return reference
    if spec.startswith(("mcts@", "mcts~")):
        body, _, knobs = spec[5:].partition(":")
        amount_text, _, weights_path = body.partition("=")
        params = {k: float(v) for k, v in (item.split("=") for item in knobs.split(",") if item)}
        amount = float(amount_text)
        timed = spec[4] == "~"
        tree_value = Evaluator(load(Path(weights_path))).value if weights_path else iago.evaluate

        def tree(state: Any, rng: random.Random) -> str:
            moves = state.legal_moves()
            if len(moves) == 1:
                return moves[0]
            board = Board.from_game(state)
            deadline = Deadline(amount if timed else None)
            stats = TreeSearch(tree_value, **params).run(board, 10**9 if timed else int(amount), deadline)
            return move_name(max(stats, key=lambda m: stats[m]))

        return tree
    if spec.startswith("net~"):
        seconds = float(spec[4:])

        def timed_search(state: Any, rng: random.Random) -> str:
            moves = state.legal_moves()
            if len(moves) == 1:
                return moves[0]
            return think(IagoSearch(False, iago.evaluate), state, 64, seconds).best()[0]

        return timed_search
    kind, _, rest = spec.partition("@")
    depth_text, _, path = rest.partition("=")
    depth = int(depth_text)
    if kind == "hand":

        def value(board: Any) -> float:
            return hand_evaluate(board, board.turn)

    elif kind == "net":
        value = Evaluator(load(Path(path))).value if path else iago.evaluate
    else:
        raise SystemExit(f"unknown player {spec!r}")

    def play(state: Any, rng: random.Random) -> str:
        moves = state.legal_moves()
        if len(moves) == 1:
            return moves[0]
        return think(IagoSearch(False, value), state, depth, None).best()[0]

    return play


def play_game(players: tuple[Player, Player], seed: int, opening: int, variant: str) -> tuple[int | None, list]:
    rng = random.Random(seed)
    state = engine.new_game(variant=variant)
    times: list[list[float]] = [[], []]
    while not state.is_over:
        if len(state.moves) < opening:
            state.play(rng.choice(state.legal_moves()))
            continue
        side = state.turn
        started = time.perf_counter()
        move = players[side](state, rng)
        times[side].append(time.perf_counter() - started)
        state.play(move)
    return state.result().winner, times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("first")
    parser.add_argument("second")
    parser.add_argument("--pairs", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--opening", type=int, default=4, help="seeded random plies before the players start")
    parser.add_argument("--variant", default="standard")
    args = parser.parse_args()
    a, b = make_player(args.first), make_player(args.second)
    points = 0.0
    games = 0
    times: tuple[list[float], list[float]] = ([], [])
    for k in range(args.pairs):
        seed = args.seed * 100_000 + k
        for first_is_dark in (True, False):
            pair = (a, b) if first_is_dark else (b, a)
            winner, t = play_game(pair, seed, args.opening, args.variant)
            mine = 0 if first_is_dark else 1
            points += 1.0 if winner == mine else 0.5 if winner is None else 0.0
            times[0].extend(t[mine])
            times[1].extend(t[1 - mine])
            games += 1
        share = points / games
        half = 1.96 * math.sqrt(max(share * (1 - share), 0.25 / games) / games)
        print(f"after {games} games: {args.first} scores {points:g} ({share:.0%} +- {half:.0%})", flush=True)
    for spec, ts in zip((args.first, args.second), times, strict=True):
        if ts:
            ts.sort()
            p95 = ts[min(len(ts) - 1, int(0.95 * len(ts)))]
            print(f"{spec}: {len(ts)} moves, median {statistics.median(ts):.3f} s, p95 {p95:.3f} s, max {ts[-1]:.3f} s")


if __name__ == "__main__":
    main()
