"""The learned evaluation's patterns: n-tuples of cells over the hex board, shared by its 12 symmetries.

A pattern class is a short tuple of cells (an edge, a line from the rim, the corner, a wedge at the centre...);
its instances are its images under the 6 rotations and 3 reflection axes of the hexagon, which the rules keep
(they only name the outer ring and the centre, both invariant). Each class has one table per game stage,
indexed by the contents of its cells seen from the player to move, base 5: empty, mine, theirs, a captive of
my colour, a captive of theirs. The value of a position is ``tanh`` of the sum of its instances' entries plus a
few global terms (the product scores, the disk counts), learned by ``bench/train_iago.py``.

Instead of walking the instances in a loop, ``pattern_sum`` is generated code: one expression that indexes every
table straight from the cell list, several times faster in CPython than a loop over index lists.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence

from engines import iago as E

Coord = tuple[int, int]

COORDS: tuple[Coord, ...] = tuple(E.cell_coords(name) for name in E.CELLS)
CELL_AT: dict[Coord, int] = {c: i for i, c in enumerate(COORDS)}
STATES = 5  # empty, mine, theirs, my captive, their captive (the board's codes seen by Dark)
# The board's codes are absolute (1 Dark, 2 Light, 3 captive Dark, 4 captive Light); seen by Light they swap.
SWAP_COLOURS = (0, 2, 1, 4, 3)


def rotate(c: Coord) -> Coord:
    """60 degrees about E5: the neighbour directions (0,1) (1,1) (1,0) (0,-1) (-1,-1) (-1,0) go round in order."""
    a, b = c
    return (b, b - a)


def reflect(c: Coord) -> Coord:
    """The mirror that swaps the two axes (it fixes the direction (1,1))."""
    a, b = c
    return (b, a)


def symmetries() -> list[Callable[[Coord], Coord]]:
    """The 12 symmetries of the board: 6 rotations, each with and without the reflection."""
    result: list[Callable[[Coord], Coord]] = []
    for turns in range(6):
        for mirrored in (False, True):

            def image(c: Coord, turns: int = turns, mirrored: bool = mirrored) -> Coord:
                if mirrored:
                    c = reflect(c)
                for _ in range(turns):
                    c = rotate(c)
                return c

            result.append(image)
    return result


# One representative of each class, in axial coordinates (E5 = (0, 0); row I is a = 4). Six cells at most:
# 5^6 = 15,625 entries a table.
PATTERN_CLASSES: dict[str, tuple[Coord, ...]] = {
    "edge": ((4, 0), (4, 1), (4, 2), (4, 3), (4, 4)),  # one side of the outer ring, corner to corner
    "edge_inner": ((4, 0), (4, 1), (4, 2), (3, 0), (3, 1), (3, 2)),  # half a side and the ring inside it
    "corner": ((4, 0), (4, 1), (4, 2), (3, -1), (2, -2), (3, 0)),  # a corner, two cells along each side
    "line6": ((3, -1), (3, 0), (3, 1), (3, 2), (3, 3), (3, 4)),  # the line next to the rim, rim to rim
    "line7": ((2, -2), (2, -1), (2, 0), (2, 1), (2, 2), (2, 3)),  # a line of 7 from its rim end
    "line8": ((1, -3), (1, -2), (1, -1), (1, 0), (1, 1), (1, 2)),  # a line of 8 from its rim end
    "diameter": ((0, -4), (0, -3), (0, -2), (0, -1), (0, 0), (0, 1)),  # a rim cell to the centre and past it
    "wedge": ((0, 0), (0, 1), (1, 1), (0, 2), (1, 2), (2, 2)),  # the centre and the triangle beside it
}


def instances(cells: tuple[Coord, ...]) -> list[tuple[int, ...]]:
    """The distinct images of a class under the 12 symmetries, as cell indices (an image covering the same cells
    as an earlier one is the same pattern read in another order, and would count it twice)."""
    seen: set[frozenset[int]] = set()
    result = []
    for image in symmetries():
        cell_indices = tuple(CELL_AT[image(c)] for c in cells)
        if frozenset(cell_indices) not in seen:
            seen.add(frozenset(cell_indices))
            result.append(cell_indices)
    return result


CLASS_NAMES: tuple[str, ...] = tuple(PATTERN_CLASSES)
INSTANCES: tuple[tuple[int, tuple[int, ...]], ...] = tuple(
    (k, cells) for k, name in enumerate(CLASS_NAMES) for cells in instances(PATTERN_CLASSES[name])
)
TABLE_SIZES: tuple[int, ...] = tuple(STATES ** len(PATTERN_CLASSES[name]) for name in CLASS_NAMES)

# Game stages by the number of empty inner cells (37 at the start, 0 at the end): patterns have a table per
# stage, the global terms a finer set of their own.
PATTERN_STAGE_BOUNDS: tuple[int, ...] = (24, 12)  # stage 0: more than 24 empty, 1: 13..24, 2: 12 or fewer
GLOBAL_STAGES = 8
INNER_CELLS = len(E.INNER)
GLOBAL_FEATURES = ("bias", "score_share", "inner", "outer", "captives")


def pattern_stage(empty_inner: int) -> int:
    stage = 0
    for bound in PATTERN_STAGE_BOUNDS:
        if empty_inner <= bound:
            stage += 1
    return stage


def global_stage(empty_inner: int) -> int:
    return min(GLOBAL_STAGES - 1, (INNER_CELLS - empty_inner) * GLOBAL_STAGES // INNER_CELLS)


def definition_hash() -> str:
    """What the weights depend on: the classes, their instances, the stages and the features. A weights file
    made for other definitions is refused rather than silently misread."""
    text = repr(
        (CLASS_NAMES, INSTANCES, TABLE_SIZES, STATES, SWAP_COLOURS, PATTERN_STAGE_BOUNDS, GLOBAL_STAGES)
    ) + repr(GLOBAL_FEATURES)
    return hashlib.sha256(text.encode()).hexdigest()


def _index_expression(cells: Sequence[int]) -> str:
    # the first cell is the most significant digit
    terms = [f"c[{cell}]*{STATES ** (len(cells) - 1 - k)}" for k, cell in enumerate(cells)]
    return "+".join(terms).removesuffix("*1")


def _compile() -> tuple[Callable[[list[int], Sequence[list[float]]], float], Callable[[list[int]], tuple[int, ...]]]:
    unpack = ", ".join(f"t{k}" for k in range(len(CLASS_NAMES)))
    terms = [f"t{k}[{_index_expression(cells)}]" for k, cells in INSTANCES]
    indices = [_index_expression(cells) for _, cells in INSTANCES]
    source = (
        f"def pattern_sum(c, tables):\n    {unpack}, = tables\n    return " + " + ".join(terms) + "\n"
        "def pattern_indices(c):\n    return (" + ", ".join(indices) + ",)\n"
    )
    namespace: dict[str, object] = {}
    exec(compile(source, "<iago patterns>", "exec"), namespace)  # generated from the constants above only
    return namespace["pattern_sum"], namespace["pattern_indices"]  # type: ignore[return-value]


pattern_sum, pattern_indices = _compile()
pattern_sum.__doc__ = "Sum of the tables' entries over every instance; ``tables`` one list per class."
pattern_indices.__doc__ = "Each instance's table index for the cells as given (seen by Dark: swap them for Light)."


def swapped_index_map(size_exponent: int) -> list[int]:
    """For a table over ``size_exponent`` cells: the index of the same cells with the colours swapped, so a
    table learned for the player to move can be read directly with the board's absolute codes by Light."""
    result = [0]
    for digits in range(size_exponent):
        place = STATES**digits  # built from the least significant digit up: one list comprehension a digit
        result = [SWAP_COLOURS[d] * place + rest for d in range(STATES) for rest in result]
    return result
