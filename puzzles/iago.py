"""Iago's puzzles (``GameEntry.puzzles``): endgames solved exactly, and the themes of a move on the hex board.

Positions with at most ``EMPTIES`` empty inner cells, where every move leaves a position the AI's alpha-beta solves
exactly: a move's value is its exact result, so "exactly one move wins" is a proof, not an estimate. The rivals are
tried by the least search of each (the likeliest to keep the win too, first). Standard Iago only: the variants are
not mined.
"""

from __future__ import annotations

from typing import Any

from engines import GameState
from engines import iago as engine
from locales import N_
from puzzles.oracle import Oracle, after, by_glance, dict_signature, every_move, value_after

EMPTIES = 7  # positions with at most this many empty inner cells: every move after is solved exactly
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
    themes=themes,
    theme_names=THEMES,
    opening=4,  # random moves before the levels play, so they meet in varied positions
    # Levels 3 and 4 solve the endgame exactly with no bound but their clock: with no clock, their work is bounded
    # instead (``max_depth``: 25 tree-search iterations and 250 solver nodes a unit), at level 3's own 300
    # iterations and level 4's analysis's 4,000
    level_work={3: 12, 4: 160},
)
