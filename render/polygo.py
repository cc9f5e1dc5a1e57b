"""Polygo board image: go board, stones, last block, the die and its blocks, polygons and the score breakdown.

Two layouts: ``landscape`` (the panel beside the board, for a desktop) and ``portrait`` (the panel under the board,
the board 96% of the width and every word at least 10 px tall when the image is shown 400 px wide, for a phone).
Marks a caller asks for (where the rolled block fits, a suggested move, the move played) are drawn on the
position as it is: see render/marks.py.

Pure functions of the game: they read the engine's public API and never mutate it.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache

from PIL import Image, ImageDraw

from engines.polygo import BLOCKS, COLUMNS, PolygoGame, parse_point
from locales import N_, ntr, tr
from render.base import (
    BASE_COLOURS,
    BASE_EDGES,
    CANDIDATE,
    DARK_PIECE,
    HEADER_HEIGHT,
    HIGHLIGHT,
    INK,
    LIGHT_PIECE,
    MARGIN,
    MUTED,
    PANEL,
    BoardDraw,
    PaletteDraw,
    Side,
    blend,
    displayable,
    draw_header,
    encode_indexed,
    fit_text,
    fixed_palette,
    font,
    new_canvas,
    palette_index,
    shown_names,
    to_png,
    winner_first,
)
from render.marks import CANDIDATE_MARK, PLAYED_MARK, SUGGESTED_MARK, Marks, draw_legend, draw_mark, legend_items
from render.polygo_text import alt_text, text_board

WOOD = (222, 184, 112)
GRID = (70, 52, 30)
# Okabe-Ito bluish green and vermilion: apart from each other, from the stones and from the blue last-block mark.
# Red-blind and green-blind eyes see the two closer (a CIEDE2000 difference of 18-20), and the tinted insides hardly
# apart from the wood (6-10), so the polygons also differ in pattern: a polygon's inside is striped in a dark shade
# of its colour (Black's falling to the right, White's rising), its territory marked with squares (Black's) or
# diamonds (White's).
POLYGON_COLOURS = ((0, 158, 115), (213, 94, 0))
STONE_COLOURS = (DARK_PIECE, LIGHT_PIECE)
STAR_POINTS = {19: (3, 9, 15), 13: (3, 6, 9), 9: (2, 4, 6)}
AREA_COLOURS = tuple(blend(colour, WOOD, 0.35) for colour in POLYGON_COLOURS)  # a polygon's inside: tinted wood
AREA_HATCH = ((0, 110, 80), (160, 60, 0))  # the stripes across a polygon's inside: 25-55 from wood and tints
BLACK_STONE_RIM = (0, 0, 0)
# Text is the only smoothed drawing here: coordinates on the wood, the panel, the countdown box and the pass note.
PALETTE = fixed_palette(
    (*BASE_COLOURS, WOOD, GRID, BLACK_STONE_RIM, *POLYGON_COLOURS, *AREA_COLOURS, *AREA_HATCH, CANDIDATE),
    (*BASE_EDGES, (GRID, WOOD), (INK, LIGHT_PIECE), (POLYGON_COLOURS[1], PANEL)),
)
PALETTE_INDEX = palette_index(PALETTE)


# ---------------------------------------------------------------------------------------------- layout


@dataclass(frozen=True)
class Layout:
    """Where everything goes in one layout. Sizes of panel text are the landscape ones plus ``grow``."""

    name: str
    width: int
    height: int
    board_px: int  # the square holding the grid and its coordinates
    board_top: int
    coord_band: int
    label_sizes: tuple[int, int]  # coordinates on 19x19, on the smaller boards
    panel: tuple[int, int, int, int]  # left, top, right, bottom of the panel's background
    grow: int
    status_size: int
    die: int
    block_cell: int
    columns: bool  # the panel's words in two columns (under the board) rather than one (beside it)

    @property
    def board_left(self) -> int:
        return MARGIN


BOARD_PX = 720
LANDSCAPE = Layout(
    name="landscape",
    width=1000,
    height=HEADER_HEIGHT + BOARD_PX + MARGIN,
    board_px=BOARD_PX,
    board_top=HEADER_HEIGHT,
    coord_band=26,
    label_sizes=(15, 17),
    panel=(MARGIN + BOARD_PX + 14, HEADER_HEIGHT, 1000 - MARGIN, HEADER_HEIGHT + BOARD_PX),
    grow=0,
    status_size=18,
    die=56,
    block_cell=22,
    columns=False,
)
PORTRAIT_BOARD = 768
PORTRAIT_PANEL_TOP = HEADER_HEIGHT + PORTRAIT_BOARD + 12
PORTRAIT_PANEL_HEIGHT = 372  # the tallest column of 120 seeded games (304 px), then a legend line
PORTRAIT = Layout(
    name="portrait",
    width=800,
    height=PORTRAIT_PANEL_TOP + PORTRAIT_PANEL_HEIGHT + MARGIN,
    board_px=PORTRAIT_BOARD,
    board_top=HEADER_HEIGHT,
    coord_band=32,
    label_sizes=(20, 22),
    panel=(MARGIN, PORTRAIT_PANEL_TOP, 800 - MARGIN, PORTRAIT_PANEL_TOP + PORTRAIT_PANEL_HEIGHT),
    grow=5,
    status_size=20,
    die=64,
    block_cell=26,
    columns=True,
)
LAYOUTS = {layout.name: layout for layout in (LANDSCAPE, PORTRAIT)}

# The landscape layout's figures, as the module has always exported them.
WIDTH = LANDSCAPE.width
HEIGHT = LANDSCAPE.height
COORD_BAND = LANDSCAPE.coord_band
BOARD_PAD = 4
PANEL_X = LANDSCAPE.panel[0]
PANEL_W = LANDSCAPE.panel[2] - PANEL_X


def layout_of(name: str) -> Layout:
    try:
        return LAYOUTS[name]
    except KeyError:
        raise ValueError(f"A layout is one of {', '.join(LAYOUTS)}, not {name!r}.") from None


def _spacing(size: int, layout: Layout = LANDSCAPE) -> float:
    # half a step of wood between the outer lines and the coordinates, so edge stones never cover a label
    return (layout.board_px - 2 * layout.coord_band - 2 * BOARD_PAD) / size


def _origin(size: int, layout: Layout = LANDSCAPE) -> tuple[float, float]:
    inset = layout.coord_band + BOARD_PAD + _spacing(size, layout) / 2
    return layout.board_left + inset, layout.board_top + inset


def _lattice(size: int, col: float, row: float, layout: Layout = LANDSCAPE) -> tuple[float, float]:
    """Pixel centre of lattice coordinates (col, row), row 0 at the bottom as on a go board."""
    step = _spacing(size, layout)
    x0, y0 = _origin(size, layout)
    return x0 + col * step, y0 + (size - 1 - row) * step


def point_center(game: PolygoGame, point: str, layout: str = "landscape") -> tuple[float, float]:
    col, row = parse_point(point)
    return _lattice(game.size, col, row, layout_of(layout))


# ------------------------------------------------------------------------------------------------ board


def _draw_board(
    draw: ImageDraw.ImageDraw, size: int, wood: tuple[int, int, int] = WOOD, layout: Layout = LANDSCAPE
) -> None:
    top, left, side = layout.board_top, layout.board_left, layout.board_px
    draw.rectangle((left, top, left + side, top + side), fill=wood)
    label_font = font(layout.label_sizes[0] if size == 19 else layout.label_sizes[1], bold=True)
    band = layout.coord_band
    for index in range(size):
        x, _ = _lattice(size, index, 0, layout)
        for y in (top + band / 2, top + side - band / 2):
            draw.text((x, y), COLUMNS[index], fill=GRID, font=label_font, anchor="mm")
        _, y = _lattice(size, 0, index, layout)
        for x in (left + band / 2, left + side - band / 2):
            draw.text((x, y), str(index + 1), fill=GRID, font=label_font, anchor="mm")


@cache
def _empty_board(size: int, layout: Layout = LANDSCAPE) -> Image.Image:
    """The page with the empty board (wood, coordinates, grid, star points) and the panel's background, drawn
    once per size and layout and copied per render: the canvas of a render's words."""
    return _draw_empty_board(size, WOOD, layout, None)


