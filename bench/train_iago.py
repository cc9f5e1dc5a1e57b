"""Train Iago's pattern evaluation by TD(lambda) self-play: ``python bench/train_iago.py --games 30000 --seed 1``.

Each game is played by the current weights one ply deep (the move whose resulting position is worth least to
the opponent), with a few seeded random opening plies and a small share of random moves so that the games
vary; then every position of the game is moved towards its lambda-return: the values of the positions after
it, and in the end the result (+-1 for the winner, nudged by the final margin of the product scores). The same
seed gives the same weights, bit for bit: the script uses one seeded generator and no dict or set order.

Writes ``ai/iago/weights.bin`` (or ``--out``) every ``--save-every`` games and at the end, in the format of
``ai/iago/evaluation.py``. The starting global weights are the old hand-tuned evaluation's, so the first games
are already sensible. Cost: see docs/ai.md (about 20 ms a game on one core of the development machine).
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ai.iago import patterns as P
from ai.iago.board import Board
from ai.iago.evaluation import WEIGHTS_PATH, Weights, global_features, relative_indices, save
from engines import iago as engine

# (pattern stage, instance indices, global stage, global features) of a position, and its value when played
Record = tuple[tuple[int, tuple[int, ...], int, tuple[float, ...]], float]
MARGIN_SHARE = 0.2  # of the result target: the rest is the win or loss itself


def outcome(board: Board) -> float:
    """The training target of a finished game for the player to move: +-1 nudged by the relative margin."""
    winner = board.winner()
    if winner is None:
        return 0.0
    me = board.turn
    s = board.scores()
    sign = 1.0 if winner == me else -1.0
    margin = (s[me] - s[1 - me]) / max(1, s[0] + s[1])
    return (1 - MARGIN_SHARE) * sign + MARGIN_SHARE * margin


class Trainer:
    def __init__(self, weights: Weights, rng: random.Random) -> None:
        self.weights = weights
        self.rng = rng
        self.stage_of = [P.pattern_stage(e) for e in range(P.INNER_CELLS + 1)]
        self.gstage_of = [P.global_stage(e) for e in range(P.INNER_CELLS + 1)]

    def raw(self, board: Board) -> float:
        cells = board.cells
        if board.turn == 1:
            swap = P.SWAP_COLOURS
            cells = [swap[v] for v in cells]
        empty = board.empty_inner
        x = P.pattern_sum(cells, self.weights.tables[self.stage_of[empty]])
        g = self.weights.globals_[self.gstage_of[empty]]
        return x + sum(w * f for w, f in zip(g, global_features(board), strict=True))

    def value(self, board: Board) -> float:
        return outcome(board) if board.over else math.tanh(self.raw(board))

    def play(self, variant: str, opening: int, epsilon: float) -> tuple[list[Record], float]:
        """One self-play game: (position features, value) for each position with a choice, and the last value."""
        rng = self.rng
        cells = [0] * len(engine.CELLS)
        board = Board(cells, 0, variant, False)
        records: list[Record] = []
        ply = 0
        while not board.over:
            moves = board.moves()
            if ply < opening or (len(moves) > 1 and rng.random() < epsilon):
                move = rng.choice(moves)
            elif len(moves) == 1:
                move = moves[0]
            else:
                move, best = moves[0], -2.0
                for m in moves:
                    undo = board.make(m)
                    v = -self.value(board)
                    board.unmake(undo)
                    if v > best:
                        move, best = m, v
            if ply >= opening:
                empty = board.empty_inner
                features = (
                    self.stage_of[empty],
                    relative_indices(board),
                    self.gstage_of[empty],
                    global_features(board),
                )
                records.append((features, math.tanh(self.raw(board))))
            board.make(move)
            ply += 1
        return records, outcome(board)

    def learn(self, records: list[Record], final: float, alpha: float, alpha_global: float, lam: float) -> float:
        """Move every recorded position towards its lambda-return (players alternate, so each step negates)."""
        target = final
        next_value = final
        total_error = 0.0
        for features, value in reversed(records):
            target = -((1 - lam) * next_value + lam * target)
            next_value = value
            error = target - value
            total_error += abs(error)
            stage, indices, gstage, feats = features
            tables = self.weights.tables[stage]
            step = alpha * error
            for (k, _), j in zip(P.INSTANCES, indices, strict=True):
                tables[k][j] += step
            g = self.weights.globals_[gstage]
            for n, f in enumerate(feats):
                g[n] += alpha_global * error * f
        return total_error / max(1, len(records))


def initial_weights() -> Weights:
    """Zero patterns; the global terms start as the old hand evaluation (score share, inner, outer, captives)."""
    weights = Weights.zero()
    for row in weights.globals_:
        row[:] = [0.0, 4.0, 0.16 * 8, 0.2 * 8, 0.06 * 8]
    return weights


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=30000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--alpha", type=float, default=0.004, help="pattern step, decayed linearly to a third")
    parser.add_argument("--alpha-global", type=float, default=0.002)
    parser.add_argument("--lam", type=float, default=0.6)
    parser.add_argument("--epsilon", type=float, default=0.05, help="share of random moves after the opening")
    parser.add_argument("--loose-share", type=float, default=0.15, help="share of games in the loose variant")
    parser.add_argument("--save-every", type=int, default=2000)
    parser.add_argument("--out", type=Path, default=WEIGHTS_PATH)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    trainer = Trainer(initial_weights(), rng)
    started = time.perf_counter()
    errors: list[float] = []
    for game in range(1, args.games + 1):
        progress = game / args.games
        variant = "loose" if rng.random() < args.loose_share else "standard"
        records, final = trainer.play(variant, opening=rng.randint(0, 6), epsilon=args.epsilon)
        alpha = args.alpha * (1 - 2 / 3 * progress)
        errors.append(trainer.learn(records, final, alpha, args.alpha_global * (1 - 2 / 3 * progress), args.lam))
        if game % args.save_every == 0 or game == args.games:
            elapsed = time.perf_counter() - started
            trainer.weights.meta = {
                "games": game,
                "seed": args.seed,
                "alpha": args.alpha,
                "alpha_global": args.alpha_global,
                "lambda": args.lam,
                "epsilon": args.epsilon,
                "loose_share": args.loose_share,
                "planned_games": args.games,
            }
            save(args.out, trainer.weights)
            recent = errors[-args.save_every :]
            print(
                f"game {game}: mean |error| {sum(recent) / len(recent):.3f}, {elapsed:.0f} s "
                f"({elapsed / game * 1000:.1f} ms a game), saved {args.out}",
                flush=True,
            )


if __name__ == "__main__":
    main()
