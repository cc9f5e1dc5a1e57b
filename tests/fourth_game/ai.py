"""Tic-tac-toe's computer player (an ``ai.search.GameAI``): the smallest AI that shows a game brings its own.

Level 1 takes a win it sees and otherwise plays anywhere; level 2 also blocks the opponent's line; levels 3 and 4
play perfectly (a full minimax: the tree is tiny), level 3 choosing at random among the best moves.
"""

from __future__ import annotations

import random
from functools import cache

from tests.fourth_game.engine import LINES, TicTacToe


def choose_move(
    state: TicTacToe, level: int, rng: random.Random, *, budget_s: float | None, max_depth: int | None
) -> str:
    """``budget_s`` is never needed: the whole game is searched in milliseconds; ``max_depth`` caps the search."""
    legal = state.legal_moves()
    mover = state.turn
    assert mover is not None
    if level <= 2:
        wins = [move for move in legal if _completes_line(state, move, mover)]
        blocks = [move for move in legal if _completes_line(state, move, 1 - mover)] if level == 2 else []
        return rng.choice(wins or blocks or legal)
    values = {move: -_value(_after(state, move), _depth(max_depth)) for move in legal}
    best = max(values.values())
    candidates = [move for move in legal if values[move] == best]
    return candidates[0] if level >= 4 else rng.choice(candidates)


def analyse_position(state: TicTacToe, *, budget_s: float) -> tuple[str, float]:
    values = {move: -_value(_after(state, move), _depth(None)) for move in state.legal_moves()}
    best = max(values, key=lambda move: values[move])
    return best, float(values[best])


def _depth(max_depth: int | None) -> int:
    return 9 if max_depth is None else max_depth


def _after(state: TicTacToe, move: str) -> TicTacToe:
    child = state.copy()
    child.play(move)
    return child


def _completes_line(state: TicTacToe, move: str, player: int) -> bool:
    return any(move in line and all(state.board.get(cell) == player for cell in line if cell != move) for line in LINES)


def _value(state: TicTacToe, depth: int) -> int:
    """+1 when the player to act wins with best play, -1 when they lose, 0 for a draw (or past ``depth``)."""
    return _solve(tuple(sorted(state.board.items())), depth)


@cache
def _solve(board: tuple[tuple[str, int], ...], depth: int) -> int:
    state = TicTacToe()
    state.board = dict(board)
    state.moves = [cell for cell, _ in board]  # only their number matters: it says whose turn it is
    if state.is_over:
        return 0 if state.winner is None else -1  # the player who just moved made the line
    if depth <= 0:
        return 0
    return max(-_solve(tuple(sorted(_after(state, move).board.items())), depth - 1) for move in state.legal_moves())
