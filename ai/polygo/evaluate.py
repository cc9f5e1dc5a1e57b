"""Values of Polygo positions and of every placement at once, from the loop templates of both sides.

A position is valued for the player about to roll (X), the other (Y) having just placed:

    V = (q1 * CLOSE_VALUE + (6 - q1) * race) / 6

``q1`` is the number of die faces that let X close a loop on this roll, found exactly through the placements
that cover a template's gaps. ``race``, what the position is worth when the roll does not close, is
``tanh(z / 2)`` with z linear in FEATURES of both sides (their best templates, how many are nearly as good, their
threats and how robust those are to a block), the weights fitted to self-play outcomes. Valuing every placement
of a node is done by pushing each near template's gaps through the placements that cover them, so a placement
that touches nothing anybody plans is valued once for all.
"""

from __future__ import annotations

import math
from bisect import bisect_right

from ai.polygo.geometry import FACES, Geometry, bits

DEAD = 99
NEAR = 8  # templates with at most this many stones missing are tracked (every open 3x3 ring)
PUSH = 6  # templates whose gaps are pushed through the placements of a node
THREAT = 4  # a template with at most this many gaps may close in one placement
ALL_FACES = 0b111111
CLOSE_VALUE = 0.95  # closing first wins but for the opponent's two extra turns
_POPCOUNT6 = [bin(m).count("1") for m in range(64)]


# The race term for the side to roll: ``tanh(z / 2)``, z linear in FEATURES; fitted by bench/train_polygo.py
# (logistic regression of the game's outcome on the features, given that the roll does not close). "Threat":
# the share of die faces that would let a side close next; "robust": the share left after the best one-point
# block; "spare": templates within one stone of the best; "close": templates at most two stones from closing.
FEATURES = (
    "bias",
    "my gaps",
    "their gaps",
    "log my spare",
    "log their spare",
    "their threat",
    "their robust threat",
    "my threat",
    "my robust threat",
    "log my close",
    "log their close",
)
Weights = tuple[float, ...]
WEIGHTS: Weights = (0.0208, -0.0232, 0.0159, 0.1085, -0.049, -0.1255, -2.156, 1.014, 0.7597, 0.1644, -0.1839)


# (template, own stones near it, all stones near it) -> (faces that close it as a 6-bit mask, covers per face)
_covers_cache: dict[tuple[int, int, int], tuple[int, tuple[tuple[int, ...], ...]]] = {}
_CACHE_LIMIT = 200_000


def covers(geo: Geometry, k: int, own: int, occupied: int) -> tuple[int, tuple[tuple[int, ...], ...]]:
    """The placements of each face that complete template ``k`` now, and the faces that have one."""
    reach = geo.reach[k]
    key = (k, own & reach, occupied & reach)
    found = _covers_cache.get(key)
    if found is not None:
        return found
    gaps = geo.wall[k] & ~own
    low = (gaps & -gaps).bit_length() - 1
    high = gaps.bit_length() - 1
    inner = geo.interior[k] & ~own
    per_face = []
    faces = 0
    for face in FACES:
        candidates = geo.by_point[face][low] if low == high else geo.by_pair[face].get((low, high), ())
        fits = tuple(cover for cover in candidates if cover & gaps == gaps and not cover & occupied and inner & ~cover)
        if fits:
            faces |= 1 << (face - 1)
        per_face.append(fits)
    if len(_covers_cache) > _CACHE_LIMIT:
        _covers_cache.clear()
    found = (faces, tuple(per_face))
    _covers_cache[key] = found
    return found


class Side:
    """One side's stones and its near templates (stones missing per template, none of them the opponent's)."""

    __slots__ = ("near", "own")

    def __init__(self, own: int, near: dict[int, int]) -> None:
        self.own = own
        self.near = near

    @staticmethod
    def scan(geo: Geometry, own: int, opp: int, limit: int = NEAR) -> Side:
        near = {}
        not_own = ~own
        for k, wall in enumerate(geo.wall):
            if wall & opp:
                continue
            g = (wall & not_own).bit_count()
            if g <= limit:
                near[k] = g
        return Side(own, near)

    def placed(self, geo: Geometry, mask: int) -> Side:
        """This side after placing ``mask``: templates through the new stones lose gaps."""
        near = dict(self.near)
        for point in bits(mask):
            for k in geo.templates_at[point]:
                g = near.get(k)
                if g is not None:
                    near[k] = g - 1
        return Side(self.own | mask, near)

    def blocked(self, geo: Geometry, mask: int) -> Side:
        """This side after the opponent placed ``mask``: templates through those stones are dead."""
        near = dict(self.near)
        for point in bits(mask):
            for k in geo.templates_at[point]:
                near.pop(k, None)
        return Side(self.own, near)

    def closing(self, geo: Geometry, occupied: int, min_score: int = 0) -> list[list[int]]:
        """Per die face, the placements that would complete one of this side's templates on its next turn."""
        ks = [k for k, g in self.near.items() if 0 < g <= THREAT and geo.score[k] >= min_score]
        return closing_of(geo, ks, self.own, occupied)

    def threat_mask(self, geo: Geometry, occupied: int, min_score: int = 0) -> int:
        """The die faces (a 6-bit mask) that let this side close one of its templates on its next placement."""
        faces = 0
        own = self.own
        for k, g in self.near.items():
            if 0 < g <= THREAT and geo.score[k] >= min_score:
                faces |= covers(geo, k, own, occupied)[0]
                if faces == ALL_FACES:
                    break
        return faces

    def best(self) -> tuple[int, int, int]:
        """(fewest gaps, templates within one stone of it, templates at most two stones from closing)."""
        if not self.near:
            return DEAD, 0, 0
        best = min(self.near.values())
        return best, sum(1 for g in self.near.values() if g <= best + 1), sum(1 for g in self.near.values() if g <= 2)


