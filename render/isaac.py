"""ISAAC board image: the 10x10 board with both players' numbers, pieces, counters and a panel.

Black sits at the bottom (rank 1), White at the top. Every square carries its two printed numbers as
small chips: Black's number on a dark chip in the lower-left corner, White's on a light chip in the
upper-right corner, so a player of either colour can read their counter's square at a glance.

Two layouts: ``landscape`` (the panel beside the board) and ``portrait`` (the panel under it, the board 87.5% of the
width, chips and words at least 10 px tall when the image is shown 400 px wide, for a phone). Marks a caller asks
for (where a piece can go, a suggested move, the move played) are drawn on the position as it is.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cache
from typing import cast

from PIL import Image, ImageDraw, ImageFont

from engines import isaac
from locales import tr
from render.base import (
    BASE_COLOURS,
    BASE_EDGES,
    CAPTIVE_RED,
    DARK_PIECE,
    HEADER_HEIGHT,
    HIGHLIGHT,
    INK,
    LIGHT_PIECE,
    MARGIN,
    MUTED,
    PANEL,
    SUGGESTED,
    BoardDraw,
    Side,
    blend,
    displayable,
    draw_header,
    fit_text,
    fixed_palette,
    font,
    new_canvas,
    shown_names,
    to_png_over,
    winner_first,
)
from render.isaac_text import alt_text, text_board
from render.marks import CANDIDATE_MARK, PLAYED_MARK, SUGGESTED_MARK, Marks, draw_legend, draw_mark, legend_items

SQUARE_FILL = (222, 201, 160)
GRID = (150, 124, 86)
PIECE_FILL = (DARK_PIECE, LIGHT_PIECE)
PIECE_TEXT = (LIGHT_PIECE, INK)
# Black pieces get a light rim so they stand out on the grid lines; white pieces a dark one.
PIECE_OUTLINE = ((160, 160, 160), INK)
# A suggested move, not played, shows as a piece tinted sky blue (26-37 from the squares for every eye); the move
# played, in an analysis, as a piece's outline only: the two tints would be too close for red- and green-blind eyes.
GHOST_FILL = blend(SUGGESTED, SQUARE_FILL, 0.6)
PALETTE = fixed_palette(
    (*BASE_COLOURS, SQUARE_FILL, GRID, *PIECE_OUTLINE, GHOST_FILL),
    (*BASE_EDGES, (LIGHT_PIECE, DARK_PIECE), (INK, LIGHT_PIECE), (INK, SQUARE_FILL)),
)


Box = tuple[int, int, int, int]  # left, top, right, bottom


@dataclass(frozen=True)
class Layout:
    """Where everything goes in one layout; panel text sizes are the landscape ones plus ``grow``."""

    name: str
    width: int
    height: int
    cell: int
    gutter: int
    panel: Box  # the panel's background (under the board: its tallest)
    grow: int
    chip: tuple[int, int, int]  # width, height, font size of a number chip
    chip_inset: int  # px between a chip and its square's edges
    label_size: int
    value_size: int  # the value printed on a piece
    counter: tuple[int, int]  # radius, font size
    hand_unit: int  # px per square of a piece in hand
    status_size: int
    columns: bool  # the players side by side under the board (portrait), or one above the other beside it

    @property
    def board_x(self) -> int:
        return MARGIN + self.gutter

    @property
    def board_y(self) -> int:
        return HEADER_HEIGHT + self.gutter

    @property
    def board(self) -> int:
        return self.cell * isaac.SIZE


CELL = 58
GUTTER = 26
BOARD = CELL * isaac.SIZE
BOARD_X = MARGIN + GUTTER
BOARD_Y = HEADER_HEIGHT + GUTTER
PANEL_X = BOARD_X + BOARD + GUTTER + 12
WIDTH = 960
HEIGHT = BOARD_Y + BOARD + GUTTER + MARGIN
LANDSCAPE = Layout(
    name="landscape",
    width=WIDTH,
    height=HEIGHT,
    cell=CELL,
    gutter=GUTTER,
    panel=(PANEL_X, BOARD_Y, WIDTH - MARGIN, BOARD_Y + BOARD),
    grow=0,
    chip=(20, 14, 11),
    chip_inset=3,
    label_size=15,
    value_size=22,
    counter=(20, 17),
    hand_unit=16,
    status_size=18,
    columns=False,
)
PORTRAIT_CELL = 70
PORTRAIT_GUTTER = 32
PORTRAIT_PANEL_TOP = HEADER_HEIGHT + 2 * PORTRAIT_GUTTER + PORTRAIT_CELL * isaac.SIZE
# The portrait panel is as tall as what it holds (the picture's height follows): this is the most it may take.
PORTRAIT_PANEL_HEIGHT = 480
PORTRAIT = Layout(
    name="portrait",
    width=800,
    height=PORTRAIT_PANEL_TOP + PORTRAIT_PANEL_HEIGHT + MARGIN,
    cell=PORTRAIT_CELL,
    gutter=PORTRAIT_GUTTER,
    panel=(MARGIN, PORTRAIT_PANEL_TOP, 800 - MARGIN, PORTRAIT_PANEL_TOP + PORTRAIT_PANEL_HEIGHT),
    grow=6,
    # Digits 20 px tall on the 800 px page: 10 px on a phone 400 px wide (they were 7.5, 20 px type). Two chips in
    # opposite corners of a 70 px square leave its other corners and a band through its middle free.
    chip=(38, 28, 27),
    chip_inset=2,
    label_size=20,
    value_size=28,
    counter=(25, 22),
    hand_unit=20,
    status_size=20,
    columns=True,
)
LAYOUTS = {layout.name: layout for layout in (LANDSCAPE, PORTRAIT)}


def layout_of(name: str) -> Layout:
    try:
        return LAYOUTS[name]
    except KeyError:
        raise ValueError(f"A layout is one of {', '.join(LAYOUTS)}, not {name!r}.") from None


def square_center(square: str, layout: str = "landscape") -> tuple[float, float]:
    """Pixel centre of a square such as ``c3`` in the rendered image."""
    shape = layout_of(layout)
    index = isaac.black_number(square)
    rank_index, file = divmod(index, isaac.SIZE)
    return (
        shape.board_x + (file + 0.5) * shape.cell,
        shape.board_y + (isaac.SIZE - 1 - rank_index + 0.5) * shape.cell,
    )


def _span_box(span: str, inset: float, layout: Layout) -> tuple[float, float, float, float]:
    first, last = span.split("-")
    (x1, y1), (x2, y2) = square_center(first, layout.name), square_center(last, layout.name)
    half = layout.cell / 2 - inset
    return (min(x1, x2) - half, min(y1, y2) - half, max(x1, x2) + half, max(y1, y2) + half)


def _length(span: str) -> int:
    first, last = (isaac.black_number(end) for end in span.split("-"))
    gap = last - first  # under 10 along a rank, a multiple of 10 along a file
    return gap + 1 if gap < isaac.SIZE else gap // isaac.SIZE + 1


def _squares(span: str) -> list[str]:
    """The squares of a span ("c3-c5"), or the one square named ("c3")."""
    start, _, end = span.partition("-")
    first, last = isaac.black_number(start), isaac.black_number(end or start)
    step = 1 if last - first < isaac.SIZE else isaac.SIZE
    return [isaac.square_name(index % isaac.SIZE, index // isaac.SIZE + 1) for index in range(first, last + 1, step)]


def _span_of_move(move: str) -> str:
    return move.split()[1] if move.startswith("x ") else move


def _last_action(game: isaac.IsaacGame) -> str | None:
    """The last placement or removal (passes mark nothing on the board)."""
    return next((m for m in reversed(game.moves) if m != "pass"), None)


@cache
def _empty_board(chips: bool = True, layout: Layout = LANDSCAPE) -> Image.Image:
    """The page with the empty board (grid, edge labels and, unless `chips` is false, every square's number
    chips) and the panel's background. It never changes, so it is drawn once and copied per render: the 200
    chip labels alone took a tenth of a render."""
    image, draw = new_canvas(layout.width, layout.panel[1] if layout.columns else layout.height)
    x, y, board, cell = layout.board_x, layout.board_y, layout.board, layout.cell
    draw.rectangle((x, y, x + board, y + board), fill=SQUARE_FILL)
    for k in range(isaac.SIZE + 1):
        offset = k * cell
        draw.line((x + offset, y, x + offset, y + board), fill=GRID, width=1)
        draw.line((x, y + offset, x + board, y + offset), fill=GRID, width=1)
    draw.rectangle((x, y, x + board, y + board), outline=INK, width=2)
    if chips:
        for file in range(isaac.SIZE):
            for rank in range(1, isaac.SIZE + 1):
                _square_chips(draw, isaac.square_name(file, rank), layout)
    _edge_labels(draw, layout)
    if not layout.columns:  # beside the board, the panel is the board's height; under it, as tall as it needs
        draw.rounded_rectangle(layout.panel, radius=10, fill=PANEL)
    return image


def _square_chips(draw: ImageDraw.ImageDraw, square: str, layout: Layout) -> None:
    """A square's two printed numbers: Black's in its lower left corner, White's in its upper right."""
    chip_w, chip_h, size = layout.chip
    inset, cell = layout.chip_inset, layout.cell
    small = font(size, True)
    left, top, _, _ = _square_box(square, layout)
    _number_chip(draw, (left + inset, top + cell - chip_h - inset), isaac.black_number(square), 0, small, layout)
    _number_chip(draw, (left + cell - chip_w - inset, top + inset), isaac.white_number(square), 1, small, layout)


