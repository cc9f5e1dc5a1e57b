"""ISAAC's puzzles (``GameEntry.puzzles``): removals in the scoring phase, and their themes.

The scoring phase only: a placement has hundreds of rivals, each a long search, and the searches' values there say
little. A move is the removal *and* the counter's score, so a puzzle's move is exact to the point (most positions,
where several scores win, are no puzzles). A move's value is level 4's full tree search of the position after it,
one ply deeper than the search at the position itself.
"""

from __future__ import annotations

from typing import Any

import ai
from engines import GameState
from engines import isaac as engine
from locales import N_
from puzzles.oracle import FULL, Oracle, Survey, after, dict_signature, value_after

MAX_MOVES = 120  # positions with more moves (removals times counter scores) cost too much to prove

THEMES: dict[str, str] = {
    "removal": N_("Removal"),
    "blocking": N_("Blocking"),
    "doubling": N_("Doubling"),
    "finishing": N_("Finishing"),
    "holding-back": N_("Holding back"),
}


def gate(state: Any) -> bool:
    return state.phase != "placement" and len(state.legal_moves()) <= MAX_MOVES


def _parts(move: str) -> tuple[str, int]:
    _, span, score = move.split(" ")
    return span, int(score)


def survey(state: GameState, game_ai: str) -> Survey:
    """The full search's move first, then the same piece at the nearest other scores (the likeliest to keep the
    win too), then every other piece at its highest score, then the rest."""
    best, estimate = ai.analyse_position(state, budget_s=FULL, game_ai=game_ai)
    moves = state.legal_moves()
    best_span, best_score = _parts(best) if best.startswith("x ") else ("", 0)
    top: dict[str, int] = {}
    for move in moves:
        if move.startswith("x "):
            span, score = _parts(move)
            top[span] = max(top.get(span, score), score)

    def rank(move: str) -> tuple[int, int, str]:
        if move == best:
            return (0, 0, move)
        if not move.startswith("x "):
            return (3, 0, move)
        span, score = _parts(move)
        if span == best_span:
            return (1, abs(score - best_score), move)
        return (2 if score == top[span] else 3, -score, move)

    return best, estimate, [(move, None) for move in sorted(moves, key=rank)]


def deviations(state: Any) -> list[str]:
    """In the scoring phase, each piece's removal at its highest score: the removals a player weighs."""
    if state.turn is None or state.phase == "placement":
        return []
    top: dict[str, str] = {}
    for move in state.legal_moves():
        if move.startswith("x "):
            span, score = _parts(move)
            if span not in top or score > _parts(top[span])[1]:
                top[span] = move
    return sorted(top.values())


def themes(state: Any, solution: list[str]) -> set[str]:
    """Every puzzle is a removal; where the counter lands makes the rest: at 100 (finishing), below the most the
    piece gives (holding back), on a piece the opponent could remove (blocking), or on the line of another piece
    of the solver's (doubling: its removal counts twice)."""
    move = solution[0]
    if not move.startswith("x "):
        return set()
    found = {"removal"}
    solver = state.turn
    span, score = _parts(move)
    if score >= 100:
        found.add("finishing")
    elif score < state.scores()[solver] + state.removal_points(span):
        found.add("holding-back")  # fewer points than the piece gives, for where the counter stands
    played = after(state, move)
    square = played.counter_square(solver)
    if square is None:
        return found
    under = played.piece_at(square)
    if under is not None and under[1] != solver and _removable_later(played, under[0], under[1]):
        found.add("blocking")  # the counter stands on a piece they could remove: it cannot be while it is there
    elif any(
        owner == solver and piece != span and _on_line(piece, square) and _removable_later(played, piece, solver)
        for piece, owner in played.pieces()
    ):
        found.add("doubling")  # the counter stands on the line of a piece of mine: its removal counts twice
    return found


def _removable_later(state: Any, piece: str, owner: int) -> bool:
    """Whether ``owner`` may still remove ``piece`` some day: removals never get shorter."""
    return engine.span_length(piece) >= state.min_removal_length(owner)


def _on_line(piece: str, square: str) -> bool:
    """Whether ``square`` is on the whole row (a horizontal piece) or column (a vertical one) of ``piece``."""
    first, last = piece.split("-")
    if first[1:] == last[1:]:  # same rank: horizontal
        return square[1:] == first[1:]
    return square[0] == first[0]


ORACLE = Oracle(
    game=engine.NAME,
    engine=engine,
    game_ai="ai.isaac",
    search="full-after-move",
    gate=gate,
    survey=survey,
    deep_value=value_after,
    signature=dict_signature,
    deviations=deviations,
    themes=themes,
    theme_names=THEMES,
    opening=4,  # random moves before the levels play, so they meet in varied positions
)
