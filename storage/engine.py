"""Database URLs, engines, and the runners that execute a transaction's body in one call.

Queries are written once, as plain functions over a SQLAlchemy ``Connection``; a :class:`Runner` runs each
transaction body (a read or a write) as one call from the event loop:

- SQLite: a sync engine (pysqlite) used by two dedicated threads, one for writes and one for reads. A transaction
  is one hop to its thread and back, however many statements it runs. Through aiosqlite every statement, fetch,
  BEGIN and COMMIT was a hop of its own (about 55 per move), each handing the GIL back and forth with the event
  loop. One writer thread also queues this process's writers, in order, without an asyncio lock; a write waiting
  for another process's lock (``busy_timeout``) waits in that thread, never on the event loop.
- PostgreSQL: asyncpg through the async engine; the same body runs under ``AsyncConnection.run_sync``, whose
  statements asyncpg executes on the event loop itself (no thread at all).

The async engine (aiosqlite for SQLite) remains for the migrations and for ad-hoc access (``Database.engine``,
``Database.transaction()``: tests, scripts).

SQLite needs three things the driver does not do by itself:

- WAL (readers never wait for the writer) and foreign keys, set on every new connection;
- real transactions: the driver's own BEGIN handling is switched off (``isolation_level = None``) and the
  ``begin`` event emits BEGIN instead, as the SQLAlchemy docs prescribe for aiosqlite ("Serializable isolation /
  Savepoints / Transactional DDL");
- ``BEGIN IMMEDIATE`` for writes, so a transaction that reads then writes takes the file's write lock first and a
  second writer (coroutine or process) waits instead of failing at its first write. Engines made with the
  ``sqlite_immediate`` execution option get it; reads keep a plain deferred BEGIN.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Protocol, TypeVar

import sqlalchemy as sa
from sqlalchemy import event
from sqlalchemy.engine import URL, Engine, make_url
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine
from sqlalchemy.pool import NullPool

T = TypeVar("T")
Body = Callable[[sa.Connection], T]

DEFAULT_URL = "sqlite+aiosqlite:///data/games.sqlite3"
# Seconds a SQLite connection waits for another process's write lock before giving up.
BUSY_TIMEOUT_S = 15
MIGRATION_BUSY_TIMEOUT_S = 120

_ASYNC_DRIVERS = {
    "sqlite": "sqlite+aiosqlite",
    "sqlite+pysqlite": "sqlite+aiosqlite",
    "postgres": "postgresql+asyncpg",
    "postgresql": "postgresql+asyncpg",
    "postgresql+psycopg2": "postgresql+asyncpg",
    "postgresql+psycopg": "postgresql+asyncpg",
}


def database_url(target: str | Path | URL) -> URL:
    """A URL for ``target``: a SQLAlchemy URL as is (sync drivers swapped for their async ones), or a file path,
    which means a SQLite file (the old ``DATABASE_PATH``)."""
    if isinstance(target, URL):
        url = target
    elif isinstance(target, Path) or "://" not in target:
        url = URL.create("sqlite+aiosqlite", database=str(target))
    else:
        url = make_url(target)
    url = url.set(drivername=_ASYNC_DRIVERS.get(url.drivername, url.drivername))
    if url.drivername not in ("sqlite+aiosqlite", "postgresql+asyncpg"):
        raise ValueError(f"Unsupported database {url.drivername!r}: use sqlite+aiosqlite:// or postgresql+asyncpg://")
    return url


def sqlite_file(url: URL) -> Path | None:
    """The file a SQLite URL names, or None for PostgreSQL and in-memory SQLite."""
    if url.get_backend_name() != "sqlite" or url.database in (None, "", ":memory:"):
        return None
    return Path(url.database)


def make_engine(url: URL, *, migrating: bool = False) -> AsyncEngine:
    """An engine for ``url``. ``migrating`` engines (SQLite) keep foreign keys off, because a migration that
    rebuilds a table (drop + rename) would otherwise cascade-delete the rows that point at it."""
    options: dict[str, Any] = {}
    if migrating:
        options["poolclass"] = NullPool
    if url.get_backend_name() == "sqlite":
        path = sqlite_file(url)
        if path is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
    engine = create_async_engine(url, **options)
    if url.get_backend_name() == "sqlite":
        _sqlite_hooks(engine.sync_engine, migrating=migrating)
    return engine


def _sqlite_hooks(engine: Engine, *, migrating: bool) -> None:
    timeout_ms = 1000 * (MIGRATION_BUSY_TIMEOUT_S if migrating else BUSY_TIMEOUT_S)

    @event.listens_for(engine, "connect")
    def on_connect(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None  # the begin hook below emits BEGIN, not the driver
        cursor = dbapi_connection.cursor()
        cursor.execute(f"PRAGMA busy_timeout = {timeout_ms}")
        # Switching a new file to WAL needs an exclusive lock and SQLite does not wait for it (no busy handler):
        # when several processes open a fresh database at once, all but one are told "locked" and retry.
        deadline = time.monotonic() + timeout_ms / 1000
        while True:
            try:
                cursor.execute("PRAGMA journal_mode = WAL")
                break
            except Exception as error:
                if "locked" not in str(error) or time.monotonic() > deadline:
                    raise
                time.sleep(0.02)
        cursor.execute(f"PRAGMA foreign_keys = {'OFF' if migrating else 'ON'}")
        # In WAL mode NORMAL still makes every commit survive the bot's own crash (kill -9 included: the WAL is
        # written before COMMIT returns); only the OS dying may lose the last commits. It spares an fsync per
        # commit, which is most of a move's cost on SQLite.
        cursor.execute("PRAGMA synchronous = NORMAL")
        cursor.close()

    @event.listens_for(engine, "begin")
    def on_begin(connection: Any) -> None:
        immediate = connection.get_execution_options().get("sqlite_immediate", False)
        connection.exec_driver_sql("BEGIN IMMEDIATE" if immediate else "BEGIN")


class Runner(Protocol):
    """Runs a transaction body, a sync function over a ``Connection``, as one call: committed when it returns,
    rolled back if it raises."""

    async def read(self, body: Body[T]) -> T: ...

    async def write(self, body: Body[T]) -> T: ...

    async def close(self) -> None: ...


def make_runner(url: URL, engine: AsyncEngine) -> Runner:
    return SqliteThreads(url) if url.get_backend_name() == "sqlite" else AsyncRunner(engine)


class AsyncRunner:
    """PostgreSQL: the body runs under ``run_sync`` on the async engine (asyncpg, on the event loop)."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine

    async def read(self, body: Body[T]) -> T:
        async with self.engine.connect() as connection:
            return await connection.run_sync(body)

    async def write(self, body: Body[T]) -> T:
        async with self.engine.begin() as connection:
            return await connection.run_sync(body)

    async def close(self) -> None:
        pass  # the engine is the Database's; it disposes of it


