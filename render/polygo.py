"""Polygo board image: go board, stones, last block, the die and its blocks, polygons and the score breakdown.

Pure functions of the game: they read the engine's public API and never mutate it.
"""

from __future__ import annotations

import math
from functools import cache

from PIL import Image, ImageDraw

from engines.polygo import BLOCKS, COLUMNS, PolygoGame, parse_point
from locales import N_, ntr, tr
from render.base import (
    BASE_COLOURS,
    BASE_EDGES,
    DARK_PIECE,
    HEADER_HEIGHT,
    HIGHLIGHT,
    INK,
    LIGHT_PIECE,
    MARGIN,
    MUTED,
    PANEL,
    BoardDraw,
    Side,
    blend,
    displayable,
    draw_header,
    encode_indexed,
    fit_text,
    fixed_palette,
    font,
    new_canvas,
    shown_names,
    to_png,
)

WIDTH = 1000
BOARD_PX = 720  # the square holding the grid and its coordinates
COORD_BAND = 26
BOARD_PAD = 4
PANEL_X = MARGIN + BOARD_PX + 14
PANEL_W = WIDTH - PANEL_X - MARGIN
HEIGHT = HEADER_HEIGHT + BOARD_PX + MARGIN

WOOD = (222, 184, 112)
GRID = (70, 52, 30)
# Okabe-Ito bluish green and vermilion: apart from each other, from the stones and from the blue last-block mark
POLYGON_COLOURS = ((0, 158, 115), (213, 94, 0))
STONE_COLOURS = (DARK_PIECE, LIGHT_PIECE)
STAR_POINTS = {19: (3, 9, 15), 13: (3, 6, 9), 9: (2, 4, 6)}
AREA_COLOURS = tuple(blend(colour, WOOD, 0.35) for colour in POLYGON_COLOURS)  # a polygon's inside: tinted wood
BLACK_STONE_RIM = (0, 0, 0)
# Text is the only smoothed drawing here: coordinates on the wood, the panel, the countdown box and the pass note.
PALETTE = fixed_palette(
    (*BASE_COLOURS, WOOD, GRID, BLACK_STONE_RIM, *POLYGON_COLOURS, *AREA_COLOURS),
    (*BASE_EDGES, (GRID, WOOD), (INK, LIGHT_PIECE), (POLYGON_COLOURS[1], PANEL)),
)


# ---------------------------------------------------------------------------------------------- layout


def _spacing(size: int) -> float:
    # half a step of wood between the outer lines and the coordinates, so edge stones never cover a label
    return (BOARD_PX - 2 * COORD_BAND - 2 * BOARD_PAD) / size


def _origin(size: int) -> tuple[float, float]:
    inset = COORD_BAND + BOARD_PAD + _spacing(size) / 2
    return MARGIN + inset, HEADER_HEIGHT + inset


def _lattice(size: int, col: float, row: float) -> tuple[float, float]:
    """Pixel centre of lattice coordinates (col, row), row 0 at the bottom as on a go board."""
    step = _spacing(size)
    x0, y0 = _origin(size)
    return x0 + col * step, y0 + (size - 1 - row) * step


def point_center(game: PolygoGame, point: str) -> tuple[float, float]:
    col, row = parse_point(point)
    return _lattice(game.size, col, row)


# ------------------------------------------------------------------------------------------------ board


def _draw_board(draw: ImageDraw.ImageDraw, size: int, wood: tuple[int, int, int] = WOOD) -> None:
    top = HEADER_HEIGHT
    draw.rectangle((MARGIN, top, MARGIN + BOARD_PX, top + BOARD_PX), fill=wood)
    label_font = font(15 if size == 19 else 17, bold=True)
    for index in range(size):
        x, _ = _lattice(size, index, 0)
        for y in (top + COORD_BAND / 2, top + BOARD_PX - COORD_BAND / 2):
            draw.text((x, y), COLUMNS[index], fill=GRID, font=label_font, anchor="mm")
        _, y = _lattice(size, 0, index)
        for x in (MARGIN + COORD_BAND / 2, MARGIN + BOARD_PX - COORD_BAND / 2):
            draw.text((x, y), str(index + 1), fill=GRID, font=label_font, anchor="mm")


