"""Puzzles from game records, by lichess-puzzler's method adapted to games scored by points.

lichess-puzzler walks a game whose positions carry an engine evaluation, stops where the side to move has just
been handed a winning position (the opponent blundered), and "cooks" a solution from there: at each of the
solver's turns the engine's best move must be the only one that keeps the win (its winning chances exceed the
second-best move's by a margin), the opponent answers with the engine's best reply, and the line ends where the
solver no longer has an only move. Here values are the AI's, -1..+1 for the player to act (``ai.evaluate``), the
same scale as lichess's winning chances, so the same thresholds read naturally:

- **candidate**: the player to act stands well (value >= ``CANDIDATE``) and the last move (the opponent's, or in
  a game with dice, the die just rolled) gave them at least ``SWING`` (measured by a quick scan of the whole record),
  or, where there are few moves (``GLANCE_ALL``), one of them stands out at a glance (an endgame's only move);
- **the solver's move**: the strongest search given ten times its normal time (``Budgets.deep``) names it, and
  every other move is clearly worse: its value, searched with ``Budgets.check`` each, is at least ``MARGIN``
  below the named move's (where there are many moves, all are glanced at with the least search and the closest
  rivals searched fully), and so are the two closest rivals' when searched as long as the named move
  (``Budgets.deep`` each, lichess's "best two moves at the same depth"); and the named move keeps the win
  (value >= ``WINNING``) or gains far more than any other (by ``GAIN``): in a game scored by points, the move that
  wins the most;
- **the opponent's reply**: the strongest search's best move;
- **the end**: the first solver's turn with no only move, a chance move (the next die is nobody's choice, so a
  puzzle of a game with dice is the move after its roll), the game's end, or ``MAX_SOLVER_MOVES``.

Everything here is pure (engines and ai only) and slow by design: it runs in a worker process.
"""

from __future__ import annotations

import importlib
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

import ai
from engines import GameState

CANDIDATE = 0.3  # the scan's value (-1..+1) from which a position is worth solving
SWING = 0.4  # how much the last move must have given the solver, in value
WINNING = 0.5  # the solver's value that counts as winning: the only move keeps at least this ...
GAIN = 0.6  # ... or gains at least this much more than any other move
MARGIN = 0.4  # every other move is worse than the only move by at least this much
GLANCE_ALL = 40  # positions with at most this many moves are also candidates when one move stands out at a glance
MAX_SOLVER_MOVES = 3
RIVALS = 3  # where not every move is searched fully, the closest rivals by a glance that are
FINALISTS = 2  # the closest rivals searched again with the strongest search's time
MAX_PER_RECORD = 3  # puzzles taken from one game record


@dataclass(frozen=True)
class Budgets:
    """Search seconds. ``deep`` is the strongest search's normal time (1.6 s) ten times over; ``check`` the
    normal time, for each other move; ``scan`` a quick look at each position of the record."""

    scan: float = 0.16
    deep: float = 16.0
    check: float = 1.6
    glance: float = 0.0  # the least search (its first depth always completes)
    full_check: float = 30.0  # search every move with ``check`` when that costs no more than this

    def scaled(self, factor: float) -> Budgets:
        """Every budget times ``factor`` (tests and the bench mine faster, and say so)."""
        return Budgets(
            self.scan * factor, self.deep * factor, self.check * factor, self.glance * factor, self.full_check * factor
        )

    @classmethod
    def deep_seconds(cls, seconds: float) -> Budgets:
        """The budgets whose strongest search has ``seconds`` (the rest in proportion)."""
        return cls().scaled(seconds / cls().deep)


@dataclass(frozen=True)
class Step:
    """One of the solver's moves in a solution: the move, its value and the best of the others (by the check)."""

    move: str
    value: float
    rival: str | None  # None: the move was the only legal one after all (never the first step)
    rival_value: float

    @property
    def margin(self) -> float:
        return self.value - self.rival_value if self.rival is not None else 2.0


@dataclass(frozen=True)
class Puzzle:
    """A position (the record up to ``ply``) and its solution: the solver's move, the opponent's reply, ..., ending
    with a solver's move. ``margin`` is the least of the solver's steps' margins."""

    game: str
    options: dict[str, Any]
    moves: tuple[str, ...]
    solver: int
    solution: tuple[str, ...]
    steps: tuple[Step, ...]
    swing: float = 0.0
    source: dict[str, Any] = field(default_factory=dict)  # {"game_id": ...} or {"self_play": seed}: the caller's

    @property
    def ply(self) -> int:
        return len(self.moves)

    @property
    def margin(self) -> float:
        return min(step.margin for step in self.steps)

    @property
    def value(self) -> float:
        return self.steps[0].value

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "options": self.options,
            "moves": list(self.moves),
            "solver": self.solver,
            "solution": list(self.solution),
            "steps": [[s.move, round(s.value, 4), s.rival, round(s.rival_value, 4)] for s in self.steps],
            "swing": round(self.swing, 4),
            "source": self.source,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Puzzle:
        return cls(
            game=data["game"],
            options=dict(data["options"]),
            moves=tuple(data["moves"]),
            solver=int(data["solver"]),
            solution=tuple(data["solution"]),
            steps=tuple(Step(m, float(v), r, float(rv)) for m, v, r, rv in data["steps"]),
            swing=float(data.get("swing", 0.0)),
            source=dict(data.get("source") or {}),
        )


