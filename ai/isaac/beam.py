"""ISAAC: a beam alpha-beta over a light model of both phases; level 1 values each move one ply deep with it.

Placement is valued by *line potential*: a piece scores its value times the pieces on its line when it is
removed, so a side's potential is the sum of value x (other pieces on its line) over its pieces; a placement is
judged by how much it raises its own potential against the opponent's. Only the best placements by that gain
are searched (a beam), since hundreds are legal. In the scoring phase every removable piece is tried with the
new scores that matter: all the points, one less when all would land on the other counter (the clash rule),
and scores that park the counter on an opponent's piece to stop its removal. Game ends are scored exactly.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from ai.search import Deadline, below_best
from engines import isaac as E

SIZE = 10
TARGET = 100
BEAM = 10  # placements searched below the root; the rest are cut by their line-potential gain
PARK = 3  # parking scores tried per removal


@dataclass(frozen=True, slots=True)
class Span:
    name: str
    length: int
    value: int
    mask: int
    line: int  # 0..9 rows, 10..19 columns: the line that scores it
    touches: tuple[int, ...]  # every line it lies on (for line counts)


def _spans() -> dict[str, Span]:
    spans = {}
    for length in E.LENGTHS:
        for r in range(SIZE):
            for f in range(SIZE - length + 1):
                sq = [r * SIZE + f + k for k in range(length)]
                name = f"{E.square_name(f, r + 1)}-{E.square_name(f + length - 1, r + 1)}"
                touches = (r, *(10 + f + k for k in range(length)))
                spans[name] = Span(name, length, E.VALUES[length], sum(1 << s for s in sq), r, touches)
        for f in range(SIZE):
            for r in range(SIZE - length + 1):
                sq = [(r + k) * SIZE + f for k in range(length)]
                name = f"{E.square_name(f, r + 1)}-{E.square_name(f, r + length)}"
                touches = (10 + f, *(r + k for k in range(length)))
                spans[name] = Span(name, length, E.VALUES[length], sum(1 << s for s in sq), 10 + f, touches)
    return spans


SPANS = _spans()
ORDERED = tuple(sorted(SPANS.values(), key=lambda s: s.name))
LINE_MASKS = tuple(
    [sum(1 << (r * SIZE + f) for f in range(SIZE)) for r in range(SIZE)]
    + [sum(1 << (r * SIZE + f) for r in range(SIZE)) for f in range(SIZE)]
)


class Model:
    """Both phases of ISAAC with make/unmake by copying the few small fields (positions are tiny)."""

    __slots__ = ("hand", "minlen", "out", "owner", "passed_first", "phase", "scores", "turn")

    def __init__(self) -> None:
        self.owner: dict[str, int] = {}
        self.hand: list[list[int]] = [[0] * 8, [0] * 8]
        self.minlen = [3, 3]
        self.scores = [0, 0]
        self.out = [False, False]
        self.phase = E.PLACEMENT
        self.turn: int | None = 0
        self.passed_first: int | None = None

    @classmethod
    def from_game(cls, game: Any) -> Model:
        m = cls()
        m.owner = dict(game.pieces())
        for p in (0, 1):
            for length, n in game.in_hand(p).items():
                m.hand[p][length] = n
            m.minlen[p] = game.min_removal_length(p)
        m.scores = list(game.scores())
        m.out = list(game.out)
        m.phase = game.phase
        m.turn = game.turn
        m.passed_first = game.passed_first
        return m

    def clone(self) -> Model:
        m = Model.__new__(Model)
        m.owner = dict(self.owner)
        m.hand = [list(self.hand[0]), list(self.hand[1])]
        m.minlen = list(self.minlen)
        m.scores = list(self.scores)
        m.out = list(self.out)
        m.phase, m.turn, m.passed_first = self.phase, self.turn, self.passed_first
        return m

    # -- reading --

    def occupied(self) -> int:
        occ = 0
        for name in self.owner:
            occ |= SPANS[name].mask
        return occ

    def line_counts(self) -> list[int]:
        counts = [0] * 20
        for name in self.owner:
            for line in SPANS[name].touches:
                counts[line] += 1
        return counts

    def counters(self) -> int:
        if self.phase != E.SCORING:
            return 0
        mask = 0
        if self.scores[0] < TARGET:
            mask |= 1 << self.scores[0]
        if self.scores[1] < TARGET:
            mask |= 1 << (99 - self.scores[1])
        return mask

    def points(self, span: Span, counts: list[int], counters: int) -> int:
        return (counts[span.line] - 1) * span.value * 2 ** (counters & LINE_MASKS[span.line]).bit_count()

    def placements(self) -> list[Span]:
        hand, occ = self.hand[self.turn], self.occupied()
        return [s for s in ORDERED if hand[s.length] and not occ & s.mask]

    def removable(self, player: int) -> list[Span]:
        blocked = self.counters()
        return [
            SPANS[n]
            for n, o in self.owner.items()
            if o == player and SPANS[n].length >= self.minlen[player] and not SPANS[n].mask & blocked
        ]

    # -- playing (on a clone) --

    def _next(self, player: int) -> None:
        self.turn = player if self.out[1 - player] else 1 - player

    def place(self, span: Span) -> None:
        p = self.turn
        self.owner[span.name] = p
        self.hand[p][span.length] -= 1
        self._next(p)

    def remove(self, span: Span, score: int) -> None:
        p = self.turn
        del self.owner[span.name]
        self.minlen[p] = max(self.minlen[p], span.length)
        self.scores[p] = score
        if score >= TARGET:
            self.phase, self.turn = E.OVER, None
        else:
            self._next(p)

    def pass_(self) -> None:
        p = self.turn
        self.out[p] = True
        if self.phase == E.PLACEMENT and self.passed_first is None:
            self.passed_first = p
        if not self.out[1 - p]:
            self.turn = 1 - p
        elif self.phase == E.PLACEMENT:
            self.phase, self.out, self.turn = E.SCORING, [False, False], self.passed_first
        else:
            self.phase, self.turn = E.OVER, None

    def winner(self) -> int:
        s = self.scores
        if s[0] != s[1]:
            return 0 if s[0] > s[1] else 1
        squares = [sum(length * n for length, n in enumerate(h)) for h in self.hand]
        if squares[0] != squares[1]:
            return 0 if squares[0] > squares[1] else 1
        counts = [sum(h) for h in self.hand]
        if counts[0] != counts[1]:
            return 0 if counts[0] < counts[1] else 1
        return 0


def potential(model: Model, counts: list[int]) -> list[float]:
    """Each side's line potential: what its pieces would score if removed now, without counters."""
    pot = [0.0, 0.0]
    for name, owner in model.owner.items():
        span = SPANS[name]
        pot[owner] += span.value * (counts[span.line] - 1)
    return pot