def _draw_empty_board(size: int, wood: tuple[int, int, int], layout: Layout, hatch: int | None) -> Image.Image:
    """The empty board page; with a polygon's tint as `wood` and its player as `hatch`, the board under that
    player's polygon."""
    image, draw = new_canvas(layout.width, layout.height)
    _draw_board(draw, size, wood, layout)
    if hatch is not None:
        _draw_hatch(draw, layout, hatch)
    _draw_grid(draw, size, layout)
    draw.rounded_rectangle(layout.panel, radius=10, fill=PANEL)
    return image


HATCH_STEP = 14  # px between stripes: a stripe three pixels wide covers about a fifth of the inside


def _draw_hatch(draw: ImageDraw.ImageDraw, layout: Layout, player: int) -> None:
    """Diagonal stripes over the whole board, pasted through a polygon's shape: falling to the right for Black,
    rising for White."""
    left, top, side = layout.board_left, layout.board_top, layout.board_px
    for offset in range(-side, side, HATCH_STEP):
        if player == 0:
            line = (left + offset, top, left + offset + side, top + side)
        else:
            line = (left + offset, top + side, left + offset + side, top)
        draw.line(line, fill=AREA_HATCH[player], width=3)


@cache
def _indexed_board(
    size: int, wood: tuple[int, int, int] = WOOD, layout: Layout = LANDSCAPE, hatch: int | None = None
) -> Image.Image:
    """The empty board page in the palette's indices (a tinted one is drawn for this only: its RGB page is not
    kept, 2.4 MB a page)."""
    plain = wood == WOOD and hatch is None
    page = _empty_board(size, layout) if plain else _draw_empty_board(size, wood, layout, hatch)
    return page.quantize(palette=PALETTE, dither=Image.Dither.NONE)


