"""Polygo's puzzles (``GameEntry.puzzles``): one placement after its roll, and the themes of the loop race.

Every placement is valued by level 4's root search (depth 2 for its best placements, depth 1 below them); the best
``CONTENDERS`` again by the average over the opponent's six faces of the full search after their roll (depth 3, a
roll deeper than level 4). A puzzle is one placement: the opponent's roll that follows is nobody's choice.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ai.polygo import search
from ai.search import Analysis, Deadline
from engines import GameState
from engines import polygo as engine
from locales import N_
from puzzles.oracle import Oracle, Survey, after, value

CONTENDERS = 4  # the moves best by the survey that are searched again at depth 3

THEMES: dict[str, str] = {
    "closing": N_("Closing a loop"),
    "blocking": N_("Blocking"),
    "race": N_("The race"),
}


def gate(state: GameState) -> bool:
    return not state.chance and state.turn is not None and state.legal_moves() != ["pass"]


def other_faces(state: Any) -> list[str]:
    """At a roll (not the opening dice), every face: the same game with another roll."""
    if not state.chance:
        return []
    return [move for move in state.legal_moves() if move.startswith("roll ")]


def depth3(state: GameState, move: str, player: int, game_ai: str) -> float:
    """The placement's value over the opponent's six faces, each answered by the full search (depth 2 from
    there): a look one roll deeper than level 4's own."""
    placed = after(state, move)
    if placed.is_over or not placed.chance:
        return value(placed, player, game_ai)
    faces = placed.legal_moves()
    return sum(value(after(placed, face), player, game_ai) for face in faces) / len(faces)


def survey(state: GameState, game_ai: str) -> Survey:
    """Level 4's root search, every placement valued at once (depth 2 for its best, depth 1 below them): the
    search behind the AI's ``analyse_position``. Valuing each placement through ``ai.evaluate`` instead would
    cost a scan of the board per placement, a hundred times as much."""
    values, _ = search.root_values(state, Deadline(None), None)
    best, estimate = Analysis(values, 1, False).best()
    rest = sorted((m for m in values if m != best), key=lambda m: (-values[m], m))
    return best, estimate, [(m, values[m]) for m in [best, *rest]]


def signature(state: Any) -> Any:
    marks = {None: ".", 0: "b", 1: "w"}
    board = "".join(marks[state.stone((col, row))] for row in range(state.size) for col in range(state.size))
    return [
        state.size,
        board,
        state.turn,
        state.die,
        list(state.finished),
        state.first_finisher,
        state.extra_turns_left,
    ]


def themes(state: Any, solution: list[str]) -> set[str]:
    """Closing a loop; blocking (the placement takes away a die face with which the opponent could close); the
    race (both could close next, or the opponent has closed and these are the solver's extra turns)."""
    move = solution[0]
    found: set[str] = set()
    solver = state.turn
    played = after(state, move)
    if played.finished[solver]:
        found.add("closing")
    if state.first_finisher is not None and state.first_finisher != solver:
        found.add("race")  # their polygon is closed: these are my last turns to close a bigger one
        return found
    placed = set(move.split(" "))
    before = _closing_faces(state, 1 - solver, set())
    if before and not played.finished[solver] and len(_closing_faces(state, 1 - solver, placed)) < len(before):
        found.add("blocking")
    if before and ("closing" in found or _closing_faces(played, solver, set())):
        found.add("race")  # both sides could close next: the first to do it wins the race
    return found


def _closing_faces(state: Any, player: int, extra: set[str]) -> set[int]:
    """The die faces with which ``player`` could close a polygon on their next placement, with the points of
    ``extra`` taken as well (a placement of the other side's)."""
    size = state.size
    stones = {(c, r) for r in range(size) for c in range(size) if state.stone((c, r)) == player}
    occupied = {(c, r) for r in range(size) for c in range(size) if state.stone((c, r)) is not None}
    occupied |= {engine.parse_point(p) for p in extra}
    if len(stones) < 4:  # the smallest polygon has 8 stones and a block at most 4
        return set()
    near = {(c + dc, r + dr) for c, r in stones for dc in (-1, 0, 1) for dr in (-1, 0, 1)}
    names = [engine.point_name(c, r) for c, r in stones]
    faces = set()
    for face in range(1, 7):
        if any(
            engine.polygon_from_points([*names, *(engine.point_name(c, r) for c, r in block)], size)
            for block in _placements(face, size, occupied, near)
        ):
            faces.add(face)
    return faces


def _placements(face: int, size: int, occupied: set[tuple[int, int]], near: set[tuple[int, int]]) -> Iterable[Any]:
    """Every placement of ``face``'s block on empty points with a point next to one of the player's stones (a
    block that touches none cannot close a loop)."""
    shapes: set[tuple[tuple[int, int], ...]] = set()
    for shape in engine.PolygoGame.blocks_for(face):
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


ORACLE = Oracle(
    game=engine.NAME,
    engine=engine,
    game_ai="ai.polygo",
    search="depth3-contenders",
    gate=gate,
    survey=survey,
    deep_value=depth3,
    signature=signature,
    deviations=other_faces,
    themes=themes,
    theme_names=THEMES,
    contenders=CONTENDERS,
    # Every level closes a polygon it can, so closing puzzles are the easy ones, and one game's rolls give many
    # alike: at most one is shipped from a self-play game
    ship_per_game={"closing": 1},
)
