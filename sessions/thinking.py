"""The computer player's searches, run in worker processes so the event loop never waits on the AI.

A worker gets import paths and data, not objects (as the drawing pool's do): the engine module and the game's AI
module (``GameEntry.ai``), the options and the move log. It rebuilds the game and asks ``ai.choose_move`` with
that AI, so it needs no registry: a game registered at run time thinks there too. At most one search runs per
core at a time; the pool is made on first use. When searches queue for the workers, each thinks less so the
bot still answers in time (``sessions/pace.py``), and says so.
"""

from __future__ import annotations

import asyncio
import importlib
import logging
import os
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any

import ai
from engines import GameState
from games import GameEntry
from sessions.pace import Pace
from sessions.workers import worker_pool

log = logging.getLogger(__name__)

DEFAULT_LEVEL = 2
HINT_LEVEL = 4  # a hint is the strongest search, so the suggestion is worth following
HINT_SECONDS = 1.0  # a little shorter than level 4's own time: a member waits for it
CUT_SHARE = 0.9  # a search that used this much of a busy pool's shortened budget was cut short by it
SEARCH_ATTEMPTS = 3  # a search whose worker died is run again at once, on new workers, this many times in all


class ThinkingFailed(RuntimeError):
    """Every attempt at a search lost its worker process (killed, out of memory): nothing was decided."""


def _position(engine: str, options: dict[str, Any], moves: list[str]) -> GameState:
    state: GameState = importlib.import_module(engine).new_game(**options)
    for move in moves:
        state.play(move)
    return state


def search(
    engine: str,
    game_ai: str,
    options: dict[str, Any],
    moves: list[str],
    level: int,
    seed: int | None,
    budget: float | None,
) -> str:
    """Runs in a worker process: the move ``level`` plays in that position (``budget``: seconds instead of the
    level's own time)."""
    return ai.choose_move(_position(engine, options, moves), level, seed=seed, budget_s=budget, game_ai=game_ai)


def search_timed(
    engine: str,
    game_ai: str,
    options: dict[str, Any],
    moves: list[str],
    level: int,
    seed: int | None,
    budget: float | None,
) -> tuple[str, float]:
    """``search``, and the seconds it took in the worker."""
    started = time.perf_counter()
    move = search(engine, game_ai, options, moves, level, seed, budget)
    return move, time.perf_counter() - started


def judge(
    engine: str, game_ai: str, options: dict[str, Any], moves: list[str], budget: float, side: int | None = None
) -> list[tuple[int, str, str, float]]:
    """Runs in a worker process: for each move of ``side`` (None: of either side), (ply, move played, the
    level-4 search's best move there, how much the move lost by its own side's value, in [0, 2]). Values after a
    move are averaged over the dice where a die comes next. ``budget`` is the whole game's: each search gets an
    equal share of what is left, so the time a search overran is taken from the later ones."""
    state = _position(engine, options, [])
    judged: set[int] = set()
    for ply, move in enumerate(moves, start=1):
        if not state.chance and state.to_act is not None and side in (None, state.to_act):
            judged.add(ply)
        state.play(move)
    end = time.perf_counter() + budget
    searches = 2 * len(judged)
    state = _position(engine, options, [])
    found: list[tuple[int, str, str, float]] = []
    for ply, move in enumerate(moves, start=1):
        mover = state.to_act
        if ply not in judged or mover is None:
            state.play(move)
            continue
        best, before = ai.analyse_position(state, budget_s=_share(end, searches), game_ai=game_ai)
        state.play(move)
        after = ai.evaluate(state, mover, budget_s=_share(end, searches - 1), game_ai=game_ai)
        searches -= 2
        found.append((ply, move, best, max(0.0, before - after)))
    return found


def _share(end: float, searches: int) -> float:
    """An equal share of the time left for each search still to run (a floor keeps every search a search)."""
    return max(0.01, (end - time.perf_counter()) / max(1, searches))


@dataclass(frozen=True)
class Thought:
    move: str
    cut_short: bool  # the pool was busy and the search used up the shorter time it had: it thought less than usual


def _paths(entry: GameEntry) -> tuple[str, str]:
    if entry.ai is None:
        raise ValueError(f"{entry.name} has no computer player.")
    return entry.engine.__name__, entry.ai  # type: ignore[attr-defined]


class Thinker:
    """A process pool sized to the machine, for searches and analyses."""

    def __init__(self, workers: int | None = None, budget: float | None = None) -> None:
        self.workers = workers or os.cpu_count() or 1
        self.budget = budget  # seconds a move may think, for every level; None: each level's own time
        self._pool: ProcessPoolExecutor | None = None
        self.pace = Pace(self.workers)

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            self._pool = worker_pool(self.workers)
        return self._pool

    async def think(
        self,
        entry: GameEntry,
        options: dict[str, Any],
        moves: list[str],
        level: int,
        seed: int | None,
        budget: float | None = None,
    ) -> Thought:
        """The move ``level`` plays there (``budget``: seconds instead of the level's own), thinking less when
        searches queue for the workers (``sessions/pace.py``)."""
        usual = min((b for b in (budget, self.budget) if b is not None), default=None)
        booking = self.pace.book(usual)
        try:
            move, seconds = await self._run(search_timed, *_paths(entry), options, moves, level, seed, booking.budget)
        finally:
            self.pace.done(booking)
        shortened = booking.budget is not None and (usual is None or booking.budget < usual)
        return Thought(move, shortened and seconds >= CUT_SHARE * booking.budget)  # type: ignore[operator]

    async def move(
        self,
        entry: GameEntry,
        options: dict[str, Any],
        moves: list[str],
        level: int,
        seed: int | None,
        budget: float | None = None,
    ) -> str:
        return (await self.think(entry, options, moves, level, seed, budget)).move

    async def analysis(
        self, entry: GameEntry, options: dict[str, Any], moves: list[str], budget: float, side: int | None = None
    ) -> list[tuple[int, str, str, float]]:
        """The moves of ``side`` judged by the level-4 search within ``budget`` seconds for the whole game."""
        booking = self.pace.book(budget, deadline=None)
        try:
            return await self._run(judge, *_paths(entry), options, moves, budget, side)  # type: ignore[no-any-return]
        finally:
            self.pace.done(booking)

    async def run(self, job: Callable[..., Any], *args: Any) -> Any:
        """Any job of the AI's (a module-level function, its arguments data) in the pool: a puzzle's search. It
        takes its place in the schedule (booked for a level 4's time, corrected when it ends)."""
        booking = self.pace.book(None, deadline=None)
        try:
            return await self._run(job, *args)
        finally:
            self.pace.done(booking)

    async def _run(self, job: Callable[..., Any], *args: Any) -> Any:
        for attempt in range(1, SEARCH_ATTEMPTS + 1):
            pool = self._executor()
            try:
                return await self._submit(pool, job, *args)
            except BrokenProcessPool:  # a worker was killed (out of memory, by hand): new workers, and the job again
                if self._pool is pool:
                    pool.shutdown(wait=False, cancel_futures=True)
                    self._pool = None
                log.warning("A search worker died (attempt %d of %d)", attempt, SEARCH_ATTEMPTS)
        raise ThinkingFailed(f"the search lost its worker {SEARCH_ATTEMPTS} times")

    @staticmethod
    async def _submit(pool: ProcessPoolExecutor, job: Callable[..., Any], *args: Any) -> Any:
        # Submitting starts the pool's processes (on first use, and after one died), which waits for the fork
        # server: done in a thread, never on the event loop.
        return await asyncio.wrap_future(await asyncio.to_thread(pool.submit, job, *args))

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