def _draw_grid(draw: ImageDraw.ImageDraw, size: int, layout: Layout = LANDSCAPE) -> None:
    for index in range(size):
        x0, y0 = _lattice(size, 0, index, layout)
        x1, _ = _lattice(size, size - 1, index, layout)
        draw.line((x0, y0, x1, y0), fill=GRID, width=2 if index in (0, size - 1) else 1)
        x, y_top = _lattice(size, index, size - 1, layout)
        _, y_bottom = _lattice(size, index, 0, layout)
        draw.line((x, y_top, x, y_bottom), fill=GRID, width=2 if index in (0, size - 1) else 1)
    stars = STAR_POINTS[size]
    for col in stars:
        for row in stars:
            if size == 9 and (col == 4) != (row == 4):
                continue  # 9x9 has the four corners' stars and the centre only
            x, y = _lattice(size, col, row, layout)
            draw.ellipse((x - 4, y - 4, x + 4, y + 4), fill=GRID)


def _paste_polygon_area(image: Image.Image, game: PolygoGame, player: int, layout: Layout) -> None:
    """Tint the wood inside a polygon, under the grid lines: the board drawn in the tint shows through the
    polygon's shape, striped."""
    polygon = game.polygon(player)
    if polygon is None:
        return
    corners = [_lattice(game.size, col, row, layout) for col, row in polygon["outline"]]
    left, top = math.floor(min(x for x, _ in corners)), math.floor(min(y for _, y in corners))
    box = (left, top, math.ceil(max(x for x, _ in corners)) + 1, math.ceil(max(y for _, y in corners)) + 1)
    mask = Image.new("L", (box[2] - left, box[3] - top), 0)
    # shifted by whole pixels, the polygon covers the same pixels as when drawn on the page
    ImageDraw.Draw(mask).polygon([(x - left, y - top) for x, y in corners], fill=255)
    tinted = _indexed_board(game.size, AREA_COLOURS[player], layout, player)
    image.paste(tinted.crop(box), box, mask)


