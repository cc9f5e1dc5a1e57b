"""A plain, textbook UCT player: the yardstick the project's AI is measured against (docs/arena.md).

Upper Confidence bounds applied to Trees (Kocsis and Szepesvari 2006) with nothing of any game in it, on the
engine contract only (``copy``, ``legal_moves``, ``play``, ``chance``, ``turn``, ``is_over``, ``result``):

- each iteration copies the root state once and plays down the tree on that copy;
- selection by UCB1, ``mean + c * sqrt(ln N / n)`` with c = sqrt(2), on results in [0, 1] for the player to
  move at the node (a win 1, a draw 0.5, a loss 0), so turns need not alternate (passes, extra turns);
- one new decision node per iteration, its move taken from the node's untried moves in a random order;
- chance points (dice) are passed through: the outcome is drawn uniformly from ``legal_moves()`` and its node
  made if it is new, then the descent goes on, so a chance outcome never costs the iteration its expansion;
- a uniformly random playout to the end of the game (chance outcomes uniform too);
- the move played is the most visited child of the root (ties: the better mean, then the random order).

Strength is a fixed number of iterations, so the same seed gives the same move however loaded the machine is.
``calibrate`` turns a mean time per move into an iteration count by measuring the rate once. A time control
(``seconds``) instead searches every move with a choice until that many seconds of a given clock have passed,
as a level on its clock does: the same budget on every move, not the same mean.
"""

from __future__ import annotations

import math
import random
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

EXPLORATION = math.sqrt(2)
Clock = Callable[[], float]


class Node:
    """A state in the tree. ``score0`` sums the playout results for player 0, so any player's mean is at hand."""

    __slots__ = ("chance", "children", "move", "score0", "turn", "untried", "visits")

    def __init__(self, move: str | None, state: Any) -> None:
        self.move = move
        self.visits = 0
        self.score0 = 0.0
        self.children: dict[str, Node] = {}
        self.chance: bool = bool(state.chance) and not state.is_over
        self.turn: int | None = state.turn
        # listed on the node's second visit, when it expands: most leaves are never visited again
        self.untried: list[str] | None = None

    def mean_for(self, player: int) -> float:
        mean0 = self.score0 / self.visits
        return mean0 if player == 0 else 1.0 - mean0


class UCT:
    """The searcher. ``choose(state)`` never mutates ``state``; its own ``random.Random`` makes it reproducible."""

    def __init__(
        self,
        iterations: int,
        seed: int | None = None,
        exploration: float = EXPLORATION,
        plies: int | None = None,
        seconds: float | None = None,
        clock: Clock = time.perf_counter,
    ) -> None:
        """``iterations`` playouts a move; or, with ``plies``, as many playouts as fit in that many moves played
        on the copies (tree descent and playouts), which costs about the same time at every stage of a game; or,
        with ``seconds``, as many as fit before ``clock`` has advanced that much since the move was asked for
        (``time.process_time`` counts this process's CPU seconds, which other work on the machine does not take)."""
        if iterations < 1 or (plies is not None and plies < 1) or (seconds is not None and seconds <= 0):
            raise ValueError("UCT needs at least one iteration a move.")
        self.iterations = iterations
        self.plies = plies
        self.seconds = seconds
        self.clock = clock
        self.exploration = exploration
        self.rng = random.Random(seed)
        self.plies_done = 0  # moves played on copies by the last search

    def choose(self, state: Any) -> str:
        started = self.clock()  # a time control counts from the question, as a level's deadline does
        if state.is_over or state.chance or state.turn is None:
            raise ValueError("UCT only chooses for a player to act; the arena draws the chance moves.")
        legal = state.legal_moves()
        if len(legal) == 1:
            return legal[0]
        if self.seconds is not None:
            left = self.seconds - (self.clock() - started)
            root = self.search(state, 10**9, seconds=left, clock=self.clock)
        elif self.plies is None:
            root = self.search(state, self.iterations)
        else:
            root = self.search(state, 10**9, plies=self.plies)
        return best_child(root).move  # type: ignore[return-value]

    def search(
        self,
        root_state: Any,
        iterations: int,
        cpu_seconds: float | None = None,
        plies: int | None = None,
        seconds: float | None = None,
        clock: Clock = time.process_time,
    ) -> Node:
        """Grow a tree from ``root_state`` for ``iterations`` playouts, or until ``plies`` moves have been played
        on the copies, or until ``seconds`` of ``clock`` have passed (``cpu_seconds``: this process's CPU time,
        the calibration's measure, which the machine's load does not stretch); the first iteration always runs,
        and the clock is read before each of the others (an iteration is one playout, at most milliseconds)."""
        rng = self.rng
        pick = rng.choice
        randrange = rng.randrange
        root = Node(None, root_state)
        if cpu_seconds is not None:
            seconds, clock = cpu_seconds, time.process_time
        deadline = None if seconds is None else clock() + seconds
        ply_limit = math.inf if plies is None else plies
        start_plies = len(root_state.moves)
        played = 0
        for done in range(iterations):
            if done and (played >= ply_limit or (deadline is not None and clock() > deadline)):
                break
            state = root_state.copy()
            node = root
            path = [root]
            while not state.is_over:
                if node.chance:
                    outcome = pick(state.legal_moves())
                    state.play(outcome)
                    child = node.children.get(outcome)
                    if child is None:
                        child = node.children[outcome] = Node(outcome, state)
                    node = child
                    path.append(node)
                    continue
                untried = node.untried
                if untried is None:
                    untried = node.untried = state.legal_moves()
                if untried:  # expand one untried move, taken at random
                    last = len(untried) - 1
                    index = randrange(last + 1)
                    untried[index], untried[last] = untried[last], untried[index]
                    move = untried.pop()
                    state.play(move)
                    node.children[move] = node = Node(move, state)
                    path.append(node)
                    break
                node = self._select(node)
                state.play(node.move)
                path.append(node)
            while not state.is_over:  # the playout
                state.play(pick(state.legal_moves()))
            played += len(state.moves) - start_plies
            winner = state.result().winner
            reward0 = 0.5 if winner is None else (1.0 if winner == 0 else 0.0)
            for visited in path:
                visited.visits += 1
                visited.score0 += reward0
        self.plies_done = played
        return root

    def _select(self, node: Node) -> Node:
        """UCB1 over the children of a fully expanded decision node, for the player to move there."""
        player = node.turn
        log_visits = math.log(node.visits)
        c = self.exploration
        best = None
        best_value = -math.inf
        for child in node.children.values():
            mean0 = child.score0 / child.visits
            mean = mean0 if player == 0 else 1.0 - mean0
            value = mean + c * math.sqrt(log_visits / child.visits)
            if value > best_value:
                best, best_value = child, value
        assert best is not None
        return best


