"""The search: every placement valued at once, then the best under die-face expectimax, widening with the time.

Depth 1 values each placement of the rolled block by the position it leaves (``evaluate``); a placement that
closes a loop is played on an engine copy and scored exactly. Depth 2 takes the best ``width`` placements and,
for each of the opponent's six faces, lets the opponent answer with their best placement of that face (valued the
same way, so a block, a threat or a close of theirs all count); the six answers are averaged. The width doubles
while the time lasts. A first finish, mine now or theirs next turn, is worth what the other side's two extra
turns leave of it (``extra_turns``, searched to their end for level 4).
"""

from __future__ import annotations

import math
from typing import Any

from ai.polygo.evaluate import CLOSE_VALUE, Side, leaf_value, placement_values
from ai.polygo.extra_turns import ExtraTurns
from ai.polygo.geometry import FACES, Geometry, geometry, polygon_score, stones_of
from ai.search import Deadline, SearchTimeout
from engines.polygo import FIRST_FINISH_BONUS

WIDE = 16  # depth 2 goes no wider: the placements below the best 16 at depth 1 are hardly ever best
LATER = 0.05  # a close a turn later is worth a little less than one now: the opponent gets a turn to build
EXACT_THREATS_S = 0.25  # below this budget the opponent's threats come from templates only (a scan costs ~50 ms)


class Root:
    """The position to move from, as bitmasks, and every legal placement by its mask."""

    def __init__(self, game: Any, exact_threats: bool = True) -> None:
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
        # the opponent's closing placements of every face, any loop, found exactly: a block must cover one point
        # of each, since my stones inside a loop do not stop it from enclosing
        occupied = self.theirs.own | self.mine.own
        if exact_threats and not self.extra_turns:
            self.their_closing = self.geo.closing_placements(self.theirs.own, occupied)
        else:
            self.their_closing = self.theirs.closing(self.geo, occupied)


def first_ply(root: Root, deadline: Deadline | None = None) -> tuple[dict[int, float], set[int]]:
    """Every legal placement valued at depth 1; the second result holds the values that are exact."""
    geo, game = root.geo, root.game
    own = root.mine.own
    exact: set[int] = set()
    if root.extra_turns:
        values = _extra_turn_values(root, deadline)
    else:
        touched, baseline, _ = placement_values(geo, root.mine, root.theirs, root.face, root.their_closing)
        values = {mask: touched.get(mask, baseline) for mask in root.moves}
    occupied = own | root.theirs.own
    for mask in geo.closing_placements(own, occupied)[root.face - 1]:
        move = root.moves.get(mask)
        if move is None:
            continue
        after = game.copy()
        after.play(move)
        value = finish_value(root, after, mask, deadline)
        if value is not None:
            values[mask] = value
            exact.add(mask)
    return values, exact


def finish_value(root: Root, after: Any, placed: int, deadline: Deadline | None = None) -> float | None:
    """The value of ``placed`` if it ends my turn with a polygon (``after`` the game then); None if it does not.

    A first finish is worth what the opponent's two extra turns leave of it: searched to their end while
    ``deadline`` allows (win 1, tie 0, loss -1, expected), else estimated from their templates."""
    me = root.me
    if not after.finished[me]:
        return None
    if after.is_over:
        winner = after.result().winner
        return 0.0 if winner is None else (1.0 if winner == me else -1.0)
    geo = root.geo
    mine = root.mine.own | placed  # the root's stones and mine just placed: no need to read the board again
    theirs = root.theirs.own
    if deadline is not None and deadline.remaining() > 0:
        try:
            return 1.0 - 2.0 * ExtraTurns(geo, theirs, mine, after.scores()[me], deadline).both()
        except SearchTimeout:
            pass
    return _estimated_finish_value(root, after, placed, Side.scan(geo, theirs, mine, limit=12))


def _estimated_finish_value(root: Root, after: Any, placed: int, theirs: Side) -> float:
    """A first finish valued from the opponent's templates (out of time for the search)."""
    geo = root.geo
    need = after.scores()[root.me] + 1
    big = {k: g for k, g in theirs.near.items() if geo.score[k] >= need}
    # their next placement: any loop of theirs that scores more than mine, found exactly
    faces = 0
    for covers in root.their_closing:
        if any(not cover & placed and polygon_score(geo, theirs.own | cover) >= need for cover in covers):
            faces += 1
    missing = min(big.values()) if big else 99
    danger = max(faces / 6, math.exp(-max(missing - 1, 0) / 3) if big else 0.0)
    return 0.98 - 1.5 * danger


def _extra_turn_values(root: Root, deadline: Deadline | None) -> dict[int, float]:
    """The opponent has finished: only a polygon of mine worth at least theirs, closed in my extra turns, helps
    (a tie draws). Closes are valued later, exactly; here the placements that close nothing."""
    game, geo = root.game, root.geo
    if game.extra_turns_left is not None and game.extra_turns_left <= 1:
        return dict.fromkeys(root.moves, -1.0)  # a placement that closes nothing loses
    if deadline is not None and deadline.remaining() > 0:
        try:
            return _searched_extra_turn_values(root, deadline)
        except SearchTimeout:
            pass
    need = root.their_score + 1
    values = {}
    occupied = root.mine.own | root.theirs.own
    for mask in root.moves:
        side = root.mine.placed(geo, mask)
        big = Side(side.own, {k: g for k, g in side.near.items() if geo.score[k] >= need})
        q1 = big.threat_mask(geo, occupied | mask).bit_count() / 6
        values[mask] = 2 * q1 - 1
    return values