def _draw_polygon_outline(draw: ImageDraw.ImageDraw, game: PolygoGame, player: int, layout: Layout) -> None:
    polygon = game.polygon(player)
    if polygon is None:
        return
    corners = [_lattice(game.size, col, row, layout) for col, row in polygon["outline"]]
    draw.line([*corners, corners[0]], fill=POLYGON_COLOURS[player], width=6, joint="curve")


def _draw_stones(draw: ImageDraw.ImageDraw, game: PolygoGame, layout: Layout) -> None:
    radius = _spacing(game.size, layout) * 0.46
    for owner in (0, 1):  # stones never overlap: the order they are drawn in changes no pixel
        outline = INK if owner == 1 else BLACK_STONE_RIM
        for col, row in game.stones_of(owner):
            x, y = _lattice(game.size, col, row, layout)
            box = (x - radius, y - radius, x + radius, y + radius)
            draw.ellipse(box, fill=STONE_COLOURS[owner], outline=outline, width=2)


def territory_mark(draw: ImageDraw.ImageDraw, player: int, x: float, y: float, half: float) -> None:
    """A square on Black's territory, a diamond on White's, in the polygon's colour."""
    colour = POLYGON_COLOURS[player]
    if player == 0:
        draw.rectangle((x - half, y - half, x + half, y + half), fill=colour, outline=INK)
    else:
        reach = half * 1.4
        draw.polygon([(x, y - reach), (x + reach, y), (x, y + reach), (x - reach, y)], fill=colour, outline=INK)


def _draw_marks(draw: ImageDraw.ImageDraw, game: PolygoGame, layout: Layout) -> None:
    """Polygon stones ringed and territory marked in the owner's colour; the last block dotted in blue."""
    step = _spacing(game.size, layout)
    for player in (0, 1):
        polygon = game.polygon(player)
        if polygon is None:
            continue
        colour = POLYGON_COLOURS[player]
        ring = step * 0.46
        for name in polygon["stones"]:
            x, y = point_center(game, name, layout.name)
            draw.ellipse((x - ring, y - ring, x + ring, y + ring), outline=colour, width=4)
        for name in polygon["territory"]:
            x, y = point_center(game, name, layout.name)
            territory_mark(draw, player, x, y, step * 0.13)
    dot = step * 0.17
    for name in game.last_block:
        x, y = point_center(game, name, layout.name)
        draw.ellipse((x - dot, y - dot, x + dot, y + dot), fill=HIGHLIGHT, outline=LIGHT_PIECE, width=2)


def points_of(move: str | None) -> list[tuple[int, int]]:
    """The points of a placement ("D4 D5 E5"); none for a pass, a roll or no move."""
    if not move:
        return []
    tokens = move.replace(",", " ").split()
    if tokens[0].lower() in ("pass", "roll", "open"):
        return []
    return [parse_point(token) for token in tokens]


def ringed(highlight: Iterable[str]) -> list[tuple[int, int]]:
    """The points a ``highlight`` rings, as (column, row): every point of each placement (a point alone, such as an
    anchor, is a placement of one point)."""
    return sorted({point for move in highlight for point in points_of(move)})


def _draw_requested(draw: ImageDraw.ImageDraw, game: PolygoGame, marks: Marks, layout: Layout) -> None:
    """Candidate rings on every point a highlighted placement covers, crosses on the played block, stars on the
    suggested one (smaller, over a cross on the same point)."""
    step = _spacing(game.size, layout)
    for col, row in ringed(marks.highlight):
        x, y = _lattice(game.size, col, row, layout)
        draw_mark(draw, CANDIDATE_MARK, x, y, step * 0.22, edge=1)
    played = set(points_of(marks.played))
    for col, row in played:
        x, y = _lattice(game.size, col, row, layout)
        draw_mark(draw, PLAYED_MARK, x, y, step * 0.42)
    for col, row in points_of(marks.suggestion):
        x, y = _lattice(game.size, col, row, layout)
        draw_mark(draw, SUGGESTED_MARK, x, y, step * (0.3 if (col, row) in played else 0.42))


