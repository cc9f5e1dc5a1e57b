"""Iago board image: the 61-hex board with rows A..I from Dark's side at the bottom, as on the physical game.

Pointy-top hexes make the rows horizontal; numbers run along the lower-left to upper-right diagonals, so the
labels sit at the bottom and lower-right edges like an Abalone board, and every empty cell carries its name. Hex
edges and disks are drawn at twice the size and scaled down so that they are smooth; that happens once per process
(see `_layers`), and each render only pastes the disks of the cells in use.

The page is 800 px wide with every word at least 20 px tall, so it reads on a phone that shows it 400 px wide; it is
already taller than wide, so the "portrait" layout the other games offer is the same picture here. Marks a caller
asks for (a suggested move, the move played, cells to look at) are drawn on the position as it is.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from functools import cache, lru_cache

from PIL import Image, ImageChops, ImageDraw

from engines import iago
from locales import N_, tr
from render.base import (
    BACKGROUND,
    BASE_COLOURS,
    BASE_EDGES,
    CAPTIVE_RED,
    DARK_PIECE,
    HEADER_HEIGHT,
    HIGHLIGHT,
    INK,
    LEGAL_DOT,
    LIGHT_PIECE,
    MARGIN,
    MUTED,
    PANEL,
    PLAYED,
    SUGGESTED,
    Side,
    displayable,
    draw_header,
    encode_indexed,
    fit_text,
    fixed_palette,
    font,
    new_canvas,
    shown_names,
    winner_first,
    wrap_to_width,
)
from render.iago_text import VARIANTS, alt_text, note_text, text_board
from render.marks import CANDIDATE_MARK, PLAYED_MARK, SUGGESTED_MARK, Marks, draw_legend, draw_mark, legend_items

WIDTH = 800
LAYOUTS = ("landscape", "portrait")  # one picture: see the module's docstring
HEX = 44  # circumradius of a hex, in final pixels
SCALE = 2  # supersampling factor for the board
BOARD_TOP = HEADER_HEIGHT + 8
BOARD_HEIGHT = int(8 * 1.5 * HEX + 3 * HEX)  # the cells plus room for the edge labels
PANEL_TOP = BOARD_TOP + BOARD_HEIGHT + 4
PANEL_HEIGHT = 226  # the counts, a note of two lines and a legend
HEIGHT = PANEL_TOP + PANEL_HEIGHT + MARGIN

INNER_TONE = (226, 208, 172)
OUTER_TONE = (168, 138, 98)
CELL_EDGE = (120, 96, 66)
CENTRE_TONE = (236, 186, 84)  # marigold: the centre stands out from both areas, even under a disk
CENTRE_MARK = (96, 70, 36)
CELL_NAME = (80, 60, 36)  # an empty cell's name: dark enough on the outer cells' darker tone
SQRT3 = math.sqrt(3)
TONES = (INNER_TONE, OUTER_TONE, CENTRE_TONE)
PALETTE = fixed_palette(
    (*BASE_COLOURS, *TONES, CELL_EDGE, CENTRE_MARK, CELL_NAME),
    (
        *BASE_EDGES,
        *((edge, tone) for edge in (INK, CELL_EDGE, HIGHLIGHT, CELL_NAME) for tone in TONES),
        (CELL_EDGE, BACKGROUND),
        (CENTRE_MARK, CENTRE_TONE),
        (INK, LIGHT_PIECE),
        (INK, CAPTIVE_RED),
        (LEGAL_DOT, INK),
        (HIGHLIGHT, INK),
        (HIGHLIGHT, CELL_EDGE),
        (HIGHLIGHT, PANEL),
        (LIGHT_PIECE, CAPTIVE_RED),
        (SUGGESTED, INK),
        (PLAYED, INK),
    ),
)


def _offset(name: str) -> tuple[float, float]:
    """A cell's centre relative to the centre of the board, in final pixels (row A at the bottom)."""
    a, b = iago.cell_coords(name)
    return _axial_offset(a, b)


def _axial_offset(a: float, b: float) -> tuple[float, float]:
    return SQRT3 * HEX * (b - a / 2), -1.5 * HEX * a


