"""Shared drawing helpers: palette, fonts, canvas, header with player names, PNG encoding.

Renderers are pure functions of a game's state: they read the engine and never mutate it, and they
import neither discord nor the database.
"""

from __future__ import annotations

import math
import struct
import unicodedata
import zlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from isal import isal_zlib
from PIL import Image, ImageDraw, ImageFont

from locales import tr

# Okabe-Ito inspired palette: the two sides differ in lightness as well as hue, so the board
# still reads in greyscale and for the common colour-vision deficiencies.
BACKGROUND = (246, 241, 231)
INK = (33, 33, 33)
MUTED = (110, 104, 96)
DARK_PIECE = (28, 28, 30)
LIGHT_PIECE = (250, 250, 247)
CAPTIVE_RED = (213, 94, 0)  # vermilion: distinct from both sides for every common deficiency
HIGHLIGHT = (0, 114, 178)  # blue: last move ring
LEGAL_DOT = (0, 158, 115)  # bluish green: legal move hints
PANEL = (232, 225, 211)
# The marks a caller asks for (render/marks.py): each has a shape of its own and a dark outline, so that neither
# colour vision nor a small screen is needed to tell them apart.
SUGGESTED = (86, 180, 233)  # sky blue star: the suggested (or better) move, not played
PLAYED = (204, 121, 167)  # reddish purple cross: the move that was played, in an analysis
CANDIDATE = LIGHT_PIECE  # light ring with dark edges: where a block or piece can go

HEADER_HEIGHT = 56
MARGIN = 16


FONT_DIR = Path(__file__).resolve().parent / "fonts"
# The bundled subset of Noto Sans CJK JP comes first, so a board looks the same on every machine and Japanese
# names draw wherever the bot runs (render/fonts/README.md). The system fonts are only there if the files are
# missing; Pillow's own font (Latin letters only) is the last resort.
FONT_CANDIDATES = (
    FONT_DIR / "NotoSansCJKjp-Regular.subset.otf",
    "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/TTF/DejaVuSans.ttf",
    "/Library/Fonts/Arial Unicode.ttf",
    "C:/Windows/Fonts/arial.ttf",
)
BOLD_FONT_CANDIDATES = (
    FONT_DIR / "NotoSansCJKjp-Bold.subset.otf",
    "/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc",
    "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
    "/usr/share/fonts/TTF/DejaVuSans-Bold.ttf",
    "C:/Windows/Fonts/arialbd.ttf",
)


@lru_cache(maxsize=64)
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """The board font at ``size`` px, loaded once per size and weight."""
    for path in BOLD_FONT_CANDIDATES if bold else FONT_CANDIDATES:
        try:
            return ImageFont.truetype(str(path), size)
        except OSError:
            continue
    return ImageFont.load_default(size=size)


@dataclass(frozen=True)
class Side:
    """How one player is shown in the header: their name and a swatch of their colour."""

    name: str
    colour: tuple[int, int, int]
    outline: tuple[int, int, int] = INK


@lru_cache(maxsize=2048)  # masks of 1-11 KB, mostly 2-3 KB: some 5 MB per process when full
def _text_mask(
    text_font: ImageFont.FreeTypeFont, text: str, anchor: str | None, start: tuple[float, float]
) -> tuple[object, tuple[int, int]]:
    """The smoothed glyphs of one line of text, as Pillow's ``ImageDraw.text`` renders them for an RGB image."""
    return text_font.getmask2(text, "L", anchor=anchor, start=start)


@lru_cache(maxsize=2048)
def _text_length(text_font: ImageFont.FreeTypeFont, text: str) -> float:
    return text_font.getlength(text, "L")


