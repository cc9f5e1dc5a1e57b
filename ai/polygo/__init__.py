"""Polygo's computer player (``ai.search.GameAI``): loop templates valued by a fitted race, under the dice.

``geometry`` holds what a board size never changes (placements, loop templates), ``evaluate`` values a position
and every placement of a node at once, ``search`` runs the die-face expectimax. The levels are this module's own
(``LEVELS``): less search and a softmax over the move values make the lower ones weaker, as people are.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Any

from ai.polygo.search import root_values
from ai.search import Analysis, Deadline, pick


@dataclass(frozen=True)
class Level:
    """``width``: how many of the best placements get the opponent's answers (depth 2), 0 for none, None for
    as many as the time allows; ``seconds``: the time budget; ``temperature``: the softmax over move values."""

    width: int | None
    deeper: int | None
    seconds: float
    temperature: float


LEVELS: dict[int, Level] = {
    1: Level(width=0, deeper=0, seconds=0.5, temperature=0.15),
    2: Level(width=0, deeper=0, seconds=0.5, temperature=0.0),
    3: Level(width=4, deeper=0, seconds=0.5, temperature=0.0),
    4: Level(width=None, deeper=None, seconds=1.6, temperature=0.0),
}


def _work(max_depth: int | None, level: Level) -> tuple[int | None, int | None]:
    """(depth-2 width, depth-3 count) of a level, or of ``max_depth`` as a bound on the work: 1 is depth 1
    alone, 2 the best 4 at depth 2, d >= 3 the best 4 * 2^(d-2) at depth 2 and the best d - 1 of them at 3."""
    if max_depth is None:
        return level.width, level.deeper
    if max_depth <= 1:
        return 0, 0
    width = 4 * 2 ** (max_depth - 2)
    deeper = max_depth - 1 if max_depth >= 3 else 0
    if level.width is not None:
        return min(width, max(level.width, 1)), min(deeper, level.deeper or 0)
    return width, deeper


def _deadline(budget_s: float) -> Deadline:
    return Deadline(None if math.isinf(budget_s) else budget_s, stride=1)


def choose_move(
    state: Any, level: int, rng: random.Random, *, budget_s: float | None = None, max_depth: int | None = None
) -> str:
    """``ai.search.GameAI.choose_move`` for Polygo."""
    moves = state.legal_moves()
    if len(moves) == 1:
        return moves[0]
    config = LEVELS[level]
    budget = config.seconds if budget_s is None else budget_s
    values, closing = root_values(state, _deadline(budget), *_work(max_depth, config))
    best = Analysis(values, 1, False).best()
    if best[0] in closing and best[1] > 0:
        return best[0]  # every level sees a polygon it can close: missing one is no way to be gentle
    return pick(Analysis(values, 1, False), config.temperature, rng)


def analyse_position(state: Any, *, budget_s: float) -> tuple[str, float]:
    """``ai.search.GameAI.analyse_position`` for Polygo: level 4's search, its best move and value."""
    values, _ = root_values(state, _deadline(budget_s), None, None)
    return Analysis(values, 1, False).best()
