"""A puzzle's starting rating, from which of the bot's levels find its first move.

A move the gentlest level finds is easy; one that only level 4 finds is hard; one that no level finds (the proof
needed a deeper search than any level's) is harder still. Each level is asked ``TRIES`` times with different
seeds (the gentle levels draw among good moves), and the weakest level that finds the move in most tries sets
the base; finding it now and then at a weaker level takes a little off, a longer line and more moves to choose
from add a little. On the 1500 scale of the bot's ratings (``sessions/ratings.py``): a puzzle then finds its
level as members try it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

TRIES = 3  # seeds each level is asked with
BASE = {1: 1000, 2: 1350, 3: 1650, 4: 1950}
UNFOUND = 2250  # no level finds the move
HINT = 150  # taken off for each weaker level's share of finds (a level that finds it once in three: 50)
PER_EXTRA_MOVE = 150  # each solver's move after the first
PER_DOUBLING = 60  # each doubling of the number of legal moves above ``TYPICAL_MOVES``
TYPICAL_MOVES = 8
LOWEST, HIGHEST = 600, 2800


def rating(found: Sequence[int], solver_moves: int, legal_moves: int) -> int:
    """The starting rating, rounded to 10. ``found[i]``: in how many of ``TRIES`` tries level ``i + 1`` played
    the first move of the solution."""
    level = next((index + 1 for index, hits in enumerate(found) if 2 * hits > TRIES), None)
    value = float(UNFOUND if level is None else BASE[level])
    weaker = found[: (level or len(found) + 1) - 1]
    value -= HINT * sum(weaker) / TRIES
    value += PER_EXTRA_MOVE * (solver_moves - 1)
    value += PER_DOUBLING * max(-1.0, min(3.0, math.log2(max(legal_moves, 1) / TYPICAL_MOVES)))
    return int(round(min(HIGHEST, max(LOWEST, value)) / 10) * 10)