def evaluate(model: Model, player: int) -> float:
    """Heuristic value for ``player`` in (-0.95, 0.95); exact +-1 once over."""
    if model.phase == E.OVER:
        return 1.0 if model.winner() == player else -1.0
    pot = potential(model, model.line_counts())
    other = 1 - player
    if model.phase == E.PLACEMENT:
        x = (pot[player] - pot[other]) / 60
    else:
        diff = model.scores[player] - model.scores[other]
        x = (diff + 0.5 * (pot[player] - pot[other])) / 40
    return 0.95 * math.tanh(x)


def children(model: Model, beam: int | None) -> list[tuple[str, Model]]:
    """Moves worth searching with their positions, best-looking first (all of them when ``beam`` is None)."""
    p = model.turn
    assert p is not None
    result: list[tuple[float, str, Model]] = []
    if model.phase == E.PLACEMENT:
        spans = model.placements()
        if not spans:
            child = model.clone()
            child.pass_()
            return [("pass", child)]
        counts = model.line_counts()
        by_line: list[list[float]] = [[0.0, 0.0] for _ in range(20)]
        for name, owner in model.owner.items():
            span = SPANS[name]
            by_line[span.line][owner] += span.value
        scored = []
        for s in spans:
            gain = s.value * counts[s.line] + sum(by_line[line][p] - by_line[line][1 - p] for line in s.touches)
            scored.append((gain, s))
        scored.sort(key=lambda t: -t[0])
        for gain, s in scored if beam is None else scored[:beam]:
            child = model.clone()
            child.place(s)
            result.append((gain, s.name, child))
    else:
        counts, counters = model.line_counts(), model.counters()
        cur, clash = model.scores[p], 99 - model.scores[1 - p]
        opponent_squares = _park_squares(model, 1 - p)
        for s in model.removable(p):
            top = cur + model.points(s, counts, counters)
            options = {top if top != clash else top - 1}
            if top >= TARGET:
                options = {top}
            else:
                parks = [sq if p == 0 else 99 - sq for sq in opponent_squares]
                options.update(score for score in parks[:PARK] if cur <= score <= top and score != clash)
            for score in options:
                child = model.clone()
                child.remove(s, score)
                result.append((score - cur + (1000 if score >= TARGET else 0), f"x {s.name} {score}", child))
        if not result:
            child = model.clone()
            child.pass_()
            return [("pass", child)]
        result.sort(key=lambda t: -t[0])
    return [(name, child) for _, name, child in result]