class BoardDraw(ImageDraw.ImageDraw):
    """``ImageDraw`` that renders each line of text once per process and position within a pixel: most of a board's
    words (labels, names, counts) are the same from move to move, and FreeType's shaping and rasterising was
    a fifth to two fifths of a board's CPU. Draws the very pixels ``ImageDraw.text`` draws."""

    def text(  # type: ignore[override]
        self,
        xy: tuple[float, float],
        text: str,
        fill: object = None,
        font: object = None,
        anchor: str | None = None,
        **options: object,
    ) -> None:
        if options or self.mode != "RGB" or not isinstance(font, ImageFont.FreeTypeFont) or "\n" in text:
            super().text(xy, text, fill, font, anchor, **options)  # type: ignore[arg-type]
            return
        x, y = xy
        mask, (dx, dy) = _text_mask(font, text, anchor, (math.modf(x)[0], math.modf(y)[0]))
        ink, fill_ink = self._getink(fill)  # type: ignore[arg-type]
        self.draw.draw_bitmap((int(x) + dx, int(y) + dy), mask, fill_ink if ink is None else ink)

    def textlength(self, text: str, font: object = None, *args: object, **options: object) -> float:  # type: ignore[override]
        """The width of a line, measured once per process (headers and legends measure the same words)."""
        if args or options or self.mode != "RGB" or not isinstance(font, ImageFont.FreeTypeFont) or "\n" in text:
            return super().textlength(text, font, *args, **options)  # type: ignore[arg-type]
        return _text_length(font, text)


class PaletteDraw(ImageDraw.ImageDraw):
    """``ImageDraw`` on a palette image whose every colour is in its palette: each colour's index comes from a dict
    made once, where Pillow asks the palette object on every shape (a fifth of a go board's drawing, more with
    marks). The indices are those Pillow finds (the first entry of a colour), so the pixels are the same."""

    def __init__(self, image: Image.Image, index: dict[tuple[int, int, int], int]) -> None:
        super().__init__(image)
        self.index = index

    def _getink(self, ink: object, fill: object = None) -> tuple[int | None, int | None]:  # type: ignore[override]
        return super()._getink(self.index.get(ink, ink), self.index.get(fill, fill))  # type: ignore[arg-type]


