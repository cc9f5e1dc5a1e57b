"""Every game's board against reference images drawn by the renderers before they were made fast.

The tolerance lets through what smoothing and palette rounding move (a fraction of a grey level on average,
a few levels at worst around an edge) and nothing a player would notice: the tests at the end show that one
missing disk, stone, score digit, chip label or a recoloured polygon outline each exceeds it.
"""

from __future__ import annotations

import math
from typing import Any

import pytest
from PIL import Image, ImageChops, ImageDraw

from engines import iago
from engines.polygo import PolygoGame
from render import base
from render import iago as iago_view
from render import isaac as isaac_view
from render import polygo as polygo_view
from render.base import CAPTIVE_RED, HIGHLIGHT, LIGHT_PIECE, fixed_palette
from tests.render_cases import CASES, draw_case, polygo_black_finished, reference_path
from tests.render_compare import Difference, decode, difference

MEAN_TOLERANCE = 2.0  # measured: at most 1.1 (Iago's smoothed edges), 0.8 elsewhere
BLOCK_TOLERANCE = 20.0  # measured: at most 10; the changes below give 50 to 195


def within_tolerance(found: Difference) -> bool:
    return found.mean <= MEAN_TOLERANCE and found.worst_block <= BLOCK_TOLERANCE


def reference(name: str) -> Image.Image:
    return Image.open(reference_path(name)).convert("RGB")


def rendered(name: str, change: Any = None) -> Image.Image:
    """The board of a reference case, optionally seen through `change` (a wrapper that alters one thing)."""
    game = CASES[name][1]()
    return decode(draw_case(name, change(game) if change else game))


def close(colour: tuple[int, ...], expected: tuple[int, ...], tolerance: int = 30) -> bool:
    return all(abs(c - e) <= tolerance for c, e in zip(colour, expected, strict=True))


@pytest.mark.parametrize("name", sorted(CASES))
def test_board_looks_like_its_reference(name: str) -> None:
    found = difference(rendered(name), reference(name))
    assert within_tolerance(found), found


def test_references_are_small() -> None:
    assert all(reference_path(name).stat().st_size < 100_000 for name in CASES)


# ---------------------------------------------------------------------------------- colours that matter


def outline_samples(game: PolygoGame, player: int) -> list[tuple[int, int]]:
    """Points on a polygon's outline half a lattice step from each corner, between the corner stones."""
    polygon = game.polygon(player)
    assert polygon is not None
    corners = polygon["outline"]
    samples = []
    for (c0, r0), (c1, r1) in zip(corners, corners[1:] + corners[:1], strict=True):
        steps = math.gcd(c1 - c0, r1 - r0)
        x, y = polygo_view._lattice(game.size, c0 + (c1 - c0) / steps / 2, r0 + (r1 - r0) / steps / 2)
        samples.append((round(x), round(y)))
    return samples


def outline_keeps_colour(image: Image.Image, game: PolygoGame, player: int) -> bool:
    expected = polygo_view.POLYGON_COLOURS[player]
    return all(close(image.getpixel(point), expected) for point in outline_samples(game, player))


@pytest.mark.parametrize(("name", "players"), [("polygo_9_finished", (0,)), ("polygo_13_both_polygons", (0, 1))])
def test_polygon_outlines_keep_green_and_vermilion(name: str, players: tuple[int, ...]) -> None:
    game = CASES[name][1]()
    image = rendered(name)
    for player in players:
        assert outline_keeps_colour(reference(name), game, player)  # the samples do fall on the outline
        assert outline_keeps_colour(image, game, player), player


def test_iago_captives_stay_red() -> None:
    game = CASES["iago_end_captives"][1]()
    image = rendered("iago_end_captives")
    captives = [name for name in iago.CELLS if (game.cell(name) or "").startswith("x")]
    assert len(captives) > 10
    for name in captives:
        x, y = iago_view.cell_center(name)
        assert close(image.getpixel((round(x + 26), round(y))), CAPTIVE_RED), name


# ------------------------------------------------------------------ the tolerance catches real changes


class Changed:
    """A game seen with one accessor overridden: the renderer reads only the public API."""

    def __init__(self, game: Any, **overrides: Any) -> None:
        self._game = game
        self._overrides = overrides

    def __getattr__(self, attribute: str) -> Any:
        if attribute in self._overrides:
            return self._overrides[attribute]
        return getattr(self._game, attribute)