# The row letters reach 35 px further left than the ninth diagonal's cells and label reach right.
BOARD_CENTRE = (WIDTH / 2 + 17.5, BOARD_TOP + BOARD_HEIGHT / 2 - 0.3 * HEX)


def cell_center(name: str) -> tuple[float, float]:
    """Pixel centre of a cell in the rendered image."""
    dx, dy = _offset(name)
    return BOARD_CENTRE[0] + dx, BOARD_CENTRE[1] + dy


def _hexagon(cx: float, cy: float, radius: float) -> list[tuple[float, float]]:
    return [
        (cx + radius * math.cos(math.radians(60 * k - 30)), cy + radius * math.sin(math.radians(60 * k - 30)))
        for k in range(6)
    ]


def _local(name: str) -> tuple[float, float]:
    """A cell's centre on the supersampled board layer."""
    x, y = cell_center(name)
    return x * SCALE, (y - BOARD_TOP) * SCALE


def _hires_board() -> Image.Image:
    """The board without disks, supersampled."""
    layer = Image.new("RGB", (WIDTH * SCALE, BOARD_HEIGHT * SCALE), BACKGROUND)
    draw = ImageDraw.Draw(layer)
    for name in iago.CELLS:
        cx, cy = _local(name)
        tone = OUTER_TONE if name in iago.OUTER else INNER_TONE
        tone = CENTRE_TONE if name == iago.CENTRE else tone
        draw.polygon(_hexagon(cx, cy, (HEX - 1) * SCALE), fill=tone, outline=CELL_EDGE, width=2 * SCALE)
    _draw_centre_mark(draw)
    _draw_labels(draw)
    _draw_cell_names(draw)
    return layer


def _draw_centre_mark(draw: ImageDraw.ImageDraw) -> None:
    cx, cy = _local(iago.CENTRE)
    draw.polygon(_hexagon(cx, cy, (HEX - 9) * SCALE), outline=CENTRE_MARK, width=SCALE)
    for k in range(6):  # short spokes at the corners, visible even under a disk
        angle = math.radians(60 * k - 30)
        inner, outer = (HEX - 14) * SCALE, (HEX - 4) * SCALE
        cos, sin = math.cos(angle), math.sin(angle)
        draw.line(
            (cx + inner * cos, cy + inner * sin, cx + outer * cos, cy + outer * sin),
            fill=CENTRE_MARK,
            width=3 * SCALE,
        )


LABEL_SIZE = 22
NAME_SIZE = 21
NAME_RISE = 9  # px above the cell's centre: the legal-move dot goes below the name


def _draw_cell_names(draw: ImageDraw.ImageDraw) -> None:
    """Every cell's name on the empty board; a disk covers it."""
    name_font = font(NAME_SIZE * SCALE, bold=True)
    for name in iago.CELLS:
        cx, cy = _local(name)
        draw.text((cx, cy - NAME_RISE * SCALE), name, fill=CELL_NAME, font=name_font, anchor="mm")


def _draw_labels(draw: ImageDraw.ImageDraw) -> None:
    label_font = font(LABEL_SIZE * SCALE, bold=True)
    for row_index, row in enumerate(iago.ROWS):
        a = row_index - 4
        first = min(b for b in range(-4, 5) if f"{row}{b + 5}" in iago.CELLS)
        _label(draw, row, a, first - 0.85, label_font)
    for number in range(1, 10):
        b = number - 5
        lowest = min(a for a in range(-4, 5) if f"{iago.ROWS[a + 4]}{number}" in iago.CELLS)
        # One step beyond the line's lower end, down and to the right.
        _label(draw, str(number), lowest - 0.8, b, label_font)


def _label(draw: ImageDraw.ImageDraw, text: str, a: float, b: float, label_font: object) -> None:
    dx, dy = _axial_offset(a, b)
    x = (BOARD_CENTRE[0] + dx) * SCALE
    y = (BOARD_CENTRE[1] + dy - BOARD_TOP) * SCALE
    draw.text((x, y), text, fill=MUTED, font=label_font, anchor="mm")


