"""Tic-tac-toe's board image: a 3x3 grid with X and O, drawn with the shared helpers."""

from __future__ import annotations

from locales import tr
from render.base import DARK_PIECE, HEADER_HEIGHT, INK, MARGIN, Side, draw_header, new_canvas, to_png
from tests.fourth_game.engine import CELLS, TicTacToe

CELL = 90
SIZE = MARGIN * 2 + CELL * 3


def render(game: TicTacToe, names: tuple[str, str], language: str = "en") -> bytes:
    image, draw = new_canvas(max(SIZE, 420), HEADER_HEIGHT + SIZE)
    status = tr(language, "Game over.") if game.is_over else f"{len(game.moves) + 1}"
    draw_header(draw, image.width, (Side(names[0], DARK_PIECE), Side(names[1], (250, 250, 247))), game.turn, status)
    top = HEADER_HEIGHT + MARGIN
    for i in range(1, 3):
        draw.line((MARGIN + i * CELL, top, MARGIN + i * CELL, top + 3 * CELL), fill=INK, width=3)
        draw.line((MARGIN, top + i * CELL, MARGIN + 3 * CELL, top + i * CELL), fill=INK, width=3)
    for cell in CELLS:
        owner = game.board.get(cell)
        if owner is None:
            continue
        x = MARGIN + "abc".index(cell[0]) * CELL + 18
        y = top + (3 - int(cell[1])) * CELL + 18
        if owner == 0:
            draw.line((x, y, x + CELL - 36, y + CELL - 36), fill=INK, width=6)
            draw.line((x, y + CELL - 36, x + CELL - 36, y), fill=INK, width=6)
        else:
            draw.ellipse((x, y, x + CELL - 36, y + CELL - 36), outline=INK, width=6)
    return to_png(image)
