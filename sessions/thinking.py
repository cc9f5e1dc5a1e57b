"""The computer player's searches, run in worker processes so the event loop never waits on the AI.

A worker gets import paths and data, not objects (as the drawing pool's do): the engine module and the game's AI
module (``GameEntry.ai``), the options and the move log. It rebuilds the game and asks ``ai.choose_move`` with
that AI, so it needs no registry: a game registered at run time thinks there too. At most one search runs per
core at a time; the pool is made on first use.
"""

from __future__ import annotations

import asyncio
import importlib
import logging
import os
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

import ai
from engines import GameState
from games import GameEntry
from sessions.workers import worker_pool

log = logging.getLogger(__name__)

DEFAULT_LEVEL = 2
HINT_LEVEL = 3  # "the level-3 suggestion": strong enough to teach, quick enough to ask for often
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


def judge(
    engine: str, game_ai: str, options: dict[str, Any], moves: list[str], budget: float
) -> list[tuple[int, str, str, float]]:
    """Runs in a worker process: for each member's move of a game, (ply, move played, the level-4 search's best
    move there, how much the move lost by its own side's value, in [0, 2]). Values after a move are averaged
    over the dice where a die comes next."""
    state = _position(engine, options, [])
    found: list[tuple[int, str, str, float]] = []
    for ply, move in enumerate(moves, start=1):
        mover = state.to_act
        if state.chance or mover is None:
            state.play(move)
            continue
        best, before = ai.analyse_position(state, budget_s=budget, game_ai=game_ai)
        state.play(move)
        after = ai.evaluate(state, mover, budget_s=budget, game_ai=game_ai)
        found.append((ply, move, best, max(0.0, before - after)))
    return found


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

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            self._pool = worker_pool(self.workers)
        return self._pool

    async def move(
        self, entry: GameEntry, options: dict[str, Any], moves: list[str], level: int, seed: int | None
    ) -> str:
        return await self._run(search, *_paths(entry), options, moves, level, seed, self.budget)  # type: ignore[no-any-return]

    async def analysis(
        self, entry: GameEntry, options: dict[str, Any], moves: list[str], budget: float
    ) -> list[tuple[int, str, str, float]]:
        return await self._run(judge, *_paths(entry), options, moves, budget)  # type: ignore[no-any-return]

    async def run(self, job: Callable[..., Any], *args: Any) -> Any:
        """Any job of the AI's (a module-level function, its arguments data) in the pool: a puzzle's search."""
        return await self._run(job, *args)

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