def _disk_box(cx: float, cy: float, radius: float) -> tuple[float, float, float, float]:
    return cx - radius, cy - radius, cx + radius, cy + radius


def _draw_disk(draw: ImageDraw.ImageDraw, name: str, content: str) -> None:
    cx, cy = _local(name)
    radius = (HEX - 11) * SCALE
    if content == "D":
        draw.ellipse(_disk_box(cx, cy, radius), fill=DARK_PIECE, outline=INK, width=2 * SCALE)
    elif content == "L":
        draw.ellipse(_disk_box(cx, cy, radius), fill=LIGHT_PIECE, outline=INK, width=2 * SCALE)
    else:
        _draw_captive(draw, cx, cy, radius, original=content[1])


CAPTIVE_BANDS = 4  # light bands across a captive's red rim, like a lifebuoy: a pattern no other disk has
CAPTIVE_BAND_DEGREES = 22
CAPTIVE_LETTER = 21  # the original colour's letter on the badge: 10 px tall on a phone


def _draw_captive(draw: ImageDraw.ImageDraw, cx: float, cy: float, radius: float, original: str) -> None:
    """Red side up, the rim crossed by light bands, with a badge of the original colour carrying its letter:
    readable without colour (a red disk alone reads as a dark one to red-blind eyes)."""
    box = _disk_box(cx, cy, radius)
    draw.ellipse(box, fill=CAPTIVE_RED)
    for k in range(CAPTIVE_BANDS):
        middle = 45 + k * 360 / CAPTIVE_BANDS
        half = CAPTIVE_BAND_DEGREES / 2
        draw.pieslice(box, middle - half, middle + half, fill=LIGHT_PIECE)
    draw.ellipse(box, outline=INK, width=2 * SCALE)
    badge, letter_colour = (DARK_PIECE, LIGHT_PIECE) if original == "D" else (LIGHT_PIECE, DARK_PIECE)
    inner = radius * 0.52
    draw.ellipse(_disk_box(cx, cy, inner), fill=badge, outline=INK, width=SCALE)
    draw.text((cx, cy + SCALE), original, fill=letter_colour, font=font(CAPTIVE_LETTER * SCALE, bold=True), anchor="mm")


# One smoothed layer each: the engine's cell values, and the legal-move dot.
KINDS = ("D", "L", "xD", "xL", "dot")
# A disk with its outline and smoothing reaches 36 px from the cell centre; a neighbour's starts 40 px away.
CELL_REACH = 37


@cache
def _layers() -> dict[str | None, Image.Image]:
    """The smoothed board, empty (key None) and with each kind of disk (or the legal-move dot) on every cell.

    Smoothing the double-size board cost ~30 ms per render; done once here, a render pastes each cell's disk
    from the layer of its kind and looks exactly as if the whole board had been drawn and smoothed."""
    hires = _hires_board()
    layers: dict[str | None, Image.Image] = {None: hires.resize((WIDTH, BOARD_HEIGHT), Image.Resampling.LANCZOS)}
    for kind in KINDS:
        layer = hires.copy()
        draw = ImageDraw.Draw(layer)
        for name in iago.CELLS:
            if kind == "dot":
                _draw_legal_dot(draw, name)
            else:
                _draw_disk(draw, name, kind)
        layers[kind] = layer.resize((WIDTH, BOARD_HEIGHT), Image.Resampling.LANCZOS)
    return layers


@cache
def _cell_mask() -> Image.Image:
    """Round, so that a pasted cell covers its own disk and never a neighbour's."""
    mask = Image.new("L", (2 * CELL_REACH + 1, 2 * CELL_REACH + 1), 0)
    ImageDraw.Draw(mask).ellipse((0, 0, 2 * CELL_REACH, 2 * CELL_REACH), fill=255)
    return mask


def _cell_box(name: str, reach: int) -> tuple[int, int, int, int]:
    """A square around a cell on the board layer (final pixels)."""
    x, y = cell_center(name)
    left, top = round(x) - reach, round(y - BOARD_TOP) - reach
    return left, top, left + 2 * reach + 1, top + 2 * reach + 1