# ----------------------------------------------------------------------------------------- dice, blocks

PIPS = {
    1: ((0.5, 0.5),),
    2: ((0.27, 0.27), (0.73, 0.73)),
    3: ((0.25, 0.25), (0.5, 0.5), (0.75, 0.75)),
    4: ((0.27, 0.27), (0.73, 0.27), (0.27, 0.73), (0.73, 0.73)),
    5: ((0.25, 0.25), (0.75, 0.25), (0.5, 0.5), (0.25, 0.75), (0.75, 0.75)),
    6: ((0.27, 0.22), (0.73, 0.22), (0.27, 0.5), (0.73, 0.5), (0.27, 0.78), (0.73, 0.78)),
}


def _draw_die(draw: ImageDraw.ImageDraw, x: float, y: float, side: float, face: int) -> None:
    draw.rounded_rectangle((x, y, x + side, y + side), radius=side * 0.18, fill=LIGHT_PIECE, outline=INK, width=3)
    pip = side * 0.09
    for px, py in PIPS[face]:
        cx, cy = x + px * side, y + py * side
        draw.ellipse((cx - pip, cy - pip, cx + pip, cy + pip), fill=INK)


def _draw_block(
    draw: ImageDraw.ImageDraw,
    x: float,
    y: float,
    cell: float,
    shape: list[tuple[int, int]],
    colour: tuple[int, int, int],
) -> float:
    """A block as small linked stones with its lowest row at the bottom; returns the width used."""
    height = max(row for _, row in shape)
    centres = {(c, r): (x + (c + 0.5) * cell, y + (height - r + 0.5) * cell) for c, r in shape}
    for (c, r), (cx, cy) in centres.items():
        for neighbour in ((c + 1, r), (c, r + 1)):
            if neighbour in centres:
                nx, ny = centres[neighbour]
                draw.line((cx, cy, nx, ny), fill=INK, width=max(2, int(cell * 0.12)))
    radius = cell * 0.42
    for cx, cy in centres.values():
        draw.ellipse((cx - radius, cy - radius, cx + radius, cy + radius), fill=colour, outline=INK, width=2)
    return (max(c for c, _ in shape) + 1) * cell


BLOCK_GAP = 6


def blocks_width(face: int, die: float, cell: float, or_width: float) -> float:
    """How wide the die and its block or blocks are drawn side by side, ``or_width`` between two blocks."""
    shapes = PolygoGame.blocks_for(face)
    columns = sum(max(c for c, _ in shape) + 1 for shape in shapes)
    return die + 16 + columns * cell + len(shapes) * BLOCK_GAP + (len(shapes) - 1) * or_width


def _draw_face_and_blocks(
    draw: ImageDraw.ImageDraw,
    x: float,
    y: float,
    face: int,
    colour: tuple[int, int, int],
    die: float,
    cell: float,
    language: str,
    room: float | None = None,
    text_size: int = 16,
) -> float:
    """The die and the block or blocks it allows, side by side, the blocks' stones made smaller when they would
    not fit in ``room``; returns the height used."""
    shapes = PolygoGame.blocks_for(face)
    word = tr(language, "or")
    or_width = max(30.0, draw.textlength(word, font=font(text_size)) + 14)
    if room is not None:
        columns = sum(max(c for c, _ in shape) + 1 for shape in shapes)
        cell = min(cell, (room - blocks_width(face, die, 0, or_width)) / columns)
    tallest = max(max(r for _, r in shape) + 1 for shape in shapes) * cell
    used = max(die, tallest)  # a block taller than the die must not reach up into the line above
    middle = y + used / 2
    _draw_die(draw, x, middle - die / 2, die, face)
    bx = x + die + 16
    for index, shape in enumerate(shapes):
        if index:
            draw.text((bx + 4, middle), word, fill=MUTED, font=font(text_size), anchor="lm")
            bx += or_width
        shape_h = (max(r for _, r in shape) + 1) * cell
        bx += _draw_block(draw, bx, middle - shape_h / 2, cell, shape, colour) + BLOCK_GAP
    return used


