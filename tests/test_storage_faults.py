"""Temporary database faults: a known condition (``DatabaseUnavailable``), logged once per outage, and recovered
from without restarting anything (docs/reliability.md, "Database faults").

Each fault is made for real and deterministically, with no sleep that races: SQLite files that cannot be written
(``chattr +i`` as root, who ignores file modes; ``chmod`` otherwise), SQLite full (``PRAGMA max_page_count`` on
the pool's connections), SQLite's write lock held by another process (which holds it until the test tells it to
let go), and the suite's PostgreSQL server stopped and started under an open ``Database``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import sqlite3
import stat
import subprocess
import sys
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

import asyncpg
import pytest
import sqlalchemy as sa
from sqlalchemy import event

import storage.engine
from storage.database import Announce, Database, DatabaseUnavailable, StalePly
from storage.faults import OutageTracker, unavailable_reason
from tests.conftest import PostgresServer

GUILD, CHANNEL, ALICE, BOB = 1_234_567_890_123_456_789, 987_654_321_098_765_432, 301, 302
T = TypeVar("T")


async def new_game(db: Database, *, options: dict[str, Any] | None = None, active: bool = True) -> int:
    game_id = await db.challenges.insert_game(
        guild_id=GUILD,
        channel_id=CHANNEL,
        game="iago",
        options=options or {},
        players=(ALICE, BOB),
        challenger_id=ALICE,
        rated=False,
        now=1.0,
        expires_at=901.0,
    )
    if active:
        assert await db.challenges.activate(game_id, 1.0, [])
    return game_id


async def within(seconds: float, attempt: Callable[[], Awaitable[T]]) -> tuple[T, int]:
    """Call ``attempt`` until it stops raising ``DatabaseUnavailable``, for at most ``seconds``: its result and
    how many calls failed first. A bounded poll, not a sleep that guesses how long recovery takes."""
    failures = 0
    deadline = asyncio.get_running_loop().time() + seconds
    while True:
        try:
            return await attempt(), failures
        except DatabaseUnavailable:
            failures += 1
            if asyncio.get_running_loop().time() > deadline:
                raise
            await asyncio.sleep(0.05)


def outage_lines(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name == "storage"]


# --- what counts as unavailable ------------------------------------------------------------------


def sqlite_error(code: int, message: str) -> sqlite3.OperationalError:
    error = sqlite3.OperationalError(message)
    error.sqlite_errorcode = code  # type: ignore[attr-defined]
    return error


@pytest.mark.parametrize(
    ("error", "reason"),
    [
        (sqlite_error(5, "database is locked"), "locked"),  # SQLITE_BUSY
        (sqlite_error(261, "database is locked"), "locked"),  # SQLITE_BUSY_RECOVERY: extended codes count by group
        (sqlite_error(8, "attempt to write a readonly database"), "read-only"),
        (sqlite_error(13, "database or disk is full"), "full"),
        (sqlite_error(778, "disk I/O error"), "down"),  # SQLITE_IOERR_WRITE
        (sqlite_error(14, "unable to open database file"), "down"),
        (sqlite_error(1, "no such table: games"), None),  # an OperationalError too, but a bug
        (sqlite3.IntegrityError("UNIQUE constraint failed"), None),
        (asyncpg.exceptions.CannotConnectNowError("the database system is starting up"), "down"),
        (asyncpg.exceptions.AdminShutdownError("terminating connection due to administrator command"), "down"),
        (asyncpg.exceptions.ConnectionDoesNotExistError("connection was closed in the middle of operation"), "down"),
        (asyncpg.exceptions.TooManyConnectionsError("sorry, too many clients already"), "down"),
        (asyncpg.exceptions.DiskFullError("could not extend file"), "full"),
        (
            asyncpg.exceptions.ReadOnlySQLTransactionError("cannot execute INSERT in a read-only transaction"),
            "read-only",
        ),
        (asyncpg.exceptions.LockNotAvailableError("canceling statement due to lock timeout"), "locked"),
        (asyncpg.exceptions.UniqueViolationError("duplicate key"), None),
        (asyncpg.exceptions.UndefinedTableError('relation "games" does not exist'), None),
        (asyncpg.exceptions.InvalidPasswordError("password authentication failed"), None),  # configuration
        (asyncpg.exceptions.QueryCanceledError("canceling statement due to statement timeout"), None),
        (ConnectionRefusedError(111, "Connection refused"), "down"),
        (TimeoutError(), "down"),  # asyncpg's connect timeout
        (ValueError("not a database error"), None),
        (StalePly(1), None),
    ],
)
def test_only_temporary_faults_count_as_unavailable(error: Exception, reason: str | None) -> None:
    assert unavailable_reason(error) == reason
    wrapped = sa.exc.OperationalError("INSERT ...", {}, error)  # as SQLAlchemy hands them out
    assert unavailable_reason(wrapped) == reason


async def test_a_programming_error_is_not_unavailable(database_url: str) -> None:
    """A bad statement and a constraint stay what they are, on both databases, and start no outage."""
    db = await Database.open(database_url)
    try:
        with pytest.raises(sa.exc.DBAPIError) as bad_sql:
            await db.read(lambda connection: connection.exec_driver_sql("SELECT * FROM no_such_table").all())
        assert not isinstance(bad_sql.value, DatabaseUnavailable)
        game_id = await new_game(db)
        duplicate = sa.text("INSERT INTO moves (game_id, ply, move, created_at) VALUES (:g, 0, 'E4', 1.0)")
        await db.write(lambda connection: connection.execute(duplicate, {"g": game_id}))
        with pytest.raises(sa.exc.IntegrityError):
            await db.write(lambda connection: connection.execute(duplicate, {"g": game_id}))
        assert not db.outage.down
    finally:
        await db.close()


def test_the_tracker_logs_an_outage_once_and_its_end_once(caplog: pytest.LogCaptureFixture) -> None:
    now = [100.0]
    tracker = OutageTracker(clock=lambda: now[0])
    read_only = DatabaseUnavailable("read-only", "attempt to write a readonly database")
    caplog.set_level(logging.INFO, logger="storage")
    assert tracker.failed("write", read_only)
    for _ in range(50):  # fifty members trying to move during the outage: no more lines
        assert not tracker.failed("write", read_only)
    assert not tracker.succeeded("read")  # a read-only database still reads: not yet recovered
    assert tracker.down and tracker.reason == "read-only"
    now[0] = 112.5
    assert tracker.succeeded("write")
    assert not tracker.succeeded("write")
    lines = outage_lines(caplog)
    assert len(lines) == 2, lines
    assert "unavailable (read-only)" in lines[0]
    assert "after 12.5 s" in lines[1] and "51 calls failed" in lines[1]
    assert [r.levelname for r in caplog.records] == ["ERROR", "WARNING"]
    assert all(r.exc_info is None for r in caplog.records)  # no traceback


# --- SQLite ------------------------------------------------------------------------------------


@contextlib.contextmanager
def unwritable(*paths: Path) -> Iterator[None]:
    """Make files unwritable for this process: immutable for root (who ignores file modes), read-only otherwise."""
    present = [path for path in paths if path.exists()]
    as_root = os.geteuid() == 0
    modes = {path: path.stat().st_mode for path in present}
    for path in present:
        if as_root:
            subprocess.run(["chattr", "+i", str(path)], check=True)
        else:
            path.chmod(stat.S_IRUSR | stat.S_IRGRP)
    try:
        yield
    finally:
        for path in present:
            if as_root:
                subprocess.run(["chattr", "-i", str(path)], check=True)
            else:
                path.chmod(modes[path])


@contextlib.contextmanager
def writable_again(paths: tuple[Path, ...]) -> Iterator[Callable[[], None]]:
    """``unwritable`` that the test ends early by calling what it yields."""
    stack = contextlib.ExitStack()
    stack.enter_context(unwritable(*paths))
    try:
        yield stack.close
    finally:
        stack.close()


def sqlite_files(path: Path) -> tuple[Path, ...]:
    return (path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm"))


@pytest.fixture
async def sqlite_db(tmp_path: Path) -> AsyncIterator[tuple[Database, Path]]:
    path = tmp_path / "games.sqlite3"
    db = await Database.open(path)
    yield db, path
    await db.close()


async def test_sqlite_read_only_files_fail_writes_typed_and_recover_without_a_restart(
    sqlite_db: tuple[Database, Path], caplog: pytest.LogCaptureFixture
) -> None:
    """The issue's run: while the file cannot be written SQLite opens its connection read-only, quietly, and a
    pool would keep that connection for good. Each failed write now discards it, so the first write after the
    file is writable again opens a new one and succeeds."""
    db, path = sqlite_db
    caplog.set_level(logging.INFO, logger="storage")
    # No connection is open yet (the migration's is closed): the pool opens its first while the file is read-only.
    with writable_again(sqlite_files(path)) as make_writable:
        for _ in range(3):
            with pytest.raises(DatabaseUnavailable) as refused:
                await new_game(db)
            assert refused.value.reason == "read-only"
        assert await db.games.games_with_status("active") == []  # reads go on
        make_writable()
        game_id, failures = await within(5.0, lambda: new_game(db))
    assert failures == 0  # the first write after the file is writable again succeeds
    assert (await db.games.game(game_id)) is not None
    lines = outage_lines(caplog)
    assert len(lines) == 2 and "read-only" in lines[0] and "3 calls failed" in lines[1], lines


async def test_sqlite_files_made_unwritable_under_open_connections_recover_too(
    sqlite_db: tuple[Database, Path],
) -> None:
    if os.geteuid() != 0:
        pytest.skip("an open connection keeps writing to a chmod-ed file: only an immutable file stops it (root)")
    db, path = sqlite_db
    game_id = await new_game(db)  # the pool's connections are open and have written
    # Not the -shm file: the connections have it mapped, and writing to the mapping of an immutable file is a
    # SIGBUS (a disk that turns read-only would have refused to remount under open files in the first place).
    with writable_again(sqlite_files(path)[:2]) as make_writable:
        with pytest.raises(DatabaseUnavailable) as refused:
            await db.games.append_moves(game_id, 0, [("E4", 0, ALICE)], 2.0)
        assert refused.value.reason in ("read-only", "down")  # SQLite reports EPERM as read-only or an I/O error
        assert await db.games.moves(game_id) == []
        make_writable()
        await within(5.0, lambda: db.games.append_moves(game_id, 0, [("E4", 0, ALICE)], 2.0))
    assert await db.games.moves(game_id) == ["E4"]


async def test_sqlite_full_fails_writes_typed_and_recovers_when_space_is_back(
    sqlite_db: tuple[Database, Path], caplog: pytest.LogCaptureFixture
) -> None:
    """Full is made with ``PRAGMA max_page_count`` set on every connection the pool opens (a real full disk
    behaves alike: SQLITE_FULL). Freeing space is lifting the limit: connections that failed are discarded, so
    the next one has room."""
    db, _ = sqlite_db
    caplog.set_level(logging.INFO, logger="storage")
    game_id = await new_game(db)
    writer = db._runner.writer  # type: ignore[attr-defined]  # the SQLite writer thread's own pool
    full = [True]

    def limit_pages(dbapi_connection: Any, _record: Any) -> None:
        if full[0]:
            pages = dbapi_connection.execute("PRAGMA page_count").fetchone()[0]
            dbapi_connection.execute(f"PRAGMA max_page_count = {pages}")

    event.listen(writer, "connect", limit_pages)
    writer.dispose()  # every connection from now on is limited
    big = {"note": "x" * 200_000}  # needs far more pages than are left
    with pytest.raises(DatabaseUnavailable) as refused:
        await new_game(db, options=big, active=False)
    assert refused.value.reason == "full"
    with pytest.raises(DatabaseUnavailable):
        await new_game(db, options=big, active=False)
    assert (await db.games.game(game_id)) is not None  # reads go on
    full[0] = False
    new_id, _ = await within(5.0, lambda: new_game(db, options=big, active=False))
    row = await db.games.game(new_id)
    assert row is not None and row.options == big
    lines = outage_lines(caplog)
    assert len(lines) == 2 and "(full)" in lines[0], lines


HOLD_THE_WRITE_LOCK = """
import sqlite3, sys
connection = sqlite3.connect(sys.argv[1], isolation_level=None)
connection.execute("BEGIN IMMEDIATE")
connection.execute("UPDATE games SET last_move_at = last_move_at")
print("locked", flush=True)
sys.stdin.readline()
connection.execute("COMMIT")
print("released", flush=True)
"""


class LockHolder:
    """Another process that takes SQLite's write lock and holds it until :meth:`release` (no timing involved)."""

    def __init__(self, path: Path) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-c", HOLD_THE_WRITE_LOCK, str(path)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        assert self.process.stdout is not None and self.process.stdout.readline().strip() == "locked"

    def release(self) -> None:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write("go\n")
        self.process.stdin.flush()
        assert self.process.stdout.readline().strip() == "released"
        assert self.process.wait(timeout=10) == 0

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()