@cache
def _indexed_layers() -> dict[str | None, Image.Image]:
    """`_layers` in the palette's indices. The cell mask has no smoothed edge, so cells pasted from these straight
    into the palette image are what quantizing the pasted RGB board would give."""
    return {kind: layer.quantize(palette=PALETTE, dither=Image.Dither.NONE) for kind, layer in _layers().items()}


def _paste_cells(
    board: Image.Image,
    layers: dict[str | None, Image.Image],
    cells: list[tuple[str, str]],
    origin: tuple[int, int] = (0, 0),
) -> None:
    """Paste each (cell, kind) from the layer of its kind; `origin` is where `board` sits on the board layer."""
    for name, kind in cells:
        box = _cell_box(name, CELL_REACH)
        board.paste(layers[kind].crop(box), (box[0] - origin[0], box[1] - origin[1]), _cell_mask())


DOT_DROP = 16  # px below the cell's centre, under its name


def _draw_legal_dot(draw: ImageDraw.ImageDraw, name: str) -> None:
    """Green with a dark rim two pixels wide: on the outer cells' tone, red-blind eyes see the green itself barely
    (a CIEDE2000 difference of 4), the rim clearly."""
    cx, cy = _local(name)
    draw.ellipse(_disk_box(cx, cy + DOT_DROP * SCALE, 8 * SCALE), fill=LEGAL_DOT, outline=INK, width=2 * SCALE)


RING_REACH = HEX - 2  # the last-move ring's outer edge plus its smoothing
LAST_MARK = "last"
MARK_RADIUS = {SUGGESTED_MARK: 25, PLAYED_MARK: 25, CANDIDATE_MARK: 33}  # the candidate ring goes round the name


@cache
def _sprite(kind: str, name: str) -> Image.Image:
    """A mark on one cell (the last-move ring, or a requested mark) as a smoothed sprite with transparency, drawn
    at double size for the exact position of the cell, so that it sits where a double-size drawing would put it.
    The ring overlaps the hex edge and the neighbours, so it cannot come from a layer."""
    left, top, right, bottom = _cell_box(name, RING_REACH)
    sprite = Image.new("RGBA", ((right - left) * SCALE, (bottom - top) * SCALE), (*HIGHLIGHT, 0))
    cx, cy = _local(name)
    cx, cy = cx - left * SCALE, cy - top * SCALE
    draw = ImageDraw.Draw(sprite)
    if kind == LAST_MARK:
        draw.ellipse(_disk_box(cx, cy, (HEX - 5) * SCALE), outline=(*HIGHLIGHT, 255), width=5 * SCALE)
    else:
        draw_mark(draw, kind, cx, cy, MARK_RADIUS[kind] * SCALE, edge=2 * SCALE, band=3 * SCALE)
    return sprite.resize((right - left, bottom - top), Image.Resampling.LANCZOS)


def _ring(name: str) -> Image.Image:
    return _sprite(LAST_MARK, name)


def _cell_of(move: str) -> str:
    """The cell a move is played on: "E4" or "call E4"."""
    return move.split()[-1].upper()


def ringed(highlight: Iterable[str]) -> list[str]:
    """The cells a ``highlight`` rings: the cell of each move ("E4", "call E4")."""
    return list(dict.fromkeys(_cell_of(move) for move in highlight))


def _overlays(game: iago.IagoGame, marks: Marks) -> dict[str, list[str]]:
    """Each cell with sprites on it, in the order they are laid: the last-move ring, then the requested marks."""
    found: dict[str, list[str]] = {}
    if game.last_cell is not None:
        found.setdefault(game.last_cell, []).append(LAST_MARK)
    for cell in ringed(marks.highlight):
        found.setdefault(cell, []).append(CANDIDATE_MARK)
    if marks.played:
        found.setdefault(_cell_of(marks.played), []).append(PLAYED_MARK)
    if marks.suggestion:
        found.setdefault(_cell_of(marks.suggestion), []).append(SUGGESTED_MARK)
    return found