# ------------------------------------------------------------------------------------------------ panel


# The engine's short block names (``Block.short``), as catalogue msgids: the panel is too narrow for the long ones.
SHORT_BLOCK_NAMES = (
    N_("domino"),
    N_("line of 3"),
    N_("bent three"),
    N_("line of 4"),
    N_("L or J four"),
    N_("S or Z four"),
)


def status(game: PolygoGame, names: tuple[str, str], language: str = "en") -> str:
    """The header's status line: the move and what is due (a roll, a placement), or the result."""
    if game.is_over:
        result = game.result()
        if result.winner is None:
            return tr(language, "Draw")
        return tr(language, "{name} wins", name=fit_text(displayable(names[result.winner]), 14))
    if game.to_roll is not None:
        return tr(language, "Move {number} · roll", number=len(game.moves) + 1)
    if game.turn is not None:
        return tr(language, "Move {number} · place", number=len(game.moves) + 1)
    return tr(language, "Opening roll")


class Panel:
    """Writes the panel's lines down a column: each line's size grows by the layout's ``grow``."""

    def __init__(self, draw: ImageDraw.ImageDraw, layout: Layout, x: float, y: float, right: float) -> None:
        self.draw, self.layout, self.x, self.y, self.right = draw, layout, x, y, right

    def size(self, size: int) -> int:
        return size + self.layout.grow

    def line(self, text: str, size: int = 17, indent: float = 0, **kw: object) -> float:
        """Draw one line; returns the y of the next line."""
        fill = kw.get("fill", INK)
        bold = bool(kw.get("bold", False))
        grown = self.size(size)
        self.draw.text((self.x + indent, self.y), text, fill=fill, font=font(grown, bold=bold))  # type: ignore[arg-type]
        self.y += grown + 7
        return self.y


def _player_label(names: tuple[str, str], player: int) -> str:
    return fit_text(displayable(names[player]), 16)


def _draw_panel(
    draw: ImageDraw.ImageDraw, game: PolygoGame, names: tuple[str, str], language: str, layout: Layout, marks: Marks
) -> float:
    """The panel's words; returns the lowest y written (a test keeps it inside the panel)."""
    left, top, right, bottom = layout.panel
    first = Panel(draw, layout, left + 12, top + 12.0, right - 12)
    if layout.columns:
        middle = (left + right) / 2
        first.right = middle - 8
        second = Panel(draw, layout, middle + 8, top + 12.0, right - 12)
    else:
        second = first
    heading = tr(language, "{title} {size}×{size}", title=tr(language, "Polygo"), size=game.size)
    first.line(heading, 20, bold=True)
    if game.opening is not None:
        starter = game.first_player
        assert starter is not None
        dice = tr(language, "Opening dice: {black} - {white}", black=game.opening[0], white=game.opening[1])
        first.line(dice, 16, fill=MUTED)
        first.line(tr(language, "{name} began", name=_player_label(names, starter)), 16, fill=MUTED)
    if game.last_block:
        dot = first.size(15) / 2 - 0.5
        draw.ellipse((first.x, first.y + 3, first.x + 2 * dot, first.y + 3 + 2 * dot), fill=HIGHLIGHT, outline=INK)
        last = tr(language, "last: {points}", points=" ".join(game.last_block))
        first.line(last, 15, indent=2 * dot + 8, fill=MUTED)
    first.y += 6
    _draw_turn_section(first, game, names, language)
    _draw_countdown(second, game, names, language)
    second.y += 6
    _draw_scores(second, game, names, language)
    lowest = max(first.y, second.y)
    items = legend_items(marks, language)
    if items:
        size = first.size(15)
        lines = _legend_lines(draw, items, size, right - 12 - (left + 12))
        y = bottom - 12 - (lines - 1) * (size + 8) - size / 2
        lowest = max(lowest, y - size / 2)  # the legend must start below everything else
        draw_legend(draw, left + 12, y, items, size, right - 12)
    return lowest


