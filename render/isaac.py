"""ISAAC board image: the 10x10 board with both players' numbers, pieces, counters and a side panel.

Black sits at the bottom (rank 1), White at the top. Every square carries its two printed numbers as
small chips: Black's number on a dark chip in the lower-left corner, White's on a light chip in the
upper-right corner, so a player of either colour can read their counter's square at a glance.
"""

from __future__ import annotations

from functools import cache

from PIL import Image, ImageDraw

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
    BoardDraw,
    Side,
    displayable,
    draw_header,
    fit_text,
    fixed_palette,
    font,
    new_canvas,
    shown_names,
    to_png,
)

CELL = 58
GUTTER = 26
BOARD = CELL * isaac.SIZE
BOARD_X = MARGIN + GUTTER
BOARD_Y = HEADER_HEIGHT + GUTTER
PANEL_X = BOARD_X + BOARD + GUTTER + 12
WIDTH = 960
HEIGHT = BOARD_Y + BOARD + GUTTER + MARGIN
SQUARE_FILL = (222, 201, 160)
GRID = (150, 124, 86)
PIECE_FILL = (DARK_PIECE, LIGHT_PIECE)
PIECE_TEXT = (LIGHT_PIECE, INK)
# Black pieces get a light rim so they stand out on the grid lines; white pieces a dark one.
PIECE_OUTLINE = ((160, 160, 160), INK)
PALETTE = fixed_palette(
    (*BASE_COLOURS, SQUARE_FILL, GRID, *PIECE_OUTLINE),
    (*BASE_EDGES, (LIGHT_PIECE, DARK_PIECE), (INK, LIGHT_PIECE), (INK, SQUARE_FILL)),
)


def square_center(square: str) -> tuple[float, float]:
    """Pixel centre of a square such as ``c3`` in the rendered image."""
    index = isaac.black_number(square)
    rank_index, file = divmod(index, isaac.SIZE)
    return (BOARD_X + (file + 0.5) * CELL, BOARD_Y + (isaac.SIZE - 1 - rank_index + 0.5) * CELL)


def _span_box(span: str, inset: float) -> tuple[float, float, float, float]:
    first, last = span.split("-")
    (x1, y1), (x2, y2) = square_center(first), square_center(last)
    half = CELL / 2 - inset
    return (min(x1, x2) - half, min(y1, y2) - half, max(x1, x2) + half, max(y1, y2) + half)


def _length(span: str) -> int:
    first, last = (isaac.black_number(end) for end in span.split("-"))
    gap = last - first  # under 10 along a rank, a multiple of 10 along a file
    return gap + 1 if gap < isaac.SIZE else gap // isaac.SIZE + 1


def _span_of_move(move: str) -> str:
    return move.split()[1] if move.startswith("x ") else move


def _last_action(game: isaac.IsaacGame) -> str | None:
    """The last placement or removal (passes mark nothing on the board)."""
    return next((m for m in reversed(game.moves) if m != "pass"), None)


@cache
def _empty_board(chips: bool = True) -> Image.Image:
    """The page with the empty board (grid, edge labels and, unless `chips` is false, every square's number
    chips) and the panel's background. It never changes, so it is drawn once and copied per render: the 200
    chip labels alone took a tenth of a render."""
    image, draw = new_canvas(WIDTH, HEIGHT)
    draw.rectangle((BOARD_X, BOARD_Y, BOARD_X + BOARD, BOARD_Y + BOARD), fill=SQUARE_FILL)
    for k in range(isaac.SIZE + 1):
        offset = k * CELL
        draw.line((BOARD_X + offset, BOARD_Y, BOARD_X + offset, BOARD_Y + BOARD), fill=GRID, width=1)
        draw.line((BOARD_X, BOARD_Y + offset, BOARD_X + BOARD, BOARD_Y + offset), fill=GRID, width=1)
    draw.rectangle((BOARD_X, BOARD_Y, BOARD_X + BOARD, BOARD_Y + BOARD), outline=INK, width=2)
    if chips:
        small = font(11, True)
        for file in range(isaac.SIZE):
            for rank in range(1, isaac.SIZE + 1):
                square = isaac.square_name(file, rank)
                left, top, _, _ = _square_box(square)
                _number_chip(draw, (left + 3, top + CELL - 17), isaac.black_number(square), 0, small)
                _number_chip(draw, (left + CELL - 23, top + 3), isaac.white_number(square), 1, small)
    _edge_labels(draw)
    draw.rounded_rectangle((PANEL_X, BOARD_Y, WIDTH - MARGIN, BOARD_Y + BOARD), radius=10, fill=PANEL)
    return image


