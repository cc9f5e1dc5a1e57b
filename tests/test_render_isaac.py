"""ISAAC board image: size, weight, and what is drawn where."""

from __future__ import annotations

import io
import random

from PIL import Image

from engines import isaac
from render import isaac as board
from render.base import CAPTIVE_RED

NAMES = ("Ada", "Grace")


def image_of(game: isaac.IsaacGame) -> Image.Image:
    return Image.open(io.BytesIO(board.render(game, NAMES))).convert("RGB")


def close(a: tuple[int, ...], b: tuple[int, ...], tolerance: int = 40) -> bool:
    return all(abs(x - y) <= tolerance for x, y in zip(a, b, strict=True))


def placement_game() -> isaac.IsaacGame:
    game = isaac.new_game()
    for move in ("c3-g3", "d5-d9", "a1-a7", "j1-j3"):
        game.play(move)
    return game


def scoring_game() -> isaac.IsaacGame:
    pieces = [("d5-d10", 0), ("j3-j5", 0), ("a4-g4", 1), ("h7-h9", 1)]
    game = isaac.IsaacGame.from_position(pieces, turn=0, scores=(34, 20), removed=[["b1-b6"], []])
    game.play("x d5-d10 36")
    return game


def pixel(image: Image.Image, square: str) -> tuple[int, int, int]:
    x, y = board.square_center(square)
    return image.getpixel((int(x), int(y)))


def test_png_size_and_weight() -> None:
    for game in (isaac.new_game(), placement_game(), scoring_game()):
        data = board.render(game, NAMES)
        assert data.startswith(b"\x89PNG")
        assert len(data) < 200_000
        image = Image.open(io.BytesIO(data))
        assert 900 <= image.width <= 1000 and 600 <= image.height <= 1000


def test_square_centres_follow_the_board_orientation() -> None:
    (ax, ay), (jx, jy) = board.square_center("a1"), board.square_center("j10")
    assert ax < jx and ay > jy  # a1 bottom left, j10 top right
    assert board.square_center("a2")[1] < ay


def test_pieces_and_empty_squares_are_drawn_in_their_colours() -> None:
    image = image_of(placement_game())
    assert sum(pixel(image, "c3")) < 150  # black piece, away from its value in the middle
    assert sum(pixel(image, "d9")) > 700  # white piece
    assert close(pixel(image, "h8"), board.SQUARE_FILL)  # empty square
    assert pixel(image, "a2") == pixel(image, "a6")  # both on the black bar, away from its value


def test_counters_are_drawn_on_their_squares() -> None:
    game = scoring_game()
    image = image_of(game)
    for player in (0, 1):
        x, y = board.square_center(game.counter_square(player))
        ring = image.getpixel((int(x + 18), int(y)))
        assert close(ring, CAPTIVE_RED), ring


def test_render_does_not_mutate_the_game() -> None:
    rng = random.Random(7)
    game = isaac.new_game()
    while not game.is_over:
        if len(game.moves) % 6 == 0:  # rendering every ply is slow and adds little
            before = game.to_dict()
            board.render(game, NAMES)
            assert game.to_dict() == before
        game.play(rng.choice(game.legal_moves()))
    before = game.to_dict()
    assert board.render(game, ("x" * 80, "名前")).startswith(b"\x89PNG")
    assert game.to_dict() == before
