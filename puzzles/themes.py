"""A puzzle's themes: what a member recognises in it, computed from the position and the solution alone.

Pure code on the engines' public calls (no search): the miner stores the themes in the shipped record, and a test
computes them again. A theme is stored by its key; ``THEMES`` gives each key its English name, a catalogue msgid
(``locales.N_``), so the bot shows it in the reader's language and a member can pick puzzles by it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import games
from engines import GameState
from engines import iago as iago_engine
from engines import isaac as isaac_engine
from engines import polygo as polygo_engine
from locales import N_
from puzzles.mining import WINNING

THEMES: dict[str, str] = {
    # every game
    "one-move": N_("One move"),
    "long-line": N_("Long line"),
    "defence": N_("Defence"),
    "quiet": N_("Quiet move"),
    # Iago
    "corner": N_("Corner"),
    "edge": N_("Edge"),
    "centre": N_("Centre"),
    "capture": N_("Captives"),
    "release": N_("Release"),
    "forced-capture": N_("Forced capture"),
    "sacrifice": N_("Sacrifice"),
    "endgame": N_("Endgame"),
    # ISAAC
    "removal": N_("Removal"),
    "blocking": N_("Blocking"),
    "doubling": N_("Doubling"),
    "finishing": N_("Finishing"),
    "holding-back": N_("Holding back"),
    # Polygo ("blocking" too)
    "closing": N_("Closing a loop"),
    "race": N_("The race"),
}

IAGO_CORNERS = frozenset({"A1", "A5", "E1", "E9", "I5", "I9"})
IAGO_ENDGAME = 4  # at most this many empty inner cells: the very last moves


def themes(game: str, options: dict[str, Any], moves: Iterable[str], solution: list[str], value: float) -> list[str]:
    """The theme keys of a puzzle (sorted): the game's own, then the line's length; ``quiet`` when the first move
    has none of its game's tactical themes. ``value`` is the first step's proven value (below ``WINNING``, the
    move saves the game rather than winning it: a defence)."""
    state = games.find(game).new_game(**options)
    for move in moves:
        state.play(move)
    found = set(_BY_GAME[game](state, solution))
    if not found:
        found.add("quiet")
    solver_moves = (len(solution) + 1) // 2
    found.add("one-move" if solver_moves == 1 else "long-line")
    if value < WINNING:
        found.add("defence")
    return sorted(found)


def _played(state: GameState, move: str) -> GameState:
    after = state.copy()
    after.play(move)
    return after


# --- Iago ----------------------------------------------------------------------------------------------------


def _iago(state: Any, solution: list[str]) -> set[str]:
    move = solution[0]
    cell = move.removeprefix("call ")
    found: set[str] = set()
    if cell in IAGO_CORNERS:
        found.add("corner")
    elif cell in iago_engine.OUTER:
        found.add("edge")
    elif cell == iago_engine.CENTRE:
        found.add("centre")
    if state.forced_capture() > 0:
        found.add("forced-capture")
    after = _played(state, move)
    captured, released = after.last_flips or (0, 0)  # type: ignore[attr-defined]
    if captured:
        found.add("capture")
    if released:
        found.add("release")
    solver = state.turn
    if not after.is_over and _iago_lead(after, solver) < _iago_lead(state, solver):
        found.add("sacrifice")  # the winning move loses ground on the score board for now
    if sum(1 for c in iago_engine.INNER if state.cell(c) is None) <= IAGO_ENDGAME:
        found.add("endgame")
    return found - {"quiet"}


def _iago_lead(state: GameState, player: int) -> int:
    scores = state.scores()
    return scores[player] - scores[1 - player]


# --- ISAAC ---------------------------------------------------------------------------------------------------


def _isaac(state: Any, solution: list[str]) -> set[str]:
    move = solution[0]
    if not move.startswith("x "):
        return set()
    found = {"removal"}
    solver = state.turn
    _, span, score_text = move.split(" ")
    score = int(score_text)
    if score >= 100:
        found.add("finishing")
    elif score < state.scores()[solver] + state.removal_points(span):
        found.add("holding-back")  # fewer points than the piece gives, for where the counter stands
    after = _played(state, move)
    square = after.counter_square(solver)
    if square is None:
        return found
    under = after.piece_at(square)
    if under is not None and under[1] != solver and _removable_later(after, under[0], under[1]):
        found.add("blocking")  # the counter stands on a piece they could remove: it cannot be while it is there
    elif any(
        owner == solver and piece != span and _on_line(piece, square) and _removable_later(after, piece, solver)
        for piece, owner in after.pieces()
    ):
        found.add("doubling")  # the counter stands on the line of a piece of mine: its removal counts twice
    return found


def _removable_later(state: Any, piece: str, owner: int) -> bool:
    """Whether ``owner`` may still remove ``piece`` some day: removals never get shorter."""
    return isaac_engine.span_length(piece) >= state.min_removal_length(owner)


def _on_line(piece: str, square: str) -> bool:
    """Whether ``square`` is on the whole row (a horizontal piece) or column (a vertical one) of ``piece``."""
    first, last = piece.split("-")
    if first[1:] == last[1:]:  # same rank: horizontal
        return square[1:] == first[1:]
    return square[0] == first[0]


# --- Polygo --------------------------------------------------------------------------------------------------


def _polygo(state: Any, solution: list[str]) -> set[str]:
    move = solution[0]
    found: set[str] = set()
    solver = state.turn
    after = _played(state, move)
    if after.finished[solver]:
        found.add("closing")
    if state.first_finisher is not None and state.first_finisher != solver:
        found.add("race")  # their polygon is closed: these are my last turns to close a bigger one
        return found
    placed = set(move.split(" "))
    before = _closing_faces(state, 1 - solver, set())
    if before and not after.finished[solver] and len(_closing_faces(state, 1 - solver, placed)) < len(before):
        found.add("blocking")
    if before and ("closing" in found or _closing_faces(after, solver, set())):
        found.add("race")  # both sides could close next: the first to do it wins the race
    return found


def _closing_faces(state: Any, player: int, extra: set[str]) -> set[int]:
    """The die faces with which ``player`` could close a polygon on their next placement, with the points of
    ``extra`` taken as well (a placement of the other side's)."""
    size = state.size
    stones = {(c, r) for r in range(size) for c in range(size) if state.stone((c, r)) == player}
    occupied = {(c, r) for r in range(size) for c in range(size) if state.stone((c, r)) is not None}
    occupied |= {polygo_engine.parse_point(p) for p in extra}
    if len(stones) < 4:  # the smallest polygon has 8 stones and a block at most 4
        return set()
    near = {(c + dc, r + dr) for c, r in stones for dc in (-1, 0, 1) for dr in (-1, 0, 1)}
    names = [polygo_engine.point_name(c, r) for c, r in stones]
    faces = set()
    for face in range(1, 7):
        if any(
            polygo_engine.polygon_from_points([*names, *(polygo_engine.point_name(c, r) for c, r in block)], size)
            for block in _placements(face, size, occupied, near)
        ):
            faces.add(face)
    return faces


def _placements(face: int, size: int, occupied: set[tuple[int, int]], near: set[tuple[int, int]]) -> Iterable[Any]:
    """Every placement of ``face``'s block on empty points with a point next to one of the player's stones (a
    block that touches none cannot close a loop)."""
    shapes: set[tuple[tuple[int, int], ...]] = set()
    for shape in polygo_engine.PolygoGame.blocks_for(face):
        points = [tuple(p) for p in shape]
        for _ in range(4):
            points = [(row, -col) for col, row in points]
            low_c, low_r = min(c for c, _ in points), min(r for _, r in points)
            shapes.add(tuple(sorted((c - low_c, r - low_r) for c, r in points)))
    for shape in sorted(shapes):
        width, height = max(c for c, _ in shape) + 1, max(r for _, r in shape) + 1
        for col in range(size - width + 1):
            for row in range(size - height + 1):
                block = [(col + c, row + r) for c, r in shape]
                if not any(p in occupied for p in block) and any(p in near for p in block):
                    yield block


_BY_GAME: dict[str, Callable[[Any, list[str]], set[str]]] = {"iago": _iago, "isaac": _isaac, "polygo": _polygo}