def _square_box(square: str) -> tuple[int, int, int, int]:
    cx, cy = square_center(square)
    left, top = round(cx - CELL / 2), round(cy - CELL / 2)
    return left, top, left + CELL, top + CELL


def _board_image(game: isaac.IsaacGame) -> Image.Image:
    """A copy of the empty board whose squares under pieces lose their chips: the piece hides the printed
    numbers, as on the real board, and its rounded corners leave a chip's edge in view."""
    image = _empty_board().copy()
    for span, _ in game.pieces():
        first, last = span.split("-")
        left, top, _, _ = _square_box(first)
        right, bottom = _square_box(last)[2:]
        box = (min(left, right - CELL), min(top, bottom - CELL), max(right, left + CELL), max(bottom, top + CELL))
        image.paste(_empty_board(chips=False).crop(box), box)
    return image


def _number_chip(
    draw: ImageDraw.ImageDraw, at: tuple[float, float], number: int, owner: int, text_font: object
) -> None:
    x, y = at
    draw.rounded_rectangle((x, y, x + 20, y + 14), radius=4, fill=PIECE_FILL[owner], outline=INK)
    draw.text((x + 10, y + 7.5), f"{number:02d}", fill=PIECE_TEXT[owner], font=text_font, anchor="mm")


def _edge_labels(draw: ImageDraw.ImageDraw) -> None:
    label = font(15, True)
    for file in range(isaac.SIZE):
        x, _ = square_center(isaac.square_name(file, 1))
        draw.text((x, BOARD_Y + BOARD + GUTTER / 2), isaac.FILES[file], fill=INK, font=label, anchor="mm")
        draw.text((x, BOARD_Y - GUTTER / 2), isaac.FILES[file], fill=MUTED, font=label, anchor="mm")
    for rank in range(1, isaac.SIZE + 1):
        _, y = square_center(isaac.square_name(0, rank))
        draw.text((BOARD_X - GUTTER / 2, y), str(rank), fill=INK, font=label, anchor="mm")
        draw.text((BOARD_X + BOARD + GUTTER / 2, y), str(rank), fill=MUTED, font=label, anchor="mm")


def _draw_pieces(draw: ImageDraw.ImageDraw, game: isaac.IsaacGame) -> None:
    value_font = font(22, True)
    for span, owner in game.pieces():
        box = _span_box(span, inset=6)
        draw.rounded_rectangle(box, radius=14, fill=PIECE_FILL[owner], outline=PIECE_OUTLINE[owner], width=2)
        length = _length(span)
        cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
        draw.text((cx, cy), str(isaac.VALUES[length]), fill=PIECE_TEXT[owner], font=value_font, anchor="mm")


def _draw_last_move(draw: ImageDraw.ImageDraw, game: isaac.IsaacGame) -> None:
    move = _last_action(game)
    if move is None:
        return
    if move.startswith("x "):
        # Dashed, so the place of a removed piece never reads as a piece.
        _dashed_box(draw, _span_box(_span_of_move(move), inset=4))
    else:
        draw.rounded_rectangle(_span_box(move, inset=2), radius=16, outline=HIGHLIGHT, width=4)


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


def _draw_counters(draw: ImageDraw.ImageDraw, game: isaac.IsaacGame) -> None:
    scores = game.scores()
    for player in (0, 1):
        square = game.counter_square(player)
        if square is None:
            continue
        cx, cy = square_center(square)
        radius = 20
        draw.ellipse(
            (cx - radius, cy - radius, cx + radius, cy + radius),
            fill=PIECE_FILL[player],
            outline=CAPTIVE_RED,
            width=5,
        )
        draw.text((cx, cy), str(scores[player]), fill=PIECE_TEXT[player], font=font(17, True), anchor="mm")


def status(game: isaac.IsaacGame, language: str = "en") -> str:
    """The header's status line: the phase and who acts, or the result."""
    if game.is_over:
        result = game.result()
        black, white = result.scores
        winner = tr(language, isaac.SIDES[result.winner or 0])
        if result.reason == "score":
            return tr(
                language, "Game over · {winner} wins {score0}–{score1}", winner=winner, score0=black, score1=white
            )
        return tr(
            language,
            "Game over · {winner} wins on tie-break {score0}–{score1}",
            winner=winner,
            score0=black,
            score1=white,
        )
    side = tr(language, isaac.SIDES[game.turn or 0])
    if game.phase == isaac.PLACEMENT:
        return tr(language, "Placement · {side} to place", side=side)
    return tr(language, "Scoring · {side} to remove", side=side)


