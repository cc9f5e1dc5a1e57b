"""The search: every placement valued at once, then the best under die-face expectimax, widening with the time.

Depth 1 values each placement of the rolled block by the position it leaves (``evaluate``); a placement that
closes a loop is played on an engine copy and scored exactly. Depth 2 takes the best ``width`` placements and,
for each of the opponent's six faces, lets the opponent answer with their best placement of that face (valued the
same way, so a block, a threat or a close of theirs all count); the six answers are averaged. The width doubles
while the time lasts.
"""

from __future__ import annotations

import math
from typing import Any

from ai.polygo.evaluate import CLOSE_VALUE, Side, leaf_value, placement_values
from ai.polygo.geometry import FACES, Geometry, geometry, stones_of
from ai.search import Deadline, SearchTimeout


class Root:
    """The position to move from, as bitmasks, and every legal placement by its mask."""

    def __init__(self, game: Any) -> None:
        self.game = game
        self.geo: Geometry = geometry(game.size)
        self.me: int = game.turn
        self.face: int = game.die
        own = [stones_of(game, 0), stones_of(game, 1)]
        self.mine = Side.scan(self.geo, own[self.me], own[1 - self.me])
        self.theirs = Side.scan(self.geo, own[1 - self.me], own[self.me])
        self.moves: dict[int, str] = {self.geo.mask_of(m): m for m in game.legal_moves() if m != "pass"}
        finisher = game.first_finisher
        self.extra_turns = finisher is not None and finisher != self.me
        self.their_score = game.scores()[1 - self.me]


def first_ply(root: Root) -> tuple[dict[int, float], set[int]]:
    """Every legal placement valued at depth 1; the second result holds the values that are exact."""
    geo, game = root.geo, root.game
    own = root.mine.own
    exact: set[int] = set()
    if root.extra_turns:
        values = _extra_turn_values(root)
    else:
        touched, baseline, _ = placement_values(geo, root.mine, root.theirs, root.face)
        values = {mask: touched.get(mask, baseline) for mask in root.moves}
    if own.bit_count() >= 4:
        for mask, move in root.moves.items():
            # a new loop runs through the block: it meets the player's stones at two points at least
            if (geo.neighbours(mask) & own).bit_count() >= 2 and geo.encloses(own | mask):
                after = game.copy()
                after.play(move)
                value = finish_value(root, after)
                if value is not None:
                    values[mask] = value
                    exact.add(mask)
    return values, exact


def finish_value(root: Root, after: Any) -> float | None:
    """The value of a placement that ends my turn with a polygon; None when it closes none."""
    me = root.me
    if not after.finished[me]:
        return None
    if after.is_over:
        winner = after.result().winner
        return 0.0 if winner is None else (1.0 if winner == me else -1.0)
    # I finished first: the opponent has two turns to close a polygon that beats mine
    geo = root.geo
    mine = stones_of(after, me)
    theirs = Side.scan(geo, stones_of(after, 1 - me), mine, limit=12)
    need = after.scores()[me] + 1
    big = {k: g for k, g in theirs.near.items() if geo.score[k] >= need}
    if not big:
        return 0.98
    q1 = Side(theirs.own, big).threat_mask(geo, mine | theirs.own).bit_count() / 6
    missing = min(big.values())
    danger = max(q1, math.exp(-max(missing - 1, 0) / 3))
    return 0.98 - 1.5 * danger


def _extra_turn_values(root: Root) -> dict[int, float]:
    """The opponent has finished: only a bigger polygon of mine, closed in my extra turns, wins."""
    game, geo = root.game, root.geo
    if game.extra_turns_left is not None and game.extra_turns_left <= 1:
        return dict.fromkeys(root.moves, -1.0)  # a placement that closes nothing loses; closes are set later
    need = root.their_score + 1
    values = {}
    occupied = root.mine.own | root.theirs.own
    for mask in root.moves:
        side = root.mine.placed(geo, mask)
        big = Side(side.own, {k: g for k, g in side.near.items() if geo.score[k] >= need})
        q1 = big.threat_mask(geo, occupied | mask).bit_count() / 6
        values[mask] = 2 * q1 - 1
    return values


def reply_value(geo: Geometry, mine: Side, theirs: Side, deadline: Deadline) -> float:
    """My value after my placement: the opponent's best answer to each of the six faces, averaged."""
    total = 0.0
    occupied = mine.own | theirs.own
    for face in FACES:
        deadline.check()
        values, baseline, _ = placement_values(geo, theirs, mine, face)
        if values:
            best = max(max(values.values()), baseline)
        elif any(not mask & occupied for mask in geo.placements[face]):
            best = baseline
        else:  # the block fits nowhere: they pass and I roll
            best = -leaf_value(geo, mine, theirs)
        total -= best
    return total / 6


def root_values(game: Any, deadline: Deadline, max_width: int | None) -> tuple[dict[str, float], set[str]]:
    """Root move -> value for the player to act, depth 2 for as many of the best placements as time allows; and
    the moves that close a polygon (their values are exact)."""
    root = Root(game)
    values, exact = first_ply(root)
    if root.extra_turns or len(values) <= 1:
        return _named(root, values, exact)
    ranked = sorted(values, key=lambda m: -values[m])
    deep: dict[int, float] = {}
    limit = len(ranked) if max_width is None else min(max_width, len(ranked))
    if limit == 0 or (ranked[0] in exact and values[ranked[0]] >= CLOSE_VALUE):
        return _named(root, values, exact)
    width = min(2, limit)
    deadline.armed = True
    try:
        while True:
            for mask in ranked[:width]:
                if mask in deep or mask in exact:
                    continue
                after_mine = root.mine.placed(root.geo, mask)
                after_theirs = root.theirs.blocked(root.geo, mask)
                deep[mask] = reply_value(root.geo, after_mine, after_theirs, deadline)
            if width >= limit:
                break
            width = min(2 * width, limit)
    except SearchTimeout:
        pass
    # placements searched to depth 2 keep that value; the rest stay below the worst of them so that a
    # shallow value never outranks a deep one
    if deep:
        floor = min(deep.values())
        out = {}
        for mask, value in values.items():
            if mask in exact:
                out[mask] = value
            elif mask in deep:
                out[mask] = deep[mask]
            else:
                out[mask] = min(value, floor) - 1e-3
        values = out
    return _named(root, values, exact)


def _named(root: Root, values: dict[int, float], exact: set[int]) -> tuple[dict[str, float], set[str]]:
    return {root.moves[m]: v for m, v in values.items()}, {root.moves[m] for m in exact}
