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
import contextlib
import re
import time
from collections.abc import Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Protocol, TypeVar

import sqlalchemy as sa
from sqlalchemy import event
from sqlalchemy.engine import URL, Engine, make_url
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine
from sqlalchemy.pool import NullPool

from storage.faults import is_asyncpg_out_of_step, unavailable_reason

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


def shown_url(url: str) -> str:
    """A database URL fit for a log or an operator's message: its password hidden."""
    try:
        return make_url(url).render_as_string(hide_password=True)
    except Exception:  # not a URL at all: hide whatever stands between user and host
        return re.sub(r"//([^:/@]*):[^@]*@", r"//\1:***@", url)


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
    elif not migrating:
        # A pooled connection may have died with the server (a restart, a failover): test it on checkout and
        # open a new one, rather than fail the member's action on a dead socket.
        options["pool_pre_ping"] = True
    engine = create_async_engine(url, **options)
    if url.get_backend_name() == "sqlite":
        _sqlite_hooks(engine.sync_engine, migrating=migrating)
    discard_on_fault(engine.sync_engine)
    return engine


def discard_on_fault(engine: Engine) -> None:
    """Throw away the connections of ``engine``'s pool after a temporary fault (down, read-only, full), so the next
    call opens new ones: SQLite quietly opens a connection read-only while its file cannot be written and keeps
    it so for its whole life, and a PostgreSQL connection that saw its server stop is dead. A lock (busy) leaves
    the connection as good as it was.

    A connection that failed its check on checkout (``pool_pre_ping``), for whatever reason, or whose driver says
    it cannot run an operation now (asyncpg's "another operation (2) is in progress", left by the server's notice
    that it ends the session, see :func:`storage.faults.is_asyncpg_stranded`; or busy, or cancelling) is thrown
    away too: the pool then opens a new one, or the call fails with the server's own answer (refused: down).
    SQLAlchemy's asyncpg dialect calls a connection dead only once asyncpg has closed it, which asyncpg happens to
    do as it fails such an operation: this does not leave the rule to the driver's internals."""

    @event.listens_for(engine, "handle_error")
    def on_error(context: sa.engine.ExceptionContext) -> None:
        if context.is_pre_ping or is_asyncpg_out_of_step(context.original_exception):
            context.is_disconnect = True
        reason = unavailable_reason(context.original_exception)
        if reason is None or reason == "locked":
            return
        context.is_disconnect = True
        if engine.dialect.name == "sqlite" and context.connection is not None:
            # A discarded SQLite connection is closed, but SQLite keeps it open (with the write lock of its
            # transaction, after SQLITE_FULL say) while a statement of it is alive, and the traceback keeps the
            # failed statement alive: roll back here, so the lock is released now rather than whenever that is.
            with contextlib.suppress(Exception):
                context.connection.connection.dbapi_connection.rollback()  # type: ignore[union-attr]


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


CLOSE_WAIT_S = 5.0  # how long closing waits for the transactions under way (their callers may be gone)


class AsyncRunner:
    """PostgreSQL: the body runs under ``run_sync`` on the async engine (asyncpg, on the event loop).

    A transaction, once begun, is never interrupted from outside: a caller that is cancelled (the bot shutting
    down, an interaction's handler given up) stops waiting at once, and the transaction runs on to its end on its
    connection (committed, or rolled back), as on SQLite's threads. asyncpg answers a cancelled operation by
    asking the server to cancel it, and its connection stays busy until the server has answered; the pool never
    gets a connection back in that state. One connection serves one transaction at a time: the pool hands it out
    once, and it comes back only when that transaction is over."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine
        self._running: set[asyncio.Future[Any]] = set()

    async def read(self, body: Body[T]) -> T:
        return await self._whole(self._read(body))

    async def write(self, body: Body[T]) -> T:
        return await self._whole(self._write(body))

    async def _read(self, body: Body[T]) -> T:
        async with self.engine.connect() as connection:
            return await connection.run_sync(body)

    async def _write(self, body: Body[T]) -> T:
        async with self.engine.begin() as connection:
            return await connection.run_sync(body)

    async def _whole(self, transaction: Coroutine[Any, Any, T]) -> T:
        """``transaction``'s result, the transaction shielded from its caller's cancellation."""
        task = asyncio.ensure_future(transaction)
        self._running.add(task)
        task.add_done_callback(_settled)
        task.add_done_callback(self._running.discard)
        return await asyncio.shield(task)

    async def close(self) -> None:
        """Wait (a while) for the transactions of callers that stopped waiting, before the engine is disposed."""
        if self._running:
            await asyncio.wait(set(self._running), timeout=CLOSE_WAIT_S)


def _settled(task: asyncio.Future[Any]) -> None:
    """Take a shielded transaction's error if its caller was cancelled (the caller sees it otherwise): asyncio
    would log it as never retrieved."""
    if not task.cancelled():
        task.exception()


class SqliteThreads:
    """SQLite: a sync engine and two threads of its own, one for writes (``BEGIN IMMEDIATE``) and one for reads
    (a deferred ``BEGIN``: WAL lets them run while a write is under way). Each call is one hop to the thread.

    Each thread has its own pool of one connection. Were they shared, a connection the reader opened while the
    file could not be written (SQLite then opens it read-only, without a word) could be handed to the writer
    later, and fail a write after the file is writable again."""

    def __init__(self, url: URL) -> None:
        sync_url = url.set(drivername="sqlite+pysqlite")
        # A connection may be closed from another thread (dispose), never used by two at once.
        options: dict[str, Any] = {"pool_size": 1, "max_overflow": 0, "connect_args": {"check_same_thread": False}}
        self.engine = sa.create_engine(sync_url, **options)
        self.writer = sa.create_engine(sync_url, **options, execution_options={"sqlite_immediate": True})
        for engine in (self.engine, self.writer):
            _sqlite_hooks(engine, migrating=False)
            discard_on_fault(engine)
        self._writes = ThreadPoolExecutor(1, thread_name_prefix="sqlite-write")
        self._reads = ThreadPoolExecutor(1, thread_name_prefix="sqlite-read")

    def _read(self, body: Body[T]) -> T:
        with self.engine.begin() as connection:
            return body(connection)

    def _write(self, body: Body[T]) -> T:
        with self.writer.begin() as connection:
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
        self.writer.dispose()