def recolour(image: Image.Image, old: tuple[int, int, int], new: tuple[int, int, int]) -> None:
    exact = ImageChops.difference(image, Image.new("RGB", image.size, old)).convert("L")
    image.paste(new, mask=exact.point(lambda value: 255 if value == 0 else 0))


def assert_caught(image: Image.Image, name: str) -> None:
    found = difference(image, reference(name))
    assert not within_tolerance(found), found


def test_a_missing_iago_disk_is_caught() -> None:
    def without_d4(game: iago.IagoGame) -> Changed:
        return Changed(game, cell=lambda cell: None if cell == "D4" else game.cell(cell))

    assert CASES["iago_end_captives"][1]().cell("D4") is not None
    assert_caught(rendered("iago_end_captives", without_d4), "iago_end_captives")


def test_a_captive_of_the_other_colour_is_caught() -> None:
    """Only the small badge and its letter differ: Light's captive shown as Dark's."""
    game = CASES["iago_end_captives"][1]()
    cell = next(name for name in iago.CELLS if game.cell(name) == "xL")

    def swapped(game: iago.IagoGame) -> Changed:
        return Changed(game, cell=lambda name: "xD" if name == cell else game.cell(name))

    assert_caught(rendered("iago_end_captives", swapped), "iago_end_captives")


def test_a_missing_polygo_stone_is_caught() -> None:
    def without_a1(game: PolygoGame) -> Changed:
        return Changed(
            game,
            stone=lambda point: None if point == (0, 0) else game.stone(point),
            stones_of=lambda player: [point for point in game.stones_of(player) if point != (0, 0)],
        )

    assert polygo_black_finished().stone("A1") is not None
    assert_caught(rendered("polygo_9_finished", without_a1), "polygo_9_finished")


def test_one_point_more_in_an_isaac_score_is_caught() -> None:
    def one_more(game: Any) -> Changed:
        black, white = game.scores()
        return Changed(game, scores=lambda: (black + 1, white))

    assert_caught(rendered("isaac_end", one_more), "isaac_end")


def test_a_missing_chip_label_is_caught() -> None:
    image = rendered("isaac_start")
    x, y = isaac_view.square_center("e5")
    left, top = x - isaac_view.CELL / 2, y - isaac_view.CELL / 2
    # White's chip in the upper-right corner, its number painted over
    ImageDraw.Draw(image).rectangle(
        (left + isaac_view.CELL - 21, top + 5, left + isaac_view.CELL - 5, top + 15), LIGHT_PIECE
    )
    assert_caught(image, "isaac_start")


def test_a_blue_polygon_outline_is_caught() -> None:
    game = polygo_black_finished()
    image = rendered("polygo_9_finished")
    green = polygo_view.POLYGON_COLOURS[0]
    recolour(image, green, HIGHLIGHT)
    assert not outline_keeps_colour(image, game, 0)
    assert_caught(image, "polygo_9_finished")


def test_a_lost_palette_colour_is_caught() -> None:
    """A palette without a colour maps it to its nearest neighbour: here Light's disks would turn grey."""
    image = rendered("iago_middle")
    recolour(image, LIGHT_PIECE, (200, 200, 200))
    assert_caught(image, "iago_middle")


# ------------------------------------------------------------------------------------------- palettes


def colour_constants(module: Any) -> set[tuple[int, int, int]]:
    """Every module-level RGB constant, alone or in a tuple (POLYGON_COLOURS, PIECE_FILL...)."""

    def is_rgb(value: Any) -> bool:
        return isinstance(value, tuple) and len(value) == 3 and all(type(c) is int and 0 <= c < 256 for c in value)

    found: set[tuple[int, int, int]] = set()
    for name, value in vars(module).items():
        if not name.isupper():
            continue
        if is_rgb(value):
            found.add(value)
        elif isinstance(value, tuple):
            found.update(item for item in value if is_rgb(item))
    return found


@pytest.mark.parametrize("module", [iago_view, isaac_view, polygo_view], ids=lambda module: module.__name__)
def test_every_colour_constant_survives_the_palette(module: Any) -> None:
    colours = colour_constants(module) | colour_constants(base)
    assert len(colours) > 10
    swatch = Image.new("RGB", (len(colours), 1))
    swatch.putdata(sorted(colours))
    indexed = swatch.quantize(palette=module.PALETTE, dither=Image.Dither.NONE).convert("RGB")
    assert [indexed.getpixel((x, 0)) for x in range(len(colours))] == sorted(colours)


def test_a_palette_refuses_more_than_256_colours() -> None:
    with pytest.raises(ValueError):
        fixed_palette([(k % 256, k // 256, 0) for k in range(300)], [])
