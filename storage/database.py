"""Storage on SQLAlchemy 2 Core, one code path for SQLite and PostgreSQL: the :class:`Database` and its
repositories, one per part of the session service.

No game logic lives here. Every query is a plain function over a SQLAlchemy ``Connection`` (a transaction's
body), and every transaction is one call through the :class:`storage.engine.Runner`: a hop to SQLite's own
thread, or ``run_sync`` on asyncpg. Writes are ``BEGIN IMMEDIATE`` on SQLite (the file's write lock serialises
writers across processes; one writer thread queues this process's own), a plain transaction with row locks where
needed on PostgreSQL. See docs/storage.md for the schema, the migrations, the outbox and the locking.

:class:`Database` opens and closes the database, and tracks its outages; what is read and written is its
repositories' (``db.games``, ``db.outbox``, ...), each a plain class over the one :class:`storage.store.Store`
they share. This module is storage's front door: it names the repositories and the rows they hand out.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from sqlalchemy.engine import URL
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from storage.admin import AdminRepository, AuditRow, Forgotten
from storage.challenges import ChallengeRepository
from storage.daily_puzzles import DailyPuzzleRepository
from storage.engine import Body, T, database_url, make_engine, make_runner
from storage.faults import DatabaseUnavailable, OutageTracker, as_unavailable
from storage.games import GameRepository
from storage.lessons import LessonRepository, ProgressRow
from storage.migrate import upgrade_url
from storage.outbox import Announce, AnnouncementRow, OutboxRepository, Supersede
from storage.puzzle_mining import PuzzleMiningRepository
from storage.puzzles import PuzzleRepository
from storage.ratings import RatingRepository
from storage.rows import (
    DuplicateChallenge,
    DuplicateRematch,
    GameRow,
    NewRating,
    RatingRow,
    RecordRow,
    Settlement,
    StalePly,
    Written,
)
from storage.seasons import SeasonRepository
from storage.store import Store
from storage.tournaments import TournamentRepository

__all__ = [
    "AdminRepository",
    "Announce",
    "AnnouncementRow",
    "AuditRow",
    "ChallengeRepository",
    "DailyPuzzleRepository",
    "Database",
    "DatabaseUnavailable",
    "DuplicateChallenge",
    "DuplicateRematch",
    "Forgotten",
    "GameRepository",
    "GameRow",
    "LessonRepository",
    "NewRating",
    "OutboxRepository",
    "ProgressRow",
    "PuzzleMiningRepository",
    "PuzzleRepository",
    "RatingRepository",
    "RatingRow",
    "RecordRow",
    "SeasonRepository",
    "Settlement",
    "StalePly",
    "Supersede",
    "TournamentRepository",
    "Written",
]


class Database:
    """An open database: its engine, its runner (one call per transaction), its outage tracker, and a repository
    per part of the session service, each handed only to the parts that use it (sessions/service.py)."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine
        self.dialect = engine.dialect.name
        self._writer = engine.execution_options(sqlite_immediate=True)
        # For transaction() only (ad-hoc access): SQLite has one writer at a time, so queue them here rather than
        # on busy_timeout. The queries' own writes are queued by the runner's writer thread.
        self._write_lock = asyncio.Lock() if self.dialect == "sqlite" else None
        self._runner = make_runner(engine.url, engine)
        # Every call is reported here: one log line when the database becomes unavailable, one when it is back.
        self.outage = OutageTracker()
        self._store = store = Store(self._runner, self.dialect, self.outage)
        self.games = GameRepository(store)
        self.challenges = ChallengeRepository(store)
        self.ratings = RatingRepository(store)
        self.outbox = OutboxRepository(store)
        self.tournaments = TournamentRepository(store)
        self.seasons = SeasonRepository(store)
        self.puzzles = PuzzleRepository(store)
        self.puzzle_mining = PuzzleMiningRepository(store)
        self.daily_puzzles = DailyPuzzleRepository(store)
        self.lessons = LessonRepository(store)
        self.admin = AdminRepository(store)

    @classmethod
    async def open(cls, target: str | Path | URL) -> Database:
        """Open (and migrate) a database: a URL (``sqlite+aiosqlite:///...``, ``postgresql+asyncpg://...``) or a
        path to a SQLite file. :class:`DatabaseUnavailable` if it cannot be reached (or written) now."""
        url = database_url(target)
        try:
            await upgrade_url(url)
        except Exception as error:
            if (fault := as_unavailable(error)) is not None:
                raise fault from error
            raise
        return cls(make_engine(url))

    async def close(self) -> None:
        await self._runner.close()
        await self.engine.dispose()

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[AsyncConnection]:
        """A write transaction on the async engine, committed when the block ends and rolled back if it raises:
        for ad-hoc access (tests, scripts). The repositories use :meth:`write`'s runner, one call per
        transaction."""
        try:
            async with self._write_lock or contextlib.nullcontext(), self._writer.begin() as connection:
                yield connection
        except Exception as error:
            self._store.failed("write", error)
            raise
        self.outage.succeeded("write")

    async def read(self, body: Body[T]) -> T:
        """Run ``body(connection)`` in a read transaction, as one call to the database (ad hoc: tests, scripts).
        Raises :class:`DatabaseUnavailable` if the database is down (or locked, for the migrations' exclusive
        lock)."""
        return await self._store.read(body)

    async def write(self, body: Body[T]) -> T:
        """Run ``body(connection)`` in a write transaction (``BEGIN IMMEDIATE`` on SQLite), as one call to the
        database (ad hoc: tests, scripts): committed when it returns, rolled back if it raises. Raises
        :class:`DatabaseUnavailable` if the database is down, locked past the busy timeout, read-only or full:
        then nothing was written."""
        return await self._store.write(body)