@lru_cache(maxsize=1024)
def _marked_cell(cell: str, content: str | None, kinds: tuple[str, ...]) -> Image.Image:
    """A cell (empty, a dot, a disk) with requested marks on it, in the palette's indices. The marks stay inside the
    cell's round mask, so the cell is put together in RGB (for the smoothed edges) once per process and then pasted
    like a disk: 40 candidates cost what 40 disks do."""
    box = _cell_box(cell, CELL_REACH)
    area = _layers()[content].crop(box)
    shift = RING_REACH - CELL_REACH  # a sprite's box is the larger one, round the same centre
    for kind in kinds:
        sprite = _sprite(kind, cell).crop((shift, shift, shift + area.width, shift + area.height))
        area.paste(sprite, (0, 0), sprite)
    return area.quantize(palette=PALETTE, dither=Image.Dither.NONE)


def _draw_board(game: iago.IagoGame, marks: Marks | None = None) -> Image.Image:
    """The board band in the palette's indices."""
    cells = [(name, content) for name in iago.CELLS if (content := game.cell(name)) is not None]
    cells += [(name, "dot") for name in _legal_cells(game)]
    board = _indexed_layers()[None].copy()
    _paste_cells(board, _indexed_layers(), cells)
    contents = dict(cells)
    overlays = _overlays(game, marks or Marks())
    for cell, kinds in overlays.items():
        if LAST_MARK not in kinds:
            box = _cell_box(cell, CELL_REACH)
            board.paste(_marked_cell(cell, contents.get(cell), tuple(kinds)), box[:2], _cell_mask())
    if game.last_cell is not None:
        # The last-move ring reaches past its cell, and its smoothed edge blends with the smoothed board and the
        # neighbours under it, so its box is put together in RGB, with the cells that reach into it, and quantized
        # as the whole board used to be. Only the sprites' own pixels are pasted back.
        cell = game.last_cell
        box = _cell_box(cell, RING_REACH)
        area = _layers()[None].crop(box)
        near = [item for item in cells if _overlap(_cell_box(item[0], CELL_REACH), box)]
        _paste_cells(area, _layers(), near, box[:2])
        cover = Image.new("L", area.size, 0)
        for kind in overlays[cell]:
            sprite = _sprite(kind, cell)
            area.paste(sprite, (0, 0), sprite)
            cover = ImageChops.lighter(cover, sprite.getchannel("A"))
        mask = cover.point(lambda alpha: 255 if alpha else 0)
        board.paste(area.quantize(palette=PALETTE, dither=Image.Dither.NONE), box[:2], mask)
    return board