def _square_box(square: str, layout: Layout) -> tuple[int, int, int, int]:
    cx, cy = square_center(square, layout.name)
    left, top = round(cx - layout.cell / 2), round(cy - layout.cell / 2)
    return left, top, left + layout.cell, top + layout.cell


def _board_image(game: isaac.IsaacGame, layout: Layout, height: int) -> Image.Image:
    """A page ``height`` px tall with the empty board whose squares under pieces lose their chips: the piece hides
    the printed numbers, as on the real board, and its rounded corners leave a chip's edge in view."""
    board = _empty_board(True, layout)
    if board.height == height:
        image = board.copy()
    else:
        image, _ = new_canvas(layout.width, height)
        image.paste(board, (0, 0))
    for span, _ in game.pieces():
        box = _piece_cells(span, layout)
        image.paste(_empty_board(False, layout).crop(box), box)
    return image


def _piece_cells(span: str, layout: Layout) -> Box:
    """The cells a piece lies on ("c3-c5"), or one square ("c3"), as one box."""
    cell = layout.cell
    first, _, last = span.partition("-")
    last = last or first
    left, top, _, _ = _square_box(first, layout)
    right, bottom = _square_box(last, layout)[2:]
    return min(left, right - cell), min(top, bottom - cell), max(right, left + cell), max(bottom, top + cell)


