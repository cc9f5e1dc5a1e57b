"""Negamax alpha-beta over the search board: a transposition table, quiescence on captures, exact endgames.

Leaves are scored by a value function for the player to move (the learned evaluation by default); a branch
that reaches the end of the game is scored exactly, and a depth whose whole tree reached the end is marked
exact, which makes the last moves an exact endgame solve.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ai.iago.board import CALL, EMPTY, Board, N, terminal_value
from ai.search import Deadline, below_best
from engines import iago as E

EXACT, LOWER, UPPER = 0, 1, 2
QUIESCENCE = 4  # capture plies played out beyond the nominal depth
# Nodes with at most this many empty inner cells skip the sort by the evaluation (the table's move still goes
# first): this close to the end it costs more than its cut-offs save. A win-or-loss search from 10 empty cells
# decided 31 of 50 recorded positions within 0.8 CPU s instead of 20, with the same answers (docs/ai.md).
ORDER_EMPTIES = 8
ORDER_DEPTH = 3  # nodes this deep or deeper sort their moves by the evaluation (cheap next to what cuts save)
# Plies: every move fills one of the 61 cells for good (a captive stays on its cell), so a search this deep
# reaches the end of every line and never stops at a horizon.
TO_THE_END = 64
NULL = 1e-3  # the null window around 0 that tells a win (every exact value is 0 or beyond +-0.98) from the rest

ValueFunction = Callable[[Board], float]


def move_name(move: int) -> str:
    return f"call {E.CELLS[move - CALL]}" if move >= CALL else E.CELLS[move]


class IagoSearch:
    """Negamax alpha-beta with a transposition table that survives the iterations of one ``think`` call."""

    def __init__(self, full_width_root: bool, value: ValueFunction) -> None:
        self.full_width_root = full_width_root
        self.value = value
        self.table: dict[tuple[Any, ...], tuple[int, float, int, int, bool]] = {}
        self.order: dict[int, float] = {}
        self.horizon = False
        self.nodes = 0

    def root_values(self, game: Any, depth: int, deadline: Deadline) -> tuple[dict[str, float], bool]:
        board = Board.from_game(game)
        names = {m: move_name(m) for m in board.moves()}
        moves = sorted(names, key=lambda m: -self.order.get(m, 0.0))
        self.horizon = False
        values: dict[int, float] = {}
        alpha = -2.0
        for m in moves:
            undo = board.make(m)
            if self.full_width_root:
                v = -self.negamax(board, depth - 1, -2.0, 2.0, deadline)
            else:
                v = -self.negamax(board, depth - 1, -2.0, -alpha, deadline)
                if values and v <= alpha:
                    v = below_best(v, alpha)
            board.unmake(undo)
            values[m] = v
            alpha = max(alpha, v)
        self.order = values
        return {names[m]: v for m, v in values.items()}, not self.horizon

    def quiesce(self, board: Board, alpha: float, beta: float, plies: int, deadline: Deadline) -> float:
        """Play out captures before judging a leaf: a position where the side to move can capture is not quiet,
        and a static value there misses the swing (odd depths then lose to even ones). Under forced capture the
        captures are the only moves; in the loose variants the side to move may also stand pat."""
        self.nodes += 1
        if board.empty_inner == 0:
            return terminal_value(board, board.turn)
        best_capture, cells = board.forced(board.turn)
        if not best_capture or plies == 0:
            return self.value(board)
        deadline.check()
        best = -2.0
        if board.variant not in ("standard", "simple"):
            best = self.value(board)
            if best >= beta:
                return best
            alpha = max(alpha, best)
            legal = set(board.moves())
            cells = [i for i in range(N) if board.cells[i] == EMPTY and board.captures(i, board.turn) and i in legal]
        for i in cells:
            undo = board.make(i)
            v = -self.quiesce(board, -beta, -alpha, plies - 1, deadline)
            board.unmake(undo)
            if v > best:
                best = v
                if v > alpha:
                    alpha = v
                    if alpha >= beta:
                        break
        return best

    def negamax(self, board: Board, depth: int, alpha: float, beta: float, deadline: Deadline) -> float:
        if board.empty_inner == 0:
            self.nodes += 1
            return terminal_value(board, board.turn)
        if depth <= 0:
            self.horizon = True
            return self.quiesce(board, alpha, beta, QUIESCENCE, deadline)
        self.nodes += 1
        deadline.check()
        key = board.key()
        entry = self.table.get(key)
        best_move = -1
        if entry is not None:
            e_depth, e_value, e_flag, best_move, e_exact = entry
            usable = e_flag == EXACT or (e_flag == LOWER and e_value >= beta) or (e_flag == UPPER and e_value <= alpha)
            if usable and (e_depth >= depth or e_exact):
                if not e_exact:
                    self.horizon = True
                return e_value
        moves = board.moves()
        if depth >= ORDER_DEPTH and board.empty_inner > ORDER_EMPTIES and len(moves) > 2:
            moves = self.sorted_by_value(board, moves)
        if best_move in moves:
            moves.remove(best_move)
            moves.insert(0, best_move)
        start_alpha = alpha
        horizon_before = self.horizon
        self.horizon = False
        best = -2.0
        for m in moves:
            undo = board.make(m)
            v = -self.negamax(board, depth - 1, -beta, -alpha, deadline)
            board.unmake(undo)
            if v > best:
                best, best_move = v, m
                if v > alpha:
                    alpha = v
                    if alpha >= beta:
                        break
        exact = not self.horizon
        self.horizon = self.horizon or horizon_before
        flag = UPPER if best <= start_alpha else LOWER if best >= beta else EXACT
        self.table[key] = (depth, best, flag, best_move, exact)
        return best

    def sorted_by_value(self, board: Board, moves: list[int]) -> list[int]:
        """The moves best first by the static value of the position after them (for the cut-offs)."""
        scored = []
        for m in moves:
            undo = board.make(m)
            scored.append((self.value(board), m))
            board.unmake(undo)
        scored.sort()
        return [m for _, m in scored]
