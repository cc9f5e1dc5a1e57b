"""ISAAC's computer player: a tree search with line-potential priors and playouts, and its levels.

- ``board.py``: a fast board of both phases (integer piece ids, line counts kept up to date).
- ``mcts.py``: PUCT over the moves worth considering, with priors from line potential and playouts by a cheap
  policy; it chooses the moves of levels 2 to 4 and serves hints and analyses.
- ``beam.py``: the earlier beam alpha-beta on a light model; level 1 values each move one ply deep with it.

The levels are this module's own (``LEVELS``): level 1 a softmax over one-ply values, the others fewer or more
iterations of the tree search.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Any

from ai.isaac import beam
from ai.isaac.beam import Model, children
from ai.isaac.board import Board, move_id, move_name
from ai.isaac.mcts import Node, TreeSearch
from ai.search import Analysis, Deadline, pick, think


@dataclass(frozen=True)
class IsaacLevel:
    """How a level thinks: tree-search iterations (0: the one-ply softmax, None: as many as the time allows), a
    time budget (a cap for the fixed-work levels) and the softmax temperature of the one-ply level."""

    iterations: int | None
    budget_s: float
    temperature: float = 0.0


LEVELS: dict[int, IsaacLevel] = {
    1: IsaacLevel(iterations=0, budget_s=0.5, temperature=0.1),
    2: IsaacLevel(iterations=60, budget_s=1.0),
    3: IsaacLevel(iterations=300, budget_s=1.0),
    4: IsaacLevel(iterations=None, budget_s=1.5),
}
ITERATIONS_PER_DEPTH = 100  # ``max_depth`` bounds the tree search's work: this many iterations a unit
ANALYSIS_ITERATIONS = 3000  # an analysis with no clock (tests) stops here
DEADLINE_STRIDE = 8


def search(state: Any, iterations: int | None, budget_s: float | None, rng: random.Random) -> Node:
    """The tree search's root after ``iterations`` (None: as many as ``budget_s`` allows)."""
    if iterations is None:
        iterations = ANALYSIS_ITERATIONS if budget_s is None else 1 << 30
    deadline = Deadline(budget_s, stride=DEADLINE_STRIDE)
    return TreeSearch(rng).run(Board.from_game(state), iterations, deadline)


def best(root: Node) -> tuple[str, float]:
    """The most visited move (then the better mean, then the lower id) and its mean value in [-1, 1]."""
    index = max(
        range(len(root.moves)),
        key=lambda i: (root.visits[i], root.totals[i] / max(1, root.visits[i]), -root.moves[i]),
    )
    visits = root.visits[index]
    return move_name(root.moves[index]), (2 * root.totals[index] / visits - 1) if visits else 0.0


def choose_move(
    state: Any, level: int, rng: random.Random, *, budget_s: float | None = None, max_depth: int | None = None
) -> str:
    """``ai.search.GameAI.choose_move`` for ISAAC. ``max_depth`` bounds the work instead of the clock: the tree
    search runs ``ITERATIONS_PER_DEPTH`` iterations a unit (never more than the level's own)."""
    moves = state.legal_moves()
    if len(moves) == 1:
        return moves[0]
    config = LEVELS[level]
    budget = config.budget_s if budget_s is None else budget_s
    clock = None if budget == math.inf else budget
    winning = _winning_removal(state)
    if winning is not None:
        return winning
    if config.iterations == 0:
        analysis = think(beam.IsaacSearch(full_width_root=True), state, 1, clock)
        return pick(analysis, config.temperature, rng)
    iterations = config.iterations
    if max_depth is not None:
        work = max_depth * ITERATIONS_PER_DEPTH
        iterations = work if iterations is None else min(iterations, work)
    return best(search(state, iterations, clock, rng))[0]


def _winning_removal(state: Any) -> str | None:
    """A removal that reaches 100 ends the game with a win: every level takes it (to the highest score)."""
    scores = {move: int(move.rsplit(" ", 1)[1]) for move in state.legal_moves() if move.startswith("x ")}
    winning = [move for move, score in scores.items() if score >= beam.TARGET]
    return max(winning, key=lambda move: (scores[move], move)) if winning else None


def analyse_position(state: Any, *, budget_s: float) -> tuple[str, float]:
    """``ai.search.GameAI.analyse_position`` for ISAAC: level 4's search, its best move and value (searched even
    when the move is forced: its value is what a post-game analysis compares)."""
    winning = _winning_removal(state)
    if winning is not None:
        return winning, 1.0
    clock = None if budget_s == math.inf else budget_s
    return best(search(state, None, clock, random.Random(0)))


__all__ = ["LEVELS", "Analysis", "Board", "Model", "analyse_position", "children", "choose_move", "move_id"]
