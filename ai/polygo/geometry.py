"""What never changes for a board size: the bit layout, every placement of every die face, and the loop templates.

Stones are bitmasks in the engine's layout (``size + 1`` bits a row, so sideways shifts never wrap). A *template*
is a small loop the AI plans for: an interior of one to nine points and its wall, every point 8-adjacent to the
interior (the rules' enclosure: an interior point must not reach the edge by 8-neighbour steps through points
without the player's stones, so all its eight neighbours must be stones or interior). The interiors are the
rectangles of 1x1 to 3x3 points (walls of 8 to 16 stones) and the four L-trominoes (a 4x4 ring with one corner
cut off, 12 stones), so a ring blocked at a corner still has a way round it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache

from engines import polygo as E

FACES = (1, 2, 3, 4, 5, 6)

# interiors as point offsets (col, row); the wall is derived
_INTERIORS: list[tuple[tuple[int, int], ...]] = [
    tuple((c, r) for c in range(w) for r in range(h)) for w in (1, 2, 3) for h in (1, 2, 3)
] + [
    ((0, 0), (1, 0), (0, 1)),
    ((0, 0), (1, 0), (1, 1)),
    ((0, 0), (0, 1), (1, 1)),
    ((1, 0), (0, 1), (1, 1)),
]


def bits(mask: int) -> list[int]:
    """The set bits of ``mask`` as indices, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


