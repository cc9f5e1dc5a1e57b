"""What every repository shares: the :class:`Store` it reads and writes through (one call per transaction, each
fault reported to the outage tracker), the ``INSERT ... ON CONFLICT`` of the database in use, and the audit row
that several repositories write inside their own transactions.

The repositories (``storage/games.py``, ``storage/outbox.py``, ...) are plain classes that each hold the one
:class:`Store` of their :class:`storage.database.Database`; none of them inherits from another.
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite

from storage.engine import Body, Runner, T
from storage.faults import OutageTracker, as_unavailable
from storage.rows import GameRow
from storage.schema import admin_audit, games


class Store:
    """The transaction runner of one database, as its repositories use it: ``read``/``write`` run a body as one
    call (see :mod:`storage.engine`), and tell the :class:`OutageTracker` how the call went."""

    def __init__(self, runner: Runner, dialect: str, outage: OutageTracker) -> None:
        self.dialect = dialect
        self._runner = runner
        self._outage = outage

    async def read(self, body: Body[T]) -> T:
        """Run ``body(connection)`` in a read transaction, as one call to the database. Raises
        :class:`DatabaseUnavailable` if the database is down (or locked, for the migrations' exclusive lock)."""
        try:
            result = await self._runner.read(body)
        except Exception as error:
            self.failed("read", error)
            raise
        self._outage.succeeded("read")
        return result

    async def write(self, body: Body[T]) -> T:
        """Run ``body(connection)`` in a write transaction (``BEGIN IMMEDIATE`` on SQLite), as one call to the
        database: committed when it returns, rolled back if it raises. Raises :class:`DatabaseUnavailable` if the
        database is down, locked past the busy timeout, read-only or full: then nothing was written."""
        try:
            result = await self._runner.write(body)
        except Exception as error:
            self.failed("write", error)
            raise
        self._outage.succeeded("write")
        return result

    def failed(self, kind: str, error: Exception) -> None:
        """Raise a temporary fault as :class:`DatabaseUnavailable` (chained to the driver's error), after telling
        the tracker; return for anything else, which the caller re-raises unchanged."""
        fault = as_unavailable(error)
        if fault is None:
            return
        self._outage.failed(kind, fault)
        if fault is not error:
            raise fault from error

    async def rows(self, statement: sa.Executable, params: dict[str, Any] | None = None) -> list[sa.RowMapping]:
        return await self.read(lambda connection: list(connection.execute(statement, params).mappings()))

    async def games_where(self, *where: sa.ColumnElement[bool]) -> list[GameRow]:
        """The games matching ``where``, in id order."""
        return await self.game_rows(sa.select(games).where(*where).order_by(games.c.id))

    async def game_rows(self, statement: sa.Executable, params: dict[str, Any] | None = None) -> list[GameRow]:
        # The rows are made in the database's thread too: the options' JSON is decoded off the event loop.
        return await self.read(
            lambda connection: [GameRow.from_sql(row) for row in connection.execute(statement, params).mappings()]
        )

    def insert(self, table: sa.Table) -> Any:
        """INSERT with ON CONFLICT support; both dialects spell it the same way in SQLAlchemy."""
        return insert_for(self.dialect, table)


def insert_for(dialect: str, table: sa.Table) -> Any:
    """:meth:`Store.insert` for a transaction's body, which knows its dialect from its connection."""
    return (postgresql.insert if dialect == "postgresql" else sqlite.insert)(table)


def write_audit(
    connection: sa.Connection, guild_id: int, user_id: int, action: str, details: dict[str, Any], now: float
) -> None:
    """Inside the caller's transaction: the audit row of an admin's (or organiser's) action, so no such action is
    done without a trace, nor traced without being done."""
    connection.execute(
        sa.insert(admin_audit).values(
            guild_id=guild_id, user_id=user_id, action=action, details=details, created_at=now
        )
    )
