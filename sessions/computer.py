"""The bot's own moves, searched in worker processes so the event loop never waits on the AI.

A worker rebuilds the game from its options and move log (picklable data, not engine objects) and asks
``ai.choose_move``. At most one search runs per core at a time; the pool is made on first use.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

import games
from sessions.workers import worker_pool

DEFAULT_LEVEL = 2
HINT_LEVEL = 3  # "the level-3 suggestion": strong enough to teach, quick enough to ask for often


def search(
    game: str, options: dict[str, Any], moves: list[str], level: int, seed: int | None, budget: float | None
) -> str:
    """Runs in a worker process: the move ``level`` plays in that position (``budget``: seconds instead of the
    level's own time)."""
    import ai  # imported in the worker only: the bot process never pays for it

    state = games.find(game).new_game(**options)
    for move in moves:
        state.play(move)
    return ai.choose_move(state, level, seed=seed, budget_s=budget)


def judge(game: str, options: dict[str, Any], moves: list[str], budget: float) -> list[tuple[int, str, str, float]]:
    """Runs in a worker process: for each member's move of a game, (ply, move played, the level-4 search's best
    move there, how much the move lost by its own side's value, in [0, 2]). Values after a move are averaged
    over the dice where a die comes next."""
    import ai

    state = games.find(game).new_game(**options)
    found: list[tuple[int, str, str, float]] = []
    for ply, move in enumerate(moves, start=1):
        mover = state.to_act
        if state.chance or mover is None:
            state.play(move)
            continue
        best, before = ai.analyse_position(state, budget_s=budget)
        state.play(move)
        after = ai.evaluate(state, mover, budget_s=budget)
        found.append((ply, move, best, max(0.0, before - after)))
    return found


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

    async def move(self, game: str, options: dict[str, Any], moves: list[str], level: int, seed: int | None) -> str:
        return await self._run(search, game, options, moves, level, seed, self.budget)  # type: ignore[no-any-return]

    async def analysis(
        self, game: str, options: dict[str, Any], moves: list[str], budget: float
    ) -> list[tuple[int, str, str, float]]:
        return await self._run(judge, game, options, moves, budget)  # type: ignore[no-any-return]

    async def _run(self, job: Callable[..., Any], *args: Any) -> Any:
        pool = self._executor()
        try:
            return await self._submit(pool, job, *args)
        except BrokenProcessPool:  # a worker was killed (out of memory, by hand): new workers, and the job again
            if self._pool is pool:
                pool.shutdown(wait=False, cancel_futures=True)
                self._pool = None
            return await self._submit(self._executor(), job, *args)

    @staticmethod
    async def _submit(pool: ProcessPoolExecutor, job: Callable[..., Any], *args: Any) -> Any:
        # Submitting starts the pool's processes (on first use, and after one died), which waits for the fork
        # server: done in a thread, never on the event loop.
        return await asyncio.wrap_future(await asyncio.to_thread(pool.submit, job, *args))

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
