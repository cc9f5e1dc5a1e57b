"""Polygo: a go-board game of dice-chosen blocks where the first closed loop of stones ends the game.

The rules are fixed in ``shared/rules/polygo.md``; this module follows them and the engine contract.

Notation
    Points are named as in go (columns ``A``..``T`` without ``I``, rows from 1 at the bottom). A placement is
    the block's points sorted by column, then row, joined by single spaces (``D4 D5 E5``). Chance moves are
    ``open A B`` (A is Black's opening die, B White's, A != B) and ``roll N``; ``pass`` is legal only when the
    block to place fits nowhere, and is then the only legal move.

Turn order
    ``open A B`` -> the lower die places first with its own opening die -> the other player places with theirs
    -> from then on ``roll N`` before every placement (or pass) of the player to move.

Result reasons (``Result.reason``)
    ``"finish"``        only one player finished: the first finisher wins (the opponent's two turns ran out).
    ``"both-finished"`` the opponent finished within the two extra turns: higher score wins, equal is a draw.
    ``"double-pass"``   two passes in a row, one by each player: a draw (winner None, scores 0-0).

Readings where the rulings are silent
    * A pass during the two extra turns uses up one of them; it can never make a double-pass draw, because
      the finisher takes no turns and so cannot pass "in a row" with the opponent.
    * ``extra_turns_left`` is None until somebody finishes, then counts the opponent's remaining turns
      (2, 1, 0).
    * ``scores()`` and ``Result.scores`` include the 4-point bonus of the player who finished first.
    * Polygon outlines use 0-based lattice coordinates ``(col, row)``, the same grid as the points.

Speed: stones are bitboards (one Python int per colour, ``size + 1`` bits a row so that sideways shifts
never wrap), placements are precomputed per board size, and a polygon check is one bitboard flood fill for
the player who just placed; the cell geometry only runs when that flood fill finds an enclosed point.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum
from functools import cache
from typing import Any, NamedTuple

from engines import IllegalMove, Phrase, Refusal, Result

NAME = "polygo"  # how the game is known everywhere: the registry, the stored games, engines.get

SIDES: tuple[str, str] = ("Black", "White")


class Reason(StrEnum):
    """Why a game ended (``Result.reason``); see the module docstring."""

    FINISH = "finish"
    BOTH_FINISHED = "both-finished"
    DOUBLE_PASS = "double-pass"


OPTIONS: dict[str, tuple[int, ...]] = {"size": (19, 13, 9)}
COLUMNS = "ABCDEFGHJKLMNOPQRST"

Shape = tuple[tuple[int, int], ...]


class Block(NamedTuple):
    name: str  # in the bot's messages, e.g. "Rolled 3: place a bent three."
    shapes: tuple[Shape, ...]
    short: str  # on the board image's narrow panel


# Die face -> its block: names and base shapes. The rule book's Figure 1 is missing, so this table is the
# rulings' stand-in, kept in this one place so that it can be corrected. Offsets are (col, row), row up.
# Faces 5 and 6 offer the mirror image as a second shape because blocks may turn but never flip.
BLOCKS: dict[int, Block] = {
    1: Block("a domino", (((0, 0), (1, 0)),), "domino"),
    2: Block("a straight line of 3", (((0, 0), (1, 0), (2, 0)),), "line of 3"),
    3: Block("a bent three", (((0, 0), (1, 0), (0, 1)),), "bent three"),
    4: Block("a straight line of 4", (((0, 0), (1, 0), (2, 0), (3, 0)),), "line of 4"),
    5: Block(
        "an L-tetromino or its mirror image",
        (((0, 0), (1, 0), (0, 1), (0, 2)), ((0, 0), (1, 0), (1, 1), (1, 2))),
        "L or J four",
    ),
    6: Block(
        "an S-tetromino or its mirror image",
        (((0, 0), (1, 0), (1, 1), (2, 1)), ((1, 0), (2, 0), (0, 1), (1, 1))),
        "S or Z four",
    ),
}

EXTRA_TURNS = 2
FIRST_FINISH_BONUS = 4
TURNS = (0, 90, 180, 270)


# --------------------------------------------------------------------------------------------- points


def point_name(col: int, row: int) -> str:
    """``(0, 0)`` -> ``"A1"``; columns skip ``I`` as on a go board."""
    return f"{COLUMNS[col]}{row + 1}"


def parse_point(name: str) -> tuple[int, int]:
    """``"D4"`` -> ``(3, 3)`` (0-based column, row). IllegalMove for anything that is not a go point name."""
    text = name.strip().upper()
    match = re.fullmatch(r"([A-Z])\s*(\d{1,2})", text)
    if not match or match.group(1) not in COLUMNS or not 1 <= int(match.group(2)) <= len(COLUMNS):
        raise IllegalMove("'{text}' is not a point name (columns A-T without I, rows 1-19).", text=name.strip())
    return COLUMNS.index(match.group(1)), int(match.group(2)) - 1


def _rotate(shape: Shape, turn: int) -> Shape:
    """Turn a shape clockwise by ``turn`` degrees (row up), then shift it to touch col 0 and row 0."""
    points = list(shape)
    for _ in range(turn // 90):
        points = [(row, -col) for col, row in points]
    min_col = min(col for col, _ in points)
    min_row = min(row for _, row in points)
    return tuple(sorted((col - min_col, row - min_row) for col, row in points))


def _canonical(points: list[tuple[int, int]]) -> str:
    return " ".join(point_name(col, row) for col, row in sorted(points))


# ------------------------------------------------------------------------------------------- geometry


@dataclass(frozen=True)
class _Geometry:
    """Everything about a board size that never changes: bit layout and every placement of every face."""

    size: int
    width: int  # bits per row: size + 1, the spare bit keeps sideways shifts from wrapping rows
    on_board: int
    border: int
    placements: dict[int, tuple[tuple[str, int], ...]]  # face -> (canonical, mask) sorted by canonical
    lookup: dict[int, dict[str, int]]  # face -> canonical -> mask

    def bit(self, col: int, row: int) -> int:
        return 1 << (row * self.width + col)

    def points_of(self, mask: int) -> list[tuple[int, int]]:
        points = []
        while mask:
            low = mask & -mask
            index = low.bit_length() - 1
            points.append((index % self.width, index // self.width))
            mask ^= low
        return points


@cache
def _geometry(size: int) -> _Geometry:
    width = size + 1
    on_board = 0
    border = 0
    for row in range(size):
        for col in range(size):
            bit = 1 << (row * width + col)
            on_board |= bit
            if col in (0, size - 1) or row in (0, size - 1):
                border |= bit
    placements: dict[int, tuple[tuple[str, int], ...]] = {}
    lookup: dict[int, dict[str, int]] = {}
    for face in BLOCKS:
        found: dict[str, int] = {}
        for shape in _orientations(face):
            span_col = max(col for col, _ in shape)
            span_row = max(row for _, row in shape)
            for row in range(size - span_row):
                for col in range(size - span_col):
                    points = [(col + dc, row + dr) for dc, dr in shape]
                    mask = 0
                    for pc, pr in points:
                        mask |= 1 << (pr * width + pc)
                    found[_canonical(points)] = mask
        placements[face] = tuple(sorted(found.items()))
        lookup[face] = found
    return _Geometry(size, width, on_board, border, placements, lookup)


@cache
def _orientations(face: int) -> tuple[Shape, ...]:
    """Every distinct turned shape a face allows (mirror images only where the face offers them)."""
    seen: list[Shape] = []
    for shape in BLOCKS[face][1]:
        for turn in TURNS:
            turned = _rotate(shape, turn)
            if turned not in seen:
                seen.append(turned)
    return tuple(seen)


# -------------------------------------------------------------------------------------------- polygons


def _enclosed(own: int, geo: _Geometry) -> int:
    """Points without P's stones that cannot reach off the board by 8-neighbour steps avoiding P's stones."""
    free = geo.on_board & ~own
    reach = free & geo.border  # every free edge point touches the off-board area
    width = geo.width
    while True:
        row = reach | (reach << 1) | (reach >> 1)  # stray bits land in the spare column and are masked off
        grown = (row | (row << width) | (row >> width)) & free
        if grown == reach:
            return free & ~reach
        reach = grown


def _cell_groups(enclosed: list[tuple[int, int]]) -> list[set[tuple[int, int]]]:
    """Claimed cells (named by their lower-left point) grouped through shared sides."""
    claimed: set[tuple[int, int]] = set()
    for col, row in enclosed:
        claimed.update(((col - 1, row - 1), (col, row - 1), (col - 1, row), (col, row)))
    groups: list[set[tuple[int, int]]] = []
    while claimed:
        start = claimed.pop()
        group = {start}
        stack = [start]
        while stack:
            x, y = stack.pop()
            for nxt in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
                if nxt in claimed:
                    claimed.discard(nxt)
                    group.add(nxt)
                    stack.append(nxt)
        groups.append(group)
    return groups


def _fill_holes(group: set[tuple[int, int]]) -> set[tuple[int, int]]:
    """The group plus every cell it cuts off from the outside (side steps; a corner contact is a wall)."""
    min_x = min(x for x, _ in group) - 1
    max_x = max(x for x, _ in group) + 1
    min_y = min(y for _, y in group) - 1
    max_y = max(y for _, y in group) + 1
    outside = {(min_x, min_y)}
    stack = [(min_x, min_y)]
    while stack:
        x, y = stack.pop()
        for nxt in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
            nx, ny = nxt
            if min_x <= nx <= max_x and min_y <= ny <= max_y and nxt not in group and nxt not in outside:
                outside.add(nxt)
                stack.append(nxt)
    return {(x, y) for x in range(min_x + 1, max_x) for y in range(min_y + 1, max_y) if (x, y) not in outside}


def _outline(cells: set[tuple[int, int]]) -> list[tuple[int, int]]:
    """The boundary of a hole-free cell set as lattice points in counter-clockwise order, corners only."""
    step: dict[tuple[int, int], tuple[int, int]] = {}
    for x, y in cells:
        if (x, y - 1) not in cells:
            step[(x, y)] = (x + 1, y)
        if (x + 1, y) not in cells:
            step[(x + 1, y)] = (x + 1, y + 1)
        if (x, y + 1) not in cells:
            step[(x + 1, y + 1)] = (x, y + 1)
        if (x - 1, y) not in cells:
            step[(x, y + 1)] = (x, y)
    start = min(step)
    loop = [start]
    current = step[start]
    while current != start and len(loop) <= len(step):
        loop.append(current)
        current = step[current]
    corners = []
    for index, point in enumerate(loop):
        before = loop[index - 1]
        after = loop[(index + 1) % len(loop)]
        # keep a point only where the direction changes
        if (point[0] - before[0], point[1] - before[1]) != (after[0] - point[0], after[1] - point[1]):
            corners.append(point)
    return corners


def _polygon_of(cells: set[tuple[int, int]]) -> dict[str, Any]:
    corners: set[tuple[int, int]] = set()
    for x, y in cells:
        corners.update(((x, y), (x + 1, y), (x, y + 1), (x + 1, y + 1)))
    inside = {
        (c, r)
        for c, r in corners
        if (c - 1, r - 1) in cells and (c, r - 1) in cells and (c - 1, r) in cells and (c, r) in cells
    }
    boundary = corners - inside
    stones = [point_name(c, r) for c, r in sorted(boundary)]
    territory = [point_name(c, r) for c, r in sorted(inside)]
    return {
        "stones": stones,
        "territory": territory,
        "score": len(stones) + 2 * len(territory),
        "outline": _outline(cells),
    }


def find_polygon(own: int, geo: _Geometry) -> dict[str, Any] | None:
    """The best polygon of the stones in ``own``: most territory, then most stones; None if there is none."""
    if own.bit_count() < 8:  # the smallest polygon is the ring of 8
        return None
    enclosed = _enclosed(own, geo)
    if not enclosed:
        return None
    best: dict[str, Any] | None = None
    for group in _cell_groups(geo.points_of(enclosed)):
        polygon = _polygon_of(_fill_holes(group))
        key = (len(polygon["territory"]), len(polygon["stones"]))
        if best is None or key > (len(best["territory"]), len(best["stones"])):
            best = polygon
    return best


def polygon_from_points(points: Iterable[str], size: int = 19) -> dict[str, Any] | None:
    """The best polygon a player with stones on ``points`` would have (for tests, tools and the docs)."""
    geo = _geometry(size)
    own = 0
    for name in points:
        col, row = parse_point(name)
        own |= geo.bit(col, row)
    return find_polygon(own, geo)


# ---------------------------------------------------------------------------------------------- parsing

_PLACEMENT_TOKEN = re.compile(r"[A-Z]\d{1,2}")


def _normalise(text: str) -> str:
    return re.sub(r"[\s,]+", " ", text.strip().lower()).strip()


def _parse_dice(text: str, word: str, count: int) -> tuple[int, ...] | None:
    """Digits after ``open``/``roll``; None if ``text`` is not that kind of move at all."""
    if not text.startswith(word):
        return None
    rest = text[len(word) :].replace(" ", "")
    if not rest.isdigit() or len(rest) != count:
        return ()
    return tuple(int(digit) for digit in rest)


# ------------------------------------------------------------------------------------------------ game

_OPEN, _ROLL, _PLACE, _OVER = "open", "roll", "place", "over"


class PolygoGame:
    """One game of Polygo. Mutated only by ``play``; everything else reads."""

    def __init__(self, size: int = 19) -> None:
        self.size = size
        self._geo = _geometry(size)
        self._stones = [0, 0]
        self.moves: list[str] = []
        self._phase = _OPEN
        self._player = 0  # who rolls or places next (meaningless at the opening and at the end)
        self._die: int | None = None
        self._opening: tuple[int, int] | None = None
        self.first_player: int | None = None
        self._turns_taken = [0, 0]
        self._finished = [False, False]
        self._polygons: list[dict[str, Any] | None] = [None, None]
        self._first_finisher: int | None = None
        self.extra_turns_left: int | None = None
        self._passes_in_row = 0
        self.last_block: list[str] = []
        self._result: Result | None = None
        self._legal_cache: list[str] | None = None

    # ---- contract

    @property
    def turn(self) -> int | None:
        return self._player if self._phase == _PLACE else None

    @property
    def chance(self) -> bool:
        return self._phase in (_OPEN, _ROLL)

    @property
    def is_over(self) -> bool:
        return self._phase == _OVER

    @property
    def to_act(self) -> int | None:
        """The player who places now, or who rolls at a dice point; None at the opening dice and at the end."""
        return self._player if self._phase in (_PLACE, _ROLL) else None

    def legal_moves(self) -> list[str]:
        if self._legal_cache is None:
            self._legal_cache = self._compute_legal()
        return list(self._legal_cache)

    def play(self, move: str) -> None:
        text = _normalise(move)
        if self._phase == _OVER:
            raise IllegalMove("The game is over.")
        if self._phase == _OPEN:
            self._play_open(text)
        elif self._phase == _ROLL:
            self._play_roll(text)
        else:
            self._play_place(text)

    def result(self) -> Result:
        if self._result is None:
            raise ValueError("The game is not over yet.")
        return self._result

    def to_dict(self) -> dict[str, Any]:
        return {"game": "polygo", "options": {"size": self.size}, "moves": list(self.moves)}

    def copy(self) -> PolygoGame:
        other = PolygoGame.__new__(PolygoGame)
        other.__dict__.update(self.__dict__)
        # lists are the only mutable state; polygons and the legal cache are never mutated in place
        other._stones = list(self._stones)
        other.moves = list(self.moves)
        other._turns_taken = list(self._turns_taken)
        other._finished = list(self._finished)
        other._polygons = list(self._polygons)
        other.last_block = list(self.last_block)
        return other

    def __eq__(self, other: object) -> bool:
        # the move list (with chance moves) determines the whole state
        if not isinstance(other, PolygoGame):
            return NotImplemented
        return self.size == other.size and self.moves == other.moves

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"PolygoGame(size={self.size}, moves={len(self.moves)}, phase={self._phase!r})"

    # ---- extra API for the bot and the renderer

    def stones_of(self, player: int) -> list[tuple[int, int]]:
        """The (column, row) points of ``player``'s stones, row by row from the bottom, each row left to right: what
        a picture or a description of the whole board reads, without asking point by point."""
        return self._geo.points_of(self._stones[player])

    def stone(self, point: str | tuple[int, int]) -> int | None:
        col, row = self._parse_on_board(point) if isinstance(point, str) else point
        if not (0 <= col < self.size and 0 <= row < self.size):
            raise IllegalMove("({col}, {row}) is not on the {board} board.", col=col, row=row, board=self._board_name())
        bit = self._geo.bit(col, row)
        if self._stones[0] & bit:
            return 0
        if self._stones[1] & bit:
            return 1
        return None

    @property
    def die(self) -> int | None:
        """The face whose block the player to move must place now (rolled or opening die)."""
        return self._die if self._phase == _PLACE else None

    @property
    def to_roll(self) -> int | None:
        return self._player if self._phase == _ROLL else None

    @property
    def opening(self) -> tuple[int, int] | None:
        """The opening dice (Black's, White's), once rolled."""
        return self._opening

    @property
    def finished(self) -> tuple[bool, bool]:
        return (self._finished[0], self._finished[1])

    @property
    def first_finisher(self) -> int | None:
        return self._first_finisher

    def polygon(self, player: int) -> dict[str, Any] | None:
        """The polygon a finished player scored with (fixed when they finished); None before."""
        polygon = self._polygons[player]
        if polygon is None:
            return None
        return {key: list(value) if isinstance(value, list) else value for key, value in polygon.items()}

    def scores(self) -> tuple[int, int]:
        return (self._score(0), self._score(1))

    @staticmethod
    def blocks_for(face: int) -> list[list[tuple[int, int]]]:
        if face not in BLOCKS:
            raise ValueError("A die face is 1 to 6.")
        return [list(shape) for shape in BLOCKS[face][1]]

    @staticmethod
    def block_name(face: int) -> str:
        return BLOCKS[face][0]

    def placement_from_anchor(self, at: str, turn: int | str = 0, mirror: bool = False) -> str:
        """The current die's block turned clockwise by ``turn`` degrees with its anchor on ``at``.

        The anchor is the block's lowest point after turning, the leftmost one if several share that row.
        ``mirror`` picks the second shape on faces 5 and 6. Emptiness is left to ``play``.
        """
        face = self.die
        if face is None:
            raise IllegalMove.because(self._not_placing_message())
        try:
            degrees = int(str(turn).strip())
        except ValueError:
            degrees = -1
        if degrees not in TURNS:
            raise IllegalMove("A block turns by 0, 90, 180 or 270 degrees.")
        shapes = BLOCKS[face][1]
        if mirror and len(shapes) < 2:
            raise IllegalMove(
                "A {face} gives {block}, which has no mirror image to choose; only 5 and 6 do.",
                face=face,
                block=Phrase(BLOCKS[face][0]),
            )
        shape = _rotate(shapes[1 if mirror else 0], degrees)
        anchor_col, anchor_row = min(shape, key=lambda point: (point[1], point[0]))
        col, row = self._parse_on_board(at)
        points = [(col + dc - anchor_col, row + dr - anchor_row) for dc, dr in shape]
        if any(not (0 <= c < self.size and 0 <= r < self.size) for c, r in points):
            raise IllegalMove("That block anchored at {point} would leave the board.", point=point_name(col, row))
        return _canonical(points)

    # ---- moves

    def _play_open(self, text: str) -> None:
        dice = _parse_dice(text, "open", 2)
        if dice is None:
            raise IllegalMove("The opening dice have not been rolled yet.")
        if len(dice) != 2 or not all(1 <= d <= 6 for d in dice):
            raise IllegalMove("The opening is written 'open A B' with two dice from 1 to 6.")
        black, white = dice
        if black == white:
            raise IllegalMove("Equal opening dice are rolled again; the opening needs two different dice.")
        self._opening = (black, white)
        self.first_player = 0 if black < white else 1
        self._record(f"open {black} {white}")
        self._start_turn(self.first_player)

    def _play_roll(self, text: str) -> None:
        dice = _parse_dice(text, "roll", 1)
        if dice is None:
            raise IllegalMove("Roll the die first.")
        if len(dice) != 1 or not 1 <= dice[0] <= 6:
            raise IllegalMove("A roll is written 'roll N' with N from 1 to 6.")
        self._die = dice[0]
        self._phase = _PLACE
        self._record(f"roll {dice[0]}")

    def _play_place(self, text: str) -> None:
        assert self._die is not None
        if text.startswith(("roll", "open")):
            raise IllegalMove("The die has already been rolled; place your block.")
        if text == "pass":
            if self._fitting():
                raise IllegalMove("You can only pass when your block fits nowhere, and it fits here.")
            self._record("pass")
            self.last_block = []
            self._end_turn(placed=False)
            return
        mask, canonical = self._parse_placement(text)
        self._stones[self._player] |= mask
        self.last_block = canonical.split(" ")
        self._record(canonical)
        self._end_turn(placed=True)

    def _parse_placement(self, text: str) -> tuple[int, str]:
        face = self._die
        assert face is not None
        name = BLOCKS[face][0]
        compact = text.replace(" ", "").upper()
        tokens = _PLACEMENT_TOKEN.findall(compact)
        if not tokens or "".join(tokens) != compact:
            raise IllegalMove("Name the points of your block, e.g. 'D4 D5 E5' ({block}).", block=Phrase(name))
        points = [self._parse_on_board(token) for token in tokens]
        if len(set(points)) != len(points):
            raise IllegalMove("Each point of the block may be listed only once.")
        stones = len(BLOCKS[face][1][0])
        if len(points) != stones:
            raise IllegalMove(
                "The rolled block ({block}) has {stones} stones; you listed {listed}.",
                block=Phrase(name),
                stones=stones,
                listed=len(points),
            )
        canonical = _canonical(points)
        mask = self._geo.lookup[face].get(canonical)
        if mask is None:
            raise IllegalMove("Those points do not form the rolled block ({block}).", block=Phrase(name))
        taken = mask & (self._stones[0] | self._stones[1])
        if taken:
            names = [point_name(c, r) for c, r in sorted(self._geo.points_of(taken))]
            if len(names) == 1:
                raise IllegalMove("{point} is already taken.", point=names[0])
            raise IllegalMove("{points} are already taken.", points=", ".join(names))
        return mask, canonical

    def _parse_on_board(self, token: str) -> tuple[int, int]:
        col, row = parse_point(token)
        if col >= self.size or row >= self.size:
            raise IllegalMove(
                "{point} is not on the {board} board.", point=point_name(col, row), board=self._board_name()
            )
        return col, row

    # ---- turn flow

    def _record(self, move: str) -> None:
        self.moves.append(move)
        self._legal_cache = None

    def _start_turn(self, player: int) -> None:
        self._player = player
        if self._turns_taken[player] == 0:
            assert self._opening is not None
            self._die = self._opening[player]  # each player's first placement uses their own opening die
            self._phase = _PLACE
        else:
            self._die = None
            self._phase = _ROLL

    def _end_turn(self, placed: bool) -> None:
        player = self._player
        self._turns_taken[player] += 1
        self._passes_in_row = 0 if placed else self._passes_in_row + 1
        if placed and self._check_finish(player):
            return
        if self._first_finisher is not None:  # this was one of the opponent's extra turns
            assert self.extra_turns_left is not None
            self.extra_turns_left -= 1
            if self.extra_turns_left == 0:
                self._finish_game(Reason.FINISH)
            else:
                self._start_turn(player)
            return
        if self._passes_in_row >= 2:
            self._finish_game(Reason.DOUBLE_PASS)
            return
        self._start_turn(1 - player)

    def _check_finish(self, player: int) -> bool:
        """Record a new polygon; True if that ended the turn flow (handled here)."""
        polygon = find_polygon(self._stones[player], self._geo)
        if polygon is None:
            return False
        self._finished[player] = True
        self._polygons[player] = polygon
        if self._first_finisher is None:
            self._first_finisher = player
            self.extra_turns_left = EXTRA_TURNS
            self._start_turn(1 - player)
        else:
            self._finish_game(Reason.BOTH_FINISHED)
        return True

    def _finish_game(self, reason: Reason) -> None:
        scores = self.scores()
        if reason == Reason.FINISH:
            winner = self._first_finisher
        elif reason == Reason.BOTH_FINISHED:
            winner = None if scores[0] == scores[1] else (0 if scores[0] > scores[1] else 1)
        else:
            winner = None
        self._phase = _OVER
        self._die = None
        self._result = Result(winner, scores, reason)

    # ---- helpers

    def _score(self, player: int) -> int:
        polygon = self._polygons[player]
        if polygon is None:
            return 0
        bonus = FIRST_FINISH_BONUS if self._first_finisher == player else 0
        return int(polygon["score"]) + bonus

    def _fitting(self) -> list[str]:
        assert self._die is not None
        occupied = self._stones[0] | self._stones[1]
        return [name for name, mask in self._geo.placements[self._die] if not mask & occupied]

    def _compute_legal(self) -> list[str]:
        if self._phase == _OVER:
            return []
        if self._phase == _OPEN:
            return [f"open {a} {b}" for a in range(1, 7) for b in range(1, 7) if a != b]
        if self._phase == _ROLL:
            return [f"roll {n}" for n in range(1, 7)]
        return self._fitting() or ["pass"]

    def _board_name(self) -> Phrase:
        """The board as players name it ("9x9"): the same words as the size option's labels."""
        return Phrase(f"{self.size}x{self.size}")

    def _not_placing_message(self) -> Phrase:
        if self._phase == _OVER:
            return Phrase("The game is over.")
        if self._phase == _OPEN:
            return Phrase("The opening dice have not been rolled yet.")
        return Phrase("Roll the die first.")


# ------------------------------------------------------------------------------------------ module API


def _parse_size(value: Any) -> int:
    allowed = OPTIONS["size"]
    try:
        size = int(str(value).strip())
    except ValueError:
        size = -1
    if isinstance(value, bool) or size not in allowed:
        raise Refusal(
            "size must be one of {allowed}; got {value}.", allowed=", ".join(map(str, allowed)), value=repr(value)
        )
    return size


def new_game(**options: Any) -> PolygoGame:
    unknown = set(options) - set(OPTIONS)
    if unknown:
        raise Refusal(
            "Unknown option {options}; Polygo takes only size (19, 13 or 9).", options=", ".join(sorted(unknown))
        )
    return PolygoGame(_parse_size(options.get("size", 19)))


def from_dict(data: dict[str, Any]) -> PolygoGame:
    """Rebuild a game by replaying its moves; a record that does not replay raises ValueError."""
    game = new_game(**dict(data.get("options", {})))
    for move in data.get("moves", []):
        game.play(move)
    return game


__all__ = [
    "BLOCKS",
    "OPTIONS",
    "SIDES",
    "PolygoGame",
    "Reason",
    "find_polygon",
    "from_dict",
    "new_game",
    "parse_point",
    "point_name",
    "polygon_from_points",
]