def best_child(root: Node) -> Node:
    """The most visited child; among equals the better mean, then the first in the random expansion order."""
    player = root.turn
    assert player is not None

    def key(child: Node) -> tuple[int, float]:
        return child.visits, child.mean_for(player) if child.visits else 0.0

    return max(root.children.values(), key=key)


@dataclass(frozen=True)
class Calibration:
    """How many iterations make ``target_s`` a move on average, from a measured rate on sample positions."""

    target_s: float
    iterations: int  # the budget a move, in ``unit``
    rate: float  # units per CPU second: 1 / the mean over positions of the CPU seconds per unit
    positions: int
    wall_rate: float  # the same in wall-clock seconds: below ``rate`` when other work shared the core
    measured_s: float  # wall time the measurement took
    unit: str = "iterations"  # or "plies": moves played on the search's copies

    def describe(self) -> str:
        return (
            f"UCT calibration: {self.rate:.1f} {self.unit} per CPU second ({self.wall_rate:.1f} per wall second) "
            f"over {self.positions} positions in {self.measured_s:.1f} s -> {self.iterations} {self.unit} for "
            f"{self.target_s:.3g} s a move"
        )


def sample_positions(new_game: Callable[[], Any], rng: random.Random, games: int = 4, per_game: int = 6) -> list[Any]:
    """Positions with a choice for a player, spread evenly over whole uniformly random games."""
    positions = []
    for _ in range(games):
        state = new_game()
        choices = []
        while not state.is_over:
            legal = state.legal_moves()
            if not state.chance and len(legal) > 1:
                choices.append(state.copy())
            state.play(rng.choice(legal))
        if choices:
            step = len(choices) / per_game
            positions.extend(choices[int(k * step)] for k in range(min(per_game, len(choices))))
    return positions


def calibrate(
    new_game: Callable[[], Any],
    target_s: float,
    seed: int = 0,
    seconds_per_position: float = 0.25,
    positions: list[Any] | None = None,
    unit: str = "iterations",
) -> Calibration:
    """The iteration count (or with ``unit="plies"`` the ply budget) whose mean time per move with a choice is
    about ``target_s`` on this machine now.

    The cost of an iteration depends on how much game is left, so the rate is measured on positions spread over
    whole random games (or on the ``positions`` given, e.g. from real games), each searched for
    ``seconds_per_position``, and the seconds per iteration averaged over positions (a plain total would favour
    the cheap late positions, which fit more iterations in the same time). Seconds are CPU seconds of this
    process, so a busy machine does not make the reference weaker; on a quiet one they equal wall seconds.
    """
    rng = random.Random(seed)
    if positions is None:
        positions = sample_positions(new_game, rng)
    searcher = UCT(1, seed=seed)
    costs = []
    wall_costs = []
    start = time.perf_counter()
    for position in positions:
        began, cpu_began = time.perf_counter(), time.process_time()
        root = searcher.search(position, 10**9, cpu_seconds=seconds_per_position)
        done = max(1, root.visits if unit == "iterations" else searcher.plies_done)
        costs.append((time.process_time() - cpu_began) / done)
        wall_costs.append((time.perf_counter() - began) / done)
    measured = time.perf_counter() - start
    rate = 1.0 / statistics.fmean(costs)
    wall_rate = 1.0 / statistics.fmean(wall_costs)
    budget = max(1, round(target_s * rate))
    return Calibration(target_s, budget, rate, len(positions), wall_rate, measured, unit)


def playout_rate(positions: list[Any], seed: int = 0, seconds_per_position: float = 0.25) -> float:
    """Bare random playouts (a copy and a uniform game to the end) per CPU second, averaged over positions as
    ``calibrate`` does: the most iterations any search on the engine contract could make, the tree aside."""
    pick = random.Random(seed).choice
    costs = []
    for position in positions:
        began = time.process_time()
        deadline = began + seconds_per_position
        count = 0
        while not count or time.process_time() < deadline:
            state = position.copy()
            while not state.is_over:
                state.play(pick(state.legal_moves()))
            count += 1
        costs.append((time.process_time() - began) / count)
    return 1.0 / statistics.fmean(costs)
