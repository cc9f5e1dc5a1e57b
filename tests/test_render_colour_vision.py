"""Every kind of piece or mark stays apart from every other, and from the board it sits on, for the three kinds of
colour blindness (issue 22).

Each kind is drawn alone at the same place of an otherwise empty board, by the real renderer. The pictures are seen
through the Machado, Oliveira and Fernandes (2009) simulation of protanopia, deuteranopia and tritanopia at full
severity (colour-science's ``matrix_cvd_Machado2009``, applied to linear sRGB), and two kinds count as apart when
at least ``PART`` of the pixels either of them covers differ by at least ``THRESHOLD`` in CIEDE2000.

That one measure covers both ways to tell kinds apart: by colour (the same shape in colours far enough apart) and by
shape or pattern (pixels one kind covers and the other leaves to the board, the board's colour being far from the
kind's). Why these numbers:

- ``THRESHOLD`` = 20 CIEDE2000: a difference of 2-3 is just noticeable between two large patches side by side;
  pieces and marks are small (10-40 px on a phone) and seen apart, which takes several times more. 20 is also what
  Okabe and Ito's colour-blind-safe bluish green and vermilion keep for protan and deutan eyes (18-20), so a pair
  passing on colour alone is at least as far apart as that palette's.
- ``PART`` = 10%: the smallest difference that is meant to carry the meaning is a captive's badge of its original
  colour, about a quarter of the disk; an outline one pixel wide is about 5%, too little to read at a glance.
"""

from __future__ import annotations

import functools
import itertools
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest
from PIL import Image

from engines import iago, isaac, polygo
from render import iago as iago_view
from render import isaac as isaac_view
from render import polygo as polygo_view
from tests.render_compare import decode
from tests.test_render_reference import Changed

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # colour-science warns that optional packages (SciPy, Matplotlib) are missing
    import colour

THRESHOLD = 20.0
PART = 0.10
CHANGED = 24  # a pixel belongs to a kind when a channel differs from the empty board by more than this
DEFICIENCIES = ("Protanomaly", "Deuteranomaly", "Tritanomaly")
NAMES = ("Alice", "Bob")


@functools.cache
def simulation(deficiency: str) -> np.ndarray:
    with warnings.catch_warnings():
        # colour-science reminds that Machado's tritan model is an approximation (it shifts the S cones rather than
        # removing them); it is the model the library offers for the third deficiency, and it is used as such.
        warnings.simplefilter("ignore")
        return colour.matrix_cvd_Machado2009(deficiency, 1.0)


def seen_by(pixels: np.ndarray, deficiency: str | None) -> np.ndarray:
    """CIE Lab of sRGB pixels (0-255) as seen with ``deficiency`` at full severity (None: normal vision)."""
    linear = colour.cctf_decoding(pixels.astype(float) / 255)
    if deficiency is not None:
        linear = np.clip(linear @ simulation(deficiency).T, 0, 1)
    xyz = colour.RGB_to_XYZ(linear, colour.RGB_COLOURSPACES["sRGB"], apply_cctf_decoding=False)
    return colour.XYZ_to_Lab(xyz)


@dataclass(frozen=True)
class Look:
    """One kind as drawn: its pixels in a box, and which of them it changed from the empty board."""

    pixels: np.ndarray
    covered: np.ndarray


def look(image: Image.Image, empty: Image.Image, box: tuple[int, int, int, int]) -> Look:
    pixels = np.asarray(image.crop(box), dtype=np.int16)
    ground = np.asarray(empty.crop(box), dtype=np.int16)
    return Look(pixels, np.abs(pixels - ground).max(axis=2) > CHANGED)


def apart(first: Look, second: Look, deficiency: str | None) -> float:
    """The share of the pixels either kind covers that differ by at least THRESHOLD, seen with ``deficiency``."""
    union = first.covered | second.covered
    a = seen_by(first.pixels[union], deficiency)
    b = seen_by(second.pixels[union], deficiency)
    return float(np.mean(colour.delta_E(a, b, method="CIE 2000") >= THRESHOLD))


def assert_all_apart(kinds: dict[str, Look], ground: Look) -> None:
    assert all(kind.covered.sum() > 20 for kind in kinds.values()), "every kind is drawn"
    everything = {"the empty board": ground, **kinds}
    failures = []
    for (name_a, a), (name_b, b) in itertools.combinations(everything.items(), 2):
        for deficiency in DEFICIENCIES:
            share = apart(a, b, deficiency)
            if share < PART:
                failures.append(f"{name_a} / {name_b}, {deficiency}: {share:.0%} of the pixels apart")
    assert failures == []