@dataclass
class Geometry:
    size: int
    width: int = 0
    on_board: int = 0
    border: int = 0
    # face -> every placement mask; face -> point index -> the placements through that point
    placements: dict[int, list[int]] = field(default_factory=dict)
    by_point: dict[int, list[list[int]]] = field(default_factory=dict)
    # face -> (lower point, higher point) -> the placements through both
    by_pair: dict[int, dict[tuple[int, int], list[int]]] = field(default_factory=dict)
    wall: list[int] = field(default_factory=list)
    interior: list[int] = field(default_factory=list)
    score: list[int] = field(default_factory=list)
    wall_size: list[int] = field(default_factory=list)
    # point index -> templates with that point on their wall
    templates_at: list[list[int]] = field(default_factory=list)
    # a template's neighbourhood: every point a block closing it could use (wall and interior grown by 3)
    reach: list[int] = field(default_factory=list)
    names: dict[str, int] = field(default_factory=dict)  # a placement's canonical name (the engine's) -> mask
    with_neighbours: dict[int, list[tuple[int, int]]] = field(default_factory=dict)  # (placement, points beside)

    def __post_init__(self) -> None:
        size, width = self.size, self.size + 1
        self.width = width
        cells = [(c, r) for r in range(size) for c in range(size)]
        self.on_board = sum(1 << (r * width + c) for c, r in cells)
        self.border = sum(1 << (r * width + c) for c, r in cells if c in (0, size - 1) or r in (0, size - 1))
        for face in FACES:
            masks = sorted(_placements(face, size, width))
            self.placements[face] = masks
            index: list[list[int]] = [[] for _ in range(width * size)]
            pairs: dict[tuple[int, int], list[int]] = {}
            for mask in masks:
                points = bits(mask)
                for point in points:
                    index[point].append(mask)
                for i, low in enumerate(points):
                    for high in points[i + 1 :]:
                        pairs.setdefault((low, high), []).append(mask)
            self.by_point[face] = index
            self.by_pair[face] = pairs
            for mask in masks:
                points = sorted((i % width, i // width) for i in bits(mask))
                self.names[" ".join(E.point_name(c, r) for c, r in points)] = mask
            self.with_neighbours[face] = [(mask, self.neighbours(mask)) for mask in masks]
        self.templates_at = [[] for _ in range(width * size)]
        seen: set[int] = set()
        for shape in _INTERIORS:
            wall_offsets = {(c + dc, r + dr) for c, r in shape for dc in (-1, 0, 1) for dr in (-1, 0, 1)} - set(shape)
            min_c = min(c for c, _ in wall_offsets)
            min_r = min(r for _, r in wall_offsets)
            wall_pts = [(c - min_c, r - min_r) for c, r in wall_offsets]
            in_pts = [(c - min_c, r - min_r) for c, r in shape]
            span_c = max(c for c, _ in wall_pts)
            span_r = max(r for _, r in wall_pts)
            for r0 in range(size - span_r):
                for c0 in range(size - span_c):
                    wall = sum(1 << ((r0 + r) * width + c0 + c) for c, r in wall_pts)
                    if wall in seen:
                        continue
                    seen.add(wall)
                    inner = sum(1 << ((r0 + r) * width + c0 + c) for c, r in in_pts)
                    k = len(self.wall)
                    self.wall.append(wall)
                    self.interior.append(inner)
                    self.wall_size.append(len(wall_pts))
                    self.score.append(len(wall_pts) + 2 * len(in_pts))
                    self.reach.append(self.grow(wall | inner, 3))
                    for point in bits(wall):
                        self.templates_at[point].append(k)

    def grow(self, mask: int, steps: int) -> int:
        for _ in range(steps):
            row = mask | (mask << 1) | (mask >> 1)
            mask = (row | (row << self.width) | (row >> self.width)) & self.on_board
        return mask

    def neighbours(self, mask: int) -> int:
        """The points beside (up, down, left, right) the points of ``mask``, on the board."""
        width = self.width
        return ((mask << 1) | (mask >> 1) | (mask << width) | (mask >> width)) & self.on_board & ~mask

    def closing_placements(self, own: int, occupied: int) -> list[list[int]]:
        """Per die face, every legal placement that would give ``own`` a polygon (any loop, found exactly)."""
        out: list[list[int]] = []
        if own.bit_count() < 4:
            return [[] for _ in FACES]
        for face in FACES:
            found = []
            for mask, beside in self.with_neighbours[face]:
                # a new loop runs through the block: it meets the player's stones at two points at least
                if not mask & occupied and (beside & own).bit_count() >= 2 and self.encloses(own | mask):
                    found.append(mask)
            out.append(found)
        return out

    def encloses(self, own: int) -> bool:
        """Whether ``own`` cuts some point that is not its own off the board edge (8-neighbour steps): the
        engine's test for a polygon, a bitboard flood fill far cheaper than an engine copy and a play."""
        free = self.on_board & ~own
        reach = free & self.border
        width = self.width
        while True:
            row = reach | (reach << 1) | (reach >> 1)
            grown = (row | (row << width) | (row >> width)) & free
            if grown == reach:
                return bool(free & ~reach)
            reach = grown

    def mask_of(self, move: str) -> int:
        """A placement's stones as a mask; the engine's canonical names are looked up, anything else parsed."""
        known = self.names.get(move)
        if known is not None:
            return known
        mask = 0
        for token in move.split():
            col, row = E.parse_point(token)
            mask |= 1 << (row * self.width + col)
        return mask


def _placements(face: int, size: int, width: int) -> set[int]:
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
    return masks


@cache
def geometry(size: int) -> Geometry:
    return Geometry(size)


def polygon_score(geo: Geometry, stones: int) -> int:
    """The score (stones + 2 x territory, without a finisher's bonus) of the best polygon of ``stones``, 0 if
    they have none, as the engine scores it."""
    names = [E.point_name(i % geo.width, i // geo.width) for i in bits(stones)]
    polygon = E.polygon_from_points(names, geo.size)
    return 0 if polygon is None else int(polygon["score"])


def stones_of(game: object, player: int) -> int:
    """A player's stones as a bitmask in the engine's layout, read point by point through the engine's API."""
    size = game.size  # type: ignore[attr-defined]
    width = size + 1
    mask = 0
    for row in range(size):
        for col in range(size):
            if game.stone((col, row)) == player:  # type: ignore[attr-defined]
                mask |= 1 << (row * width + col)
    return mask
