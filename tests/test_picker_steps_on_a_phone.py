"""What a member sees of a picker's steps on a phone (issue 31, point 3), over every step reachable from sample
positions of every game's picker:

- a menu's placeholder (the closed menu's words) fits a phone: at most ``PLACEHOLDER_COLUMNS`` = 60 columns in
  English and in Japanese, a wide (Japanese) character counting as two columns, since a phone cuts a placeholder
  by its width (Discord itself allows 150 characters, which a phone cuts after a few words);
- a private step's board rings exactly the points its menus offer: no point the menus do not list, none they list
  left out. What a highlight rings is the renderer's own reading of it (``render.<game>.ringed``); what a menu
  offers is the same reading of its options' keys (a cell, a square, an anchor point, or a move's points).
"""

from __future__ import annotations

import random
import unicodedata
from collections.abc import Callable, Iterable, Iterator
from typing import Any

import pytest

import games
from cogs.presentation.board_controls import said
from engines import GameState
from engines import polygo as polygo_engine
from games.move_picker import Picker, Step, first_keys
from games.polygo import AREA_SIDE
from render import iago as iago_view
from render import isaac as isaac_view
from render import polygo as polygo_view
from tests.fourth_game.entry import ENTRY as TICTACTOE

PLACEHOLDER_COLUMNS = 60
LANGUAGES = ("en-US", "ja")
RINGED: dict[str, Callable[[Iterable[str]], list[Any]]] = {
    "iago": iago_view.ringed,
    "isaac": isaac_view.ringed,
    "polygo": polygo_view.ringed,
}
# (game, options, seed, every n-th position, every n-th option of a first step walked further)
SAMPLES = [
    ("iago", {"variant": "standard"}, 5, 4, 1),
    ("iago", {"variant": "penalty"}, 5, 3, 1),
    ("isaac", {}, 5, 6, 1),
    ("polygo", {"size": 9}, 5, 6, 1),
    ("polygo", {"size": 13}, 5, 10, 1),
    ("polygo", {"size": 19}, 3, 40, 4),  # thousands of placements a roll: a sample of the areas
]


def columns(text: str) -> int:
    """How wide a text is on a screen: a kana, kanji or full-width form takes about two Latin letters."""
    return sum(2 if unicodedata.east_asian_width(char) in "WF" else 1 for char in text)


def positions(name: str, options: dict[str, Any], seed: int, every: int) -> Iterator[GameState]:
    """Every ``every``-th position of a seeded random game where a member picks a move by taps."""
    state, rng = games.find(name).new_game(**options), random.Random(seed)
    ply = 0
    while not state.is_over:
        moves = state.legal_moves()
        if not state.chance and moves != ["pass"] and ply % every == 0:
            yield state.copy()
        state.play(rng.choice(moves))
        ply += 1


def steps(picker: Picker, state: GameState, sample: int = 1) -> Iterator[tuple[tuple[str, ...], Step]]:
    """Every step a member can reach from ``state`` with its path (of a first step, only every ``sample``-th
    option is walked further)."""
    pending: list[tuple[str, ...]] = [()]
    while pending:
        path = pending.pop()
        step = picker.step(state, path)
        if isinstance(step, str):
            continue
        yield path, step
        keys = list(first_keys(step))
        pending.extend((*path, key) for key in (keys[::sample] if not path else keys))


def sampled_steps() -> Iterator[tuple[str, tuple[str, ...], Step]]:
    for name, options, seed, every, sample in SAMPLES:
        picker = games.find(name).picker
        for state in positions(name, options, seed, every):
            for path, step in steps(picker, state, sample):
                yield name, path, step


@pytest.fixture(scope="module")
def every_step() -> list[tuple[str, tuple[str, ...], Step]]:
    found = list(sampled_steps())
    found += [("tictactoe", path, step) for path, step in steps(TICTACTOE.picker, TICTACTOE.new_game())]
    return found


def test_every_menu_placeholder_fits_a_phone_in_english_and_japanese(
    every_step: list[tuple[str, tuple[str, ...], Step]],
) -> None:
    assert len(every_step) > 500
    assert {len(path) for _, path, _ in every_step} == {0, 1, 2}  # first, second and third steps were walked
    widest: dict[str, tuple[int, str]] = {}
    for _, _, step in every_step:
        for menu in step.menus:
            for locale in LANGUAGES:
                text = said(locale, menu.placeholder)
                if columns(text) > widest.get(locale, (0, ""))[0]:
                    widest[locale] = (columns(text), text)
    assert widest["en-US"][0] <= PLACEHOLDER_COLUMNS, widest["en-US"]
    assert widest["ja"][0] <= PLACEHOLDER_COLUMNS, widest["ja"]


def test_a_private_step_rings_exactly_the_points_its_menus_offer(
    every_step: list[tuple[str, tuple[str, ...], Step]],
) -> None:
    checked = 0
    for name, path, step in every_step:
        if not path or name not in RINGED:
            continue  # a first step is drawn on the public board, which rings nothing
        ringed = RINGED[name]
        offered = set(ringed(first_keys(step)))
        assert offered, (name, path)  # every private step offers something on the board
        assert set(ringed(step.highlight)) == offered, (name, path)
        checked += 1
    assert checked > 300


def test_polygo_anchor_step_rings_only_its_anchors_inside_its_area_and_says_the_rule_above_the_board() -> None:
    """On 19x19 an area of 5 x 5 anchors has more than 25 placements: the second step lists anchors. The board
    rings those anchors, all inside the area, not the points their placements cover (which spill out of it);
    the rule for the anchor, too long for a placeholder, is in the step's words above the board."""
    entry = games.find("polygo")
    state = entry.new_game(size=19)
    state.play("open 2 6")  # White places first, with its 6: an S or a Z, many ways on every point
    first = entry.picker.step(state, ())
    assert isinstance(first, Step)
    checked = 0
    for area in first_keys(first):
        step = entry.picker.step(state, (area,))
        assert isinstance(step, Step)
        anchors = list(first_keys(step))
        if any(len(key.split()) > 1 for key in anchors):
            continue  # an area at the board's edge with at most 25 placements: they are listed at once
        checked += 1
        ringed = polygo_view.ringed(step.highlight)
        assert ringed == sorted(polygo_engine.parse_point(anchor) for anchor in anchors)
        cols, rows = {column for column, _ in ringed}, {row for _, row in ringed}
        assert max(cols) - min(cols) < AREA_SIDE and max(rows) - min(rows) < AREA_SIDE
        covered = {point for move in state.legal_moves() if anchor_of(move) in anchors for point in points(move)}
        assert covered > set(ringed)  # the points the placements cover: what the step used to ring
        assert "lowest point" in said("en-US", step.prompt) and "最も下" in said("ja", step.prompt)
        assert "lowest" in said("en-US", step.menus[0].placeholder)
    assert checked >= 9


def anchor_of(move: str) -> str:
    """A placement's anchor: its lowest point, the leftmost of those."""
    column, row = min(points(move), key=lambda point: (point[1], point[0]))
    return polygo_engine.point_name(column, row)


def points(move: str) -> list[tuple[int, int]]:
    return [polygo_engine.parse_point(point) for point in move.split()]