# ------------------------------------------------------------------------------------------------ Iago


def iago_kinds(cell: str) -> dict[str, Callable[[], bytes]]:
    """Every kind of disk and mark on ``cell`` of an empty board (no legal-move dots but where asked)."""
    empty = iago.IagoGame._from_position({}, turn=0)

    def board(content: str | None = None, legal: bool = False, last: bool = False) -> Any:
        return Changed(
            empty,
            cell=lambda name: content if name == cell else None,
            legal_moves=lambda: [cell] if legal else [],
            last_cell=cell if last else None,
        )

    draw = iago_view.render
    return {
        "": lambda: draw(board(), NAMES),
        "dark disk": lambda: draw(board("D"), NAMES),
        "light disk": lambda: draw(board("L"), NAMES),
        "captive from Dark": lambda: draw(board("xD"), NAMES),
        "captive from Light": lambda: draw(board("xL"), NAMES),
        "dark disk, last move": lambda: draw(board("D", last=True), NAMES),
        "light disk, last move": lambda: draw(board("L", last=True), NAMES),
        "legal-move dot": lambda: draw(board(legal=True), NAMES),
        "suggested move": lambda: draw(board(legal=True), NAMES, suggestion=cell),
        "played move": lambda: draw(board(legal=True), NAMES, played=cell),
        "candidate": lambda: draw(board(legal=True), NAMES, highlight=[cell]),
    }


@pytest.mark.parametrize("cell", ["D4", "A1"], ids=["inner cell", "outer cell"])
def test_iago_kinds_stay_apart_for_colour_blind_eyes(cell: str) -> None:
    x, y = iago_view.cell_center(cell)
    reach = iago_view.RING_REACH
    box = (round(x) - reach, round(y) - reach, round(x) + reach + 1, round(y) + reach + 1)
    drawn = {name: decode(draw()) for name, draw in iago_kinds(cell).items()}
    empty = drawn.pop("")
    assert_all_apart({name: look(image, empty, box) for name, image in drawn.items()}, look(empty, empty, box))


# ----------------------------------------------------------------------------------------------- ISAAC

SPAN = "d4-f4"


def isaac_kinds() -> dict[str, Callable[[], bytes]]:
    """Pieces, counters and marks on the span d4-f4 (a counter on its middle square) of an empty board."""
    empty = isaac.new_game()

    def board(owner: int | None = None, counter: int | None = None, last: str | None = None) -> Any:
        pieces = [] if owner is None else [(SPAN, owner)]
        return Changed(
            empty,
            pieces=lambda: pieces,
            counter_square=lambda player: "e4" if player == counter else None,
            scores=lambda: (7, 7),
            moves=[last] if last else [],
            last_move=last,
        )

    draw = isaac_view.render
    return {
        "": lambda: draw(board(), NAMES),
        "black piece": lambda: draw(board(0), NAMES),
        "white piece": lambda: draw(board(1), NAMES),
        "black piece, last move": lambda: draw(board(0, last=SPAN), NAMES),
        "white piece, last move": lambda: draw(board(1, last=SPAN), NAMES),
        "removed piece, last move": lambda: draw(board(last=f"x {SPAN} 7"), NAMES),
        "black counter": lambda: draw(board(counter=0), NAMES),
        "white counter": lambda: draw(board(counter=1), NAMES),
        "suggested placement": lambda: draw(board(), NAMES, suggestion=SPAN),
        "played placement": lambda: draw(board(), NAMES, played=SPAN),
        "candidate squares": lambda: draw(board(), NAMES, highlight=[SPAN]),
    }


def test_isaac_kinds_stay_apart_for_colour_blind_eyes() -> None:
    (left, top), (right, bottom) = isaac_view.square_center("d4"), isaac_view.square_center("f4")
    half = isaac_view.CELL // 2
    box = (round(left) - half, round(top) - half, round(right) + half, round(bottom) + half)
    drawn = {name: decode(draw()) for name, draw in isaac_kinds().items()}
    empty = drawn.pop("")
    assert_all_apart({name: look(image, empty, box) for name, image in drawn.items()}, look(empty, empty, box))