def palette_index(palette: Image.Image) -> dict[tuple[int, int, int], int]:
    """Each colour of a palette image's palette and its first index, for :class:`PaletteDraw`."""
    entries = palette.getpalette() or []
    index: dict[tuple[int, int, int], int] = {}
    for position in range(0, len(entries), 3):
        index.setdefault((entries[position], entries[position + 1], entries[position + 2]), position // 3)
    return index


def new_canvas(width: int, height: int) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    image = Image.new("RGB", (width, height), BACKGROUND)
    return image, BoardDraw(image)


def _columns(char: str) -> int:
    """Kana, kanji and full-width forms take about two Latin letters' width."""
    return 2 if unicodedata.east_asian_width(char) in "WF" else 1


def fit_text(text: str, max_chars: int) -> str:
    """Shorten a display name so that it never runs over the header: ``max_chars`` Latin letters, a wide
    (Japanese) character counting as two."""
    if sum(map(_columns, text)) <= max_chars:
        return text
    kept, used = [], 1  # room for the ellipsis
    for char in text:
        used += _columns(char)
        if used > max_chars:
            break
        kept.append(char)
    return "".join(kept) + "…"


NAME_CHARS = 18  # a name in the header never takes more than this (Latin letters; a wide character counts twice)


def wrap_to_width(draw: ImageDraw.ImageDraw, text: str, text_font: object, width: float) -> list[str]:
    """``text`` in lines no wider than ``width``: broken at spaces where it has them, else (Japanese) anywhere."""
    lines: list[str] = []
    line = ""
    for word in text.split(" ") if " " in text else list(text):
        glue = " " if line and " " in text else ""
        if line and draw.textlength(line + glue + word, font=text_font) > width:  # type: ignore[arg-type]
            lines.append(line)
            line = word
        else:
            line += glue + word
    return [*lines, line] if line else lines


def draw_header(
    draw: ImageDraw.ImageDraw,
    width: int,
    sides: Sequence[Side],
    to_move: int | None,
    status: str,
    status_size: int = 18,
) -> None:
    """Two player chips (the one to move underlined with an arrow) and a status line on the right. Names are
    shortened to leave the status line its room, so a narrow (phone) board never draws one over the other."""
    x = MARGIN
    y = 12
    room = width - 2 * MARGIN - draw.textlength(status, font=font(status_size)) - 24
    chars = NAME_CHARS
    while chars > 6 and sum(_chip_width(draw, side.name, chars) for side in sides) + 16 > room:
        chars -= 1
    for index, side in enumerate(sides):
        radius = 12
        cy = y + 14
        draw.ellipse((x, cy - radius, x + 2 * radius, cy + radius), fill=side.colour, outline=side.outline, width=2)
        label = fit_text(displayable(side.name), chars)
        if to_move == index:
            label = "> " + label
        draw.text((x + 2 * radius + 8, cy), label, fill=INK, font=font(20), anchor="lm")
        text_width = draw.textlength(label, font=font(20))
        if to_move == index:
            draw.line(
                (x, cy + radius + 6, x + 2 * radius + 8 + text_width, cy + radius + 6),
                fill=HIGHLIGHT,
                width=3,
            )
        x += int(2 * radius + 8 + text_width + 28)
    draw.text((width - MARGIN, y + 14), status, fill=MUTED, font=font(status_size), anchor="rm")


def _chip_width(draw: ImageDraw.ImageDraw, name: str, chars: int) -> float:
    """The width a player's chip and name take in the header (the arrow of the player to move included)."""
    return 24 + 8 + draw.textlength("> " + fit_text(displayable(name), chars), font=font(20)) + 28


@lru_cache(maxsize=1)
def _missing_glyph() -> bytes:
    return bytes(font(20).getmask("\ue000"))  # a private-use code point: drawn as the "missing" box


@lru_cache(maxsize=4096)
def _has_glyph(char: str) -> bool:
    return char.isspace() or bytes(font(20).getmask(char)) != _missing_glyph()


def displayable(text: str, fallback: str = "Player") -> str:
    """Replace characters the board font cannot draw (outside its subset) by "?", so a name never shows as empty
    boxes; a name with nothing left to show becomes ``fallback``."""
    shown = "".join(char if _has_glyph(char) else "?" for char in text).strip()
    return shown if shown.strip("?") else fallback


def shown_names(names: tuple[str, str], language: str = "en") -> tuple[str, str]:
    """The players' names as a board draws them, a name of undrawable characters only as "Player" in
    ``language``."""
    fallback = tr(language, "Player")
    return displayable(names[0], fallback), displayable(names[1], fallback)


RGB = tuple[int, int, int]

# PNG's deflate by ISA-L (the `isal` package) at its level 1: the bytes of zlib's level 3 in a fifth of the time
# (0.3-0.6 ms a board where Pillow's zlib took 2-3 ms, two fifths of a board's CPU). See docs/performance.md.
COMPRESS_LEVEL = 1
BLEND_STEPS = 6  # intermediate tones kept per anti-aliased edge; enough that text edges stay smooth


def winner_first(scores: Sequence[int], winner: int | None) -> dict[str, int]:
    """A result's two scores for "{winner} wins {score0}–{score1}": the winner's first, so "White wins 33–18"
    never reads as White's 18 (a draw keeps side 0 first)."""
    first = winner or 0
    return {"score0": scores[first], "score1": scores[1 - first]}


def blend(colour: RGB, base: RGB, amount: float) -> RGB:
    """`colour` laid over `base` with the given opacity."""
    r, g, b = (round(c * amount + d * (1 - amount)) for c, d in zip(colour, base, strict=True))
    return (r, g, b)


def fixed_palette(colours: Iterable[RGB], edges: Iterable[tuple[RGB, RGB]], steps: int = BLEND_STEPS) -> Image.Image:
    """A palette image holding every flat colour of a board exactly, and the tones between the pairs of colours
    that meet at anti-aliased edges (text, shapes drawn large and shrunk), for `Image.quantize(palette=...)`.

    Quantizing against one fixed palette is five times faster than computing a palette per image, and unlike a
    palette taken from one board it cannot lose a colour that board did not happen to show."""
    entries = list(dict.fromkeys(colours))
    for front, back in edges:
        entries.extend(blend(front, back, k / (steps + 1)) for k in range(1, steps + 1))
    entries = list(dict.fromkeys(entries))
    if len(entries) > 256:
        raise ValueError(f"{len(entries)} palette colours; a PNG palette holds 256")
    entries += [entries[0]] * (256 - len(entries))
    palette = Image.new("P", (1, 1))
    palette.putpalette([channel for colour in entries for channel in colour])
    return palette


# What every board shares: the header's colours and the text drawn on the page background.
BASE_COLOURS: tuple[RGB, ...] = (
    BACKGROUND,
    PANEL,
    INK,
    MUTED,
    DARK_PIECE,
    LIGHT_PIECE,
    CAPTIVE_RED,
    HIGHLIGHT,
    LEGAL_DOT,
    SUGGESTED,
    PLAYED,
)
BASE_EDGES: tuple[tuple[RGB, RGB], ...] = ((INK, BACKGROUND), (MUTED, BACKGROUND), (INK, PANEL), (MUTED, PANEL))


PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def encode_indexed(indexed: Image.Image) -> bytes:
    """A palette image as PNG, without row filters (Pillow uses none for palette images either): its rows, each
    led by filter byte 0, deflated by ISA-L. The rows with their filter bytes are the image pasted one pixel to the
    right of a column of zeros."""
    width, height = indexed.size
    rows = Image.new("P", (width + 1, height), 0)
    rows.paste(indexed, (1, 0))
    palette = bytes(indexed.getpalette() or [])
    header = struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)  # 8-bit palette indices, not interlaced
    return b"".join(
        (
            PNG_SIGNATURE,
            _chunk(b"IHDR", header),
            _chunk(b"PLTE", palette),
            _chunk(b"IDAT", isal_zlib.compress(rows.tobytes(), COMPRESS_LEVEL)),
            _chunk(b"IEND", b""),
        )
    )


