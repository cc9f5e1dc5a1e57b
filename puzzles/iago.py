"""Iago's puzzles (``GameEntry.puzzles``): endgames solved exactly, and the themes of a move on the hex board.

Positions with at most ``EMPTIES`` empty inner cells, where the AI's alpha-beta solves every move to the end of the
game: a move's value is its exact result, so "exactly one move wins" is a proof, not an estimate (Iago has no draws:
a move wins or loses). The miner's prover (``exact_step``) settles win or loss first, which is far cheaper than the
exact score: the position itself, then each move until a second one wins; only an only move gets its exact value,
and each rival keeps the solver's proven bound (it loses, by at least that much). The generic searches (``survey``,
``deep_value``: each move's exact value by ``ai.evaluate``, rivals by the least search first) prove a sample again
independently. Standard Iago only: the variants are not mined.
"""

from __future__ import annotations

from typing import Any

from ai.iago.alphabeta import NULL, TO_THE_END, IagoSearch, move_name
from ai.iago.board import Board
from ai.iago.evaluation import default_evaluator, evaluate
from ai.search import NodeBudget, SearchTimeout
from engines import GameState
from engines import iago as engine
from locales import N_
from puzzles.mining import Step
from puzzles.oracle import Oracle, TooLong, after, by_glance, dict_signature, every_move, value_after

EMPTIES = 7  # positions with at most this many empty inner cells: every move is solved to the game's end
# The solver's work on one position, in nodes (fixed work, the same on every machine): past it the position is
# skipped. The searches go ``TO_THE_END`` plies deep, so they never stop at a horizon.
SOLVER_NODES = 1_500_000
ENDGAME = 4  # at most this many empty inner cells: the very last moves (the theme)
CORNERS = frozenset({"A1", "A5", "E1", "E9", "I5", "I9"})

THEMES: dict[str, str] = {
    "corner": N_("Corner"),
    "edge": N_("Edge"),
    "centre": N_("Centre"),
    "capture": N_("Captives"),
    "release": N_("Release"),
    "forced-capture": N_("Forced capture"),
    "sacrifice": N_("Sacrifice"),
    "endgame": N_("Endgame"),
}


def empty_inner(state: Any) -> int:
    return sum(1 for cell in engine.INNER if state.cell(cell) is None)


def gate(state: GameState) -> bool:
    return empty_inner(state) <= EMPTIES


def exact_step(state: GameState) -> Step | None:
    """The only winning move at ``state`` (the player to act's), its exact value and its closest rival's proven
    bound; None when the position is lost or two moves win. Raises TooLong past ``SOLVER_NODES``.

    Null-window searches (is the value above 0?) share one transposition table: the position first (a lost one
    costs one proof), then each move, the likeliest first by the evaluation, until a second one wins. A losing
    move's fail-soft result is an upper bound of its exact value."""
    try:
        return _exact_step(state)
    except SearchTimeout:
        raise TooLong from None  # the miner's word for a position past its fixed work


def _exact_step(state: GameState) -> Step | None:
    default_evaluator()  # the weights load once per process
    search = IagoSearch(False, evaluate)
    budget = NodeBudget(SOLVER_NODES)
    board = Board.from_game(state)
    if search.negamax(board, TO_THE_END, -NULL, NULL, budget) < 0:
        return None
    winning: list[int] = []
    bounds: dict[int, float] = {}
    for move in search.sorted_by_value(board, board.moves()):
        undo = board.make(move)
        found = -search.negamax(board, TO_THE_END - 1, -NULL, NULL, budget)
        board.unmake(undo)
        if found > 0:
            winning.append(move)
            if len(winning) > 1:
                return None
        else:
            bounds[move] = found
    if len(winning) != 1 or not bounds:
        return None
    undo = board.make(winning[0])
    exact = -search.negamax(board, TO_THE_END - 1, -2.0, 2.0, budget)
    board.unmake(undo)
    rival = max(bounds, key=lambda m: (bounds[m], move_name(m)))
    return Step(move_name(winning[0]), exact, move_name(rival), bounds[rival])


def themes(state: Any, solution: list[str]) -> set[str]:
    """Where the move is (a corner, the outer ring, the centre), what it does (captures, releases, a capture that
    was due), whether it gives up score for now (a sacrifice), and whether it is among the very last moves."""
    move = solution[0]
    cell = move.removeprefix("call ")
    found: set[str] = set()
    if cell in CORNERS:
        found.add("corner")
    elif cell in engine.OUTER:
        found.add("edge")
    elif cell == engine.CENTRE:
        found.add("centre")
    if state.forced_capture() > 0:
        found.add("forced-capture")
    played = after(state, move)
    captured, released = played.last_flips or (0, 0)  # type: ignore[attr-defined]
    if captured:
        found.add("capture")
    if released:
        found.add("release")
    solver = state.turn
    if not played.is_over and _lead(played, solver) < _lead(state, solver):
        found.add("sacrifice")  # the winning move loses ground on the score board for now
    if empty_inner(state) <= ENDGAME:
        found.add("endgame")
    return found


def _lead(state: GameState, player: int) -> int:
    scores = state.scores()
    return scores[player] - scores[1 - player]


ORACLE = Oracle(
    game=engine.NAME,
    engine=engine,
    game_ai="ai.iago",
    search="exact",
    gate=gate,
    survey=by_glance,
    deep_value=value_after,
    signature=dict_signature,
    deviations=every_move,
    step=exact_step,
    # a win or loss is settled in a fraction of a second while a self-play game takes seconds: the positions two
    # erring moves away are candidates too
    deviation_plies=2,
    themes=themes,
    theme_names=THEMES,
    opening=4,  # random moves before the levels play, so they meet in varied positions
    # Levels 3 and 4 solve the endgame exactly with no bound but their clock: with no clock, their work is bounded
    # instead (``max_depth``: 25 tree-search iterations and 250 solver nodes a unit), at level 3's own 300
    # iterations and level 4's analysis's 4,000
    level_work={3: 12, 4: 160},
)
