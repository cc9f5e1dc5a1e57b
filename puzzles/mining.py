"""Puzzles from game records, by lichess-puzzler's method adapted to games scored by points.

lichess-puzzler walks a game whose positions carry an engine evaluation, stops where the side to move has just
been handed a winning position (the opponent blundered), and "cooks" a solution from there: at each of the
solver's turns the engine's best move must be the only one that keeps the win (its winning chances exceed the
second-best move's by a margin), the opponent answers with the engine's best reply, and the line ends where the
solver no longer has an only move. Here values are the AI's, -1..+1 for the player to act (``ai.evaluate``), the
same scale as lichess's winning chances, so the same thresholds read naturally:

- **candidate**: the player to act is winning (value >= ``WINNING``) and the last move (the opponent's, or in
  a game with dice, the die just rolled) gave them at least ``SWING`` (measured by a quick scan of the whole record);
- **the solver's move**: the strongest search given ten times its normal time (``Budgets.deep``) names it, and
  every other move is clearly worse: its value, searched with ``Budgets.check`` each, is at least ``MARGIN``
  below the named move's (where there are many moves, all are glanced at with the least search and the closest
  rivals searched fully); the named move keeps the solver at ``WINNING`` or above;
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

WINNING = 0.5  # the solver's value (-1..+1) that counts as winning
SWING = 0.5  # how much the last move must have given the solver, in value
MARGIN = 0.5  # the only move is better than every other move by at least this much
MAX_SOLVER_MOVES = 3
RIVALS = 3  # where not every move is searched fully, the closest rivals by a glance that are
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

    def only_move(self, state: GameState) -> Step | None:
        """The solver's only move here, or None when there is none (see the module's rules)."""
        legal = state.legal_moves()
        solver = state.turn
        assert solver is not None
        if len(legal) < 2:
            return None
        best, deep_value = ai.analyse_position(state, budget_s=self.budgets.deep, game_ai=self.game_ai)
        if deep_value < WINNING:
            return None
        check = self.budgets.check
        if len(legal) * check <= self.budgets.full_check:
            contenders = legal
        else:
            glanced = {m: self.value_after(state, m, solver, self.budgets.glance) for m in legal if m != best}
            contenders = [best, *sorted(glanced, key=lambda m: -glanced[m])[:RIVALS]]
        values = {m: self.value_after(state, m, solver, check) for m in contenders}
        rival = max((m for m in values if m != best), key=lambda m: values[m])
        step = Step(best, values[best], rival, values[rival])
        if step.value < WINNING or step.margin < MARGIN:
            return None
        return step

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
            if at <= covered_until or value < WINNING or swing < SWING:
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


def verify(puzzle: Puzzle, engine: str, game_ai: str, budget: float) -> list[tuple[str, float, str, float]]:
    """Every move of each solver's turn valued with ``budget`` (a deeper search than mining's): per step, (the
    solution's move, its value, the best other move, its value). A test checks the margins still hold."""
    state = position(engine, puzzle.options, puzzle.moves)
    found = []
    for index, move in enumerate(puzzle.solution):
        if index % 2 == 0:
            solver = state.turn
            assert solver is not None
            values = {m: value_of(_after(state, m), solver, budget, game_ai) for m in state.legal_moves()}
            rival = max((m for m in values if m != move), key=lambda m: values[m])
            found.append((move, values[move], rival, values[rival]))
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