def _number_chip(
    draw: ImageDraw.ImageDraw, at: tuple[float, float], number: int, owner: int, text_font: object, layout: Layout
) -> None:
    x, y = at
    width, height, _ = layout.chip
    draw.rounded_rectangle((x, y, x + width, y + height), radius=4, fill=PIECE_FILL[owner], outline=INK)
    draw.text(
        (x + width / 2, y + height / 2 + 0.5), f"{number:02d}", fill=PIECE_TEXT[owner], font=text_font, anchor="mm"
    )


def _edge_labels(draw: ImageDraw.ImageDraw, layout: Layout) -> None:
    label = font(layout.label_size, True)
    gutter, x0, y0, board = layout.gutter, layout.board_x, layout.board_y, layout.board
    for file in range(isaac.SIZE):
        x, _ = square_center(isaac.square_name(file, 1), layout.name)
        draw.text((x, y0 + board + gutter / 2), isaac.FILES[file], fill=INK, font=label, anchor="mm")
        draw.text((x, y0 - gutter / 2), isaac.FILES[file], fill=MUTED, font=label, anchor="mm")
    for rank in range(1, isaac.SIZE + 1):
        _, y = square_center(isaac.square_name(0, rank), layout.name)
        draw.text((x0 - gutter / 2, y), str(rank), fill=INK, font=label, anchor="mm")
        draw.text((x0 + board + gutter / 2, y), str(rank), fill=MUTED, font=label, anchor="mm")


def _draw_pieces(draw: ImageDraw.ImageDraw, game: isaac.IsaacGame, layout: Layout) -> None:
    value_font = font(layout.value_size, True)
    inset = round(layout.cell * 0.1)
    radius = round(layout.cell * 0.24)
    for span, owner in game.pieces():
        box = _span_box(span, inset, layout)
        draw.rounded_rectangle(box, radius=radius, fill=PIECE_FILL[owner], outline=PIECE_OUTLINE[owner], width=2)
        length = _length(span)
        cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
        draw.text((cx, cy), str(isaac.VALUES[length]), fill=PIECE_TEXT[owner], font=value_font, anchor="mm")


