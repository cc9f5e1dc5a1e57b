"""Mining the server's finished games for puzzles, in the background, and storing puzzles (mined here or shipped).

A round claims one finished game that nobody mined (``puzzle_mining``, under a lease: two processes never mine
the same game), mines its record in a worker process of its own (:func:`puzzles.mining.mine_record`, at a lower
CPU priority than the bot's moves, so a long mining search never delays a game), and stores what it found with
the mark "mined" in one transaction. The shipped set (``puzzles.shipped``: hundreds of proven puzzles per game,
docs/puzzles.md) is stored at start-up for every registered game, once (a position is stored once: its key), each
with its starting rating and its themes.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import os
import socket
import uuid
from collections.abc import Iterable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

import games
from puzzles import shipped
from puzzles.mining import Budgets, Puzzle, mine_record
from sessions.events import GameFinished
from sessions.model import Game
from sessions.model.ratings import START_MU, START_SIGMA
from sessions.table import Table
from sessions.workers import follow_parent, worker_pool
from storage.database import PuzzleMiningRepository

log = logging.getLogger(__name__)

LEASE = 30 * 60.0  # seconds a claimed game is one miner's (a long record at full budgets takes minutes)
MIN_PLY = 8  # shorter records (a resignation at the start) hold no puzzle worth the search
MINING_NICE = 10  # the mining worker's CPU priority below the bot's own (os.nice)


def position_key(puzzle: Puzzle) -> str:
    """One key per position: the game, its options and the record up to the puzzle."""
    text = json.dumps([puzzle.game, puzzle.options, list(puzzle.moves)], sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def puzzle_row(puzzle: Puzzle, *, guild_id: int | None, game_id: int | None, seed: int | None) -> dict[str, Any]:
    """The ``puzzles`` columns of a mined puzzle: it starts at the members' starting rating."""
    return {
        "game": puzzle.game,
        "position_key": position_key(puzzle),
        "guild_id": guild_id,
        "source_game_id": game_id,
        "seed": seed,
        "ply": puzzle.ply,
        "options": puzzle.options,
        "moves": list(puzzle.moves),
        "solver": puzzle.solver,
        "solution": list(puzzle.solution),
        "steps": [[s.move, s.value, s.rival, s.rival_value] for s in puzzle.steps],
        "margin": puzzle.margin,
        "mu": START_MU,
        "sigma": START_SIGMA,
    }


def shipped_row(puzzle: shipped.ShippedPuzzle) -> dict[str, Any]:
    """The ``puzzles`` columns of a shipped puzzle: offered everywhere, starting at its shipped rating, with its
    themes."""
    return {
        "game": puzzle.game,
        "position_key": puzzle.position_key,
        "guild_id": None,
        "source_game_id": None,
        "seed": puzzle.source.get("seed"),
        "ply": puzzle.ply,
        "options": puzzle.options,
        "moves": list(puzzle.moves),
        "solver": puzzle.solver,
        "solution": list(puzzle.solution),
        "steps": [list(step) for step in puzzle.steps],
        "margin": puzzle.margin,
        "mu": float(puzzle.rating),
        "sigma": START_SIGMA,
        "themes": list(puzzle.themes),
    }


def shipped_rows() -> list[dict[str, Any]]:
    """The shipped set of every registered game, as rows (a game with no shipped file has none)."""
    return [shipped_row(puzzle) for name in games.names() for puzzle in shipped.load(name)]


def start_miner() -> None:
    """Runs once in the mining worker: it follows the bot out, and yields the CPU to the bot's own work."""
    follow_parent()
    os.nice(MINING_NICE)


class PuzzleMining:
    """Mining finished games in a worker process of its own, one game at a time."""

    def __init__(self, table: Table, mining: PuzzleMiningRepository, budgets: Budgets) -> None:
        self._table = table
        self._mining = mining
        self.budgets = budgets
        self.worker = f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"
        self._pool: ProcessPoolExecutor | None = None
        self._following = False  # mining what a finished game published, one server's games at a time

    async def store(self, found: Iterable[Puzzle], *, guild_id: int | None = None, game_id: int | None = None) -> int:
        """Store puzzles (self-play ones when no server is named); returns how many were new."""
        rows = [
            puzzle_row(p, guild_id=guild_id, game_id=game_id, seed=p.source.get("seed") if guild_id is None else None)
            for p in found
        ]
        return await self._mining.insert_puzzles(rows, self._table.clock()) if rows else 0

    async def load_shipped(self) -> int:
        """Store every registered game's shipped puzzles not stored yet (and refresh the themes, and the rating of
        the untried, of those stored); returns how many were new."""
        rows = await asyncio.to_thread(shipped_rows)
        if not rows:
            return 0
        new, changed = await self._mining.store_shipped(rows, self._table.clock())
        log.info("Shipped puzzles: %d stored, %d new, %d refreshed", len(rows), new, changed)
        return new

    async def follow_finish(self, event: GameFinished) -> None:
        """Follows a finished game: its server's finished games are mined now, one at a time in the niced
        worker, rather than at the miner's next round (a round already under way takes them instead)."""
        if self._following:
            return
        self._following = True
        try:
            while await self.mine_next([event.report.game.guild_id]) is not None:
                pass
        finally:
            self._following = False

    async def mine_next(self, guild_ids: list[int] | None = None) -> int | None:
        """Mine one finished game (of these servers, when given): how many new puzzles it gave, None when no game
        was waiting."""
        now = self._table.clock()
        row = await self._mining.claim_game_to_mine(self.worker, now, LEASE, MIN_PLY, guild_ids)
        if row is None:
            return None
        found: list[Puzzle] = []
        try:
            entry = games.find(row.game)
        except KeyError:  # a game no longer registered: nothing to mine, but not again either
            entry = None
        if entry is not None and entry.ai is not None:
            moves = await self._table.moves(row.id)
            replayed = self._table.replay(Game.of(row), moves).moves  # takebacks undone: the moves in force
            engine = entry.engine.__name__  # type: ignore[attr-defined]
            data = await self._run(mine_record, entry.name, engine, entry.ai, row.options, replayed, self.budgets)
            found = [Puzzle.from_dict(item) for item in data]
        rows = [puzzle_row(p, guild_id=row.guild_id, game_id=row.id, seed=None) for p in found]
        new = await self._mining.finish_mining(row.id, self.worker, rows, self._table.clock())
        log.info("Mined game %s: %d puzzles (%s new)", row.id, len(found), new)
        return new or 0

    async def _run(self, job: Any, *args: Any) -> Any:
        if self._pool is None:
            self._pool = await asyncio.to_thread(worker_pool, 1, start_miner)
        pool = self._pool
        try:
            return await asyncio.wrap_future(await asyncio.to_thread(pool.submit, job, *args))
        except BrokenProcessPool:  # the worker died: a new one next round, this game again once its lease lapses
            pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
            raise

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