async def locked_database(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, busy_timeout_s: float) -> Database:
    monkeypatch.setattr(storage.engine, "BUSY_TIMEOUT_S", busy_timeout_s)
    return await Database.open(tmp_path / "games.sqlite3")


async def test_sqlite_locked_past_the_busy_timeout_fails_typed_then_writes_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="storage")
    db = await locked_database(tmp_path, monkeypatch, busy_timeout_s=0.5)
    try:
        game_id = await new_game(db)
        holder = LockHolder(tmp_path / "games.sqlite3")
        try:
            with pytest.raises(DatabaseUnavailable) as refused:
                await db.games.append_moves(game_id, 0, [("E4", 0, ALICE)], 2.0)
            assert refused.value.reason == "locked"
            assert await db.games.moves(game_id) == []  # WAL: reads go on while another process writes
            holder.release()
        finally:
            holder.close()
        await db.games.append_moves(game_id, 0, [("E4", 0, ALICE)], 2.0)  # at once: the connection was kept
        assert await db.games.moves(game_id) == ["E4"]
    finally:
        await db.close()
    lines = outage_lines(caplog)
    assert len(lines) == 2 and "(locked)" in lines[0], lines


async def test_sqlite_locked_for_less_than_the_busy_timeout_waits_then_writes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="storage")
    db = await locked_database(tmp_path, monkeypatch, busy_timeout_s=30)
    try:
        game_id = await new_game(db)
        holder = LockHolder(tmp_path / "games.sqlite3")
        try:
            write = asyncio.create_task(db.games.append_moves(game_id, 0, [("E4", 0, ALICE)], 2.0))
            await asyncio.sleep(0.3)
            assert not write.done()  # it waits: the other process still holds the lock
            holder.release()
        finally:
            holder.close()
        written = await write
        assert written.row.ply == 1 and await db.games.moves(game_id) == ["E4"]
    finally:
        await db.close()
    assert outage_lines(caplog) == []  # a wait is no outage


