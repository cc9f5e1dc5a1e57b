"""Iago's computer player: a tree search guided by a learned pattern evaluation, and an exact endgame solver.

- ``board.py``: the search board, mirroring the engine's rules in every variant.
- ``patterns.py`` and ``evaluation.py``: the n-tuple evaluation and its weights file (``weights.bin``, trained
  by ``bench/train_iago.py``), loaded on first use.
- ``mcts.py``: the best-first (PUCT) tree search on the evaluation, which chooses the moves.
- ``alphabeta.py``: negamax alpha-beta, which solves the last moves exactly.

The levels are this module's own (``LEVELS``): fewer iterations of the tree search, and at level 1 a softmax
over the one-ply values instead of the search; level 4 alone looks for a forced win from 10 empty inner cells.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Any

from ai.iago.alphabeta import NULL, TO_THE_END, IagoSearch, move_name
from ai.iago.board import CALL, INDEX, Board
from ai.iago.evaluation import default_evaluator, evaluate
from ai.iago.mcts import TreeSearch
from ai.search import Analysis, Deadline, NodeBudget, SearchTimeout, pick


@dataclass(frozen=True)
class IagoLevel:
    """How a level thinks: tree-search iterations (0: one ply, None: as many as the time allows), a time budget,
    a softmax temperature over the move values, whether it solves the endgame exactly, and from how many empty
    inner cells it first looks for a forced win (0: never)."""

    iterations: int | None
    budget_s: float
    temperature: float
    solves: bool
    wins_from: int = 0


LEVELS: dict[int, IagoLevel] = {
    1: IagoLevel(iterations=0, budget_s=0.5, temperature=0.07, solves=False),
    2: IagoLevel(iterations=40, budget_s=1.0, temperature=0.0, solves=False),
    3: IagoLevel(iterations=300, budget_s=1.0, temperature=0.0, solves=True),
    4: IagoLevel(iterations=None, budget_s=1.6, temperature=0.0, solves=True, wins_from=10),
}
ITERATIONS_PER_DEPTH = 25  # ``max_depth`` bounds the work of the tree search: this many iterations a unit
ANALYSIS_ITERATIONS = 4000  # an analysis with no clock (tests) stops here
SOLVE_EMPTIES = 8  # the exact solver is tried with this many empty inner cells or fewer (outer moves make lines long)
SOLVE_SHARE = 0.3  # of the time budget; an unfinished solve leaves the rest to the tree search
SOLVE_NODES_PER_DEPTH = 250  # with ``max_depth`` (no clock) the solver's work is bounded in nodes instead
DEADLINE_STRIDE = 4  # an iteration of the tree search takes about a millisecond: poll the clock often
WIN_SHARE = 0.5  # of the time budget for the forced-win search; an unfinished one leaves the rest to the others


def _budget(level: IagoLevel, budget_s: float | None) -> float | None:
    budget = level.budget_s if budget_s is None else budget_s
    return None if budget == math.inf else budget


def _share(clock: Deadline, share: float, max_depth: int | None) -> Deadline:
    """An endgame search's deadline: ``share`` of the time left on ``clock``, or, given ``max_depth`` (fixed
    work), ``SOLVE_NODES_PER_DEPTH * max_depth`` nodes."""
    if max_depth is not None:
        return NodeBudget(SOLVE_NODES_PER_DEPTH * max_depth)
    return Deadline(None if clock.end == math.inf else clock.remaining() * share)


def _solve(state: Any, clock: Deadline, max_depth: int | None) -> tuple[str, float] | None:
    """The exact best move and value when the alpha-beta reaches the end of every line within its share of the
    time (or, given ``max_depth``, of ``SOLVE_NODES_PER_DEPTH * max_depth`` nodes), else None (and the rest of the
    time is the tree search's)."""
    if Board.from_game(state).empty_inner > SOLVE_EMPTIES:
        return None
    deadline = _share(clock, SOLVE_SHARE, max_depth)
    search = IagoSearch(False, evaluate)
    deadline.armed = False  # the first depth always completes, as in ai.search.think
    values, exact = search.root_values(state, 1, deadline)
    analysis = Analysis(values, 1, exact)
    deadline.armed = True
    for depth in range(2, TO_THE_END + 1):
        if analysis.exact or deadline.expired():
            break
        try:
            values, exact = search.root_values(state, depth, deadline)
        except SearchTimeout:
            break
        analysis = Analysis(values, depth, exact)
    return analysis.best() if analysis.exact else None


def _winning_move(state: Any, clock: Deadline, max_depth: int | None) -> str | None:
    """A move that wins by force, found by one null-window search to the end within ``WIN_SHARE`` of the time
    (or, given ``max_depth``, ``SOLVE_NODES_PER_DEPTH * max_depth`` nodes), else None. It only asks "is there a
    win?", which cuts far more than the exact solver's "by how much?": a position the exact solver cannot finish
    in its share is often decided here, where the tree search would play by its evaluation."""
    board = Board.from_game(state)
    search = IagoSearch(False, evaluate)
    try:
        value = search.negamax(board, TO_THE_END, -NULL, NULL, _share(clock, WIN_SHARE, max_depth))
    except SearchTimeout:
        return None
    if value < NULL or search.horizon:
        return None
    # the root failed high: its table entry holds the move that did it, a move that wins
    return move_name(search.table[board.key()][3])


def _search(state: Any, iterations: int | None, clock: Deadline) -> tuple[str, float]:
    """The tree search's most visited move (then the better value, then canonical order) and its mean value."""
    if iterations is None:
        iterations = ANALYSIS_ITERATIONS if clock.end == math.inf else 1 << 30
    deadline = Deadline(None if clock.end == math.inf else max(0.0, clock.remaining()), stride=DEADLINE_STRIDE)
    stats = TreeSearch(evaluate).run(Board.from_game(state), iterations, deadline)
    best = max(sorted(stats), key=lambda m: stats[m])
    return move_name(best), stats[best][1]


def one_ply_values(state: Any) -> dict[str, float]:
    """Each move's value by the evaluation of the position after it (exact where the move ends the game)."""
    node, _ = TreeSearch(evaluate).expand(Board.from_game(state))
    return {move_name(m): v for m, v in zip(node.moves, node.totals, strict=True)}


def choose_move(
    state: Any, level: int, rng: random.Random, *, budget_s: float | None = None, max_depth: int | None = None
) -> str:
    """``ai.search.GameAI.choose_move`` for Iago. ``max_depth`` bounds the work instead of the clock: the tree
    search runs ``ITERATIONS_PER_DEPTH`` iterations a unit and the endgame solver ``SOLVE_NODES_PER_DEPTH`` nodes."""
    moves = state.legal_moves()
    if len(moves) == 1:
        return moves[0]
    default_evaluator()  # the weights load once per process, before the clock starts
    config = LEVELS[level]
    clock = Deadline(_budget(config, budget_s))
    if config.iterations == 0:
        return pick(Analysis(one_ply_values(state), 1, False), config.temperature, rng)
    if config.wins_from and Board.from_game(state).empty_inner <= config.wins_from:
        winning = _winning_move(state, clock, max_depth)
        if winning is not None:
            return winning
    if config.solves:
        solved = _solve(state, clock, max_depth)
        if solved is not None:
            return solved[0]
    iterations = config.iterations if max_depth is None else max_depth * ITERATIONS_PER_DEPTH
    return _search(state, iterations, clock)[0]


def analyse_position(state: Any, *, budget_s: float) -> tuple[str, float]:
    """``ai.search.GameAI.analyse_position`` for Iago: level 4's search, its best move and value. A forced move
    is searched too: its value is what a post-game analysis compares."""
    default_evaluator()
    # with no clock (tests) the solver runs to its end and the tree search stops at ANALYSIS_ITERATIONS
    clock = Deadline(None if budget_s == math.inf else budget_s)
    return _solve(state, clock, None) or _search(state, None, clock)


__all__ = ["CALL", "INDEX", "LEVELS", "Board", "analyse_position", "choose_move", "evaluate"]
