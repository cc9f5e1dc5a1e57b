"""Database URLs and engines: one SQLAlchemy async engine for SQLite (aiosqlite) or PostgreSQL (asyncpg).

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

import time
from pathlib import Path
from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import URL, make_url
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine
from sqlalchemy.pool import NullPool

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
        _sqlite_hooks(engine, migrating=migrating)
    return engine


def _sqlite_hooks(engine: AsyncEngine, *, migrating: bool) -> None:
    timeout_ms = 1000 * (MIGRATION_BUSY_TIMEOUT_S if migrating else BUSY_TIMEOUT_S)

    @event.listens_for(engine.sync_engine, "connect")
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

    @event.listens_for(engine.sync_engine, "begin")
    def on_begin(connection: Any) -> None:
        immediate = connection.get_execution_options().get("sqlite_immediate", False)
        connection.exec_driver_sql("BEGIN IMMEDIATE" if immediate else "BEGIN")
