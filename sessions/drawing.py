"""Board images drawn in worker processes, so that drawing never holds the bot process's GIL.

Drawn in a thread, a board (about 6 ms, much of it Python and Pillow code that holds the GIL) kept the event loop
waiting for the GIL: replies, the gateway and the database's results all queued behind the drawing, and one
process topped out near 90 actions a second on two cores (docs/performance.md). A worker gets the position as
its ``to_dict`` (a few hundred bytes; a pickled state can be half a megabyte) and the import paths of the
engine and the renderer, so it needs no registry: the games a test registers at run time draw there too.

``workers=0`` draws in threads of the bot process instead (the tests' default: no processes to start per bot).
"""

from __future__ import annotations

import asyncio
import importlib
import logging
import os
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

import games
from engines import GameState
from render.animation import animated_gif
from sessions.board_descriptions import alt_text, renderer_alt_text
from sessions.worker_pipes import PipeWorkers, WorkerDied
from sessions.workers import follow_parent

log = logging.getLogger(__name__)
T = TypeVar("T")


def draw(
    engine: str,
    renderer: str,
    position: dict[str, Any],
    names: tuple[str, str],
    language: str,
    marks: Mapping[str, Any] | None = None,
) -> bytes:
    """Runs in a worker: the PNG of ``position``, its words in ``language``, with ``marks`` (docs/boards.md)."""
    state = importlib.import_module(engine).from_dict(position)
    return games.render_with(renderer, state, names, language, **(marks or {}))


def draw_described(
    engine: str,
    renderer: str,
    position: dict[str, Any],
    names: tuple[str, str],
    language: str,
    marks: Mapping[str, Any] | None,
    reader: str,
) -> tuple[bytes, str | None]:
    """Runs in a worker: :func:`draw`, and the board's description for a screen reader in ``reader``'s language
    (None when the renderer has no words: the caller writes the generic ones). One job for both: the words of a
    19x19 board take a few milliseconds, and a thread of the bot's process would hold its GIL for them."""
    state = importlib.import_module(engine).from_dict(position)
    png = games.render_with(renderer, state, names, language, **(marks or {}))
    return png, renderer_alt_text(renderer, state, names, reader)


def start_worker() -> None:
    """Runs once in each worker as it starts: it follows the bot out, and draws every game once."""
    follow_parent()
    warm()


def warm() -> None:
    """Every game's cached layers drawn, before its first board."""
    for entry in games.entries():
        entry.render(entry.new_game(), ("", ""))


def frame_labels(states: list[GameState]) -> list[str]:
    """Each frame's footer: the moves it shows out of the last frame's, counted as the boards' headers count them
    (a frame under "24/53" reads "Move 25" to play)."""
    return [f"{len(state.moves)}/{len(states[-1].moves)}" for state in states]


def _picture_here(
    entry: games.GameEntry,
    state: GameState,
    names: tuple[str, str],
    language: str,
    marks: Mapping[str, Any] | None,
    reader: str,
) -> tuple[bytes, str]:
    """:meth:`Drawer.picture` in a thread of this process (no workers, or none ready). Safe off the loop: every
    state handed out by the service is a copy the cache never mutates."""
    return entry.render(state, names, language, **(marks or {})), alt_text(entry, state, names, reader)


