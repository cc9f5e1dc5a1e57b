"""How far a rendered board is from its reference image, in terms a player would notice."""

from __future__ import annotations

import io
from dataclasses import dataclass

from PIL import Image, ImageChops, ImageStat

BLOCK = 12  # px: about a stone or a chip label; a missing one changes a whole block


@dataclass(frozen=True)
class Difference:
    mean: float  # mean over the image of the largest channel difference, 0-255
    worst_block: float  # the same mean over the worst BLOCK x BLOCK square


def decode(png: bytes) -> Image.Image:
    return Image.open(io.BytesIO(png)).convert("RGB")


def difference(image: Image.Image, reference: Image.Image) -> Difference:
    assert image.size == reference.size, (image.size, reference.size)
    channels = ImageChops.difference(image.convert("RGB"), reference.convert("RGB")).split()
    largest = ImageChops.lighter(ImageChops.lighter(channels[0], channels[1]), channels[2])
    mean = ImageStat.Stat(largest).mean[0]
    # The BOX filter averages each block; two offset grids so a small change cannot hide across a block border.
    worst = 0.0
    for shift in (0, BLOCK // 2):
        cropped = largest.crop((shift, shift, largest.width, largest.height))
        blocks = cropped.resize((cropped.width // BLOCK, cropped.height // BLOCK), Image.Resampling.BOX)
        worst = max(worst, float(blocks.getextrema()[1]))
    return Difference(mean, worst)