def _park_squares(model: Model, victim: int) -> list[int]:
    """Squares of the victim's most valuable removable pieces, a counter there would stop their removal."""
    counts, counters = model.line_counts(), model.counters()
    spans = sorted(model.removable(victim), key=lambda s: -model.points(s, counts, counters))
    squares = []
    for s in spans:
        low = s.mask & -s.mask
        squares.append(low.bit_length() - 1)
    return squares


class IsaacSearch:
    """Depth-limited negamax alpha-beta on ``Model`` with a placement beam."""

    def __init__(self, full_width_root: bool) -> None:
        self.full_width_root = full_width_root
        self.order: dict[str, float] = {}
        self.horizon = False

    def root_values(self, game: Any, depth: int, deadline: Deadline) -> tuple[dict[str, float], bool]:
        model = Model.from_game(game)
        moves = children(model, None)
        legal = set(game.legal_moves())
        moves = [(name, child) for name, child in moves if name in legal]
        if depth > 1 and model.phase == E.PLACEMENT:
            ranked = sorted(moves, key=lambda t: -self.order.get(t[0], -2.0))
            moves = ranked[: BEAM * 2] if self.order else moves[: BEAM * 2]
        self.horizon = False
        values: dict[str, float] = {}
        alpha = -2.0
        player = model.turn
        assert player is not None
        for name, child in moves:
            window = -2.0 if self.full_width_root else alpha
            value = self.child_value(child, player, depth - 1, window, 2.0, deadline)
            if values and not self.full_width_root and value <= alpha:
                value = below_best(value, alpha)
            values[name] = value
            alpha = max(alpha, value)
        self.order = values
        return values, not self.horizon

    def child_value(
        self, child: Model, player: int, depth: int, alpha: float, beta: float, deadline: Deadline
    ) -> float:
        """The child's value for ``player``, whoever moves there (a player who passed is skipped)."""
        if child.turn == player:
            return self.negamax(child, player, depth, alpha, beta, deadline)
        return -self.negamax(child, 1 - player, depth, -beta, -alpha, deadline)

    def negamax(self, model: Model, player: int, depth: int, alpha: float, beta: float, deadline: Deadline) -> float:
        if model.phase == E.OVER:
            return 1.0 if model.winner() == player else -1.0
        if depth <= 0:
            self.horizon = True
            return evaluate(model, player)
        deadline.check()
        best = -2.0
        for _, child in children(model, BEAM):
            v = self.child_value(child, player, depth - 1, alpha, beta, deadline)
            if v > best:
                best = v
                if v > alpha:
                    alpha = v
                    if alpha >= beta:
                        break
        return best
