"""Polygo: a ring planner valued under the dice.

Every rectangular ring (outer sides 3 to 5 points, so 8 to 16 stones) on the board is a plan; a side's plan is
the ring not touched by the opponent's stones with the fewest stones still missing (the larger one on equal
counts). A position is valued by the race between the two plans, the side to move being a turn ahead. Rings
are indexed by point, so a placement only revisits the rings it touches. Closing moves are found exactly
through the engine (any loop counts, not only rectangles). Deeper levels put the best-looking moves under
expectimax: for each of the six die faces the opponent answers with their best placement near either plan.
"""

from __future__ import annotations

import math
import random
from functools import cache
from typing import Any

from ai.search import Deadline, analyse_by_levels, choose_by_levels
from engines import polygo as E

SIDES_RANGE = (3, 4, 5)
STONES_PER_TURN = 3.0
NEAR_RINGS = 2  # rings per side whose gaps the opponent's replies must touch


class Rings:
    """Every rectangular ring of a board size, its outline and interior as bitmasks, indexed by point."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.width = size + 1
        self.outline: list[int] = []
        self.interior: list[int] = []
        self.score: list[int] = []
        self.by_point: dict[int, list[int]] = {}  # point -> rings with that point on their outline
        for w in SIDES_RANGE:
            for h in SIDES_RANGE:
                for c in range(size - w + 1):
                    for r in range(size - h + 1):
                        outline = interior = 0
                        for dc in range(w):
                            for dr in range(h):
                                bit = 1 << ((r + dr) * self.width + c + dc)
                                if dc in (0, w - 1) or dr in (0, h - 1):
                                    outline |= bit
                                else:
                                    interior |= bit
                        k = len(self.outline)
                        self.outline.append(outline)
                        self.interior.append(interior)
                        self.score.append(outline.bit_count() + 2 * interior.bit_count())
                        for index in _bits(outline):
                            self.by_point.setdefault(index, []).append(k)
        self.placements = {face: _placements(face, size, self.width) for face in E.BLOCKS}
        self.on_board = sum(1 << (r * self.width + c) for r in range(size) for c in range(size))
        self.border = sum(
            1 << (r * self.width + c)
            for r in range(size)
            for c in range(size)
            if r in (0, size - 1) or c in (0, size - 1)
        )

    def encloses(self, own: int) -> bool:
        """Whether ``own`` cuts some point that is not its own off the board edge (8-neighbour steps): the
        engine's test for a polygon, done here first because a flood fill is far cheaper than a copy and a play."""
        free = self.on_board & ~own
        reach = free & self.border
        width = self.width
        while True:
            row = reach | (reach << 1) | (reach >> 1)
            grown = (row | (row << width) | (row >> width)) & free
            if grown == reach:
                return bool(free & ~reach)
            reach = grown


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def _placements(face: int, size: int, width: int) -> list[int]:
    masks = set()
    for shape in E.BLOCKS[face].shapes:
        points = list(shape)
        for _ in range(4):
            points = [(row, -col) for col, row in points]
            mc, mr = min(c for c, _ in points), min(r for _, r in points)
            norm = [(c - mc, r - mr) for c, r in points]
            sc, sr = max(c for c, _ in norm), max(r for _, r in norm)
            for r in range(size - sr):
                for c in range(size - sc):
                    masks.add(sum(1 << ((r + dr) * width + c + dc) for dc, dr in norm))
    return sorted(masks)


@cache
def rings(size: int) -> Rings:
    return Rings(size)


