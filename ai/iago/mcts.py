"""A best-first tree search guided by the learned evaluation (PUCT, as AlphaZero's, with priors from the values).

Expanding a node values every child with the evaluation once: those values are the children's priors (a softmax)
and their first estimates, and the best of them is the node's value (a one-ply look, which sees captures that a
static value would miss). Selection adds an exploration bonus ``C * prior * sqrt(N) / (1 + n)`` to each child's
mean; the move played is the most visited child. Values are for the player to move, so they negate up the tree.

Results are proven as in MCTS-Solver (Winands et al. 2008): a move that ends the game has its exact value, a node
with a winning move is won, a node whose moves all lose is lost (by its best loss), and a proven child is never
sampled again, so the endgame is solved inside the tree as far as the iterations reach.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from ai.iago.board import Board, terminal_value
from ai.search import Deadline, SearchTimeout

EXPLORATION = 3.0
PRIOR_TEMPERATURE = 0.2
SURE = 1 << 30  # the visit count reported for a proven winning move at the root, so it is the one played


class Node:
    __slots__ = ("children", "count", "moves", "open", "priors", "proven", "solved", "totals", "visits")

    def __init__(self, moves: list[int], values: list[float], proven: list[float | None], temperature: float) -> None:
        self.moves = moves
        self.children: list[Node | None] = [None] * len(moves)
        top = max(values)
        weights = [math.exp((v - top) / temperature) for v in values]
        total = sum(weights)
        self.priors = [w / total for w in weights]
        self.visits = [1] * len(moves)  # the expansion's value counts as a first visit
        self.totals = list(values)
        self.count = len(moves)
        self.proven = proven  # exact values for the player to move here, None where not known
        self.open = sum(p is None for p in proven)
        self.solved: float | None = None
        self.settle()

    def settle(self) -> None:
        """Mark the node solved when a proven move wins, or when every move is proven."""
        known = [p for p in self.proven if p is not None]
        if known and (max(known) > 0 or self.open == 0):
            self.solved = max(known)


class TreeSearch:
    """One decision: ``run`` grows the tree from the root until the iterations or the deadline run out."""

    def __init__(
        self,
        value: Callable[[Board], float],
        exploration: float = EXPLORATION,
        prior_temperature: float = PRIOR_TEMPERATURE,
    ) -> None:
        self.value = value
        self.exploration = exploration
        self.prior_temperature = prior_temperature

    def expand(self, board: Board) -> tuple[Node, float]:
        moves = board.moves()
        values: list[float] = []
        proven: list[float | None] = []
        for m in moves:
            undo = board.make(m)
            if board.empty_inner == 0:
                exact = -terminal_value(board, board.turn)
                values.append(exact)
                proven.append(exact)
            else:
                values.append(-self.value(board))
                proven.append(None)
            board.unmake(undo)
        node = Node(moves, values, proven, self.prior_temperature)
        return node, node.solved if node.solved is not None else max(values)

    def run(self, board: Board, iterations: int, deadline: Deadline) -> dict[int, tuple[int, float]]:
        """Visits and mean value of each root move (a proven value where there is one)."""
        root, _ = self.expand(board)
        try:
            for _ in range(iterations):
                if root.solved is not None:
                    break
                deadline.check()
                self.descend(board, root)
        except SearchTimeout:
            pass
        stats = {}
        for k, m in enumerate(root.moves):
            proven = root.proven[k]
            if proven is None:
                stats[m] = (root.visits[k], root.totals[k] / root.visits[k])
            else:
                stats[m] = (SURE if proven > 0 else root.visits[k], proven)
        return stats

    def descend(self, board: Board, node: Node) -> float:
        """One iteration below ``node`` (the position on ``board``); the value for the player to move there."""
        if node.solved is not None:
            return node.solved
        sqrt_n = self.exploration * math.sqrt(node.count)
        best_k, best_score = -1, -math.inf
        visits, totals, priors, proven = node.visits, node.totals, node.priors, node.proven
        for k in range(len(node.moves)):
            if proven[k] is not None:
                continue
            n = visits[k]
            score = totals[k] / n + priors[k] * sqrt_n / (1 + n)
            if score > best_score:
                best_k, best_score = k, score
        undo = board.make(node.moves[best_k])
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
        if child.solved is not None:
            proven[best_k] = -child.solved
            node.open -= 1
            node.settle()
            if node.solved is not None:
                return node.solved
        return -value