# --- the outbox --------------------------------------------------------------------------------


async def test_a_failed_mark_is_typed_and_a_round_hands_back_what_it_did_not_try(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What the outbox's round needs when the database fails mid-round: the mark raises ``DatabaseUnavailable``
    (the round keeps the message id and marks it later, never re-posting it), and ``release_claims`` gives the
    rows it did not try back at once, instead of leaving them claimed until the lease lapses."""
    db = await locked_database(tmp_path, monkeypatch, busy_timeout_s=0.5)
    try:
        game_id = await new_game(db)
        await db.games.append_moves(game_id, 0, [("E4", 0, ALICE)], 10.0, announce=[Announce("move")] * 4)
        first, second, *untried = await db.outbox.claim_pending("round", 11.0, 30.0, 10)
        holder = LockHolder(tmp_path / "games.sqlite3")
        try:
            with pytest.raises(DatabaseUnavailable):
                await db.outbox.mark_delivered(first.id, 555, now=12.0)
            with pytest.raises(DatabaseUnavailable):
                await db.outbox.mark_all_delivered([(first.id, 555)], now=12.0)
            holder.release()
        finally:
            holder.close()
        await db.outbox.mark_all_delivered([(first.id, 555)], now=13.0)  # the owed mark, written once it can be
        assert await db.outbox.release(second.id, "503", retry_at=100.0)  # a failed delivery: an attempt, a backoff
        assert await db.outbox.release_claims("someone else") == 0  # only the claimer's own rows
        assert await db.outbox.release_claims("round", [a.id for a in untried]) == 2
        again = await db.outbox.claim_pending("other", 12.0, 30.0, 10)
        assert [a.id for a in again] == [a.id for a in untried]  # due at once, for anyone; no attempt counted
        assert all(a.attempts == 0 for a in again)
        delivered = await db.outbox.announcement(first.id)
        assert delivered is not None and delivered.message_id == 555
        assert await db.outbox.release_claims("other", []) == 0
        assert await db.outbox.release_claims("other") == 2
    finally:
        await db.close()


# --- PostgreSQL ----------------------------------------------------------------------------------


@pytest.mark.parametrize("mode", ["fast", "immediate"])
async def test_postgresql_stopped_and_started_fails_typed_then_works_without_a_restart(
    postgres_url: str, postgres_server: PostgresServer, caplog: pytest.LogCaptureFixture, mode: str
) -> None:
    """Stopping the server ends a running transaction (``fast``: admin shutdown; ``immediate``: as a crash);
    every call while it is down fails typed; once it accepts connections again the same ``Database`` works: its
    pool checks a connection before handing it out and throws away the dead ones."""
    caplog.set_level(logging.INFO, logger="storage")
    db = await Database.open(postgres_url)
    try:
        game_id = await new_game(db)
        # The suite's server commits asynchronously (synchronous_commit=off, for speed): an immediate stop could
        # lose the last commits, as a real server would not. A checkpoint writes them out.
        await db.write(lambda c: c.exec_driver_sql("CHECKPOINT"))
        running = asyncio.create_task(db.read(lambda c: c.exec_driver_sql("SELECT pg_sleep(60)").all()))
        await within_server(db, "pg_sleep")
        try:
            await asyncio.to_thread(postgres_server.stop, mode)
            with pytest.raises(DatabaseUnavailable) as ended:
                await running
            assert ended.value.reason == "down"
            for call in (
                db.games.game(game_id),
                db.games.append_moves(game_id, 0, [("E4", 0, ALICE)], 2.0),
                new_game(db),
            ):
                with pytest.raises(DatabaseUnavailable) as refused:
                    await call
                assert refused.value.reason == "down"
        finally:
            await asyncio.to_thread(postgres_server.start)
        written = await db.games.append_moves(game_id, 0, [("E4", 0, ALICE)], 2.0)  # the first call after the start
        assert written.row.ply == 1 and await db.games.moves(game_id) == ["E4"]
    finally:
        await db.close()
    lines = outage_lines(caplog)
    assert len(lines) == 2 and "(down)" in lines[0] and "available again" in lines[1], lines


async def test_postgresql_restarted_while_idle_the_first_call_after_works(
    postgres_url: str, postgres_server: PostgresServer, caplog: pytest.LogCaptureFixture
) -> None:
    """A restart nobody saw (no call while the server was down) leaves the pool full of dead connections: each is
    checked before it is handed out (pre-ping), so not even the first member after the restart is refused."""
    caplog.set_level(logging.INFO, logger="storage")
    db = await Database.open(postgres_url)
    try:
        game_id = await new_game(db)
        await db.write(lambda c: c.exec_driver_sql("CHECKPOINT"))  # see the test above
        await asyncio.gather(*(db.read(lambda c: c.exec_driver_sql("SELECT pg_sleep(0.1)").all()) for _ in range(4)))
        await asyncio.to_thread(postgres_server.stop, "fast")
        await asyncio.to_thread(postgres_server.start)
        await asyncio.gather(
            *(db.games.append_moves(game_id, 0, [("E4", 0, ALICE)], 2.0), db.games.game(game_id), db.games.moves(1))
        )
        assert await db.games.moves(game_id) == ["E4"]
    finally:
        await db.close()
    assert outage_lines(caplog) == []


async def within_server(db: Database, query: str) -> None:
    """Wait until the server runs ``query`` (a bounded poll of pg_stat_activity)."""
    probe = sa.text("SELECT count(*) FROM pg_stat_activity WHERE query LIKE :q AND pid <> pg_backend_pid()")
    for _ in range(200):
        if await db.read(lambda c: c.execute(probe, {"q": f"%{query}%"}).scalar()):
            return
        await asyncio.sleep(0.02)
    raise AssertionError(f"{query} never started")