class Plans:
    """One side's rings still open (no opponent stone on them), sorted by stones missing."""

    def __init__(self, geo: Rings, own: int, opp: int, min_score: int = 0) -> None:
        self.geo = geo
        self.own = own
        self.min_score = min_score
        self.base: dict[int, float] = {}  # open ring -> planning key with the stones on the board now
        for k, outline in enumerate(geo.outline):
            if outline & opp or geo.score[k] < min_score or not geo.interior[k] & ~own:
                continue
            self.base[k] = self.key((outline & ~own).bit_count(), k)
        self.sorted = sorted(self.base, key=self.base.__getitem__)

    def key(self, missing: int, k: int) -> float:
        return missing - 0.05 * self.geo.score[k]

    def best(self, add_own: int = 0, add_opp: int = 0) -> tuple[float, int]:
        """(planning key, missing stones) of the best ring after extra own and opponent stones."""
        geo, own, base = self.geo, self.own | add_own, self.base
        best = (math.inf, 99)
        for k in self.sorted:
            # rings on the new own stones are scored in the loop below; an interior filled by own stones is dead
            if not geo.outline[k] & (add_opp | add_own) and geo.interior[k] & ~own:
                best = (base[k], (geo.outline[k] & ~own).bit_count())
                break
        added = add_own.bit_count()
        for index in _bits(add_own):
            for k in geo.by_point.get(index, ()):
                # a ring can gain at most one stone per added stone: skip those that cannot beat the best
                if k not in base or base[k] - added >= best[0]:
                    continue
                if geo.outline[k] & add_opp or not geo.interior[k] & ~own:
                    continue
                missing = (geo.outline[k] & ~own).bit_count()
                key = self.key(missing, k)
                if key < best[0]:
                    best = (key, missing)
        return best

    def gaps(self, count: int) -> int:
        """The missing points of the best few rings (where the fight is)."""
        mask = 0
        for k in self.sorted[:count]:
            mask |= self.geo.outline[k] & ~self.own
        return mask


def race_value(mine: float, theirs: float) -> float:
    """Value for the side that just placed, the opponent to move next (a turn of stones ahead)."""
    if math.isinf(mine) and math.isinf(theirs):
        return 0.0
    x = (min(theirs, 40) - min(mine, 40) - STONES_PER_TURN) / 4
    return 0.9 * math.tanh(x)


class Position:
    """The root's stones as bitmasks in the engine's layout, with both sides' plans."""

    def __init__(self, game: Any) -> None:
        self.geo = rings(game.size)
        stones = [_stones_of(game, 0), _stones_of(game, 1)]
        self.me = game.turn
        self.stones = stones
        finisher = game.first_finisher
        self.opp_done = finisher is not None and finisher != self.me
        self.opp_score = game.scores()[1 - self.me]
        # after the opponent finished only a bigger polygon wins: plan only rings that would beat theirs
        self.mine = Plans(self.geo, stones[self.me], stones[1 - self.me], self.opp_score + 1 if self.opp_done else 0)
        self.theirs = Plans(self.geo, stones[1 - self.me], stones[self.me])

    def mask(self, move: str) -> int:
        return _mask(move, self.geo.width)

    def value_after(self, mine_add: int, theirs_add: int = 0) -> float:
        """Value for me after my stones ``mine_add`` (and the opponent's ``theirs_add``), opponent to move."""
        m_key, m_missing = self.mine.best(mine_add, theirs_add)
        if self.opp_done:
            # only my remaining extra turns are left: a win needs the bigger ring closed in time
            return -1.0 + 2.0 * math.exp(-m_missing / STONES_PER_TURN) if m_missing < 99 else -1.0
        t_key, _ = self.theirs.best(theirs_add, mine_add)
        return race_value(m_key, t_key)


@cache
def _mask(move: str, width: int) -> int:
    """A placement's stones as a bitmask; cached, and bounded: a board has some 15,000 placements in all."""
    mask = 0
    for token in move.split():
        col, row = E.parse_point(token)
        mask |= 1 << (row * width + col)
    return mask


def finish_value(game: Any, after: Any, me: int) -> float | None:
    """The value of a move that ends my turn with a polygon, or None when it does not close one."""
    if not after.finished[me]:
        return None
    if after.is_over:
        winner = after.result().winner
        return 0.0 if winner is None else (1.0 if winner == me else -1.0)
    # I finished first: the opponent has two turns to close a bigger polygon than mine
    theirs = Plans(rings(game.size), _stones_of(after, 1 - me), _stones_of(after, me), after.scores()[me] + 1)
    _, missing = theirs.best()
    danger = math.exp(-max(missing - 1, 0) / STONES_PER_TURN)
    return 0.98 - 1.5 * danger if missing < 99 else 0.98