def closing_of(
    geo: Geometry,
    templates: list[int],
    own: int,
    occupied: int,
    known: dict[int, tuple[int, tuple[tuple[int, ...], ...]]] | None = None,
    placed: int = 0,
) -> list[list[int]]:
    """Per die face, the placements that complete one of ``templates`` for the side with stones ``own``;
    ``known`` holds covers from before ``placed`` was added, still true for templates whose reach it misses."""
    per_face: list[list[int]] = [[], [], [], [], [], []]
    reach = geo.reach
    for k in templates:
        if known is not None and k in known and not reach[k] & placed:
            faces, found = known[k]
        else:
            faces, found = covers(geo, k, own, occupied)
        if faces:
            for i in range(6):
                if found[i]:
                    per_face[i].extend(found[i])
    return per_face


def threat_summary(per_face: list[list[int]]) -> tuple[int, int]:
    """(faces with a closing placement, faces left after the best one-point block) for per-face cover lists."""
    common = []
    for found in per_face:
        if found:
            inter = found[0]
            for cover in found:
                inter &= cover
            common.append(inter)
    if not common:
        return 0, 0
    union = 0
    for inter in common:
        union |= inter
    most = 0
    while union:
        low = union & -union
        union ^= low
        killed = sum(1 for inter in common if inter & low)
        if killed > most:
            most = killed
    return len(common), len(common) - most


def features(
    mine: tuple[int, int, int], theirs: tuple[int, int, int], their_threat: tuple[int, int], my_threat: tuple[int, int]
) -> tuple[float, ...]:
    """FEATURES of the side to roll from both sides' ``Side.best`` and threat summaries."""
    return (
        1.0,
        float(min(mine[0], 16)),
        float(min(theirs[0], 16)),
        _LOG1P[min(mine[1], 63)],
        _LOG1P[min(theirs[1], 63)],
        their_threat[0] / 6,
        their_threat[1] / 6,
        my_threat[0] / 6,
        my_threat[1] / 6,
        _LOG1P[min(mine[2], 63)],
        _LOG1P[min(theirs[2], 63)],
    )


_LOG1P = [math.log1p(n) for n in range(64)]


def value(q1: int, phi: tuple[float, ...], w: Weights, close: float = CLOSE_VALUE) -> float:
    """The value for the side to roll: closing on this roll (q1 of six faces, each worth ``close``), else the
    race."""
    if q1 >= 6:
        return close
    z = 0.0
    for a, b in zip(w, phi):  # noqa: B905  (equal lengths; strict costs time in the hottest loop)
        z += a * b
    race = math.tanh(0.5 * z)
    return (q1 * close + (6 - q1) * race) / 6


def leaf_features(geo: Geometry, roller: Side, placer: Side) -> tuple[int, tuple[float, ...]]:
    """(faces that close for the side to roll, FEATURES of that side)."""
    occupied = roller.own | placer.own
    mine = threat_summary(roller.closing(geo, occupied))
    their = threat_summary(placer.closing(geo, occupied))
    return mine[0], features(roller.best(), placer.best(), their, mine)


def leaf_value(
    geo: Geometry, roller: Side, placer: Side, w: Weights | None = None, roller_close: float = CLOSE_VALUE
) -> float:
    """Value for the side about to roll (a close of theirs worth ``roller_close``)."""
    q1, phi = leaf_features(geo, roller, placer)
    return value(q1, phi, WEIGHTS if w is None else w, roller_close)