def _searched_extra_turn_values(root: Root, deadline: Deadline) -> dict[int, float]:
    """My first extra turn's placements, each valued by my best close on the last one (win 1, tie 0, loss -1);
    a placement away from my stones keeps the last turn's chances as they are."""
    turns = ExtraTurns(root.geo, root.mine.own, root.theirs.own, root.their_score, deadline)
    beside_me = dict(turns.touching[root.face])
    apart = 2.0 * turns.last() - 1.0 - 1e-3
    values = {}
    for mask in root.moves:
        beside = beside_me.get(mask)
        values[mask] = apart if beside is None else 2.0 * turns.first(mask, beside) - 1.0
    return values


def reply_value(
    geo: Geometry,
    mine: Side,
    theirs: Side,
    placed: int,
    their_closing: list[list[int]],
    deadline: Deadline,
    my_close: float = CLOSE_VALUE,
    their_close: list[float] | None = None,
) -> float:
    """My value after my placement ``placed``: the opponent's best answer to each of the six faces, averaged;
    a close of mine on the roll after is worth ``my_close``, a close of theirs ``their_close`` of its face."""
    total = 0.0
    occupied = mine.own | theirs.own
    for face in FACES:
        deadline.check()
        if any(not cover & placed for cover in their_closing[face - 1]):
            # they close a loop (found exactly at the root) that I did not block
            total -= CLOSE_VALUE if their_close is None else their_close[face - 1]
            continue
        values, baseline, _ = placement_values(geo, theirs, mine, face, roller_close=my_close)
        if values:
            total -= max(max(values.values()), baseline)
        elif any(not mask & occupied for mask in geo.placements[face]):
            total -= baseline
        else:  # the block fits nowhere: they pass and I roll
            total += leaf_value(geo, mine, theirs, roller_close=my_close)
    return total / 6


def root_values(
    game: Any, deadline: Deadline, max_width: int | None, extra_turns: bool = True
) -> tuple[dict[str, float], set[str]]:
    """Root move -> value for the player to act, and the moves that close a polygon (their values are exact).

    Depth 1 for every placement; depth 2 for the best ``max_width`` (None: doubling from 2 while the time lasts,
    up to ``WIDE``). Moves searched to depth 2 outrank the others: a depth-1 value is kept below the worst of
    them. ``extra_turns``: the two extra turns after a finish are searched to their end (else estimated)."""
    root = Root(game, exact_threats=deadline.remaining() >= EXACT_THREATS_S)
    values, exact = first_ply(root, deadline if extra_turns else None)
    if root.extra_turns or len(values) <= 1:
        return _named(root, values, exact)
    ranked = sorted(values, key=lambda m: -values[m])
    limit = min(WIDE if max_width is None else max_width, len(ranked))
    if limit == 0 or (ranked[0] in exact and values[ranked[0]] >= CLOSE_VALUE):
        return _named(root, values, exact)
    geo = root.geo
    # a close of mine a turn later is worth about what my best one now is (its extra-turn danger grows)
    my_close = min(CLOSE_VALUE, max(values[m] for m in exact) - LATER) if exact else CLOSE_VALUE
    # and a close of theirs is worth to them what my extra turns after it leave of it
    their_close = _their_close_values(root, deadline) if extra_turns else None
    depth2: dict[int, float] = {}
    deadline.armed = True
    try:
        width = min(2, limit)
        while True:
            for mask in ranked[:width]:
                if mask not in depth2 and mask not in exact:
                    mine, theirs = root.mine.placed(geo, mask), root.theirs.blocked(geo, mask)
                    depth2[mask] = reply_value(
                        geo, mine, theirs, mask, root.their_closing, deadline, my_close, their_close
                    )
            if width >= limit:
                break
            width = min(2 * width, limit)
    except SearchTimeout:
        pass
    if depth2:
        values = _deepest(values, depth2, exact)
    return _named(root, values, exact)


def _their_close_values(root: Root, deadline: Deadline) -> list[float] | None:
    """Per die face, what the opponent's biggest close next turn is worth to them: 1 - 2 x my expected result in
    my two extra turns after it (searched); None when the time runs out."""
    geo = root.geo
    out = [CLOSE_VALUE] * 6
    try:
        for i, covers in enumerate(root.their_closing):
            if covers:
                score, cover = max((polygon_score(geo, root.theirs.own | cover), cover) for cover in covers)
                turns = ExtraTurns(geo, root.mine.own, root.theirs.own | cover, score + FIRST_FINISH_BONUS, deadline)
                out[i] = 1.0 - 2.0 * turns.both()
    except SearchTimeout:
        return None
    return out


def _deepest(values: dict[int, float], deep: dict[int, float], exact: set[int]) -> dict[int, float]:
    """The depth-2 values where there are some; every other (not exact) value kept below the worst of them."""
    floor = min(deep.values())
    out = {}
    for mask, value in values.items():
        if mask in exact:
            out[mask] = value
        elif mask in deep:
            out[mask] = deep[mask]
        else:
            out[mask] = min(value, floor) - 1e-3
    return out


def _named(root: Root, values: dict[int, float], exact: set[int]) -> tuple[dict[str, float], set[str]]:
    return {root.moves[m]: v for m, v in values.items()}, {root.moves[m] for m in exact}