class SqliteThreads:
    """SQLite: a sync engine and two threads of its own, one for writes (``BEGIN IMMEDIATE``) and one for reads
    (a deferred ``BEGIN``: WAL lets them run while a write is under way). Each call is one hop to the thread."""

    def __init__(self, url: URL) -> None:
        sync_url = url.set(drivername="sqlite+pysqlite")
        # Two connections, one per thread at a time; a connection may be closed from another thread (dispose).
        self.engine = sa.create_engine(sync_url, pool_size=2, max_overflow=0, connect_args={"check_same_thread": False})
        _sqlite_hooks(self.engine, migrating=False)
        self._writer_engine = self.engine.execution_options(sqlite_immediate=True)
        self._writes = ThreadPoolExecutor(1, thread_name_prefix="sqlite-write")
        self._reads = ThreadPoolExecutor(1, thread_name_prefix="sqlite-read")

    def _read(self, body: Body[T]) -> T:
        with self.engine.begin() as connection:
            return body(connection)

    def _write(self, body: Body[T]) -> T:
        with self._writer_engine.begin() as connection:
            return body(connection)

    async def read(self, body: Body[T]) -> T:
        return await asyncio.get_running_loop().run_in_executor(self._reads, self._read, body)

    async def write(self, body: Body[T]) -> T:
        return await asyncio.get_running_loop().run_in_executor(self._writes, self._write, body)

    async def close(self) -> None:
        loop = asyncio.get_running_loop()
        for executor in (self._writes, self._reads):
            await loop.run_in_executor(None, executor.shutdown)
        self.engine.dispose()