def to_png_over(
    image: Image.Image,
    unchanged: Image.Image,
    tiles: Iterable[tuple[Image.Image, tuple[int, int]]],
    changed: Iterable[tuple[int, int, int, int]],
    palette: Image.Image,
) -> bytes:
    """:func:`to_png` of ``image`` with the renderer's fixed ``palette``, quantizing only the ``changed`` boxes: the
    rest is ``unchanged`` (the page the image was drawn on, quantized once; rows below it must lie in a changed box)
    and ``tiles`` (parts quantized before, pasted where they go). Without dithering a pixel's index depends on its
    colour alone, so the bytes are :func:`to_png`'s when the tiles show what the image shows there."""
    indexed = unchanged.crop((0, 0, image.width, image.height))
    for tile, at in tiles:
        indexed.paste(tile, at)
    for box in changed:
        indexed.paste(image.crop(box).quantize(palette=palette, dither=Image.Dither.NONE), box[:2])
    return encode_indexed(indexed)


def to_png(image: Image.Image, palette: Image.Image | None = None) -> bytes:
    """Encode as a palette PNG: boards have few colours. With the renderer's fixed palette (no dithering) every
    flat colour stays exact; without one, the octree quantizer keeps the colour of small features (a lone
    legal-move dot) that median cut would merge."""
    if palette is None:
        indexed = image.quantize(colors=256, method=Image.Quantize.FASTOCTREE)
    else:
        indexed = image.quantize(palette=palette, dither=Image.Dither.NONE)
    return encode_indexed(indexed)