def is_only_move(value: float, margin: float) -> bool:
    """The rule of a solver's move: every other move clearly worse, and the move keeps the win or gains far more."""
    return margin >= MARGIN and (value >= WINNING or margin >= GAIN)


def position(engine: str, options: dict[str, Any], moves: Iterable[str]) -> GameState:
    """The game ``engine`` (an import path) with ``options`` after ``moves``."""
    state: GameState = importlib.import_module(engine).new_game(**options)
    for move in moves:
        state.play(move)
    return state


class Miner:
    """The searches of one game's AI (an import path, as the workers get it) with one set of budgets."""

    def __init__(self, game_ai: str, budgets: Budgets, clock: Callable[[], float] = time.perf_counter) -> None:
        self.game_ai = game_ai
        self.budgets = budgets
        self.clock = clock

    def value_after(self, state: GameState, move: str, solver: int, budget: float) -> float:
        return value_of(_after(state, move), solver, budget, self.game_ai)

    def scan(self, start: GameState, moves: list[str]) -> list[tuple[int, float]]:
        """(ply, value for the player to act) at every position of the record where a player has a choice."""
        state = start.copy()
        found = []
        for ply, move in enumerate(moves):
            if not state.chance and state.turn is not None and len(state.legal_moves()) > 1:
                _, value = ai.analyse_position(state, budget_s=self.budgets.scan, game_ai=self.game_ai)
                found.append((ply, value))
            state.play(move)
        return found

    def stands_out(self, state: GameState) -> bool:
        """Whether, among few moves, one is clearly the best at a glance (the least search of each): a position
        with no swing before it may still have an only move, an endgame's say."""
        legal = state.legal_moves()
        if not 2 <= len(legal) <= GLANCE_ALL:
            return False
        solver = state.turn
        assert solver is not None
        values = sorted((self.value_after(state, m, solver, self.budgets.glance) for m in legal), reverse=True)
        return values[0] >= CANDIDATE and values[0] - values[1] >= MARGIN / 2

    def only_move(self, state: GameState) -> Step | None:
        """The solver's only move here, or None when there is none (see the module's rules)."""
        legal = state.legal_moves()
        solver = state.turn
        assert solver is not None
        if len(legal) < 2:
            return None
        best, _ = ai.analyse_position(state, budget_s=self.budgets.deep, game_ai=self.game_ai)
        check = self.budgets.check
        if len(legal) * check <= self.budgets.full_check:
            contenders = legal
        else:
            glanced = {m: self.value_after(state, m, solver, self.budgets.glance) for m in legal if m != best}
            contenders = [best, *sorted(glanced, key=lambda m: -glanced[m])[:RIVALS]]
        values = {m: self.value_after(state, m, solver, check) for m in contenders}
        step = weakest_margin(best, values)
        if not is_only_move(step.value, step.margin):
            return None
        # As lichess-puzzler compares the best two moves at the same depth: the move and its closest rivals are
        # searched again with the strongest search's time, and the smallest margin of both looks is kept.
        finalists = [best, *sorted((m for m in values if m != best), key=lambda m: -values[m])[:FINALISTS]]
        deep = {m: self.value_after(state, m, solver, self.budgets.deep) for m in finalists}
        closer = weakest_margin(best, deep)
        step = min(step, closer, key=lambda s: (s.margin, s.value))
        return step if is_only_move(step.value, step.margin) else None

    def solve(self, state: GameState) -> list[Step | str]:
        """The solution from ``state`` (the solver to move): solver's steps and the opponent's replies, ending
        with a step; empty when the first turn has no only move."""
        state = state.copy()
        solver = state.turn
        line: list[Step | str] = []
        steps = 0
        while steps < MAX_SOLVER_MOVES and not state.is_over and not state.chance and state.turn == solver:
            step = self.only_move(state)
            if step is None:
                break
            line.append(step)
            steps += 1
            state.play(step.move)
            if state.is_over or state.chance or state.turn is None or steps == MAX_SOLVER_MOVES:
                break
            if state.turn == solver:  # the opponent had to pass: the solver goes on
                continue
            if len(state.legal_moves()) == 1:
                reply = state.legal_moves()[0]
            else:
                reply, _ = ai.analyse_position(state, budget_s=self.budgets.check, game_ai=self.game_ai)
            line.append(reply)
            state.play(reply)
        while line and isinstance(line[-1], str):
            line.pop()
        return line

    def mine(
        self, game: str, engine: str, options: dict[str, Any], moves: list[str], limit: int = MAX_PER_RECORD
    ) -> list[Puzzle]:
        """The puzzles of one record: candidates by the scan, then solved; none inside an earlier solution."""
        start = position(engine, options, [])
        scanned = self.scan(start, moves)
        puzzles: list[Puzzle] = []
        covered_until = -1
        previous: dict[int, float] = {}  # player -> their value at their last choice
        last_player: int | None = None
        state = start.copy()
        ply = 0
        for at, value in scanned:
            while ply < at:
                state.play(moves[ply])
                ply += 1
            player = state.turn
            assert player is not None
            # What the solver had before the last move: their own value then, or the opponent's value negated.
            if last_player is None:
                before = 0.0
            elif last_player == player:
                before = previous[player]
            else:
                before = -previous[last_player]
            previous[player], last_player = value, player
            swing = value - before
            if at <= covered_until or value < CANDIDATE:
                continue
            if swing < SWING and not self.stands_out(state):
                continue
            line = self.solve(state)
            if not line:
                continue
            steps = tuple(item for item in line if isinstance(item, Step))
            solution = tuple(item.move if isinstance(item, Step) else item for item in line)
            puzzles.append(Puzzle(game, dict(options), tuple(moves[:at]), player, solution, steps, swing))
            covered_until = at + len(solution)
            if len(puzzles) >= limit:
                break
        return puzzles


