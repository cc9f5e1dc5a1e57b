"""Animated replays: a game's board images, one frame per ply, as a GIF that Discord plays inline.

Pure Pillow like the renderers: board PNGs in, GIF bytes out. Each frame carries its ply in a footer, which
also keeps consecutive frames distinct (GIF writers merge identical frames, and the frame count must be
the number of plies plus one).
"""

from __future__ import annotations

import io
from collections.abc import Sequence

from PIL import Image, ImageDraw

from render.base import BACKGROUND, MUTED, font

FRAME_MS = 900  # long enough to see what changed
LAST_FRAME_MS = 4000  # the final position stays up before the loop starts again
MAX_BYTES = 8 * 1024 * 1024  # Discord's attachment limit for every server
FOOTER = 26
WIDTHS = (720, 560, 420, 320)  # tried in turn until the file fits


def _frame(png: bytes, width: int, label: str) -> Image.Image:
    board = Image.open(io.BytesIO(png)).convert("RGB")
    height = round(board.height * width / board.width)
    frame = Image.new("RGB", (width, height + FOOTER), BACKGROUND)
    frame.paste(board.resize((width, height), Image.Resampling.LANCZOS), (0, 0))
    ImageDraw.Draw(frame).text((width - 10, height + FOOTER // 2), label, fill=MUTED, font=font(14), anchor="rm")
    return frame.quantize(colors=128, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)


def animated_gif(boards: Sequence[bytes], labels: Sequence[str]) -> bytes:
    """A looping GIF of ``boards`` (PNG bytes, the start position first), each with its label, under 8 MB."""
    if not boards or len(boards) != len(labels):
        raise ValueError("one label per board, and at least one board")
    durations = [FRAME_MS] * (len(boards) - 1) + [LAST_FRAME_MS]
    data = b""
    for width in WIDTHS:
        frames = [_frame(png, width, label) for png, label in zip(boards, labels, strict=True)]
        buffer = io.BytesIO()
        frames[0].save(buffer, format="GIF", save_all=True, append_images=frames[1:], duration=durations, loop=0)
        data = buffer.getvalue()
        if len(data) <= MAX_BYTES:
            return data
    return data  # the smallest width tried; boards never get this big in practice