def _legend_lines(draw: ImageDraw.ImageDraw, items: list[tuple[str, str]], size: int, room: float) -> int:
    """How many lines ``draw_legend`` takes for ``items`` in ``room`` px."""
    lines, used = 1, 0.0
    for _, words in items:
        width = size + 6 + draw.textlength(words, font=font(size))
        if used and used + width > room:
            lines, used = lines + 1, 0.0
        used += width + 18
    return lines


def _draw_turn_section(panel: Panel, game: PolygoGame, names: tuple[str, str], language: str) -> None:
    if game.is_over:
        return
    layout = panel.layout
    if game.turn is not None and game.die is not None:
        player = game.turn
        panel.line(tr(language, "{name} places", name=_player_label(names, player)), 18, bold=True)
        rolled = tr(language, "rolled {face}: {block}", face=game.die, block=tr(language, BLOCKS[game.die].short))
        panel.line(rolled, 15, fill=MUTED)
        colour = STONE_COLOURS[player]
        room = panel.right - panel.x
        used = _draw_face_and_blocks(
            panel.draw,
            panel.x,
            panel.y,
            game.die,
            colour,
            layout.die,
            layout.block_cell,
            language,
            room,
            panel.size(16),
        )
        panel.y += used + 8
        if game.legal_moves() == ["pass"]:
            panel.line(tr(language, "It fits nowhere: pass"), 16, fill=POLYGON_COLOURS[1], bold=True)
        return
    if game.to_roll is not None:
        panel.line(tr(language, "{name} rolls next", name=_player_label(names, game.to_roll)), 18, bold=True)
        return
    panel.line(tr(language, "Waiting for the opening dice"), 16, fill=MUTED)


def _draw_countdown(panel: Panel, game: PolygoGame, names: tuple[str, str], language: str) -> None:
    left = game.extra_turns_left
    if left is None or game.is_over:
        return
    finisher = 0 if game.finished[0] else 1
    other = 1 - finisher
    panel.y += 4
    box_height = panel.size(17) * 2 + 20
    panel.draw.rounded_rectangle(
        (panel.x - 4, panel.y - 4, panel.right + 4, panel.y + box_height), radius=8, fill=LIGHT_PIECE
    )
    panel.line(tr(language, "{name} finished!", name=_player_label(names, finisher)), 17, indent=4, bold=True)
    turns = ntr(
        language, "{name}: {count} turn left", "{name}: {count} turns left", left, name=_player_label(names, other)
    )
    panel.line(turns, 17, indent=4, fill=INK)
    panel.y += 6


def _draw_scores(panel: Panel, game: PolygoGame, names: tuple[str, str], language: str) -> None:
    draw = panel.draw
    heading = tr(language, "Score") if not game.is_over else tr(language, "Final score")
    panel.line(heading, 18, bold=True)
    scores = game.scores()
    indent = panel.size(17) + 9
    for player in (0, 1):
        radius = (panel.size(17) + 1) / 2
        x, y = panel.x, panel.y
        draw.ellipse((x, y + 2, x + 2 * radius, y + 2 + 2 * radius), fill=STONE_COLOURS[player], outline=INK, width=2)
        label = fit_text(displayable(names[player]), 13)
        score_font = font(panel.size(17), bold=True)
        draw.text((panel.right, y), str(scores[player]), fill=INK, font=score_font, anchor="ra")
        panel.line(label, 17, indent=indent, bold=True)
        polygon = game.polygon(player)
        if polygon is None:
            panel.line(tr(language, "no polygon"), 15, indent=indent, fill=MUTED)
            continue
        stones, territory = len(polygon["stones"]), len(polygon["territory"])
        half = panel.size(15) * 0.4
        territory_mark(draw, player, x + radius + 1, panel.y + 3 + half, half)
        breakdown = tr(language, "{stones} stones + 2×{territory} territory", stones=stones, territory=territory)
        panel.line(breakdown, 15, indent=indent)
        if game.first_finisher == player:
            panel.line(tr(language, "+ 4 for finishing first"), 15, indent=indent)
    if game.is_over:
        panel.y += 4
        for line in result_lines(game, names, language):
            panel.line(line, 16, bold=True)