def mine_record(
    game: str, engine: str, game_ai: str, options: dict[str, Any], moves: list[str], budgets: Budgets
) -> list[dict[str, Any]]:
    """Runs in a worker process: the puzzles of one record, as data (``Puzzle.to_dict``)."""
    return [puzzle.to_dict() for puzzle in Miner(game_ai, budgets).mine(game, engine, options, moves)]


def weakest_margin(best: str, values: dict[str, float]) -> Step:
    """``best`` against the strongest of the other valued moves."""
    rival = max((m for m in values if m != best), key=lambda m: values[m])
    return Step(best, values[best], rival, values[rival])


def verify(
    puzzle: Puzzle, engine: str, game_ai: str, budget: float, deep: float
) -> list[tuple[str, float, str, float]]:
    """Each solver's turn searched again: every legal move with ``budget``, then the solution's move and the
    closest rivals with ``deep``; per step, (the solution's move, its value, the rival with the smallest margin,
    its value). A test checks the margins still hold."""
    state = position(engine, puzzle.options, puzzle.moves)
    found = []
    for index, move in enumerate(puzzle.solution):
        if index % 2 == 0:
            solver = state.turn
            assert solver is not None
            values = {m: value_of(_after(state, m), solver, budget, game_ai) for m in state.legal_moves()}
            finalists = [move, *sorted((m for m in values if m != move), key=lambda m: -values[m])[:FINALISTS]]
            deeper = {m: value_of(_after(state, m), solver, deep, game_ai) for m in finalists}
            step = min(weakest_margin(move, values), weakest_margin(move, deeper), key=lambda s: s.margin)
            found.append((move, step.value, step.rival or "", step.rival_value))
        state.play(move)
    return found


def judge_move(
    engine: str, game_ai: str, options: dict[str, Any], moves: list[str], solver: int, budget: float
) -> tuple[float, str | None]:
    """Runs in a worker process: after a move of the solver's (the last of ``moves``), the solver's value and the
    opponent's best answer (None when the opponent does not choose next: a die, a pass, the game's end)."""
    state = position(engine, options, moves)
    if state.is_over or state.chance or state.turn is None or state.turn == solver or len(state.legal_moves()) < 2:
        return value_of(state, solver, budget, game_ai), None
    reply, value = ai.analyse_position(state, budget_s=budget, game_ai=game_ai)
    return -value, reply


def value_of(state: GameState, player: int, budget: float, game_ai: str) -> float:
    """``ai.evaluate`` of ``state`` for ``player``, except that a move nobody chooses (the only legal one, a pass
    say) is played rather than searched, at a chance point as at a player's turn."""
    if state.is_over:
        winner = state.result().winner
        return 0.0 if winner is None else (1.0 if winner == player else -1.0)
    legal = state.legal_moves()
    if state.chance or state.turn is None:
        return sum(value_of(_after(state, move), player, budget / len(legal), game_ai) for move in legal) / len(legal)
    if len(legal) == 1:
        return value_of(_after(state, legal[0]), player, budget, game_ai)
    _, value = ai.analyse_position(state, budget_s=budget, game_ai=game_ai)
    return value if state.turn == player else -value


def _after(state: GameState, move: str) -> GameState:
    after = state.copy()
    after.play(move)
    return after