@cache
def _empty_board(size: int, wood: tuple[int, int, int] = WOOD) -> Image.Image:
    """The page with the empty board (wood, coordinates, grid, star points) and the panel's background, drawn
    once per size and copied per render. With a polygon's tint as `wood` it is the board under that polygon."""
    image, draw = new_canvas(WIDTH, HEIGHT)
    _draw_board(draw, size, wood)
    _draw_grid(draw, size)
    draw.rounded_rectangle((PANEL_X, HEADER_HEIGHT, PANEL_X + PANEL_W, HEADER_HEIGHT + BOARD_PX), radius=10, fill=PANEL)
    return image


@cache
def _indexed_board(size: int, wood: tuple[int, int, int] = WOOD) -> Image.Image:
    """`_empty_board` in the palette's indices."""
    return _empty_board(size, wood).quantize(palette=PALETTE, dither=Image.Dither.NONE)


def _draw_grid(draw: ImageDraw.ImageDraw, size: int) -> None:
    for index in range(size):
        x0, y0 = _lattice(size, 0, index)
        x1, _ = _lattice(size, size - 1, index)
        draw.line((x0, y0, x1, y0), fill=GRID, width=2 if index in (0, size - 1) else 1)
        x, y_top = _lattice(size, index, size - 1)
        _, y_bottom = _lattice(size, index, 0)
        draw.line((x, y_top, x, y_bottom), fill=GRID, width=2 if index in (0, size - 1) else 1)
    stars = STAR_POINTS[size]
    for col in stars:
        for row in stars:
            if size == 9 and (col == 4) != (row == 4):
                continue  # 9x9 has the four corners' stars and the centre only
            x, y = _lattice(size, col, row)
            draw.ellipse((x - 4, y - 4, x + 4, y + 4), fill=GRID)


def _paste_polygon_area(image: Image.Image, game: PolygoGame, player: int) -> None:
    """Tint the wood inside a polygon, under the grid lines: the board drawn in the tint shows through the
    polygon's shape."""
    polygon = game.polygon(player)
    if polygon is None:
        return
    corners = [_lattice(game.size, col, row) for col, row in polygon["outline"]]
    left, top = math.floor(min(x for x, _ in corners)), math.floor(min(y for _, y in corners))
    box = (left, top, math.ceil(max(x for x, _ in corners)) + 1, math.ceil(max(y for _, y in corners)) + 1)
    mask = Image.new("L", (box[2] - left, box[3] - top), 0)
    # shifted by whole pixels, the polygon covers the same pixels as when drawn on the page
    ImageDraw.Draw(mask).polygon([(x - left, y - top) for x, y in corners], fill=255)
    image.paste(_indexed_board(game.size, AREA_COLOURS[player]).crop(box), box, mask)


def _draw_polygon_outline(draw: ImageDraw.ImageDraw, game: PolygoGame, player: int) -> None:
    polygon = game.polygon(player)
    if polygon is None:
        return
    corners = [_lattice(game.size, col, row) for col, row in polygon["outline"]]
    draw.line([*corners, corners[0]], fill=POLYGON_COLOURS[player], width=6, joint="curve")


def _draw_stones(draw: ImageDraw.ImageDraw, game: PolygoGame) -> None:
    radius = _spacing(game.size) * 0.46
    for col in range(game.size):
        for row in range(game.size):
            owner = game.stone((col, row))
            if owner is None:
                continue
            x, y = _lattice(game.size, col, row)
            outline = INK if owner == 1 else BLACK_STONE_RIM
            box = (x - radius, y - radius, x + radius, y + radius)
            draw.ellipse(box, fill=STONE_COLOURS[owner], outline=outline, width=2)


def _draw_marks(draw: ImageDraw.ImageDraw, game: PolygoGame) -> None:
    """Polygon stones ringed and territory squared in the owner's colour; the last block dotted in blue."""
    step = _spacing(game.size)
    for player in (0, 1):
        polygon = game.polygon(player)
        if polygon is None:
            continue
        colour = POLYGON_COLOURS[player]
        ring = step * 0.46
        for name in polygon["stones"]:
            x, y = point_center(game, name)
            draw.ellipse((x - ring, y - ring, x + ring, y + ring), outline=colour, width=4)
        half = step * 0.13
        for name in polygon["territory"]:
            x, y = point_center(game, name)
            draw.rectangle((x - half, y - half, x + half, y + half), fill=colour, outline=INK)
    dot = step * 0.17
    for name in game.last_block:
        x, y = point_center(game, name)
        draw.ellipse((x - dot, y - dot, x + dot, y + dot), fill=HIGHLIGHT, outline=LIGHT_PIECE, width=2)


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