def placement_values(
    geo: Geometry,
    placer: Side,
    roller: Side,
    face: int,
    roller_closing: list[list[int]] | None = None,
    w: Weights | None = None,
    roller_close: float = CLOSE_VALUE,
) -> tuple[dict[int, float], float, set[int]]:
    """Every placement of ``face`` that touches a plan, valued for the placer; the value of any other placement;
    and the placements that complete one of the placer's templates (valued ``CLOSE_VALUE``). ``roller_closing``:
    the roller's closing placements per face when known exactly, else they come from the roller's templates."""
    w = WEIGHTS if w is None else w
    occupied = placer.own | roller.own
    placements_at = geo.by_point[face]
    wall, interior = geo.wall, geo.interior
    p_own, r_own = placer.own, roller.own
    p_near, r_near = placer.near, roller.near

    # the roller's threats: per face the placements that would close for them
    r_closing = roller.closing(geo, occupied) if roller_closing is None else roller_closing
    r_points = 0
    for found in r_closing:
        for cover in found:
            r_points |= cover
    # the placer's own threats before this placement
    p_small = [k for k, g in p_near.items() if 0 < g <= THREAT]
    p_covers = {k: covers(geo, k, p_own, occupied) for k in p_small}
    p_closing = closing_of(geo, p_small, p_own, occupied, p_covers)
    p_points = 0
    for found in p_closing:
        for cover in found:
            p_points |= cover

    my_hits: dict[int, list[int]] = {}
    # with a stone or two on the board every ring is far: push them all, so the first blocks start a ring
    push = PUSH if p_own.bit_count() >= 4 else NEAR
    for k, g in p_near.items():
        if g > push:
            continue
        for point in bits(wall[k] & ~p_own):
            for mask in placements_at[point]:
                if not mask & occupied:
                    hits = my_hits.get(mask)
                    if hits is None:
                        my_hits[mask] = [k]
                    else:
                        hits.append(k)
    r_sorted = sorted((g, k) for k, g in r_near.items())
    r_limit = min(PUSH, r_sorted[0][0] + 3) if r_sorted else -1
    their_hits: dict[int, set[int]] = {}
    for g, k in r_sorted:
        if g > r_limit:
            break
        for point in bits(wall[k] & ~r_own):
            for mask in placements_at[point]:
                if not mask & occupied:
                    hits = their_hits.get(mask)
                    if hits is None:
                        their_hits[mask] = {k}
                    else:
                        hits.add(k)
    touch = set(my_hits)
    touch.update(their_hits)
    for point in bits(r_points | p_points):
        for mask in placements_at[point]:
            if not mask & occupied:
                touch.add(mask)

    p_gaps = sorted(p_near.values())
    base_p = placer.best()
    base_r = _first_alive(r_sorted, None)
    base_r_threat = threat_summary(r_closing)
    base_p_threat = threat_summary(p_closing)

    def roller_value(r_best: tuple[int, int, int], p_best: tuple[int, int, int], r_threat, p_threat) -> float:
        return value(r_threat[0], features(r_best, p_best, p_threat, r_threat), w, roller_close)

    baseline = -roller_value(base_r, base_p, base_r_threat, base_p_threat)
    values: dict[int, float] = {}
    closing: set[int] = set()
    for mask in touch:
        hits = my_hits.get(mask)
        p_best = base_p
        p_threat = base_p_threat
        if hits:
            changed: dict[int, int] = {}
            for k in hits:
                changed[k] = changed.get(k, p_near[k]) - 1
            low = min(changed.values())
            if low == 0 and any(interior[k] & ~(p_own | mask) for k, g in changed.items() if g == 0):
                closing.add(mask)
                values[mask] = CLOSE_VALUE
                continue
            mg = min(low, base_p[0])
            count = bisect_right(p_gaps, mg + 1)
            close = bisect_right(p_gaps, 2)
            for k, g in changed.items():
                old = p_near[k]
                count += (g <= mg + 1) - (old <= mg + 1)
                close += (g <= 2) - (old <= 2)
            p_best = (mg, count, close)
            if low <= THREAT or mask & p_points:
                small = [k for k in p_small if k not in changed]
                small.extend(k for k, g in changed.items() if 0 < g <= THREAT)
                p_threat = threat_summary(closing_of(geo, small, p_own | mask, occupied | mask, p_covers, mask))
        elif mask & p_points:
            p_threat = threat_summary(closing_of(geo, p_small, p_own | mask, occupied | mask, p_covers, mask))
        dead = their_hits.get(mask)
        r_best = _first_alive(r_sorted, dead) if dead else base_r
        if mask & r_points:
            r_threat = threat_summary([[c for c in found if not c & mask] for found in r_closing])
        else:
            r_threat = base_r_threat
        values[mask] = -roller_value(r_best, p_best, r_threat, p_threat)
    return values, baseline, closing


def _first_alive(ordered: list[tuple[int, int]], dead: set[int] | None) -> tuple[int, int, int]:
    """``Side.best`` over ``ordered`` (sorted by gaps) outside ``dead``."""
    best = DEAD
    count = close = 0
    for g, k in ordered:
        if dead is not None and k in dead:
            continue
        if best == DEAD:
            best = g
        if g <= 2:
            close += 1
        elif g > best + 1:
            break
        if g <= best + 1:
            count += 1
    return best, count, close