def test_isaac_number_chips_stay_apart_for_colour_blind_eyes() -> None:
    """Black's dark chip and White's light chip of a square, against the square they are printed on and against
    each other (each in its own box of the same size)."""
    board = decode(isaac_view.render(isaac.new_game(), NAMES))
    bare = isaac_view._empty_board(False).convert("RGB")
    left, top, _, _ = isaac_view._square_box("e5", isaac_view.LANDSCAPE)
    width, height, _ = isaac_view.LANDSCAPE.chip
    cell = isaac_view.CELL
    black = (left + 3, top + cell - height - 3, left + 4 + width, top + cell - 2)
    white = (left + cell - width - 3, top + 3, left + cell - 2, top + 4 + height)
    chips = {"Black's chip": look(board, bare, black), "White's chip": look(board, bare, white)}
    assert_all_apart(chips, look(bare, bare, black))


# ---------------------------------------------------------------------------------------------- Polygo

POINT = "E5"
POINT_XY = (4, 4)
# A polygon of 8 stones round E5 on 9x9, as the engine describes one (outline corners, stones, territory).
RING = ["D4", "E4", "F4", "F5", "F6", "E6", "D6", "D5"]
POLYGON = {"outline": [(3, 3), (5, 3), (5, 5), (3, 5)], "stones": RING, "territory": [POINT], "score": 10}


def polygo_kinds() -> dict[str, Callable[[], bytes]]:
    """Stones, polygons and marks on (or round) E5 of an empty 9x9 board."""
    empty = polygo.new_game(size=9)
    ring = {polygo.parse_point(name) for name in RING}

    def board(stone: int | None = None, polygon: int | None = None, last: bool = False) -> Any:
        def owner(point: Any) -> int | None:
            at = polygo.parse_point(point) if isinstance(point, str) else point
            if at == POINT_XY:
                return stone
            return polygon if polygon is not None and at in ring else None

        def stones_of(player: int) -> list[tuple[int, int]]:
            return [(col, row) for row in range(9) for col in range(9) if owner((col, row)) == player]

        return Changed(
            empty,
            stone=owner,
            stones_of=stones_of,
            polygon=lambda player: POLYGON if player == polygon else None,
            last_block=[POINT] if last else [],
        )

    draw = polygo_view.render
    return {
        "": lambda: draw(board(), NAMES),
        "black stone": lambda: draw(board(0), NAMES),
        "white stone": lambda: draw(board(1), NAMES),
        "black stone, last block": lambda: draw(board(0, last=True), NAMES),
        "white stone, last block": lambda: draw(board(1, last=True), NAMES),
        "Black's polygon and territory": lambda: draw(board(polygon=0), NAMES),
        "White's polygon and territory": lambda: draw(board(polygon=1), NAMES),
        "suggested placement": lambda: draw(board(), NAMES, suggestion=POINT),
        "played placement": lambda: draw(board(), NAMES, played=POINT),
        "candidate point": lambda: draw(board(), NAMES, highlight=[POINT]),
    }


def test_polygo_kinds_stay_apart_for_colour_blind_eyes() -> None:
    game = polygo.new_game(size=9)
    x, y = polygo_view.point_center(game, POINT)
    reach = round(polygo_view._spacing(9) / 2)  # the point's own square: the stones round it stay outside
    box = (round(x) - reach, round(y) - reach, round(x) + reach + 1, round(y) + reach + 1)
    drawn = {name: decode(draw()) for name, draw in polygo_kinds().items()}
    empty = drawn.pop("")
    assert_all_apart({name: look(image, empty, box) for name, image in drawn.items()}, look(empty, empty, box))


# ------------------------------------------------------------------------------- the measure can fail


def test_a_disk_told_apart_only_by_its_red_would_fail_for_red_blind_eyes() -> None:
    """The measure is not blind. Vermilion and the olive a protan eye sees it as (the simulation's own output), drawn
    as the same disk, are apart for normal eyes and not for protan ones; a light band across one of them, a pattern,
    sets them apart again."""
    size, olive = 40, (129, 113, 0)
    ground = Image.new("RGB", (size, size), iago_view.INNER_TONE)
    red, twin = ground.copy(), ground.copy()
    red.paste((213, 94, 0), (8, 8, 32, 32))
    twin.paste(olive, (8, 8, 32, 32))
    box = (0, 0, size, size)
    assert apart(look(red, ground, box), look(twin, ground, box), None) >= PART
    assert apart(look(red, ground, box), look(twin, ground, box), "Protanomaly") < PART
    red.paste(iago_view.LIGHT_PIECE, (8, 18, 32, 22))
    assert apart(look(red, ground, box), look(twin, ground, box), "Protanomaly") >= PART
