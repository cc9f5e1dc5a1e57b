"""A best-first tree search guided by the learned evaluation (PUCT, as AlphaZero's, with priors from the values).

Expanding a node values every child with the evaluation once: those values are the children's priors (a softmax)
and their first estimates, and the best of them is the node's value (a one-ply look, which sees captures that a
static value would miss). Selection adds an exploration bonus ``C * prior * sqrt(N) / (1 + n)`` to each child's
mean; the move played is the most visited child. Values are for the player to move, so they negate up the tree.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from ai.iago.board import Board, terminal_value
from ai.search import Deadline, SearchTimeout

EXPLORATION = 1.5
PRIOR_TEMPERATURE = 0.2


class Node:
    __slots__ = ("children", "count", "moves", "priors", "totals", "visits")

    def __init__(self, moves: list[int], values: list[float]) -> None:
        self.moves = moves
        self.children: list[Node | None] = [None] * len(moves)
        top = max(values)
        weights = [math.exp((v - top) / PRIOR_TEMPERATURE) for v in values]
        total = sum(weights)
        self.priors = [w / total for w in weights]
        self.visits = [1] * len(moves)  # the expansion's value counts as a first visit
        self.totals = list(values)
        self.count = len(moves)


class TreeSearch:
    """One decision: ``run`` grows the tree from the root until the iterations or the deadline run out."""

    def __init__(self, value: Callable[[Board], float]) -> None:
        self.value = value

    def expand(self, board: Board) -> tuple[Node, float]:
        moves = board.moves()
        values = []
        for m in moves:
            undo = board.make(m)
            values.append(-(terminal_value(board, board.turn) if board.empty_inner == 0 else self.value(board)))
            board.unmake(undo)
        return Node(moves, values), max(values)

    def run(self, board: Board, iterations: int, deadline: Deadline) -> dict[int, tuple[int, float]]:
        """Visits and mean value of each root move."""
        root, _ = self.expand(board)
        try:
            for _ in range(iterations):
                deadline.check()
                self.descend(board, root)
        except SearchTimeout:
            pass
        return {m: (root.visits[k], root.totals[k] / root.visits[k]) for k, m in enumerate(root.moves)}

    def descend(self, board: Board, node: Node) -> float:
        """One iteration below ``node`` (the position on ``board``); the value for the player to move there."""
        sqrt_n = math.sqrt(node.count)
        best_k, best_score = 0, -math.inf
        visits, totals, priors = node.visits, node.totals, node.priors
        for k in range(len(node.moves)):
            n = visits[k]
            score = totals[k] / n + EXPLORATION * priors[k] * sqrt_n / (1 + n)
            if score > best_score:
                best_k, best_score = k, score
        undo = board.make(node.moves[best_k])
        if board.empty_inner == 0:
            value = terminal_value(board, board.turn)
        else:
            child = node.children[best_k]
            if child is None:
                child, value = self.expand(board)
                node.children[best_k] = child
            else:
                value = self.descend(board, child)
        board.unmake(undo)
        visits[best_k] += 1
        totals[best_k] -= value
        node.count += 1
        return -value
