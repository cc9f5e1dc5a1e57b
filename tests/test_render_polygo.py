"""Polygo renderer: image size, PNG weight, stone pixels, purity and the dice pictures."""

from __future__ import annotations

import io
import random

import numpy as np
import pytest
from PIL import Image

from engines import polygo
from render import polygo as view
from render.base import LIGHT_PIECE
from tests.test_polygo_engine import BLACK_FINISHES
from tests.test_render_reference import Changed

NAMES = ("Alice", "Bob")


def finished_game() -> polygo.PolygoGame:
    """Black closes a ring around E5/E6 (White stones inside) on 9x9 and White has two turns left."""
    game = polygo.new_game(size=9)
    for move in BLACK_FINISHES:
        game.play(move)
    return game


def crowded_19() -> polygo.PolygoGame:
    rng = random.Random(3)
    game = polygo.new_game(size=19)
    for _ in range(150):
        if game.is_over:
            break
        game.play(rng.choice(game.legal_moves()))
    return game


def decode(png: bytes) -> Image.Image:
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    return Image.open(io.BytesIO(png)).convert("RGB")


def brightness(pixel: tuple[int, int, int]) -> float:
    return sum(pixel) / 3


@pytest.mark.parametrize("size", [9, 13, 19])
def test_render_size_fits_a_phone_preview_and_png_is_small(size: int) -> None:
    game = polygo.new_game(size=size)
    png = view.render(game, NAMES)
    image = decode(png)
    assert 900 <= image.width <= 1000 and image.height < 1000
    assert len(png) < 200_000


def test_render_crowded_19_and_finished_board_stay_under_200_kb() -> None:
    for game in (crowded_19(), finished_game()):
        assert len(view.render(game, ("A very long display name indeed", "ボブ"))) < 200_000


def test_render_pixels_black_stone_white_stone_and_empty_point() -> None:
    game = finished_game()
    image = decode(view.render(game, NAMES))
    # F5 is a black stone without marks; A5 a white stone; H2 an empty board point off the grid lines
    bx, by = view.point_center(game, "F5")
    assert brightness(image.getpixel((int(bx), int(by)))) < 60
    wx, wy = view.point_center(game, "A5")
    assert brightness(image.getpixel((int(wx), int(wy)))) > 230
    ex, ey = view.point_center(game, "H2")
    step = view.point_center(game, "J2")[0] - ex
    wood = image.getpixel((int(ex + step / 3), int(ey + step / 3)))
    assert 120 < brightness(wood) < 230 and wood[0] > wood[2] + 40  # the warm board colour


def test_render_marks_territory_and_last_block() -> None:
    game = finished_game()
    image = decode(view.render(game, NAMES))
    tx, ty = view.point_center(game, "E5")  # a White stone inside Black's polygon: green territory square
    red, green, _ = image.getpixel((int(tx), int(ty)))
    assert green > 120 and green > red + 80
    lx, ly = view.point_center(game, "D7")  # last block: blue dot on a black stone
    r, _, b = image.getpixel((int(lx), int(ly)))
    assert b > 120 and b > r + 60


def test_render_does_not_mutate_the_game() -> None:
    for game in (finished_game(), crowded_19()):
        before = (game.to_dict(), game.legal_moves(), game.turn, game.scores(), game.last_block)
        view.render(game, NAMES)
        assert (game.to_dict(), game.legal_moves(), game.turn, game.scores(), game.last_block) == before


def test_render_game_over_and_opening_states() -> None:
    game = finished_game()
    game.play("roll 1")
    game.play("A7 B7")
    game.play("roll 1")
    game.play("A9 B9")
    assert game.is_over
    assert decode(view.render(game, NAMES)).width == view.WIDTH
    assert decode(view.render(polygo.new_game(), NAMES)).width == view.WIDTH


@pytest.mark.parametrize("face", range(1, 7))
def test_render_dice_for_every_face(face: int) -> None:
    png = view.render_dice(face)
    image = decode(png)
    assert image.width > 100 and image.height > 50
    assert len(png) < 50_000
    dark = sum(image.convert("L").histogram()[:60])
    assert dark > 200  # pips and the black block stones are drawn


def test_render_dice_rejects_other_faces() -> None:
    with pytest.raises(ValueError):
        view.render_dice(7)


def light_blobs(image: Image.Image, box: tuple[int, int, int, int], least: int = 20) -> list[tuple[int, int, int, int]]:
    """Bounding boxes (in the image) of the connected areas of White's stone colour in ``box``."""
    left, top, right, bottom = box
    width = right - left
    pixels = np.asarray(image.crop(box), dtype=np.int16)
    light = (np.abs(pixels - np.array(LIGHT_PIECE)).max(axis=2) <= 6).ravel().tolist()
    seen = [False] * len(light)
    blobs = []
    for start, hit in enumerate(light):
        if not hit or seen[start]:
            continue
        seen[start], stack, members = True, [start], []
        while stack:
            at = stack.pop()
            members.append(at)
            x, y = at % width, at // width
            for nx, ny in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
                near = ny * width + nx
                if 0 <= nx < width and 0 <= ny < bottom - top and light[near] and not seen[near]:
                    seen[near] = True
                    stack.append(near)
        if len(members) >= least:
            xs, ys = [m % width for m in members], [m // width for m in members]
            blobs.append((left + min(xs), top + min(ys), left + max(xs) + 1, top + max(ys) + 1))
    return blobs


@pytest.mark.parametrize("layout", ["landscape", "portrait"])
@pytest.mark.parametrize("face", range(1, 7))
def test_the_panel_shows_every_stone_of_every_block_of_a_roll(face: int, layout: str) -> None:
    """Issue 24: the analysis board clipped the second block of a 6 (S or Z) at the panel's edge. The die and each
    stone of each block are separate light areas, all inside the panel."""
    game = finished_game()
    placing = Changed(game, turn=1, die=face, legal_moves=lambda: ["A7 B7"], is_over=False)
    image = decode(view.render(placing, NAMES, layout=layout))
    shape = view.layout_of(layout)
    left, top, right, bottom = shape.panel
    blobs = light_blobs(image, (left + 4, top + 4, min(right + 40, image.width), bottom - 4))
    stones = sum(len(block) for block in view.PolygoGame.blocks_for(face))
    die = 1
    assert len(blobs) >= stones + die
    assert all(blob[2] <= right - 4 for blob in blobs), blobs