def _overlap(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _legal_cells(game: iago.IagoGame) -> list[str]:
    """Cells of the ordinary legal placements; calls (any empty cell) are explained in the panel instead."""
    return [move for move in game.legal_moves() if not move.startswith("call")]


COLUMNS = ((N_("Inner"), 340), (N_("Outer"), 435), (N_("Captives"), 535), (N_("Score"), 672))


def status(game: iago.IagoGame, language: str = "en") -> str:
    """The header's status line: the move to play, or the result, and the variant."""
    variant = tr(language, VARIANTS[game.variant])
    if not game.is_over:
        return tr(language, "Move {number} · {variant}", number=len(game.moves) + 1, variant=variant)
    result = game.result()
    scores = {"score0": result.scores[0], "score1": result.scores[1], "variant": variant}
    if result.winner is None:
        return tr(language, "Draw {score0}–{score1} · {variant}", **scores)
    winner = tr(language, iago.SIDES[result.winner])
    scores.update(winner_first(result.scores, result.winner))
    if result.reason == "centre":
        return tr(language, "{winner} wins on the centre {score0}–{score1} · {variant}", winner=winner, **scores)
    return tr(language, "{winner} wins {score0}–{score1} · {variant}", winner=winner, **scores)


def _draw_panel(
    draw: ImageDraw.ImageDraw, game: iago.IagoGame, names: tuple[str, str], language: str, marks: Marks
) -> None:
    top = PANEL_TOP
    draw.rounded_rectangle((MARGIN, top, WIDTH - MARGIN, top + PANEL_HEIGHT), radius=12, fill=PANEL)
    counts = game.area_counts()
    scores = game.scores()
    simple = game.variant == "simple"
    columns = COLUMNS
    head_font, body_font, score_font = font(20), font(22), font(24, bold=True)
    for title, x in columns:
        draw.text((x, top + 20), tr(language, title), fill=MUTED, font=head_font, anchor="mm")
    for side in (0, 1):
        y = top + 58 + side * 40
        colour = DARK_PIECE if side == 0 else LIGHT_PIECE
        draw.ellipse((MARGIN + 16, y - 12, MARGIN + 40, y + 12), fill=colour, outline=INK, width=2)
        label = f"{tr(language, iago.SIDES[side])}  {_short(names[side])}"
        draw.text((MARGIN + 52, y), label, fill=INK, font=body_font, anchor="lm")
        inner, outer = counts["inner"][side], counts["outer"][side]
        values = (inner, outer, counts["captives"][side])
        for (_, x), value in zip(columns, values, strict=False):
            draw.text((x, y), str(value), fill=INK, font=body_font, anchor="mm")
        formula = "" if simple else f"{max(inner, 1)} × {max(outer, 1)} = "
        draw.text((columns[3][1], y), f"{formula}{scores[side]}", fill=INK, font=score_font, anchor="mm")
    y = top + 138
    note = note_text(game, language)
    room = WIDTH - 2 * MARGIN - 32
    for line in wrap_to_width(draw, note, font(20, bold=True), room) if note else []:
        draw.text((MARGIN + 16, y), line, fill=HIGHLIGHT, font=font(20, bold=True), anchor="lm")
        y += 28
    items = legend_items(marks, language)
    if items:
        draw_legend(draw, MARGIN + 16, max(y, top + 172), items, 20, WIDTH - MARGIN - 16)


def _short(name: str) -> str:
    return fit_text(displayable(name), 14)


@cache
def _indexed_page() -> Image.Image:
    return new_canvas(WIDTH, HEIGHT)[0].quantize(palette=PALETTE, dither=Image.Dither.NONE)


# The header and the panel hold all the text, the smoothed drawing of a render besides the board: only they are
# drawn in RGB and quantized; the board band is put together in the palette's indices.
HEADER_BOX = (0, 0, WIDTH, BOARD_TOP)
PANEL_BOX = (0, PANEL_TOP, WIDTH, HEIGHT)


def render(
    game: iago.IagoGame,
    names: tuple[str, str],
    language: str = "en",
    *,
    layout: str = "landscape",
    highlight: Iterable[str] = (),
    suggestion: str | None = None,
    played: str | None = None,
) -> bytes:
    """PNG of the board, the player to move and both scores, its words in ``language``; reads the game and never
    changes it.

    ``layout``: "landscape" or "portrait", the same picture (it reads on a phone as it is). ``highlight``: cells
    ("E4", or moves "call E4") to ring as candidates. ``suggestion``: a move marked with a star, not played (a hint,
    or the better move of an analysis). ``played``: a move marked with a cross (the move an analysis reviews, on
    the position before it)."""
    if layout not in LAYOUTS:
        raise ValueError(f"A layout is one of {', '.join(LAYOUTS)}, not {layout!r}.")
    marks = Marks.of(highlight, suggestion, played)
    names = shown_names(names, language)
    image, draw = new_canvas(WIDTH, HEIGHT)
    sides = (Side(names[0], DARK_PIECE), Side(names[1], LIGHT_PIECE))
    draw_header(draw, WIDTH, sides, game.turn, status(game, language), status_size=20)
    _draw_panel(draw, game, names, language, marks)
    page = _indexed_page().copy()
    page.paste(_draw_board(game, marks), (0, BOARD_TOP))
    for box in (HEADER_BOX, PANEL_BOX):
        page.paste(image.crop(box).quantize(palette=PALETTE, dither=Image.Dither.NONE), box)
    return encode_indexed(page)


__all__ = ["HEIGHT", "WIDTH", "alt_text", "cell_center", "note_text", "render", "ringed", "text_board"]