def _draw_face_and_blocks(
    draw: ImageDraw.ImageDraw,
    x: float,
    y: float,
    face: int,
    colour: tuple[int, int, int],
    die: float,
    cell: float,
    language: str,
) -> float:
    """The die and the block or blocks it allows, side by side; returns the height used."""
    _draw_die(draw, x, y, die, face)
    bx = x + die + 16
    shapes = PolygoGame.blocks_for(face)
    tallest = max(max(r for _, r in shape) + 1 for shape in shapes) * cell
    for index, shape in enumerate(shapes):
        if index:
            draw.text((bx + 4, y + die / 2), tr(language, "or"), fill=MUTED, font=font(16), anchor="lm")
            bx += 30
        shape_h = (max(r for _, r in shape) + 1) * cell
        bx += _draw_block(draw, bx, y + (die - shape_h) / 2, cell, shape, colour) + 6
    return max(die, tallest)


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


def _text(draw: ImageDraw.ImageDraw, x: float, y: float, text: str, size: int = 17, **kw: object) -> float:
    """Draw one line; returns the y of the next line."""
    fill = kw.get("fill", INK)
    bold = bool(kw.get("bold", False))
    draw.text((x, y), text, fill=fill, font=font(size, bold=bold))  # type: ignore[arg-type]
    return y + size + 7


def _player_label(names: tuple[str, str], player: int) -> str:
    return fit_text(displayable(names[player]), 16)


def _draw_panel(draw: ImageDraw.ImageDraw, game: PolygoGame, names: tuple[str, str], language: str) -> None:
    x = PANEL_X + 12
    y = HEADER_HEIGHT + 12.0
    heading = tr(language, "{title} {size}×{size}", title=tr(language, "Polygo"), size=game.size)
    y = _text(draw, x, y, heading, 20, bold=True)
    if game.opening is not None:
        first = game.first_player
        assert first is not None
        dice = tr(language, "Opening dice: {black} - {white}", black=game.opening[0], white=game.opening[1])
        y = _text(draw, x, y, dice, 16, fill=MUTED)
        y = _text(draw, x, y, tr(language, "{name} began", name=_player_label(names, first)), 16, fill=MUTED)
    if game.last_block:
        dot = 7
        draw.ellipse((x, y + 3, x + 2 * dot, y + 3 + 2 * dot), fill=HIGHLIGHT, outline=INK)
        last = tr(language, "last: {points}", points=" ".join(game.last_block))
        y = _text(draw, x + 22, y, last, 15, fill=MUTED)
    y += 6
    y = _draw_turn_section(draw, game, names, x, y, language)
    y = _draw_countdown(draw, game, names, x, y, language)
    _draw_scores(draw, game, names, x, y + 6, language)


def _draw_turn_section(
    draw: ImageDraw.ImageDraw, game: PolygoGame, names: tuple[str, str], x: float, y: float, language: str
) -> float:
    if game.is_over:
        return y
    if game.turn is not None and game.die is not None:
        player = game.turn
        y = _text(draw, x, y, tr(language, "{name} places", name=_player_label(names, player)), 18, bold=True)
        rolled = tr(language, "rolled {face}: {block}", face=game.die, block=tr(language, BLOCKS[game.die].short))
        y = _text(draw, x, y, rolled, 15, fill=MUTED)
        used = _draw_face_and_blocks(draw, x, y, game.die, STONE_COLOURS[player], 56, 22, language)
        y += used + 8
        if game.legal_moves() == ["pass"]:
            y = _text(draw, x, y, tr(language, "It fits nowhere: pass"), 16, fill=POLYGON_COLOURS[1], bold=True)
        return y
    if game.to_roll is not None:
        y = _text(draw, x, y, tr(language, "{name} rolls next", name=_player_label(names, game.to_roll)), 18, bold=True)
        return y
    return _text(draw, x, y, tr(language, "Waiting for the opening dice"), 16, fill=MUTED)


