"""Temporary database faults as a known condition: :class:`DatabaseUnavailable` and the :class:`OutageTracker`.

A database that is down, locked by another process, read-only or full is not a crash of the bot: the action can be
tried again in a moment, and the operator needs one line when it starts and one when it ends, not a traceback per
interaction. :func:`unavailable_reason` tells those conditions from everything else by the driver's own error
codes (SQLite's result codes, PostgreSQL's SQLSTATE, the socket's errors), never by the exception class alone:
SQLite's ``OperationalError`` also means "no such table", which is a bug and must stay loud.

Every call of :class:`storage.database.Database` and its repositories raises :class:`DatabaseUnavailable` (chained
to the driver's error) for exactly those conditions, and reports each call to its tracker (``Database.outage``). See
docs/reliability.md for what the service does with them.
"""

from __future__ import annotations

import logging
import sqlite3
import time
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Literal

Reason = Literal["down", "locked", "read-only", "full"]
REASONS: tuple[Reason, ...] = ("down", "locked", "read-only", "full")

log = logging.getLogger("storage")


class DatabaseUnavailable(Exception):
    """The database cannot serve this call right now (``reason``: down, locked, read-only or full). Nothing was
    written: the transaction was rolled back (or never began), so the caller may tell the member to try again."""

    def __init__(self, reason: Reason, detail: str) -> None:
        super().__init__(f"the database is {reason}: {detail}")
        self.reason: Reason = reason
        self.detail = detail

    def __reduce__(self) -> tuple[type[DatabaseUnavailable], tuple[Reason, str]]:
        return type(self), (self.reason, self.detail)


# SQLite's primary result codes (the low byte of an extended code): https://sqlite.org/rescode.html
_SQLITE: dict[int, Reason] = {
    5: "locked",  # SQLITE_BUSY: another connection holds the write lock past busy_timeout
    6: "locked",  # SQLITE_LOCKED: a conflict inside this process's connections
    8: "read-only",  # SQLITE_READONLY: the file (or the connection that opened it) cannot be written
    10: "down",  # SQLITE_IOERR: the disk refused a read or write
    13: "full",  # SQLITE_FULL: no space left (or max_page_count reached)
    14: "down",  # SQLITE_CANTOPEN: the file or its journal cannot be opened
    15: "locked",  # SQLITE_PROTOCOL: a race on the WAL's locks
}
# PostgreSQL's SQLSTATE codes; a class prefix of two characters covers the whole class.
_POSTGRES: dict[str, Reason] = {
    "08": "down",  # connection exception: refused, lost, does not exist
    "57P01": "down",  # admin_shutdown: the server is stopping (smart or fast shutdown)
    "57P02": "down",  # crash_shutdown
    "57P03": "down",  # cannot_connect_now: starting up, shutting down, in recovery
    "57P05": "down",  # idle_session_timeout: the server closed this connection
    "53300": "down",  # too_many_connections
    "53100": "full",  # disk_full
    "25006": "read-only",  # read_only_sql_transaction: a standby, or default_transaction_read_only
    "55P03": "locked",  # lock_not_available: lock_timeout expired
}


def unavailable_reason(error: BaseException) -> Reason | None:
    """Why ``error`` means the database is temporarily unavailable, or None if it means anything else (a bug, a
    constraint, a refused write of the application's own making). Looks through SQLAlchemy's wrapper (``orig``)
    and explicit causes (``raise ... from``) down to the driver's error."""
    if isinstance(error, DatabaseUnavailable):
        return error.reason
    for cause in _causes(error):
        if isinstance(cause, sqlite3.Error):
            code = getattr(cause, "sqlite_errorcode", None)
            if code is not None:
                return _SQLITE.get(code & 0xFF)
            return "locked" if "database is locked" in str(cause) else None
        state = getattr(cause, "sqlstate", None)
        if isinstance(state, str) and state:
            reason = _POSTGRES.get(state) or _POSTGRES.get(state[:2])
            if reason is not None:
                return reason
        if isinstance(cause, OSError):  # refused, reset, unreachable, DNS, a connect timeout
            return "down"
        if _is_asyncpg_closed(cause) or is_asyncpg_stranded(cause):
            return "down"
    return None


def as_unavailable(error: BaseException) -> DatabaseUnavailable | None:
    """``error`` as a :class:`DatabaseUnavailable` (to raise ``from error``), or None if it is anything else."""
    if isinstance(error, DatabaseUnavailable):
        return error
    reason = unavailable_reason(error)
    if reason is None:
        return None
    root = next(reversed(list(_causes(error))), error)
    return DatabaseUnavailable(reason, f"{type(root).__name__}: {root}"[:300])