def _draw_last_move(draw: ImageDraw.ImageDraw, game: isaac.IsaacGame, layout: Layout) -> None:
    move = _last_action(game)
    if move is None:
        return
    if move.startswith("x "):
        # Dashed, so the place of a removed piece never reads as a piece.
        _dashed_box(draw, _span_box(_span_of_move(move), 4, layout))
    else:
        draw.rounded_rectangle(_span_box(move, 2, layout), radius=round(layout.cell * 0.28), outline=HIGHLIGHT, width=4)


def _dashed_box(draw: ImageDraw.ImageDraw, box: tuple[float, float, float, float]) -> None:
    left, top, right, bottom = box
    dash, gap = 10, 6
    for start, end, fixed, horizontal in (
        (left, right, top, True),
        (left, right, bottom, True),
        (top, bottom, left, False),
        (top, bottom, right, False),
    ):
        pos = start
        while pos < end:
            stop = min(pos + dash, end)
            line = (pos, fixed, stop, fixed) if horizontal else (fixed, pos, fixed, stop)
            draw.line(line, fill=HIGHLIGHT, width=4)
            pos += dash + gap


def _draw_counters(draw: ImageDraw.ImageDraw, game: isaac.IsaacGame, layout: Layout) -> None:
    scores = game.scores()
    radius, size = layout.counter
    for player in (0, 1):
        square = game.counter_square(player)
        if square is None:
            continue
        cx, cy = square_center(square, layout.name)
        draw.ellipse(
            (cx - radius, cy - radius, cx + radius, cy + radius),
            fill=PIECE_FILL[player],
            outline=CAPTIVE_RED,
            width=5,
        )
        draw.text((cx, cy), str(scores[player]), fill=PIECE_TEXT[player], font=font(size, True), anchor="mm")


# ------------------------------------------------------------------------------------------ requested marks


def ringed(items: Iterable[str]) -> list[str]:
    """The squares to ring for the highlighted items: a square ("c3") itself, a placement every square of its piece,
    a removal the first square of its piece (leaving the piece's value in view)."""
    found: dict[str, None] = {}
    for item in items:
        text = item.strip().lower()
        if text == "pass":
            continue
        span = _span_of_move(text)
        if text.startswith("x "):
            found[span.split("-")[0]] = None
        else:
            found.update(dict.fromkeys(_squares(span)))
    return list(found)


def _ghost(draw: ImageDraw.ImageDraw, move: str, kind: str, layout: Layout, smaller: bool) -> None:
    """A move not played. A placement: its piece (tinted when suggested, an outline when played), the mark in its
    middle; a removal: the mark on the piece's first square, leaving its value in view."""
    text = move.strip().lower()
    if text == "pass":
        return
    span = _span_of_move(text)
    if text.startswith("x "):
        cx, cy = square_center(span.split("-")[0], layout.name)
    else:
        box = _span_box(span, round(layout.cell * 0.1), layout)
        fill = GHOST_FILL if kind == SUGGESTED_MARK else None
        draw.rounded_rectangle(box, radius=round(layout.cell * 0.24), fill=fill, outline=INK, width=3)
        cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    draw_mark(draw, kind, cx, cy, layout.cell * (0.24 if smaller else 0.36))


def _draw_candidates(draw: ImageDraw.ImageDraw, marks: Marks, layout: Layout) -> None:
    """Where a chosen piece can go: the candidate ring in each square's free upper left corner, between its two
    number chips (Black's lower left, White's upper right), so it never covers a number as a ring in the middle of
    the square did."""
    for square in ringed(marks.highlight):
        cx, cy, radius = _free_corner(square, layout)
        draw_mark(draw, CANDIDATE_MARK, cx, cy, radius, edge=2)


def _free_corner(square: str, layout: Layout) -> tuple[float, float, float]:
    """The centre and radius of the largest ring in a square's upper left corner that keeps 3 px off its chips."""
    chip_w, chip_h, _ = layout.chip
    inset, cell = layout.chip_inset, layout.cell
    left, top, _, _ = _square_box(square, layout)
    width, height = cell - chip_w - 2 * inset, cell - chip_h - 2 * inset  # up to White's chip, down to Black's
    radius = min(width, height) / 2 - 3
    return left + inset + width / 2, top + inset + height / 2, radius