def _draw_countdown(
    draw: ImageDraw.ImageDraw, game: PolygoGame, names: tuple[str, str], x: float, y: float, language: str
) -> float:
    left = game.extra_turns_left
    if left is None or game.is_over:
        return y
    finisher = 0 if game.finished[0] else 1
    other = 1 - finisher
    y += 4
    draw.rounded_rectangle((x - 4, y - 4, PANEL_X + PANEL_W - 8, y + 54), radius=8, fill=LIGHT_PIECE)
    y = _text(draw, x + 4, y, tr(language, "{name} finished!", name=_player_label(names, finisher)), 17, bold=True)
    turns = ntr(
        language, "{name}: {count} turn left", "{name}: {count} turns left", left, name=_player_label(names, other)
    )
    y = _text(draw, x + 4, y, turns, 17, fill=INK)
    return y + 6


def _draw_scores(
    draw: ImageDraw.ImageDraw, game: PolygoGame, names: tuple[str, str], x: float, y: float, language: str
) -> None:
    heading = tr(language, "Score") if not game.is_over else tr(language, "Final score")
    y = _text(draw, x, y, heading, 18, bold=True)
    scores = game.scores()
    for player in (0, 1):
        radius = 9
        draw.ellipse((x, y + 2, x + 2 * radius, y + 2 + 2 * radius), fill=STONE_COLOURS[player], outline=INK, width=2)
        label = fit_text(displayable(names[player]), 13)
        draw.text((PANEL_X + PANEL_W - 12, y), str(scores[player]), fill=INK, font=font(17, bold=True), anchor="ra")
        y = _text(draw, x + 26, y, label, 17, bold=True)
        polygon = game.polygon(player)
        if polygon is None:
            y = _text(draw, x + 26, y, tr(language, "no polygon"), 15, fill=MUTED)
            continue
        stones, territory = len(polygon["stones"]), len(polygon["territory"])
        swatch = POLYGON_COLOURS[player]
        draw.rectangle((x + 4, y + 3, x + 16, y + 15), fill=swatch, outline=INK)
        breakdown = tr(language, "{stones} stones + 2×{territory} territory", stones=stones, territory=territory)
        y = _text(draw, x + 26, y, breakdown, 15)
        if game.first_finisher == player:
            y = _text(draw, x + 26, y, tr(language, "+ 4 for finishing first"), 15)
    if game.is_over:
        y += 4
        for line in result_lines(game, names, language):
            y = _text(draw, x, y, line, 16, bold=True)


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
        tr(language, "{score0} to {score1}", score0=result.scores[0], score1=result.scores[1]),
    ]


# ----------------------------------------------------------------------------------------------- public


# Where the smoothed drawing (text) of a render is: the header and the panel. The board's polygons, stones and marks
# are hard-edged shapes in palette colours, so they are drawn straight onto the palette image, which is what
# quantizing them would give; only these two boxes are drawn in RGB and quantized (a third of the pixels).
HEADER_BOX = (0, 0, WIDTH, HEADER_HEIGHT)
PANEL_BOX = (PANEL_X, HEADER_HEIGHT, WIDTH, HEIGHT)


def render(game: PolygoGame, names: tuple[str, str], language: str = "en") -> bytes:
    """The board as PNG bytes, its words in ``language``; reads the game only."""
    names = shown_names(names, language)
    board = _indexed_board(game.size).copy()
    for player in (0, 1):
        _paste_polygon_area(board, game, player)
    draw = ImageDraw.Draw(board)
    for player in (0, 1):
        _draw_polygon_outline(draw, game, player)
    _draw_stones(draw, game)
    _draw_marks(draw, game)
    text = _empty_board(game.size).copy()
    text_draw = BoardDraw(text)
    sides = (Side(names[0], DARK_PIECE), Side(names[1], LIGHT_PIECE))
    mover = game.turn if game.turn is not None else game.to_roll
    draw_header(text_draw, WIDTH, sides, mover, status(game, names, language))
    _draw_panel(text_draw, game, names, language)
    for box in (HEADER_BOX, PANEL_BOX):
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