def _player_panel(
    draw: ImageDraw.ImageDraw, game: isaac.IsaacGame, player: int, name: str, top: float, language: str
) -> float:
    """One player's block in the side panel; returns the y below it."""
    x = PANEL_X + 12
    draw.ellipse((x, top + 2, x + 22, top + 24), fill=PIECE_FILL[player], outline=INK, width=2)
    draw.text((x + 30, top + 13), fit_text(displayable(name), 16), fill=INK, font=font(18, True), anchor="lm")
    y = top + 34
    if game.phase != isaac.PLACEMENT:
        draw.text(
            (x, y),
            tr(language, "Score {score}", score=game.scores()[player]),
            fill=INK,
            font=font(22, True),
            anchor="lt",
        )
        y += 30
    draw.text((x, y), tr(language, "In hand"), fill=MUTED, font=font(14), anchor="lt")
    y += 20
    hand = game.in_hand(player)
    shown = [length for length in isaac.LENGTHS if hand[length]]
    for length in shown:
        bar = (x, y, x + length * 16, y + 16)
        draw.rounded_rectangle(bar, radius=7, fill=PIECE_FILL[player], outline=PIECE_OUTLINE[player], width=2)
        mid = (bar[0] + bar[2]) / 2
        draw.text((mid, y + 8), str(isaac.VALUES[length]), fill=PIECE_TEXT[player], font=font(12, True), anchor="mm")
        count = tr(language, "×{count}  ({length} sq)", count=hand[length], length=length)
        draw.text((x + 7 * 16 + 10, y + 8), count, fill=INK, font=font(14), anchor="lm")
        y += 21
    if not shown:
        draw.text((x, y), tr(language, "none"), fill=INK, font=font(14), anchor="lt")
        y += 21
    y += 4
    removed = game.removed(player)
    draw.text((x, y), tr(language, "Removed"), fill=MUTED, font=font(14), anchor="lt")
    y += 19
    for line in _wrap(", ".join(removed) or tr(language, "none"), 30):
        draw.text((x, y), line, fill=INK, font=font(14), anchor="lt")
        y += 18
    notes = []
    if game.phase == isaac.SCORING:
        notes.append(tr(language, "Next removal: {length}+ squares", length=game.min_removal_length(player)))
    if game.out[player] and not game.is_over:
        notes.append(tr(language, "Passed: out of this phase"))
    for note in notes:
        draw.text((x, y + 2), note, fill=INK, font=font(14, True), anchor="lt")
        y += 19
    return y + 10


def _wrap(text: str, width: int) -> list[str]:
    lines: list[str] = []
    for word in text.split(" "):
        if lines and len(lines[-1]) + 1 + len(word) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines


def _draw_panel(draw: ImageDraw.ImageDraw, game: isaac.IsaacGame, names: tuple[str, str], language: str) -> None:
    # White's block on top, next to White's edge of the board; Black's below.
    y = _player_panel(draw, game, 1, names[1], BOARD_Y + 10, language)
    draw.line((PANEL_X + 10, y, WIDTH - MARGIN - 10, y), fill=MUTED, width=1)
    y = _player_panel(draw, game, 0, names[0], y + 10, language)
    x = PANEL_X + 12
    bottom = BOARD_Y + BOARD - 12
    legend = [
        last_line(game, language),
        tr(language, "Chips: dark = Black's numbers,"),
        tr(language, "light = White's numbers"),
    ]
    for k, line in enumerate(reversed(legend)):
        colour = INK if k == len(legend) - 1 else MUTED
        draw.text((x, bottom - 18 * k), line, fill=colour, font=font(14), anchor="lb")


def last_line(game: isaac.IsaacGame, language: str = "en") -> str:
    """The legend's line on the last placement or removal."""
    action = _last_action(game)
    if action is None:
        return tr(language, "No move yet") if not game.moves else tr(language, "Last move: pass")
    if game.last_move == "pass":
        return tr(language, "Last: {move} (then pass)", move=action)
    return tr(language, "Last: {move}", move=action)


def render(game: isaac.IsaacGame, names: tuple[str, str], language: str = "en") -> bytes:
    """The board as PNG bytes, its words in ``language``; reads the game only."""
    names = shown_names(names, language)
    image = _board_image(game)
    draw = BoardDraw(image)
    sides = [Side(names[0], DARK_PIECE), Side(names[1], LIGHT_PIECE)]
    draw_header(draw, WIDTH, sides, game.turn, status(game, language))
    _draw_pieces(draw, game)
    _draw_last_move(draw, game)
    _draw_counters(draw, game)
    _draw_panel(draw, game, names, language)
    return to_png(image, PALETTE)