def _draw_requested(draw: ImageDraw.ImageDraw, marks: Marks, layout: Layout) -> None:
    if marks.played:
        _ghost(draw, marks.played, PLAYED_MARK, layout, smaller=False)
    if marks.suggestion:
        same_place = marks.played is not None and _span_of_move(marks.played) == _span_of_move(marks.suggestion)
        _ghost(draw, marks.suggestion, SUGGESTED_MARK, layout, smaller=same_place)


# ------------------------------------------------------------------------------------------------ panel


def status(game: isaac.IsaacGame, language: str = "en") -> str:
    """The header's status line: the phase and who acts, or the result."""
    if game.is_over:
        result = game.result()
        scores = winner_first(result.scores, result.winner)
        winner = tr(language, isaac.SIDES[result.winner or 0])
        if result.reason == "score":
            return tr(language, "Game over · {winner} wins {score0}–{score1}", winner=winner, **scores)
        return tr(language, "Game over · {winner} wins on tie-break {score0}–{score1}", winner=winner, **scores)
    side = tr(language, isaac.SIDES[game.turn or 0])
    if game.phase == isaac.PLACEMENT:
        return tr(language, "Placement · {side} to place", side=side)
    return tr(language, "Scoring · {side} to remove", side=side)


def _player_panel(
    draw: ImageDraw.ImageDraw,
    game: isaac.IsaacGame,
    player: int,
    name: str,
    x: float,
    top: float,
    language: str,
    layout: Layout,
) -> float:
    """One player's block in the panel; returns the y below it."""
    grow = layout.grow
    small = font(14 + grow)
    line = 18 + grow
    disc = 22 + grow
    draw.ellipse((x, top + 2, x + disc, top + 2 + disc), fill=PIECE_FILL[player], outline=INK, width=2)
    name_font = font(18 + grow, True)
    draw.text(
        (x + disc + 8, top + 2 + disc / 2), fit_text(displayable(name), 16), fill=INK, font=name_font, anchor="lm"
    )
    y = top + disc + 12
    if game.phase != isaac.PLACEMENT:
        score = tr(language, "Score {score}", score=game.scores()[player])
        draw.text((x, y), score, fill=INK, font=font(22 + grow, True), anchor="lt")
        y += 30 + grow
    draw.text((x, y), tr(language, "In hand"), fill=MUTED, font=small, anchor="lt")
    y += 20 + grow
    hand = game.in_hand(player)
    shown = [length for length in isaac.LENGTHS if hand[length]]
    unit, bar_height = layout.hand_unit, 16 + grow
    for length in shown:
        bar = (x, y, x + length * unit, y + bar_height)
        draw.rounded_rectangle(bar, radius=7, fill=PIECE_FILL[player], outline=PIECE_OUTLINE[player], width=2)
        mid = (bar[0] + bar[2]) / 2
        value_font = font(12 + grow + grow // 3, True)
        draw.text(
            (mid, y + bar_height / 2), str(isaac.VALUES[length]), fill=PIECE_TEXT[player], font=value_font, anchor="mm"
        )
        count = tr(language, "×{count}  ({length} sq)", count=hand[length], length=length)
        draw.text((x + 7 * unit + 10, y + bar_height / 2), count, fill=INK, font=small, anchor="lm")
        y += bar_height + 5
    if not shown:
        draw.text((x, y), tr(language, "none"), fill=INK, font=small, anchor="lt")
        y += 21 + grow
    y += 4
    removed = game.removed(player)
    draw.text((x, y), tr(language, "Removed"), fill=MUTED, font=small, anchor="lt")
    y += 19 + grow
    for text in _wrap(", ".join(removed) or tr(language, "none"), 30):
        draw.text((x, y), text, fill=INK, font=small, anchor="lt")
        y += line
    notes = []
    if game.phase == isaac.SCORING:
        notes.append(tr(language, "Next removal: {length}+ squares", length=game.min_removal_length(player)))
    if game.out[player] and not game.is_over:
        notes.append(tr(language, "Passed: out of this phase"))
    for note in notes:
        draw.text((x, y + 2), note, fill=INK, font=font(14 + grow, True), anchor="lt")
        y += 19 + grow
    return y + 10


def _wrap(text: str, width: int) -> list[str]:
    lines: list[str] = []
    for word in text.split(" "):
        if lines and len(lines[-1]) + 1 + len(word) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines


def _draw_panel(
    draw: ImageDraw.ImageDraw,
    game: isaac.IsaacGame,
    names: tuple[str, str],
    language: str,
    layout: Layout,
    marks: Marks,
) -> tuple[float, float, float]:
    """The panel's words; returns the y below the players' blocks, the top of the legend (a test keeps the first
    above the second) and the y below the legend. Beside the board the legend stands at the panel's foot; under
    it (portrait), right under the players' blocks, and the panel ends with it: no band of empty panel."""
    left, top, right, bottom = layout.panel
    x = left + 12
    if layout.columns:
        # Black on the left, White on the right, under Black's edge of the board.
        middle = (left + right) / 2
        below = max(
            _player_panel(draw, game, 0, names[0], x, top + 10, language, layout),
            _player_panel(draw, game, 1, names[1], middle + 8, top + 10, language, layout),
        )
        below -= 6  # a block ends with 10 px of room for the next one; the legend needs only a line's gap
    else:
        # White's block on top, next to White's edge of the board; Black's below.
        y = _player_panel(draw, game, 1, names[1], x, top + 10, language, layout)
        draw.line((left + 10, y, right - 10, y), fill=MUTED, width=1)
        below = _player_panel(draw, game, 0, names[0], x, y + 10, language, layout)
    size = 14 + layout.grow
    step = size + 4
    legend = [
        last_line(game, language),
        tr(language, "Chips: dark = Black's numbers,"),
        tr(language, "light = White's numbers"),
    ]
    items = legend_items(marks, language)
    if layout.columns:
        legend[1:] = [f"{legend[1]} {legend[2]}"]
        legend_top = y = below
        if items:
            y = draw_legend(draw, x, y + size / 2, items, size, right - 12) - 4
        for k, line in enumerate(legend):
            draw.text((x, y), line, fill=INK if k == 0 else MUTED, font=font(size), anchor="lt")
            y += step
        return below, legend_top, y
    line_bottom = bottom - 12
    for k, line in enumerate(reversed(legend)):
        colour = INK if k == len(legend) - 1 else MUTED
        draw.text((x, line_bottom - step * k), line, fill=colour, font=font(size), anchor="lb")
    legend_top = line_bottom - step * len(legend) - 4
    if items:
        first_middle = legend_top - (len(items) - 1) * (size + 8) - size / 2
        draw_legend(draw, x, first_middle, items, size, x + 1)  # beside the board: one mark a line
        legend_top = first_middle - size / 2 - 4
    return below, legend_top, bottom


class _Unseen:
    """A stand-in for a page's ``ImageDraw`` that lays the panel out and draws nothing: how tall the portrait
    panel is, before the page is made."""

    def textlength(self, text: str, font: ImageFont.FreeTypeFont) -> float:
        return font.getlength(text)

    def __getattr__(self, name: str) -> Callable[..., None]:
        return _nothing


def _nothing(*args: object, **kwargs: object) -> None:
    return None


def _panel_box(game: isaac.IsaacGame, names: tuple[str, str], language: str, layout: Layout, marks: Marks) -> Box:
    """Where the panel's background goes: beside the board, the layout's; under it, as tall as its words."""
    if not layout.columns:
        return layout.panel
    _, _, end = _draw_panel(cast(ImageDraw.ImageDraw, _Unseen()), game, names, language, layout, marks)
    left, top, right, _ = layout.panel
    return left, top, right, round(end) + 6


def last_line(game: isaac.IsaacGame, language: str = "en") -> str:
    """The legend's line on the last placement or removal."""
    action = _last_action(game)
    if action is None:
        return tr(language, "No move yet") if not game.moves else tr(language, "Last move: pass")
    if game.last_move == "pass":
        return tr(language, "Last: {move} (then pass)", move=action)
    return tr(language, "Last: {move}", move=action)


def render(
    game: isaac.IsaacGame,
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
    squares ("c3": where a chosen piece may start) and moves ("c3-g3": where it would lie), each square marked with
    a candidate ring. ``suggestion``: a placement or removal shown as an outline with a star, not played (a hint, or
    the better move of an analysis). ``played``: the same with a cross (the move an analysis reviews, on the
    position before it)."""
    shape = layout_of(layout)
    marks = Marks.of(highlight, suggestion, played)
    return _encoded(drawn(game, names, language, shape, marks), game, shape, marks)


def drawn(game: isaac.IsaacGame, names: tuple[str, str], language: str, shape: Layout, marks: Marks) -> Image.Image:
    """The picture :func:`render` encodes, in RGB."""
    names = shown_names(names, language)
    panel = _panel_box(game, names, language, shape, marks)
    image = _board_image(game, shape, shape.height if not shape.columns else panel[3] + MARGIN)
    draw = BoardDraw(image)
    if shape.columns:
        draw.rounded_rectangle(panel, radius=10, fill=PANEL)
    sides = [Side(names[0], DARK_PIECE), Side(names[1], LIGHT_PIECE)]
    draw_header(draw, shape.width, sides, game.turn, status(game, language), shape.status_size)
    _draw_pieces(draw, game, shape)
    _draw_last_move(draw, game, shape)
    if marks.highlight:
        _draw_candidates(draw, marks, shape)
    _draw_counters(draw, game, shape)
    if marks:
        _draw_requested(draw, marks, shape)
    _draw_panel(draw, game, names, language, shape, marks)
    return image


# ------------------------------------------------------------------------------------------------ encoding


def _encoded(image: Image.Image, game: isaac.IsaacGame, layout: Layout, marks: Marks) -> bytes:
    """The picture as PNG, quantized only where it is not the empty board (quantized once) nor a piece drawn before
    with nothing over it (each quantized the first time it is drawn there): the header, the panel, and the cells of
    the last move, the counters and the marks. Quantizing the whole picture was a third of an ISAAC board's drawing;
    the bytes are the same (``tests/test_render_isaac_encoding.py``)."""
    marked = _marked_spans(game, marks)
    covered = {square for span in marked for square in _squares(span)}
    tiles = []
    changed = {*_words_boxes(layout, image.height), *(_around(_piece_cells(span, layout)) for span in marked)}
    for span, owner in game.pieces():
        if covered.isdisjoint(_squares(span)):
            tiles.append(_piece_tile(image, layout, span, owner))
        else:
            changed.add(_around(_piece_cells(span, layout)))
    return to_png_over(image, _indexed_page(layout), tiles, changed, PALETTE)


def _marked_spans(game: isaac.IsaacGame, marks: Marks) -> set[str]:
    """Where something is drawn besides the board and the pieces, as spans ("c3-c5") or squares ("c3"): the last
    move, the counters, the marks."""
    spans: set[str] = set(ringed(marks.highlight))
    last = _last_action(game)
    if last is not None:
        spans.add(_span_of_move(last))
    spans.update(square for player in (0, 1) if (square := game.counter_square(player)) is not None)
    for move in (marks.played, marks.suggestion):
        text = (move or "pass").strip().lower()
        if text != "pass":
            spans.add(_span_of_move(text))
    return spans


def _around(box: Box, margin: int = 3) -> Box:
    """A square's box and a few pixels round it (an outline drawn on its edge)."""
    left, top, right, bottom = box
    return left - margin, top - margin, right + margin, bottom + margin


def _words_boxes(layout: Layout, height: int) -> tuple[Box, Box]:
    """The header, and the panel (under the board: everything below it)."""
    header = (0, 0, layout.width, layout.board_y)
    if layout.columns:
        return header, (0, layout.panel[1], layout.width, height)
    return header, _around(layout.panel)


@cache
def _indexed_page(layout: Layout) -> Image.Image:
    """The empty board's page in the palette's indices, quantized once."""
    return _empty_board(True, layout).quantize(palette=PALETTE, dither=Image.Dither.NONE)


_TILES: OrderedDict[tuple[str, str, int], Image.Image] = OrderedDict()
TILES_KEPT = 512  # a piece is at most 70 x 490 px (one byte each): a few MB per drawing process


def _piece_tile(image: Image.Image, layout: Layout, span: str, owner: int) -> tuple[Image.Image, tuple[int, int]]:
    """A piece with nothing over it, in the palette's indices, and where it goes: quantized from ``image`` the first
    time (its cells hold only the board and the piece, the same wherever it is drawn), kept for the next boards."""
    box = _piece_cells(span, layout)
    key = (layout.name, span, owner)
    tile = _TILES.get(key)
    if tile is None:
        tile = image.crop(box).quantize(palette=PALETTE, dither=Image.Dither.NONE)
        _TILES[key] = tile
        if len(_TILES) > TILES_KEPT:
            _TILES.popitem(last=False)
    else:
        _TILES.move_to_end(key)
    return tile, box[:2]


__all__ = ["HEIGHT", "WIDTH", "alt_text", "render", "ringed", "square_center", "text_board"]
