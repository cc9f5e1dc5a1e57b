"""Game-independent thinking: deadlines, iterative deepening and softmax weakening.

A game strategy only has to value the root moves at a given depth (see ``Strategy``); deadlines, deepening
and picking a move live here (each game module has its own levels). Values are on one scale for every game: +1
a sure win for the player to act, -1 a sure loss, so one temperature means the same carelessness in every game.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass
from typing import Any, Protocol


class SearchTimeout(Exception):
    """Raised inside a search when its deadline has passed; the unfinished depth is thrown away."""


class Deadline:
    """A wall-clock limit that is cheap to poll: the clock is read only every ``stride`` calls."""

    def __init__(self, budget_s: float | None, stride: int = 256) -> None:
        self.end = math.inf if budget_s is None else time.perf_counter() + budget_s
        self.stride = stride
        self._count = 0
        self.armed = True

    def check(self) -> None:
        """Raise SearchTimeout once the budget is spent (never while disarmed, so depth 1 always completes)."""
        self._count += 1
        if self._count % self.stride == 0 and self.armed and time.perf_counter() > self.end:
            raise SearchTimeout

    def expired(self) -> bool:
        return time.perf_counter() > self.end

    def remaining(self) -> float:
        return self.end - time.perf_counter()


def below_best(bound: float, best: float) -> float:
    """A root move's fail-low result, kept strictly below the best value so far. Searched with a window that can
    only bound it from above, it may equal the best move's exact value (a lost line's score, a table entry); a
    tie would hand the choice to the moves' names or order instead of their values."""
    return min(bound, math.nextafter(best, -math.inf))


class NodeBudget(Deadline):
    """A deadline counted in search nodes instead of seconds: fixed work that is the same on any machine."""

    def __init__(self, nodes: int) -> None:
        super().__init__(None)
        self.nodes = nodes

    def check(self) -> None:
        self._count += 1
        if self.armed and self._count > self.nodes:
            raise SearchTimeout

    def expired(self) -> bool:
        return self._count > self.nodes


@dataclass
class Analysis:
    """The outcome of a search: root values of the deepest completed depth."""

    values: dict[str, float]
    depth: int
    exact: bool

    def best(self) -> tuple[str, float]:
        move = max(self.values, key=lambda m: (self.values[m], _neg_order(m)))
        return move, self.values[move]


def _neg_order(move: str) -> tuple[int, ...]:
    # Ties go to the earliest move in canonical order, so argmax never depends on dict order.
    return tuple(-ord(c) for c in move)


class Strategy(Protocol):
    """What a game module provides to the shared search."""

    def root_values(self, state: Any, depth: int, deadline: Deadline) -> tuple[dict[str, float], bool]:
        """Value of each legal move for the player to act, searched ``depth`` plies (the game's meaning of a ply);
        the flag is True when the values are exact (the game tree was searched to its end)."""
        ...


def think(strategy: Strategy, state: Any, max_depth: int, budget_s: float | None) -> Analysis:
    """Iterative deepening: deepen until the budget or the depth cap runs out, keep the last complete depth."""
    deadline = Deadline(budget_s)
    deadline.armed = False
    values, exact = strategy.root_values(state, 1, deadline)
    result = Analysis(values, 1, exact)
    deadline.armed = budget_s is not None
    depth = 2
    while depth <= max_depth and not result.exact and len(values) > 1:
        if deadline.expired():
            break
        try:
            values, exact = strategy.root_values(state, depth, deadline)
        except SearchTimeout:
            break
        result = Analysis(values, depth, exact)
        depth += 1
    return result


def pick(analysis: Analysis, temperature: float, rng: random.Random) -> str:
    """Argmax at temperature 0, else a softmax draw over move values (canonical move order keeps it seeded)."""
    if temperature <= 0:
        return analysis.best()[0]
    moves = sorted(analysis.values)
    top = max(analysis.values.values())
    weights = [math.exp((analysis.values[m] - top) / temperature) for m in moves]
    return rng.choices(moves, weights=weights)[0]


class GameAI(Protocol):
    """What a game's AI module provides (the module its registry entry names), one per game.

    ``ai.choose_move`` and ``ai.analyse_position`` check the level and that a player is to act, copy the state
    and then call these; a module may search its copy freely. Levels are the module's own business: each game
    decides how its levels think, as long as 1 is the gentlest and 4 the strongest.
    """

    def choose_move(
        self, state: Any, level: int, rng: random.Random, *, budget_s: float | None, max_depth: int | None
    ) -> str:
        """One of ``state.legal_moves()`` at ``level``; ``budget_s`` (seconds) and ``max_depth`` (a bound on the
        work that makes the choice deterministic for a seed) override the level's own limits when given."""
        ...

    def analyse_position(self, state: Any, *, budget_s: float) -> tuple[str, float]:
        """The strongest search's best move and its value in [-1, 1] for the player to act."""
        ...

    # Optional: ``chance_value(state) -> float | None``, the value of a chance point for the player about to
    # act there, without a search (``ai.evaluate`` uses it instead of searching every outcome; None: no value).
