"""The board's own PNG encoder and cached text draw exactly what Pillow's would."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image, ImageChops, ImageDraw

from render import base
from render import isaac as isaac_view


def indexed_noise(width: int, height: int, seed: int) -> Image.Image:
    rng = random.Random(seed)
    image = Image.new("P", (width, height))
    image.putdata([rng.randrange(40) for _ in range(width * height)])
    image.putpalette([rng.randrange(256) for _ in range(3 * 40)])
    return image


@pytest.mark.parametrize("size", [(1, 1), (7, 3), (301, 97)])
def test_encode_indexed_keeps_every_index_and_the_palette(size: tuple[int, int]) -> None:
    image = indexed_noise(*size, seed=size[0])
    png = base.encode_indexed(image)
    Image.open(io.BytesIO(png)).verify()  # the chunks' checksums
    decoded = Image.open(io.BytesIO(png))
    assert decoded.mode == "P"
    assert decoded.size == image.size
    assert decoded.tobytes() == image.tobytes()
    assert decoded.getpalette() == image.getpalette()


def test_a_board_decodes_to_the_quantized_image() -> None:
    game = isaac_view.isaac.IsaacGame()
    png = isaac_view.render(game, ("Alice", "Bob"))
    decoded = Image.open(io.BytesIO(png)).convert("RGB")
    assert decoded.size == (isaac_view.WIDTH, isaac_view.HEIGHT)
    assert decoded.getpixel((2, 2)) == base.BACKGROUND


TEXTS = ("Move 12 · standard", "山田 たろう", "×3  (2 sq)", "07")
POSITIONS = ((200.0, 30.0), (200.5, 47.25), (201.7, 60.5))


def page(draw_class: type[ImageDraw.ImageDraw], anchor: str | None) -> Image.Image:
    image = Image.new("RGB", (420, 300), base.PANEL)
    draw = draw_class(image)
    for k, text in enumerate(TEXTS):
        for x, y in POSITIONS:
            draw.text((x, y + 60 * k), text, fill=base.INK, font=base.font(17, bold=k % 2 == 1), anchor=anchor)
    return image


@pytest.mark.parametrize("anchor", [None, "mm", "lm", "rm", "lt", "lb", "ra"])
def test_cached_text_draws_the_pixels_pillow_draws(anchor: str | None) -> None:
    reference = page(ImageDraw.ImageDraw, anchor)
    assert reference.getcolors() is None or len(reference.getcolors()) > 2  # smoothed text, not an empty page
    for _ in range(2):  # drawn first, then from the cache
        assert ImageChops.difference(page(base.BoardDraw, anchor), reference).getbbox() is None
