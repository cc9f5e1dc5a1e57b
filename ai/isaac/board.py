"""A fast ISAAC board for the tree search: pieces as integer ids, line counts kept up to date, cheap to copy.

Built from the engine's read API (``pieces``, ``in_hand``, ``min_removal_length``, ``scores``, ``out``,
``passed_first``) and mirroring its rules: passes (a player who passed is skipped for the rest of the phase), the
phase change (whoever passed first starts scoring), removals at least as long as every earlier one and under no
counter, points = (pieces left on the line) x value x 2 per counter on the line, the clash rule, 100 ends the game,
and the tie-breaks. ``tests/test_ai_isaac.py`` walks whole games against the engine.

A move is an int: a span id (placement), ``REMOVE * (score + 1) + span id`` (removal to ``score``) or ``PASS``.
"""

from __future__ import annotations

from typing import Any

from engines import isaac as E

SIZE = 10
TARGET = 100
PLACEMENT, SCORING, OVER = 0, 1, 2
PHASES = {E.PLACEMENT: PLACEMENT, E.SCORING: SCORING, E.OVER: OVER}
PASS = -1


def _spans() -> list[tuple[str, int, int, int, tuple[int, ...], int, int]]:
    """Every piece position in the engine's canonical (name) order: name, length, value, mask, the lines it
    touches, its scoring line (0..9 ranks, 10..19 files), and the half-open range of crossing lines."""
    found = []
    for length in E.LENGTHS:
        for r in range(SIZE):
            for f in range(SIZE - length + 1):
                squares = [r * SIZE + f + k for k in range(length)]
                name = f"{E.square_name(f, r + 1)}-{E.square_name(f + length - 1, r + 1)}"
                found.append((name, length, squares, r, (10 + f, 10 + f + length)))
        for f in range(SIZE):
            for r in range(SIZE - length + 1):
                squares = [(r + k) * SIZE + f for k in range(length)]
                name = f"{E.square_name(f, r + 1)}-{E.square_name(f, r + length)}"
                found.append((name, length, squares, 10 + f, (r, r + length)))
    found.sort(key=lambda t: t[0])
    return [
        (name, length, E.VALUES[length], sum(1 << s for s in squares), (line, *range(*cross)), line, cross[0])
        for name, length, squares, line, cross in found
    ]


