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

import ai
from ai.polygo.evaluate import Side, leaf_value
from ai.polygo.geometry import geometry as geometry_of
from ai.polygo.geometry import stones_of
from ai.polygo.search import root_values
from ai.search import Analysis, Deadline, pick


@dataclass(frozen=True)
class Level:
    """``width``: how many of the best placements get the opponent's answers (depth 2), 0 for none, None for
    as many as the time allows; ``seconds``: the time budget; ``temperature``: the softmax over move values;
    ``extra_turns``: the two extra turns after a finish searched to their end (else estimated from templates)."""

    width: int | None
    seconds: float
    temperature: float
    extra_turns: bool = False


# Weaker the natural way: level 4 looks at the opponent's answer to each die face and searches the extra turns
# after a finish to their end; the others value each placement by the position it leaves (a finish by the
# opponent's templates) and pick by a softmax over those values, more carelessly the lower the level (they prefer
# good moves and mix up moves of similar worth, without random blunders).
LEVELS: dict[int, Level] = {
    1: Level(width=0, seconds=0.5, temperature=0.5),
    2: Level(width=0, seconds=0.5, temperature=0.2),
    3: Level(width=0, seconds=0.5, temperature=0.08),
    4: Level(width=None, seconds=1.6, temperature=0.0, extra_turns=True),
}


def _width(max_depth: int | None, level: Level) -> int | None:
    """The depth-2 width of a level, or of ``max_depth`` as a bound on the work: 1 is depth 1 alone, d >= 2 the
    best 4 * 2^(d-2) placements at depth 2 (never more than the level's own width)."""
    if max_depth is None:
        return level.width
    if max_depth <= 1 or level.width == 0:
        return 0
    width = 4 * 2 ** (max_depth - 2)
    return width if level.width is None else min(width, level.width)


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
    values, closing = root_values(state, _deadline(budget), _width(max_depth, config), config.extra_turns)
    best = Analysis(values, 1, False).best()
    if best[0] in closing and best[1] > 0:
        return best[0]  # every level sees a polygon it can close: missing one is no way to be gentle
    return pick(Analysis(values, 1, False), config.temperature, rng)


def analyse_position(state: Any, *, budget_s: float) -> tuple[str, float]:
    """``ai.search.GameAI.analyse_position`` for Polygo: level 4's search, its best move and value."""
    if state.legal_moves() == ["pass"]:
        return "pass", _value_after_pass(state, budget_s)
    values, _ = root_values(state, _deadline(budget_s), None)
    return Analysis(values, 1, False).best()


def _value_after_pass(state: Any, budget_s: float) -> float:
    """A pass (the block fits nowhere) has no placement to search: its value is the position it leaves, for the
    player who passes, as ``ai.evaluate`` values it (the leaf value where the opponent's roll has one, else their
    best answer averaged over the faces; a second pass ends the game)."""
    after = state.copy()
    after.play("pass")
    return ai.evaluate(after, state.turn, budget_s=budget_s, game_ai=__name__)


def chance_value(state: Any) -> float | None:
    """The value of a position where a die is about to be rolled, for the player who rolls it, with no search:
    the value the search gives its own leaves (each face's chance to close now, then the fitted race). None where
    that value does not apply (the opening dice, a finisher's extra turns): the caller averages over the faces."""
    roller = state.to_act
    if roller is None or state.first_finisher is not None or not state.moves or state.moves[-1].startswith("open"):
        return None
    geo = geometry_of(state.size)
    own = (stones_of(state, 0), stones_of(state, 1))
    return leaf_value(geo, Side.scan(geo, own[roller], own[1 - roller]), Side.scan(geo, own[1 - roller], own[roller]))
