"""Iago's computer player: alpha-beta over a make/unmake board, with a learned pattern evaluation.

- ``board.py``: the search board, mirroring the engine's rules in every variant.
- ``patterns.py`` and ``evaluation.py``: the n-tuple evaluation and its weights file (``weights.bin``, trained
  by ``bench/train_iago.py``), loaded on first use.
- ``alphabeta.py``: negamax alpha-beta with a transposition table, quiescence and exact endgames.

The levels are this module's own (``LEVELS``): shallower search and a softmax over move values below level 4.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Any

from ai.iago.alphabeta import IagoSearch
from ai.iago.board import CALL, INDEX, Board
from ai.iago.evaluation import evaluate
from ai.search import Analysis, Deadline, SearchTimeout, pick, think


@dataclass(frozen=True)
class IagoLevel:
    """How a level thinks: a depth cap, a time budget (None: the depth alone) and a softmax temperature."""

    max_depth: int
    budget_s: float | None
    temperature: float


LEVELS: dict[int, IagoLevel] = {
    1: IagoLevel(max_depth=1, budget_s=0.5, temperature=0.3),
    2: IagoLevel(max_depth=2, budget_s=1.0, temperature=0.08),
    3: IagoLevel(max_depth=4, budget_s=0.5, temperature=0.0),
    4: IagoLevel(max_depth=64, budget_s=1.6, temperature=0.0),
}


def _search(full_width_root: bool) -> IagoSearch:
    return IagoSearch(full_width_root=full_width_root, value=evaluate)


def choose_move(
    state: Any, level: int, rng: random.Random, *, budget_s: float | None = None, max_depth: int | None = None
) -> str:
    """``ai.search.GameAI.choose_move`` for Iago."""
    moves = state.legal_moves()
    if len(moves) == 1:
        return moves[0]
    config = LEVELS[level]
    depth = config.max_depth if max_depth is None else max_depth
    budget = config.budget_s if budget_s is None else budget_s
    analysis = think(_search(config.temperature > 0), state, depth, None if budget == math.inf else budget)
    return pick(analysis, config.temperature, rng)


def analyse_position(state: Any, *, budget_s: float) -> tuple[str, float]:
    """``ai.search.GameAI.analyse_position`` for Iago: level 4's search, its best move and value.

    Unlike a choice, a forced move is searched too: its value is what the analysis compares."""
    budget = None if budget_s == math.inf else budget_s
    search = _search(False)
    deadline = Deadline(budget)
    deadline.armed = False
    values, exact = search.root_values(state, 1, deadline)
    analysis = Analysis(values, 1, exact)
    deadline.armed = budget is not None
    for depth in range(2, LEVELS[4].max_depth + 1):
        if analysis.exact or deadline.expired():
            break
        try:
            values, exact = search.root_values(state, depth, deadline)
        except SearchTimeout:
            break
        analysis = Analysis(values, depth, exact)
    return analysis.best()


__all__ = ["CALL", "INDEX", "LEVELS", "Board", "analyse_position", "choose_move", "evaluate"]
