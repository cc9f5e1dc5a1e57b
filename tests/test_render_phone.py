"""Boards a phone shows 400 px wide stay readable (issue 24): measured on the drawn pictures, scaled to 400 px.

Thresholds, at 400 px wide:
- every word and number: a cap height of at least ``MIN_CAP`` = 7 px (a font of about 9.5 px; the boards' smallest
  text is 10 px: 20 px on a page 800 px wide), the size of the smallest text a phone's own interface uses;
- ISAAC's number chips at least ``MIN_CHIP`` = 14 x 10 px, their digits at least ``MIN_CAP`` tall;
- an Iago cell's name at least ``MIN_CAP`` tall on every empty cell;
- Polygo's board (the wood) at least 85% of the picture's width in the portrait layout, a 19x19 stone at least
  14 px across.

The text sizes are read off every line a render draws (its font, and the width of the page it is drawn on: Iago's
board layer is drawn at twice the size), so no word can hide in a cached layer; the chips, names, wood and stones
are measured in the pixels of the reference positions.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest
from PIL import Image, ImageDraw, ImageFont

import games
from engines import GameState, iago
from render import base
from render import iago as iago_view
from render import isaac as isaac_view
from render import polygo as polygo_view
from tests.render_cases import CASES, JAPANESE_NAMES, draw_case
from tests.render_compare import decode

PHONE = 400
MIN_CAP = 7.0
MIN_CHIP = (14.0, 10.0)
LAYOUT = {"iago": "landscape", "isaac": "portrait", "polygo": "portrait"}  # Iago has one picture for both


def scale(image: Image.Image) -> float:
    return PHONE / image.width


def positions(game: str, seed: int, **options: Any) -> Iterator[GameState]:
    """Start, middle and end of a seeded random game, and a position with a die to place."""
    rng = random.Random(seed)
    state = games.find(game).new_game(**options)
    seen = [state.copy()]
    while not state.is_over:
        state.play(rng.choice(state.legal_moves()))
        seen.append(state.copy())
    yield from (seen[0], seen[len(seen) // 2], seen[-1])
    placing = [s for s in seen if getattr(s, "die", None) is not None]
    if placing:
        yield placing[len(placing) // 3]


def every_position() -> Iterator[tuple[str, GameState]]:
    for variant in ("standard", "penalty"):
        yield from (("iago", s) for s in positions("iago", 2, variant=variant))
    yield from (("isaac", s) for s in positions("isaac", 5))
    for size in (9, 13, 19):
        yield from (("polygo", s) for s in positions("polygo", 10, size=size))


def marks(state: GameState) -> dict[str, Any]:
    legal = [move for move in state.legal_moves() if not move.startswith(("roll", "open"))]
    if not legal:
        return {}
    return {"highlight": legal[:40], "suggestion": legal[-1], "played": legal[0]}


def clear_caches() -> None:
    """Forget the cached layers, so that their words are drawn (and seen) again."""
    for function in (
        iago_view._layers,
        iago_view._indexed_layers,
        iago_view._indexed_page,
        isaac_view._empty_board,
        polygo_view._empty_board,
        polygo_view._indexed_board,
    ):
        function.cache_clear()


@pytest.fixture(scope="module")
def drawn_text() -> list[tuple[str, ImageFont.FreeTypeFont, int, int, str]]:
    """(text, font, width of the page it was drawn on, width of the picture, language) for every line of every
    render."""
    texts: list[tuple[str, Any, int, int, str]] = []
    originals = {cls: cls.__dict__["text"] for cls in (ImageDraw.ImageDraw, base.BoardDraw)}

    def recording(original: Any) -> Any:
        def text(self: ImageDraw.ImageDraw, xy: Any, words: Any, *args: Any, **kw: Any) -> None:
            used = kw.get("font", args[1] if len(args) > 1 else None)
            texts.append((str(words), used, self.im.size[0], 0, ""))  # the picture's width: known after the render
            original(self, xy, words, *args, **kw)

        return text

    clear_caches()
    try:
        for cls, original in originals.items():
            cls.text = recording(original)  # type: ignore[method-assign]
        for game, state in every_position():
            entry = games.find(game)
            module = __import__(entry.renderer, fromlist=["render"])
            for names, language in ((("Alice", "Bob"), "en"), (JAPANESE_NAMES, "ja")):
                for options in ({}, marks(state)):
                    start = len(texts)
                    width = decode(module.render(state, names, language, layout=LAYOUT[game], **options)).width
                    drawn = texts[start:]
                    texts[start:] = [(text, used, canvas, width, language) for text, used, canvas, *_ in drawn]
    finally:
        for cls, original in originals.items():
            cls.text = original  # type: ignore[method-assign]
        clear_caches()
    return texts


def cap_height(used: ImageFont.FreeTypeFont) -> int:
    _, top, _, bottom = used.getbbox("H")
    return bottom - top


def test_every_word_is_at_least_7_px_tall_at_400_px(drawn_text: list[tuple[str, Any, int, int, str]]) -> None:
    assert len(drawn_text) > 2000
    assert {text for text, *_ in drawn_text} >= {"E5", "A", "19", "00", "99"}  # cell names, coordinates, chips
    smallest: dict[str, float] = {}
    for text, used, canvas, width, _ in drawn_text:
        assert isinstance(used, ImageFont.FreeTypeFont), text
        assert canvas in (width, width * iago_view.SCALE), (text, canvas, width)  # the page, or Iago's layer
        size = cap_height(used) * PHONE / canvas
        smallest[text] = min(size, smallest.get(text, size))
    too_small = {text: round(size, 1) for text, size in smallest.items() if size < MIN_CAP}
    assert too_small == {}


def test_the_marks_legends_are_in_the_boards_language(drawn_text: list[tuple[str, Any, int, int, str]]) -> None:
    """The legends of the marks (and every other word of a phone board) are Japanese on a Japanese board: only the
    notation a player types stays in Latin letters (Iago's "call"; cells, points and spans are single letters)."""
    japanese = " ".join(text for text, *_, language in drawn_text if language == "ja")
    english = " ".join(text for text, *_, language in drawn_text if language == "en")
    assert "Better" in english and "Played" in english and "Where it can go" in english
    assert set(re.findall(r"[A-Za-z]{2,}", japanese)) <= {"call"}


def test_the_landscape_boards_were_not_readable_at_400_px() -> None:
    """What issue 24 found, measured the same way: why the phone needs the portrait layout."""
    chip = isaac_view.LANDSCAPE.chip
    assert chip[0] * PHONE / isaac_view.LANDSCAPE.width < MIN_CHIP[0]
    assert cap_height(base.font(chip[2], True)) * PHONE / isaac_view.LANDSCAPE.width < MIN_CAP
    label = polygo_view.LANDSCAPE.label_sizes[0]
    assert cap_height(base.font(label, True)) * PHONE / polygo_view.LANDSCAPE.width < MIN_CAP


# ------------------------------------------------------------------------------------- measured in pixels


def ink_box(image: Image.Image, box: tuple[int, int, int, int], colour: tuple[int, int, int], near: int = 60) -> Any:
    """The bounding box (in ``box``) of the pixels within ``near`` of ``colour`` on every channel."""
    pixels = np.asarray(image.crop(box), dtype=np.int16)
    hits = np.abs(pixels - np.array(colour)).max(axis=2) <= near
    rows, columns = np.nonzero(hits)
    assert rows.size, (box, colour)
    return columns.min(), rows.min(), columns.max() + 1, rows.max() + 1


@pytest.mark.parametrize("name", ["iago_start", "iago_middle", "iago_middle_hint"])
def test_every_empty_iago_cell_shows_its_name_readably(name: str) -> None:
    game = CASES[name][1]()
    image = decode(draw_case(name))
    empty = [cell for cell in iago.CELLS if game.cell(cell) is None]
    options = CASES[name][2](game)
    marked = {options.get("suggestion"), options.get("played")}
    assert len(empty) > 20
    for cell in empty:
        if cell in marked:
            continue  # a star or a cross covers the name; the legend names the move
        x, y = iago_view.cell_center(cell)
        box = (round(x) - 20, round(y) - 22, round(x) + 21, round(y) + 4)
        left, top, right, bottom = ink_box(image, box, iago_view.CELL_NAME, near=40)
        assert (bottom - top) * scale(image) >= MIN_CAP, cell
        assert right - left >= 14  # two characters ("I5" is the narrowest), not a smudge


@pytest.mark.parametrize("name", ["isaac_middle_portrait", "isaac_end_portrait_ja"])
def test_isaac_chips_on_a_phone(name: str) -> None:
    game = CASES[name][1]()
    image = decode(draw_case(name))
    layout = isaac_view.PORTRAIT
    free = [square for square in ("a1", "e5", "j10", "c7") if game.piece_at(square) is None]
    assert free
    for square in free:
        left, top, _, _ = isaac_view._square_box(square, layout)
        corner = (left + 1, top + layout.cell // 2, left + layout.cell // 2, top + layout.cell - 1)
        chip = ink_box(image, corner, base.DARK_PIECE, near=12)  # Black's chip, lower left
        width, height = (chip[2] - chip[0]) * scale(image), (chip[3] - chip[1]) * scale(image)
        assert width >= MIN_CHIP[0] and height >= MIN_CHIP[1], (square, width, height)
        inside = (corner[0] + chip[0], corner[1] + chip[1], corner[0] + chip[2], corner[1] + chip[3])
        digits = ink_box(image, inside, base.LIGHT_PIECE, near=60)
        assert (digits[3] - digits[1]) * scale(image) >= MIN_CAP, square


@pytest.mark.parametrize("name", ["polygo_19_middle_portrait", "polygo_9_finished_portrait_ja"])
def test_polygo_board_fills_a_phones_width(name: str) -> None:
    image = decode(draw_case(name))
    band = image.height // 3  # a row across the board
    left, _, right, _ = ink_box(image, (0, band, image.width, band + 1), polygo_view.WOOD, near=3)
    assert (right - left) / image.width >= 0.85
    landscape = decode(polygo_view.render(CASES[name][1](), ("Alice", "Bob")))
    left, _, right, _ = ink_box(landscape, (0, band, landscape.width, band + 1), polygo_view.WOOD, near=3)
    assert (right - left) / landscape.width < 0.75  # the desktop layout, as issue 24 found it


def test_a_19x19_stone_is_big_enough_on_a_phone() -> None:
    name = "polygo_19_middle_portrait"
    game = CASES[name][1]()
    image = decode(draw_case(name))
    point = next(f"{column}{row}" for row in range(1, 20) for column in "ABCDEFGH" if game.stone(f"{column}{row}") == 0)
    x, y = polygo_view.point_center(game, point, "portrait")
    reach = round(polygo_view._spacing(19, polygo_view.PORTRAIT) / 2)
    box = (round(x) - reach, round(y) - reach, round(x) + reach, round(y) + 1)
    left, _, right, _ = ink_box(image, (box[0], round(y), box[2], round(y) + 1), base.DARK_PIECE, near=30)
    assert (right - left) * scale(image) >= 14


# -------------------------------------------------------------------------------- panels keep their room


def test_panels_never_run_into_their_legend_or_off_the_panel() -> None:
    """Polygo's portrait panel and every landscape panel have a fixed height: the tallest content of many positions,
    with every mark, fits. ISAAC's portrait panel is as tall as its content, within the most it may take."""
    for game, state in every_position():
        for options in ({}, marks(state)):
            if game == "isaac":
                for layout in isaac_view.LAYOUTS.values():
                    image = Image.new("RGB", (layout.width, layout.height))
                    extra = isaac_view.Marks(tuple(options.get("highlight", ())), options.get("suggestion"))
                    below, legend, end = isaac_view._draw_panel(
                        base.BoardDraw(image), state, JAPANESE_NAMES, "ja", layout, extra
                    )
                    assert below <= legend < end <= layout.panel[3], (layout.name, len(state.moves))
            if game == "polygo":
                for layout in polygo_view.LAYOUTS.values():
                    image = Image.new("RGB", (layout.width, layout.height))
                    extra = polygo_view.Marks(tuple(options.get("highlight", ())), options.get("suggestion"))
                    lowest = polygo_view._draw_panel(base.BoardDraw(image), state, JAPANESE_NAMES, "ja", layout, extra)
                    assert lowest <= layout.panel[3] - 8, (layout.name, len(state.moves))
