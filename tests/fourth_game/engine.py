"""Tic-tac-toe on the engine contract: the smallest game that proves a new game needs no shared change.

Cells are ``a1``..``c3`` (column letter, row number). Player 0 is X and moves first.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from typing import Any

from engines import IllegalMove, Result

NAME = "tictactoe"
OPTIONS: dict[str, tuple[str, ...]] = {}
CELLS = tuple(f"{column}{row}" for column in "abc" for row in "123")
LINES = (
    *[tuple(f"{c}{r}" for c in "abc") for r in "123"],
    *[tuple(f"{c}{r}" for r in "123") for c in "abc"],
    ("a1", "b2", "c3"),
    ("a3", "b2", "c1"),
)


class Reason(StrEnum):
    LINE = "line"
    FULL = "full"


class TicTacToe:
    def __init__(self) -> None:
        self.board: dict[str, int] = {}
        self.moves: list[str] = []

    @property
    def winner(self) -> int | None:
        for line in LINES:
            owners = {self.board.get(cell) for cell in line}
            if len(owners) == 1 and None not in owners:
                return owners.pop()
        return None

    @property
    def is_over(self) -> bool:
        return self.winner is not None or len(self.board) == len(CELLS)

    @property
    def turn(self) -> int | None:
        return None if self.is_over else len(self.moves) % 2

    @property
    def to_act(self) -> int | None:
        return self.turn

    @property
    def chance(self) -> bool:
        return False

    def legal_moves(self) -> list[str]:
        return [] if self.is_over else sorted(cell for cell in CELLS if cell not in self.board)

    def play(self, move: str) -> None:
        cell = "".join(str(move).split()).lower()
        if self.is_over:
            raise IllegalMove("The game is over.")
        if cell not in CELLS:
            raise IllegalMove(f"'{str(move).strip()[:20]}' is not a cell: cells go from a1 to c3.")
        if cell in self.board:
            raise IllegalMove(f"{cell} is taken.")
        self.board[cell] = len(self.moves) % 2
        self.moves.append(cell)

    def scores(self) -> tuple[int, int]:
        winner = self.winner
        return (int(winner == 0), int(winner == 1))

    def result(self) -> Result:
        if not self.is_over:
            raise ValueError("The game is not over yet.")
        winner = self.winner
        return Result(winner, self.scores(), Reason.FULL if winner is None else Reason.LINE)

    def to_dict(self) -> dict[str, Any]:
        return {"game": NAME, "options": {}, "moves": list(self.moves)}

    def copy(self) -> TicTacToe:
        other = TicTacToe()
        other.board = dict(self.board)
        other.moves = list(self.moves)
        return other

    def __eq__(self, other: object) -> bool:
        return isinstance(other, TicTacToe) and self.moves == other.moves

    __hash__ = None  # type: ignore[assignment]


def new_game(**options: Any) -> TicTacToe:
    if options:
        raise ValueError(f"Tic-tac-toe takes no options, not {', '.join(options)}.")
    return TicTacToe()


def from_dict(d: Mapping[str, Any]) -> TicTacToe:
    game = new_game(**d.get("options", {}))
    for move in d["moves"]:
        game.play(move)
    return game