_TABLE = _spans()
NAMES: tuple[str, ...] = tuple(t[0] for t in _TABLE)
ID: dict[str, int] = {name: i for i, name in enumerate(NAMES)}
LENGTH: tuple[int, ...] = tuple(t[1] for t in _TABLE)
VALUE: tuple[int, ...] = tuple(t[2] for t in _TABLE)
MASK: tuple[int, ...] = tuple(t[3] for t in _TABLE)
TOUCHES: tuple[tuple[int, ...], ...] = tuple(t[4] for t in _TABLE)
LINE: tuple[int, ...] = tuple(t[5] for t in _TABLE)
CROSS_START: tuple[int, ...] = tuple(t[6] for t in _TABLE)  # the crossing lines are CROSS_START .. + LENGTH
SQUARES: tuple[tuple[int, ...], ...] = tuple(tuple(i for i in range(100) if m >> i & 1) for m in MASK)
ALL_SPANS: tuple[int, ...] = tuple(range(len(NAMES)))
BY_LENGTH: dict[int, tuple[int, ...]] = {n: tuple(i for i in range(len(NAMES)) if LENGTH[i] == n) for n in E.LENGTHS}
REMOVE = 1 << 12  # above every span id
LINE_MASKS: tuple[int, ...] = tuple(
    [sum(1 << (r * SIZE + f) for f in range(SIZE)) for r in range(SIZE)]
    + [sum(1 << (r * SIZE + f) for r in range(SIZE)) for f in range(SIZE)]
)
SQUARE_LINES: tuple[tuple[int, int], ...] = tuple((sq // SIZE, 10 + sq % SIZE) for sq in range(100))


def removal(span: int, score: int) -> int:
    return REMOVE * (score + 1) + span


def move_name(move: int) -> str:
    if move == PASS:
        return "pass"
    if move >= REMOVE:
        return f"x {NAMES[move % REMOVE]} {move // REMOVE - 1}"
    return NAMES[move]


def move_id(name: str) -> int:
    if name == "pass":
        return PASS
    if name.startswith("x "):
        _, span, score = name.split()
        return removal(ID[span], int(score))
    return ID[name]


def counter_square(player: int, score: int) -> int:
    """The square (Black's number) of ``player``'s counter at ``score`` (below 100)."""
    return score if player == 0 else 99 - score


class Board:
    """Both phases of ISAAC. ``count[line]``: pieces touching the line; ``weight[p][line]``: the values of
    ``p``'s pieces that score on the line (so a new piece across it raises their points by that much each)."""

    __slots__ = ("count", "hand", "minlen", "occ", "out", "owner", "passed_first", "phase", "scores", "turn", "weight")

    def __init__(self) -> None:
        self.owner: dict[int, int] = {}
        self.occ = 0
        self.count = [0] * 20
        self.weight = [[0] * 20, [0] * 20]
        self.hand = [[0] * 8, [0] * 8]
        self.minlen = [3, 3]
        self.scores = [0, 0]
        self.out = [False, False]
        self.phase = PLACEMENT
        self.turn = 0
        self.passed_first = -1

    @classmethod
    def from_game(cls, game: Any) -> Board:
        b = cls()
        for name, player in game.pieces():
            b._put(ID[name], player)
        for p in (0, 1):
            for length, n in game.in_hand(p).items():
                b.hand[p][length] = n
            b.minlen[p] = game.min_removal_length(p)
        b.scores = list(game.scores())
        b.out = list(game.out)
        b.phase = PHASES[game.phase]
        b.turn = -1 if game.turn is None else game.turn
        b.passed_first = -1 if game.passed_first is None else game.passed_first
        return b

    def copy(self) -> Board:
        b = Board.__new__(Board)
        b.owner = self.owner.copy()
        b.occ = self.occ
        b.count = self.count[:]
        b.weight = [self.weight[0][:], self.weight[1][:]]
        b.hand = [self.hand[0][:], self.hand[1][:]]
        b.minlen = self.minlen[:]
        b.scores = self.scores[:]
        b.out = self.out[:]
        b.phase, b.turn, b.passed_first = self.phase, self.turn, self.passed_first
        return b

    # -- reading --

    def counters(self) -> int:
        """The squares under a counter (none in the placement phase, none for a score of 100 or more)."""
        if self.phase != SCORING:
            return 0
        s0, s1 = self.scores
        return (1 << s0 if s0 < TARGET else 0) | (1 << (99 - s1) if s1 < TARGET else 0)

    def points(self, span: int, counters: int) -> int:
        line = LINE[span]
        return (self.count[line] - 1) * VALUE[span] << (counters & LINE_MASKS[line]).bit_count()

    def placements(self, player: int) -> list[int]:
        hand, occ = self.hand[player], self.occ
        found: list[int] = []
        for length in (3, 4, 5, 6, 7):
            if hand[length]:
                found += [s for s in BY_LENGTH[length] if not occ & MASK[s]]
        return found

    def removable(self, player: int, counters: int) -> list[int]:
        least = self.minlen[player]
        return [s for s, o in self.owner.items() if o == player and LENGTH[s] >= least and not MASK[s] & counters]

    def gains(self, player: int, spans: list[int]) -> list[float]:
        """Each placement's line-potential gain for ``player``: its own value times the pieces on its line, plus
        what it adds to every piece whose line it crosses, mine minus the opponent's."""
        mine, theirs, count = self.weight[player], self.weight[1 - player], self.count
        diff = [mine[k] - theirs[k] for k in range(20)]
        prefix = [0] * 21
        for k in range(20):
            prefix[k + 1] = prefix[k] + diff[k]
        return [
            VALUE[s] * count[LINE[s]] + diff[LINE[s]] + prefix[CROSS_START[s] + LENGTH[s]] - prefix[CROSS_START[s]]
            for s in spans
        ]

    def potential(self, player: int) -> int:
        """What ``player``'s pieces would score if removed now, without counters."""
        count = self.count
        return sum(VALUE[s] * (count[LINE[s]] - 1) for s, o in self.owner.items() if o == player)

    def winner(self) -> int:
        s = self.scores
        if s[0] != s[1]:
            return 0 if s[0] > s[1] else 1
        squares = [sum(n * k for n, k in enumerate(h)) for h in self.hand]
        if squares[0] != squares[1]:
            return 0 if squares[0] > squares[1] else 1
        pieces = [sum(h) for h in self.hand]
        if pieces[0] != pieces[1]:
            return 0 if pieces[0] < pieces[1] else 1
        return 0

    # -- playing --

    def _put(self, span: int, player: int) -> None:
        self.owner[span] = player
        self.occ |= MASK[span]
        count = self.count
        for line in TOUCHES[span]:
            count[line] += 1
        self.weight[player][LINE[span]] += VALUE[span]

    def _take(self, span: int) -> None:
        player = self.owner.pop(span)
        self.occ &= ~MASK[span]
        count = self.count
        for line in TOUCHES[span]:
            count[line] -= 1
        self.weight[player][LINE[span]] -= VALUE[span]

    def play(self, move: int) -> None:
        p = self.turn
        if move == PASS:
            self.out[p] = True
            if self.phase == PLACEMENT and self.passed_first < 0:
                self.passed_first = p
            if not self.out[1 - p]:
                self.turn = 1 - p
            elif self.phase == PLACEMENT:
                self.phase, self.out, self.turn = SCORING, [False, False], self.passed_first
            else:
                self.phase, self.turn = OVER, -1
            return
        if move < REMOVE:
            self._put(move, p)
            self.hand[p][LENGTH[move]] -= 1
        else:
            span = move % REMOVE
            self._take(span)
            if LENGTH[span] > self.minlen[p]:
                self.minlen[p] = LENGTH[span]
            score = move // REMOVE - 1
            self.scores[p] = score
            if score >= TARGET:
                self.phase, self.turn = OVER, -1
                return
        if not self.out[1 - p]:
            self.turn = 1 - p

    def legal(self) -> list[int]:
        """Every legal move, as the engine lists them (tests; the search lists fewer removals)."""
        p = self.turn
        if self.phase == PLACEMENT:
            return self.placements(p) or [PASS]
        counters = self.counters()
        current, clash = self.scores[p], 99 - self.scores[1 - p]
        moves = [
            removal(s, score)
            for s in self.removable(p, counters)
            for score in range(current, current + self.points(s, counters) + 1)
            if score != clash
        ]
        return moves or [PASS]
