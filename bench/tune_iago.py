"""Fit the Iago evaluation weights by self-play: ``python bench/tune_iago.py [--pairs 12] [--rounds 2]``.

Coordinate search: each weight in turn is scaled up and down, and a change is kept when the new weights
beat the current ones in ``--pairs`` game pairs (sides swapped, the same seeded random opening of a few plies)
at a fixed search depth. Prints the weights to paste into ``ai/iago.py`` (WEIGHTS). Deterministic for a seed.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ai import iago
from ai.search import think
from engines import iago as engine

OPENING_PLIES = 6


def play(weights: tuple[dict[str, float], dict[str, float]], seed: int, depth: int) -> int | None:
    """Winner of one game with ``weights[p]`` playing side p, after a seeded random opening."""
    rng = random.Random(seed)
    state = engine.new_game()
    while not state.is_over:
        if len(state.moves) < OPENING_PLIES:
            state.play(rng.choice(state.legal_moves()))
            continue
        search = iago.IagoSearch(full_width_root=False, weights=weights[state.turn])
        state.play(think(search, state, depth, None).best()[0])
    return state.result().winner


def match(challenger: dict[str, float], current: dict[str, float], pairs: int, depth: int, seed: int) -> float:
    """The challenger's share of points over ``pairs`` pairs of games."""
    points = 0.0
    for k in range(pairs):
        points += play((challenger, current), seed + k, depth) == 0
        points += play((current, challenger), seed + k, depth) == 1
    return points / (2 * pairs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=12)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--depth", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    weights = dict(iago.WEIGHTS)
    seed = args.seed * 1000
    for round_ in range(args.rounds):
        for key in weights:
            for factor in (2.0, 0.5):
                trial = dict(weights, **{key: weights[key] * factor if weights[key] else 0.02})
                seed += args.pairs
                share = match(trial, weights, args.pairs, args.depth, seed)
                print(f"round {round_} {key} x{factor}: {share:.2f}", flush=True)
                if share > 0.55:
                    weights = trial
                    break
    print("WEIGHTS =", {k: round(v, 4) for k, v in weights.items()})


if __name__ == "__main__":
    main()