def _causes(error: BaseException) -> Iterator[BaseException]:
    """``error``, then what it wraps (SQLAlchemy's ``orig``) or was raised from, outermost first."""
    seen: set[int] = set()
    current: BaseException | None = error
    while current is not None and id(current) not in seen and len(seen) < 8:
        seen.add(id(current))
        yield current
        wrapped = getattr(current, "orig", None)
        current = wrapped if isinstance(wrapped, BaseException) else current.__cause__


def _is_asyncpg_closed(error: BaseException) -> bool:
    # asyncpg's InterfaceError "connection is closed" / "connection was closed in the middle of operation": the
    # server went away under a connection that was checked out. Other InterfaceErrors are misuse (bugs).
    module = type(error).__module__
    return module.startswith("asyncpg") and type(error).__name__ == "InterfaceError" and "closed" in str(error)


def is_asyncpg_stranded(error: BaseException) -> bool:
    """asyncpg's "cannot switch to state N; another operation (2) is in progress": the connection's protocol is
    still consuming an error (state 2) that no operation was waiting for. That is the server's FATAL notice as it
    ends the session (a stop, a crash, a terminated backend) arriving on a connection idle in the pool or between
    two statements; asyncpg marks the connection closed only when it reads the socket's end, a loop iteration or
    more later, and an operation started in between (the pool's pre-ping, the next statement) fails so. No other
    operation holds the connection: its session is gone, as when "the connection is closed"
    (https://github.com/MagicStack/asyncpg/issues/784)."""
    module = type(error).__module__
    return (
        module.startswith("asyncpg")
        and type(error).__name__ == "InternalClientError"
        and "another operation (2) is in progress" in str(error)
    )


def is_asyncpg_out_of_step(error: BaseException) -> bool:
    """An asyncpg error that says its connection cannot run an operation now (stranded as above, or still busy
    or cancelling another one): whatever the cause, that connection must never be used again."""
    for cause in _causes(error):
        if is_asyncpg_stranded(cause):
            return True
        busy = "another operation is" in str(cause)  # "... in progress", "... cancelling"
        if busy and type(cause).__module__.startswith("asyncpg") and type(cause).__name__ == "InterfaceError":
            return True
    return False


class OutageTracker:
    """Turns a stream of calls that fail or succeed into two log lines per outage: one when the first call fails
    ("unavailable: read-only ..."), one when calls succeed again ("available again after 12.3 s, 57 calls
    failed"). Reads and writes are tracked apart, since a read-only or full database still reads: the outage ends
    when every kind of call that failed has succeeded again.

    :class:`storage.database.Database` owns one (``db.outage``) and its repositories report every call to it
    (through their :class:`storage.store.Store`), so the service only catches :class:`DatabaseUnavailable` and
    answers the member; it logs nothing itself. ``down`` and ``reason`` tell whether an outage is under way (to
    answer at once rather than wait on a dead database, say)."""

    def __init__(
        self, name: str = "database", logger: logging.Logger = log, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.name = name
        self.logger = logger
        self.clock = clock
        self.since: float | None = None
        self.reason: Reason | None = None
        self.failures = 0
        self.reasons: Counter[str] = Counter()
        self._failing: set[str] = set()

    @property
    def down(self) -> bool:
        return self.since is not None

    def failed(self, kind: str, fault: DatabaseUnavailable) -> bool:
        """A call of ``kind`` ('read', 'write') failed with ``fault``; True if this starts an outage (logged)."""
        starts = self.since is None
        if starts:
            self.since = self.clock()
            self.logger.error(
                "The %s is unavailable (%s): %s. Members are asked to try again in a moment; logged once until "
                "it recovers.",
                self.name,
                fault.reason,
                fault.detail,
            )
        self.reason = fault.reason
        self.failures += 1
        self.reasons[fault.reason] += 1
        self._failing.add(kind)
        return starts

    def succeeded(self, kind: str) -> bool:
        """A call of ``kind`` succeeded; True if this ends the outage (logged)."""
        if self.since is None:
            return False
        self._failing.discard(kind)
        if self._failing:
            return False
        seen = ", ".join(f"{reason} {count}" for reason, count in self.reasons.most_common())
        self.logger.warning(
            "The %s is available again after %.1f s; %d calls failed meanwhile (%s).",
            self.name,
            self.clock() - self.since,
            self.failures,
            seen,
        )
        self.since, self.reason, self.failures = None, None, 0
        self.reasons.clear()
        return True
