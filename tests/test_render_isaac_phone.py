"""ISAAC on a phone (issue 31, point 5), in the portrait layout the bot draws every board in play and every private
step in, measured on the pictures shown 400 px wide:

- the number chips' digits are at least ``MIN_DIGITS`` = 9.5 px tall (they were 7.5 px: 20 px type on the 800 px
  page; now 27 px type, digits 20 px on the page);
- a private step's board rings where the chosen piece can start without covering a single chip: every chip of a
  ringed square is drawn exactly as on the board without marks, and each ringed square shows its ring;
- the panel under the board is as tall as its words: no empty band of it is taller than ``MAX_BLANK`` = 7% of its
  height (a band of up to 48% was left empty under the players' blocks when the panel had a fixed height).
"""

from __future__ import annotations

import io
import random
from collections.abc import Iterator

import numpy as np
import pytest
from PIL import Image

import games
from engines import isaac
from games.move_picker import Step, first_keys
from render import base
from render import isaac as isaac_view
from tests.render_cases import JAPANESE_NAMES
from tests.test_render_phone import PHONE, ink_box

MIN_DIGITS = 9.5
MAX_BLANK = 0.07
LAYOUT = isaac_view.PORTRAIT


def picture(png: bytes) -> Image.Image:
    return Image.open(io.BytesIO(png)).convert("RGB")


def positions(seed: int = 5, every: int = 3) -> Iterator[isaac.IsaacGame]:
    """Every ``every``-th position of a seeded random game, and its last."""
    rng, game = random.Random(seed), isaac.new_game()
    seen = [game.copy()]
    while not game.is_over:
        game.play(rng.choice(game.legal_moves()))
        seen.append(game.copy())
    yield from seen[::every]
    yield seen[-1]


def step_of_the_longest_piece(game: isaac.IsaacGame) -> Step:
    """The private step a member opens by picking their longest piece: where it can start."""
    picker = games.find("isaac").picker
    first = picker.step(game, ())
    assert isinstance(first, Step)
    step = picker.step(game, (max(first_keys(first), key=int),))
    assert isinstance(step, Step)
    return step


def chip_boxes(square: str) -> list[tuple[int, int, int, int]]:
    """The two chips of a square: Black's lower left, White's upper right."""
    chip_w, chip_h, _ = LAYOUT.chip
    inset, cell = LAYOUT.chip_inset, LAYOUT.cell
    left, top, _, _ = isaac_view._square_box(square, LAYOUT)
    black = (left + inset, top + cell - chip_h - inset, left + inset + chip_w + 1, top + cell - inset + 1)
    white = (left + cell - chip_w - inset, top + inset, left + cell - inset + 1, top + inset + chip_h + 1)
    return [black, white]


@pytest.mark.parametrize("language", ["en", "ja"])
def test_chip_digits_are_at_least_9_5_px_tall_at_400_px(language: str) -> None:
    game = next(positions())
    image = picture(isaac_view.render(game, ("Alice", "Bob"), language, layout="portrait"))
    scale = PHONE / image.width
    for square in ("a1", "e5", "j10", "c7"):
        for box, ink in zip(chip_boxes(square), (base.LIGHT_PIECE, base.INK), strict=True):
            left, top, right, bottom = ink_box(image, (box[0] + 2, box[1] + 2, box[2] - 2, box[3] - 2), ink, near=60)
            assert (bottom - top) * scale >= MIN_DIGITS, (square, (bottom - top) * scale)
            assert (right - left) * scale >= MIN_DIGITS  # two digits, not a smudge


def test_a_step_board_rings_where_the_piece_can_start_and_covers_no_chip() -> None:
    checked = 0
    for game in positions():
        if game.phase != isaac.PLACEMENT or game.legal_moves() == ["pass"]:
            continue
        step = step_of_the_longest_piece(game)
        plain = np.asarray(picture(isaac_view.render(game, ("Alice", "Bob"), layout="portrait")), dtype=np.int16)
        ringed = np.asarray(
            picture(isaac_view.render(game, ("Alice", "Bob"), layout="portrait", highlight=step.highlight)),
            dtype=np.int16,
        )
        starts = isaac_view.ringed(step.highlight)
        assert starts and set(starts) == set(first_keys(step))
        for square in starts:
            for left, top, right, bottom in chip_boxes(square):
                assert (plain[top:bottom, left:right] == ringed[top:bottom, left:right]).all(), square
            cx, cy, radius = isaac_view._free_corner(square, LAYOUT)
            ring = ringed[round(cy - radius) : round(cy + radius), round(cx - radius) : round(cx + radius)]
            bare = plain[round(cy - radius) : round(cy + radius), round(cx - radius) : round(cx + radius)]
            assert (np.abs(ring - bare).max(axis=2) > 60).mean() > 0.25, square  # the ring is there, and seen
            checked += 1
    assert checked > 50


def blank_band(image: Image.Image) -> float:
    """The tallest band of the panel with nothing drawn across it, as a share of the panel's height."""
    pixels = np.asarray(image, dtype=np.int16)
    left, top, right, _ = LAYOUT.panel
    bottom = image.height - base.MARGIN
    inside = pixels[top + 8 : bottom - 4, left + 12 : right - 12]
    empty = (np.abs(inside - np.array(base.PANEL)).max(axis=2) <= 3).all(axis=1)
    longest = run = 0
    for row in empty:
        run = run + 1 if row else 0
        longest = max(longest, run)
    return longest / (bottom - top)


def test_the_panel_under_the_board_is_as_tall_as_its_words() -> None:
    heights = set()
    for game in positions():
        legal = game.legal_moves()
        for names, language in ((("Alice", "Bob"), "en"), (JAPANESE_NAMES, "ja")):
            marked = {"highlight": legal[:30], "suggestion": legal[-1]} if legal not in ([], ["pass"]) else {}
            for options in ({}, marked):
                image = picture(isaac_view.render(game, names, language, layout="portrait", **options))
                assert blank_band(image) <= MAX_BLANK, (len(game.moves), language, options.keys())
                below_panel = np.asarray(image.crop((0, image.height - base.MARGIN + 2, image.width, image.height)))
                assert (below_panel == base.BACKGROUND).all()  # the page ends right under the panel
                heights.add(image.height)
    assert len(heights) > 1 and max(heights) < LAYOUT.height  # shorter than the fixed panel made every picture
