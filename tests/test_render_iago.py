"""Iago board image: size, weight, and pixels sampled at cell centres."""

from __future__ import annotations

import io
import random

from PIL import Image

from engines import iago
from engines.iago import IagoGame
from render import base
from render.iago import DOT_DROP, HEIGHT, WIDTH, cell_center, render

NAMES = ("Alice", "Bob")


def decode(png: bytes) -> Image.Image:
    return Image.open(io.BytesIO(png)).convert("RGB")


def pixel(image: Image.Image, name: str, dx: float = 0.0, dy: float = 0.0) -> tuple[int, int, int]:
    x, y = cell_center(name)
    return image.getpixel((round(x + dx), round(y + dy)))


def close(colour: tuple[int, int, int], expected: tuple[int, int, int], tolerance: int = 24) -> bool:
    return all(abs(c - e) <= tolerance for c, e in zip(colour, expected, strict=True))


def played(variant: str, plies: int, seed: int = 3) -> IagoGame:
    rng = random.Random(seed)
    game = iago.new_game(variant=variant)
    while not game.is_over and len(game.moves) < plies:
        game.play(rng.choice(game.legal_moves()))
    return game


def test_image_size_and_weight() -> None:
    for game in (iago.new_game(), played("standard", 30), played("penalty", 80)):
        png = render(game, NAMES)
        assert png.startswith(b"\x89PNG")
        assert len(png) < 200_000
        assert decode(png).size == (WIDTH, HEIGHT)
    assert 760 <= WIDTH <= 1000


def test_every_cell_centre_is_inside_the_image() -> None:
    xs = [cell_center(name)[0] for name in iago.CELLS]
    ys = [cell_center(name)[1] for name in iago.CELLS]
    assert min(xs) > 0 and max(xs) < WIDTH
    assert min(ys) > base.HEADER_HEIGHT and max(ys) < HEIGHT
    # Row A is at the bottom, on Dark's side, and numbers grow to the right.
    assert cell_center("A1")[1] > cell_center("E5")[1] > cell_center("I9")[1]
    assert cell_center("E1")[0] < cell_center("E5")[0] < cell_center("E9")[0]


def test_disks_and_captives_are_drawn_at_their_cells() -> None:
    game = IagoGame._from_position({"D3": "D", "F6": "L", "C4": "xD", "G6": "xL"}, turn=0)
    image = decode(render(game, NAMES))
    assert close(pixel(image, "D3", 8, 8), base.DARK_PIECE)
    assert close(pixel(image, "F6", 8, 8), base.LIGHT_PIECE)
    assert not close(pixel(image, "H7", 12, 12), base.DARK_PIECE)  # empty: the board shows
    assert not close(pixel(image, "H7", 12, 12), base.LIGHT_PIECE)
    # A captive is red round the rim with a badge of its original colour in the middle.
    for cell, original in (("C4", base.DARK_PIECE), ("G6", base.LIGHT_PIECE)):
        assert close(pixel(image, cell, 26, 0), base.CAPTIVE_RED)
        assert close(pixel(image, cell, -13, 0), original)


def test_empty_inner_and_outer_cells_have_different_tones() -> None:
    image = decode(render(iago.new_game(), NAMES))
    inner, outer, centre = pixel(image, "C3", 15, 15), pixel(image, "A1", 15, 15), pixel(image, "E5", 15, 15)
    assert inner != outer
    assert centre not in (inner, outer)


def test_legal_dots_on_legal_cells_only() -> None:
    game = IagoGame._from_position({"D2": "D", "D3": "L", "D4": "L"}, turn=0)
    assert game.legal_moves() == ["D5"]
    image = decode(render(game, NAMES))
    dot = DOT_DROP  # under the cell's name
    assert close(pixel(image, "D5", 0, dot), base.LEGAL_DOT)
    assert not close(pixel(image, "D6", 0, dot), base.LEGAL_DOT)
    opening = decode(render(iago.new_game(), NAMES))
    assert close(pixel(opening, "C3", 0, dot), base.LEGAL_DOT)
    assert not close(pixel(opening, "E5", 0, dot), base.LEGAL_DOT)
    assert not close(pixel(opening, "A1", 0, dot), base.LEGAL_DOT)


def test_last_placement_is_ringed() -> None:
    game = iago.new_game()
    game.play("D4")
    image = decode(render(game, NAMES))
    radius = 36  # the ring sits between the disk and the hex edge
    assert close(pixel(image, "D4", radius, 0), base.HIGHLIGHT, 40)
    assert not close(pixel(image, "D6", radius, 0), base.HIGHLIGHT, 40)


def test_render_does_not_change_the_game() -> None:
    for game in (played("standard", 25), played("penalty", 200), played("simple", 200)):
        before = game.to_dict()
        legal = game.legal_moves()
        render(game, ("A very long display name that goes on", "ボブ"))
        assert game.to_dict() == before
        assert game.legal_moves() == legal


def test_render_is_a_pure_function_of_the_state() -> None:
    game = played("loose", 20)
    assert render(game, NAMES) == render(game.copy(), NAMES)