def result_lines(game: PolygoGame, names: tuple[str, str], language: str = "en") -> list[str]:
    """The panel's lines under the final score: who won and why."""
    result = game.result()
    if result.reason == "double-pass":
        return [tr(language, "Both passed: a draw")]
    if result.winner is None:
        return [tr(language, "Equal scores: a draw")]
    winner = _player_label(names, result.winner)
    if result.reason == "finish":
        return [tr(language, "{name} wins:", name=winner), tr(language, "the only polygon")]
    return [
        tr(language, "{name} wins", name=winner),
        tr(language, "{score0} to {score1}", **winner_first(result.scores, result.winner)),
    ]


# ----------------------------------------------------------------------------------------------- public


def _text_boxes(layout: Layout) -> tuple[tuple[int, int, int, int], ...]:
    """Where the smoothed drawing (text) of a render is: the header and the panel. The board's polygons, stones and
    marks are hard-edged shapes in palette colours, so they are drawn straight onto the palette image, which is what
    quantizing them would give; only these boxes are drawn in RGB and quantized (a third of the pixels)."""
    header = (0, 0, layout.width, layout.board_top)
    if layout.columns:
        return header, (0, layout.board_top + layout.board_px, layout.width, layout.height)
    return header, (layout.panel[0], layout.board_top, layout.width, layout.height)


HEADER_BOX, PANEL_BOX = _text_boxes(LANDSCAPE)


def render(
    game: PolygoGame,
    names: tuple[str, str],
    language: str = "en",
    *,
    layout: str = "landscape",
    highlight: Iterable[str] = (),
    suggestion: str | None = None,
    played: str | None = None,
) -> bytes:
    """The board as PNG bytes, its words in ``language``; reads the game only.

    ``layout``: "landscape" (the panel beside the board) or "portrait" (under it, for a phone). ``highlight``:
    placements whose points get a candidate ring (where the rolled block can go). ``suggestion``: a placement
    marked with stars, not played (a hint, or the better move of an analysis). ``played``: a placement marked with
    crosses (the move an analysis reviews, on the position before it)."""
    shape = layout_of(layout)
    marks = Marks.of(highlight, suggestion, played)
    names = shown_names(names, language)
    board = _indexed_board(game.size, WOOD, shape).copy()
    for player in (0, 1):
        _paste_polygon_area(board, game, player, shape)
    draw = PaletteDraw(board, PALETTE_INDEX)
    for player in (0, 1):
        _draw_polygon_outline(draw, game, player, shape)
    _draw_stones(draw, game, shape)
    _draw_marks(draw, game, shape)
    if marks:
        _draw_requested(draw, game, marks, shape)
    text = _empty_board(game.size, shape).copy()
    text_draw = BoardDraw(text)
    sides = (Side(names[0], DARK_PIECE), Side(names[1], LIGHT_PIECE))
    mover = game.turn if game.turn is not None else game.to_roll
    draw_header(text_draw, shape.width, sides, mover, status(game, names, language), shape.status_size)
    _draw_panel(text_draw, game, names, language, shape, marks)
    for box in _text_boxes(shape):
        board.paste(text.crop(box).quantize(palette=PALETTE, dither=Image.Dither.NONE), box)
    return encode_indexed(board)


def render_dice(face: int, language: str = "en") -> bytes:
    """A die face and the block or blocks it allows, with the block's name in ``language``."""
    if face not in BLOCKS:
        raise ValueError("A die face is 1 to 6.")
    image, draw = new_canvas(420, 150)
    draw.rounded_rectangle((4, 4, 416, 146), radius=12, fill=PANEL)
    _draw_face_and_blocks(draw, 18, 14, face, DARK_PIECE, 80, 28, language)
    draw.text((18, 128), tr(language, BLOCKS[face].name), fill=INK, font=font(17), anchor="lm")
    return to_png(image, PALETTE)


__all__ = ["HEIGHT", "WIDTH", "alt_text", "point_center", "render", "render_dice", "ringed", "text_board"]
