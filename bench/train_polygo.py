"""Fit the race weights of Polygo's evaluation (ai/polygo/evaluate.py WEIGHTS) to self-play outcomes.

``python bench/train_polygo.py [--games 400] [--sizes 13 19] [--workers 2] [--seed 3] [--rounds 1]``

Each round plays ``--games`` self-play games per board size with the current weights (depth-1 search, a softmax
at a low temperature for variety, seeded dice), records at every point where a player is about to roll the race
features of that player (``evaluate.FEATURES``) and whether they went on to win, and fits a logistic regression
of the outcome on the features by Newton's method, on the positions where the roll that followed did not close a
loop (the value adds the chance to close exactly). A tenth of the positions is held out and its log loss printed
for the weights before and after. The next round plays with the fitted weights. Prints the weights as a Python
tuple to paste into ``WEIGHTS``; deterministic for a seed and starting weights. The shipped weights are one round
of ``--games 400 --seed 3`` played with the weights of two earlier rounds of ``--games 300`` (on an earlier
feature set); a run now plays with the shipped weights, so it refits them.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import random
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ai.polygo import evaluate
from ai.polygo.geometry import geometry, stones_of
from ai.polygo.search import Deadline, root_values
from ai.search import Analysis, pick
from engines import polygo as E

TEMPERATURE = 0.05


def position_features(game: Any) -> tuple[float, tuple[float, ...]] | None:
    """(chance to close on this roll, race features) for the player about to roll; None outside the race."""
    if game.first_finisher is not None or game.to_roll is None:
        return None
    geo = geometry(game.size)
    me = game.to_roll
    own = [stones_of(game, 0), stones_of(game, 1)]
    mine = evaluate.Side.scan(geo, own[me], own[1 - me])
    theirs = evaluate.Side.scan(geo, own[1 - me], own[me])
    q1, phi = evaluate.leaf_features(geo, mine, theirs)
    return q1 / 6, phi


def self_play(task: tuple[int, int, tuple[float, ...]]) -> list[tuple[float, tuple[float, ...], float]]:
    seed, size, weights = task
    evaluate.WEIGHTS = weights  # type: ignore[assignment]  # this worker plays with the round's weights
    dice = random.Random(seed)
    rng = random.Random(seed * 31 + 7)
    game = E.new_game(size=size)
    seen: list[tuple[int, float, tuple[float, ...]]] = []
    pending: tuple[int, float, tuple[float, ...]] | None = None
    while not game.is_over:
        if game.chance:
            found = position_features(game)
            if found is not None:
                pending = (game.to_roll, *found)
            game.play(dice.choice(game.legal_moves()))
            continue
        if pending is not None and game.turn != pending[0]:
            pending = None
        if pending is not None and game.first_finisher is None:
            seen.append(pending)  # kept only if this turn does not close: see below
            pending = None
        moves = game.legal_moves()
        mover = game.turn
        if len(moves) == 1:
            game.play(moves[0])
        else:
            values, _ = root_values(game.copy(), Deadline(None), 0)
            game.play(pick(Analysis(values, 1, False), TEMPERATURE, rng))
        if game.finished[mover] and seen and seen[-1][0] == mover:
            seen.pop()  # the roll closed: this position is valued by its chance to close, not by the race
    winner = game.result().winner
    return [(q1, phi, 0.5 if winner is None else float(winner == who)) for who, q1, phi in seen]


def fit(samples: list[tuple[float, tuple[float, ...], float]], start: tuple[float, ...]) -> tuple[float, ...]:
    """Logistic regression (Newton's method, a little ridge) of the outcome after a roll that did not close."""
    rows = [(phi, y) for _, phi, y in samples]
    beta = [0.0] * len(start)
    n = len(beta)
    for _ in range(40):
        grad = [0.0] * n
        hess = [[0.0] * n for _ in range(n)]
        for phi, y in rows:
            z = sum(b * x for b, x in zip(beta, phi, strict=True))
            p = 1 / (1 + math.exp(-max(-30.0, min(30.0, z))))
            r = y - p
            s = p * (1 - p)
            for i in range(n):
                grad[i] += r * phi[i]
                row = hess[i]
                for j in range(n):
                    row[j] += s * phi[i] * phi[j]
        for i in range(1, n):
            grad[i] -= 1e-3 * beta[i]
            hess[i][i] += 1e-3
        step = _solve(hess, grad)
        # damped: a step longer than 2 in any weight is shortened, which keeps Newton from overshooting
        longest = max(abs(d) for d in step)
        if longest > 2:
            step = [d * 2 / longest for d in step]
        beta = [b + d for b, d in zip(beta, step, strict=True)]
        if longest < 1e-6:
            break
    return tuple(round(b, 4) for b in beta)


def _solve(a: list[list[float]], b: list[float]) -> list[float]:
    n = len(b)
    m = [[*row[:], b[i]] for i, row in enumerate(a)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(m[r][col]))
        m[col], m[pivot] = m[pivot], m[col]
        for r in range(n):
            if r != col and m[col][col]:
                f = m[r][col] / m[col][col]
                m[r] = [x - f * y for x, y in zip(m[r], m[col], strict=True)]
    return [m[i][n] / m[i][i] if m[i][i] else 0.0 for i in range(n)]


def log_loss(samples: list[tuple[float, tuple[float, ...], float]], beta: tuple[float, ...]) -> float:
    total = 0.0
    for _, phi, y in samples:
        z = sum(b * x for b, x in zip(beta, phi, strict=True))
        p = 1 / (1 + math.exp(-max(-30.0, min(30.0, z))))
        p = min(max(p, 1e-6), 1 - 1e-6)
        total -= y * math.log(p) + (1 - y) * math.log(1 - p)
    return total / max(len(samples), 1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400, help="self-play games per round and board size")
    parser.add_argument("--sizes", type=int, nargs="+", default=[13, 19])
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    weights = tuple(evaluate.WEIGHTS)
    for round_ in range(args.rounds):
        tasks = [
            (args.seed * 1_000_003 + round_ * 100_003 + size * 10_007 + k, size, weights)
            for size in args.sizes
            for k in range(args.games)
        ]
        samples: list[tuple[float, tuple[float, ...], float]] = []
        with multiprocessing.Pool(args.workers) as pool:
            for found in pool.imap(self_play, tasks, chunksize=4):
                samples.extend(found)
        # a held-out tenth checks that the fit predicts better than the weights it started from
        held = samples[::10]
        train = [s for i, s in enumerate(samples) if i % 10]
        fitted = fit(train, weights)
        print(
            f"round {round_ + 1}: {len(samples)} positions; held-out log loss {log_loss(held, weights):.4f} "
            f"-> {log_loss(held, fitted):.4f}",
            flush=True,
        )
        print(f"WEIGHTS = {fitted}", flush=True)
        weights = fitted


if __name__ == "__main__":
    main()
