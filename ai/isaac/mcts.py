"""A tree search for ISAAC: PUCT over the moves worth considering, with priors and playouts from line potential.

- **Tree moves.** A placement node keeps the best ``PLACEMENT_WIDTH`` placements by their line-potential gain
  (``Board.gains``). A scoring node lists, for each removable piece, the scores that matter: the most points
  (one less where all of them would clash), a score of 100 or more when reachable (it ends the game), scores
  that park the counter on one of the opponent's best pieces (it cannot be removed while the counter is on it),
  and scores that put it on the line of one of my next best pieces (doubling their points). The priors are a
  softmax over a quick judgement of each move (``_placement_priors``, ``_removal_moves``).
- **Playouts** to the end of the game, by a cheap policy that is much better than random: the best of a few
  random placements by gain, then in the scoring phase the removal worth most now, less what it costs to give up
  shorter pieces (removals must never get shorter), at its best score. A win scores 1, a loss 0 for the player
  who chose the move.
- **Selection** maximises ``mean + C * prior * sqrt(N) / (1 + n)``; the move played is the most visited one.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable

from ai.isaac.board import (
    ALL_SPANS,
    LENGTH,
    LINE,
    LINE_MASKS,
    MASK,
    OVER,
    PASS,
    PLACEMENT,
    SQUARES,
    TARGET,
    TOUCHES,
    VALUE,
    Board,
    counter_square,
    removal,
)
from ai.search import Deadline, SearchTimeout

EXPLORATION = 1.0
PLACEMENT_WIDTH = 24
PLACEMENT_TEMPERATURE = 6.0
REMOVAL_TEMPERATURE = 6.0
SHORTER_COST = 0.5  # a removal's judgement loses this share of the points of the shorter pieces it strands
PARKS = 3  # opponent's pieces a counter may be parked on, per removal
DOUBLES = 3  # of my next pieces whose line a counter may be put on
PLAYOUT_SAMPLES = 3  # random placements compared by gain in a playout
PLAYOUT_NOISE = 0.1  # share of playout moves chosen at random among the candidates


class Node:
    __slots__ = ("children", "moves", "n", "priors", "totals", "turn", "visits")

    def __init__(self, turn: int, moves: list[int], priors: list[float]) -> None:
        self.turn = turn
        self.moves = moves
        self.priors = priors
        self.children: list[Node | None] = [None] * len(moves)
        self.visits = [0] * len(moves)
        self.totals = [0.0] * len(moves)
        self.n = 0


def _softmax(values: list[float], temperature: float) -> list[float]:
    top = max(values)
    weights = [math.exp((v - top) / temperature) for v in values]
    total = sum(weights)
    return [w / total for w in weights]


def _placement_moves(board: Board, player: int) -> tuple[list[int], list[float]]:
    spans = board.placements(player)
    if not spans:
        return [PASS], [1.0]
    gains = board.gains(player, spans)
    ranked = sorted(zip(gains, spans, strict=True), key=lambda t: (-t[0], t[1]))[:PLACEMENT_WIDTH]
    return [s for _, s in ranked], _softmax([g for g, _ in ranked], PLACEMENT_TEMPERATURE)


def _stranded(board: Board, player: int, span: int, mine: list[tuple[int, int]]) -> int:
    """The points of my removable pieces shorter than ``span``: removing it first gives them up for good."""
    length = LENGTH[span]
    return sum(points for other, points in mine if LENGTH[other] < length)


def _removal_moves(board: Board, player: int) -> tuple[list[int], list[float]]:
    counters = board.counters()
    spans = board.removable(player, counters)
    if not spans:
        return [PASS], [1.0]
    current, clash = board.scores[player], 99 - board.scores[1 - player]
    mine = [(s, board.points(s, counters)) for s in spans]
    theirs = sorted(
        ((board.points(s, counters), s) for s in board.removable(1 - player, counters)), key=lambda t: (-t[0], t[1])
    )[:PARKS]
    by_points = sorted(mine, key=lambda t: (-t[1], t[0]))
    judged: dict[int, float] = {}
    for span, points in mine:
        top = current + points
        if top >= TARGET:
            judged[removal(span, top)] = 1000.0
            continue
        base = -SHORTER_COST * _stranded(board, player, span, mine)
        best = top if top != clash else top - 1
        judged[removal(span, best)] = base + best - current
        low = current
        # a counter parked on one of their best pieces stops its removal
        for their_points, victim in theirs:
            squares = [sq for sq in SQUARES[victim] if low <= _score_at(player, sq) <= top]
            scores = [_score_at(player, sq) for sq in squares if _score_at(player, sq) != clash]
            if scores:
                score = max(scores)
                value = base + score - current + 0.5 * their_points
                move = removal(span, score)
                judged[move] = max(judged.get(move, -1e9), value)
        # a counter on the line of one of my next pieces doubles it (not on the piece: that would block it)
        doubles = 0
        for other, other_points in by_points:
            if other == span or LENGTH[other] < max(LENGTH[span], board.minlen[player]) or doubles >= DOUBLES:
                continue
            doubles += 1
            line_mask = LINE_MASKS[LINE[other]]
            for score in range(top, low - 1, -1):
                if score == clash:
                    continue
                square = counter_square(player, score)
                if line_mask >> square & 1 and not MASK[other] >> square & 1:
                    move = removal(span, score)
                    judged[move] = max(judged.get(move, -1e9), base + score - current + 0.5 * other_points)
                    break
    moves = sorted(judged)
    return moves, _softmax([judged[m] for m in moves], REMOVAL_TEMPERATURE)


def _score_at(player: int, square: int) -> int:
    return square if player == 0 else 99 - square


def tree_moves(board: Board) -> tuple[list[int], list[float]]:
    if board.phase == PLACEMENT:
        return _placement_moves(board, board.turn)
    return _removal_moves(board, board.turn)


def playout(board: Board, rng: random.Random) -> int:
    """Play ``board`` to its end by the cheap policy; the winner."""
    rand = rng.random
    free: list[int] | None = None  # the empty piece positions, filtered as the board fills
    while board.phase != OVER:
        p = board.turn
        if board.phase == PLACEMENT:
            if free is None:
                free = list(ALL_SPANS)
            board.play(_playout_placement(board, p, free, rand))
            continue
        counters = board.counters()
        spans = board.removable(p, counters)
        if not spans:
            board.play(PASS)
            continue
        current, clash = board.scores[p], 99 - board.scores[1 - p]
        mine = [(s, board.points(s, counters)) for s in spans]
        if rand() < PLAYOUT_NOISE:
            span, points = mine[int(rand() * len(mine))]
        else:
            by_length = [0] * 8
            for s, pts in mine:
                by_length[LENGTH[s]] += pts
            best = -1e9
            span, points = mine[0]
            for s, pts in mine:
                if current + pts >= TARGET:
                    span, points = s, pts
                    break
                value = pts - SHORTER_COST * sum(by_length[3 : LENGTH[s]])
                if value > best:
                    best, span, points = value, s, pts
        score = current + points
        if score == clash:
            score -= 1
        board.play(removal(span, score))
    return board.winner()


def _playout_placement(board: Board, player: int, free: list[int], rand: Callable[[], float]) -> int:
    """The best of a few random empty placements of pieces in hand, by gain (now and then any of them).
    ``free`` holds every empty placement and some filled ones: it is compacted in place when sampling misses."""
    hand, occ = board.hand[player], board.occ
    found: list[int] = []
    fitting: list[int] = []
    for attempt in range(2):
        tries = 0
        while free and len(found) < PLAYOUT_SAMPLES and tries < 6 * PLAYOUT_SAMPLES:
            tries += 1
            span = free[int(rand() * len(free))]
            if hand[LENGTH[span]] and not occ & MASK[span]:
                found.append(span)
        if found or attempt:
            break
        free[:] = [s for s in free if not occ & MASK[s]]
        fitting = [s for s in free if hand[LENGTH[s]]]
        if not fitting:
            return PASS
        if len(fitting) <= PLAYOUT_SAMPLES:
            found = fitting
            break
    if not found:  # the pieces in hand fit rarely: any that fits
        found = [fitting[int(rand() * len(fitting))]]
    if len(found) == 1 or rand() < PLAYOUT_NOISE:
        return found[0]
    count, mine, theirs = board.count, board.weight[player], board.weight[1 - player]
    best, choice = -1e9, found[0]
    for span in found:
        gain = VALUE[span] * count[LINE[span]]
        for k in TOUCHES[span]:
            gain += mine[k] - theirs[k]
        if gain > best:
            best, choice = gain, span
    return choice


class TreeSearch:
    """One decision: ``run`` grows the tree from the root until the iterations or the deadline run out."""

    def __init__(self, rng: random.Random, exploration: float = EXPLORATION) -> None:
        self.rng = rng
        self.exploration = exploration

    def run(self, root_board: Board, iterations: int, deadline: Deadline) -> Node:
        moves, priors = tree_moves(root_board)
        root = Node(root_board.turn, moves, priors)
        for _ in range(iterations):
            try:
                deadline.check()
            except SearchTimeout:
                break
            self.iterate(root, root_board.copy())
        return root

    def iterate(self, root: Node, board: Board) -> None:
        path: list[tuple[Node, int]] = []
        node = root
        while True:
            index = self.select(node)
            path.append((node, index))
            board.play(node.moves[index])
            child = node.children[index]
            if board.phase == OVER:
                winner = board.winner()
                break
            if child is None:
                moves, priors = tree_moves(board)
                node.children[index] = Node(board.turn, moves, priors)
                winner = playout(board, self.rng)
                break
            node = child
        for visited, index in path:
            visited.n += 1
            visited.visits[index] += 1
            if visited.turn == winner:
                visited.totals[index] += 1.0

    def select(self, node: Node) -> int:
        if len(node.moves) == 1:
            return 0
        scale = self.exploration * math.sqrt(node.n + 1)
        parent = sum(node.totals) / node.n if node.n else 0.5
        best, choice = -1e9, 0
        visits, totals, priors = node.visits, node.totals, node.priors
        for i in range(len(node.moves)):
            n = visits[i]
            mean = totals[i] / n if n else parent - 0.1
            score = mean + scale * priors[i] / (1 + n)
            if score > best:
                best, choice = score, i
        return choice