def _stones_of(game: Any, player: int) -> int:
    """A player's stones as a bitmask in the engine's layout (a row of size + 1 bits), read point by point."""
    width = game.size + 1
    mask = 0
    for row in range(game.size):
        for col in range(game.size):
            if game.stone((col, row)) == player:
                mask |= 1 << (row * width + col)
    return mask


class PolygoSearch:
    """Depth 1: every placement by the ring race. Depth d >= 2: the best 4 * 2^(d-2) under die-face expectimax."""

    def __init__(self, full_width_root: bool) -> None:
        self.full_width_root = full_width_root
        self.first: dict[str, float] = {}
        self.exact: set[str] = set()
        self.pos: Position | None = None  # built once per search: the root does not change between depths

    def root_values(self, game: Any, depth: int, deadline: Deadline) -> tuple[dict[str, float], bool]:
        moves = game.legal_moves()
        if moves == ["pass"]:
            return {"pass": 0.0}, True
        if self.pos is None:
            self.pos = Position(game)
        pos = self.pos
        if depth == 1:
            return self._first_ply(game, pos, moves), False
        count = 4 * 2 ** (depth - 2)
        ranked = sorted(self.first, key=lambda m: -self.first[m])[:count]
        values = {}
        for move in ranked:
            values[move] = self.first[move] if move in self.exact else self._expect(pos, move, deadline)
        return values, count >= len(moves)

    def _first_ply(self, game: Any, pos: Position, moves: list[str]) -> dict[str, float]:
        values = {}
        own = pos.stones[pos.me]
        for move in moves:
            mask = pos.mask(move)
            value = None
            if own.bit_count() + mask.bit_count() >= 8 and pos.geo.encloses(own | mask):
                # only a move that closes some loop is played out on the engine, which scores it exactly
                after = game.copy()
                after.play(move)
                value = finish_value(game, after, pos.me)
            if value is None:
                value = pos.value_after(mask)
            else:
                self.exact.add(move)
            values[move] = value
        self.first = values
        return values

    def _expect(self, pos: Position, move: str, deadline: Deadline) -> float:
        """My value after ``move`` averaged over the opponent's die, each face answered by their best reply."""
        mine = pos.mask(move)
        if pos.opp_done:
            return self.first[move]
        occupied = pos.stones[0] | pos.stones[1] | mine
        near = pos.mine.gaps(NEAR_RINGS) | pos.theirs.gaps(NEAR_RINGS)
        total = 0.0
        for face in E.BLOCKS:
            worst = -self._their_value(pos, mine, 0)  # a reply elsewhere that changes nothing
            for reply in pos.geo.placements[face]:
                if reply & occupied or not reply & near:
                    continue
                deadline.check()
                worst = min(worst, -self._their_value(pos, mine, reply))
            total += worst
        return total / 6

    def _their_value(self, pos: Position, mine: int, reply: int) -> float:
        """The opponent's value after their reply, me to move (mirror of Position.value_after)."""
        t_key, t_missing = pos.theirs.best(reply, mine)
        if t_missing == 0:
            return 0.9  # they close a ring: from their side nearly won
        m_key, _ = pos.mine.best(mine, reply)
        return race_value(t_key, m_key)


def _strategy(full_width_root: bool) -> PolygoSearch:
    return PolygoSearch(full_width_root=full_width_root)


def choose_move(
    state: Any, level: int, rng: random.Random, *, budget_s: float | None = None, max_depth: int | None = None
) -> str:
    """``ai.search.GameAI.choose_move`` for Polygo."""
    return choose_by_levels(_strategy, state, level, rng, budget_s, max_depth)


def analyse_position(state: Any, *, budget_s: float) -> tuple[str, float]:
    """``ai.search.GameAI.analyse_position`` for Polygo."""
    return analyse_by_levels(_strategy, state, budget_s)