class Drawer:
    """A pool of ``workers`` drawing processes (from the fork server, as the AI's: a worker forked from the bot
    would inherit its sockets).

    Starting a worker blocks until the fork server has imported the bot's modules (a few hundred ms, once), so the
    pool is started in a thread, never on the event loop; until it is ready (at start-up, after a worker died)
    boards are drawn in threads of this process."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        # Drawing holds the GIL most of the time: more renders at once than cores only queue up in threads.
        self._slots = asyncio.Semaphore(os.cpu_count() or 1)
        self._pool: PipeWorkers | None = None
        self._starting: asyncio.Future[None] | None = None
        self._closed = False

    async def warm_up(self) -> None:
        """Every game drawn once before the first move: by each worker as it starts (started now, not at the first
        move), or in a thread of this process when there are no workers."""
        if not self.workers:
            await asyncio.to_thread(warm)
            return
        self._start_soon()
        assert self._starting is not None
        await asyncio.shield(self._starting)

    def _start_soon(self) -> None:
        if self._pool is None and not self._closed and (self._starting is None or self._starting.done()):
            self._starting = asyncio.ensure_future(self._start_pool())

    async def _start_pool(self) -> None:
        try:
            pool = await asyncio.to_thread(self._started_pool)
            await pool.attach()
        except WorkerDied:
            log.warning("The drawing workers failed to start; boards are drawn in threads until a worker starts")
            return
        if self._closed:
            pool.close()
        else:
            self._pool = pool

    def _started_pool(self) -> PipeWorkers:
        """Runs in a thread: workers that have started and drawn every game once."""
        pool = PipeWorkers(self.workers, initializer=start_worker)
        pool.start()
        return pool

    async def draw(
        self,
        entry: games.GameEntry,
        state: GameState,
        names: tuple[str, str],
        language: str = "en",
        marks: Mapping[str, Any] | None = None,
    ) -> bytes:
        """The board as PNG, its words in ``language``, drawn in a worker process (or a thread) so the event loop
        never waits on Pillow; ``marks`` are the renderer's keywords (highlight=, suggestion=, played=)."""
        async with self._slots:
            return await self._draw(entry, state, names, language, marks)

    async def picture(
        self,
        entry: games.GameEntry,
        state: GameState,
        names: tuple[str, str],
        language: str = "en",
        marks: Mapping[str, Any] | None = None,
        reader: str | None = None,
    ) -> tuple[bytes, str]:
        """:meth:`draw`, and the board's description for a screen reader in ``reader``'s language (by default the
        drawing's), in the same worker job: one hop out of the event loop for both."""
        reader = reader or language
        async with self._slots:  # as for draw(): never more boards at once than cores
            pool = self._pool
            if pool is not None:
                job = (draw_described, entry.engine.__name__, entry.renderer, state.to_dict(), names, language, marks)
                try:
                    png, described = await pool.run(*job, reader)
                except WorkerDied:
                    self._broken(pool)
                else:
                    if described is None:  # a renderer without words: the generic ones, which need the entry
                        described = await asyncio.to_thread(alt_text, entry, state, names, reader)
                    return png, described
            elif self.workers:
                self._start_soon()
            return await asyncio.to_thread(_picture_here, entry, state, names, language, marks, reader)

    def _broken(self, pool: PipeWorkers) -> None:
        """A worker died (killed, out of memory): new workers; the board at hand is drawn in a thread."""
        log.warning("A drawing worker died; starting new ones")
        if self._pool is pool:
            pool.close()
            self._pool = None
        self._start_soon()

    async def animation(
        self, entry: games.GameEntry, states: list[GameState], names: tuple[str, str], language: str = "en"
    ) -> bytes:
        """The positions as a looping GIF, a frame each, labelled with their ply."""
        boards = [await self.draw(entry, state, names, language) for state in states]
        labels = frame_labels(states)
        return await asyncio.to_thread(animated_gif, boards, labels)

    async def _draw(
        self,
        entry: games.GameEntry,
        state: GameState,
        names: tuple[str, str],
        language: str,
        marks: Mapping[str, Any] | None = None,
    ) -> bytes:
        pool = self._pool
        if pool is None:  # no workers wanted, or not ready yet
            if self.workers:
                self._start_soon()
            # Safe off the loop: every state handed out by the service is a copy the cache never mutates.
            return await asyncio.to_thread(entry.render, state, names, language, **(marks or {}))
        job = (draw, entry.engine.__name__, entry.renderer, state.to_dict(), names, language, marks)
        try:
            return await pool.run(*job)
        except WorkerDied:  # a worker died (killed, out of memory): new workers, and this board in a thread
            self._broken(pool)
            return await asyncio.to_thread(entry.render, state, names, language, **(marks or {}))

    async def run(self, function: Callable[..., T], *args: Any) -> T:
        """Other work that would hold the event loop (a tournament's standings picture, its Swiss pairing):
        ``function`` (a module's top-level function, so a worker can find it) called with ``args`` in a drawing
        process, or in a thread until one is ready (or with no workers)."""
        async with self._slots:
            pool = self._pool
            if pool is None:
                if self.workers:
                    self._start_soon()
                return await asyncio.to_thread(function, *args)
            try:
                return await pool.run(function, *args)
            except WorkerDied:
                self._broken(pool)
                return await asyncio.to_thread(function, *args)

    def close(self) -> None:
        self._closed = True
        if self._pool is not None:
            self._pool.close()
            self._pool = None
