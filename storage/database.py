"""Storage on SQLAlchemy 2 Core, one code path for SQLite and PostgreSQL.

No game logic lives here. Every query is a plain function over a SQLAlchemy ``Connection`` (a transaction's
body), and every transaction is one call through the :class:`storage.engine.Runner`: a hop to SQLite's own
thread, or ``run_sync`` on asyncpg. Writes are ``BEGIN IMMEDIATE`` on SQLite (the file's write lock serialises
writers across processes; one writer thread queues this process's own), a plain transaction with row locks where
needed on PostgreSQL. See docs/storage.md for the schema, the migrations, the outbox and the locking.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
from collections.abc import AsyncIterator, Collection
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, TypeVar

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import URL
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from storage.admin import AdminQueries, AuditRow, Forgotten
from storage.competition import CompetitionQueries, settle_season
from storage.engine import Body, database_url, make_engine, make_runner
from storage.faults import DatabaseUnavailable, OutageTracker, as_unavailable
from storage.lessons import LessonQueries, ProgressRow
from storage.migrate import upgrade_url
from storage.outbox import (
    Announce,
    AnnounceArg,
    AnnouncementRow,
    OutboxQueries,
    Supersede,
    insert_announcements,
    supersede,
)
from storage.puzzles import PuzzleQueries
from storage.rows import (
    OPEN_SEAT,
    OUTCOMES,
    DuplicateChallenge,
    DuplicateRematch,
    GameRow,
    GameStatus,
    MoveRow,
    NewRating,
    RatingRow,
    RecordRow,
    Result,
    Settle,
    Settlement,
    StalePly,
    Written,
)
from storage.schema import (
    OPEN_CHALLENGE_INDEX,
    REMATCH_INDEX,
    announcements,
    games,
    guild_settings,
    rating_changes,
    ratings,
    records,
)
from storage.schema import moves as moves_table

T = TypeVar("T")

__all__ = [
    "Announce",
    "AnnouncementRow",
    "AuditRow",
    "Database",
    "DatabaseUnavailable",
    "DuplicateChallenge",
    "DuplicateRematch",
    "Forgotten",
    "GameRow",
    "NewRating",
    "ProgressRow",
    "RatingRow",
    "RecordRow",
    "Settlement",
    "StalePly",
    "Supersede",
    "Written",
]


class Database(OutboxQueries, AdminQueries, LessonQueries, PuzzleQueries, CompetitionQueries):
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
        for ad-hoc access (tests, scripts). The queries below use :meth:`write`, one call per transaction."""
        try:
            async with self._write_lock or contextlib.nullcontext(), self._writer.begin() as connection:
                yield connection
        except Exception as error:
            self._failed("write", error)
            raise
        self.outage.succeeded("write")

    async def read(self, body: Body[T]) -> T:
        """Run ``body(connection)`` in a read transaction, as one call to the database. Raises
        :class:`DatabaseUnavailable` if the database is down (or locked, for the migrations' exclusive lock)."""
        try:
            result = await self._runner.read(body)
        except Exception as error:
            self._failed("read", error)
            raise
        self.outage.succeeded("read")
        return result

    async def write(self, body: Body[T]) -> T:
        """Run ``body(connection)`` in a write transaction (``BEGIN IMMEDIATE`` on SQLite), as one call to the
        database: committed when it returns, rolled back if it raises. Raises :class:`DatabaseUnavailable` if the
        database is down, locked past the busy timeout, read-only or full: then nothing was written."""
        try:
            result = await self._runner.write(body)
        except Exception as error:
            self._failed("write", error)
            raise
        self.outage.succeeded("write")
        return result

    def _failed(self, kind: str, error: Exception) -> None:
        """Raise a temporary fault as :class:`DatabaseUnavailable` (chained to the driver's error), after telling
        the tracker; return for anything else, which the caller re-raises unchanged."""
        fault = as_unavailable(error)
        if fault is None:
            return
        self.outage.failed(kind, fault)
        if fault is not error:
            raise fault from error

    async def _rows(self, statement: sa.Executable, params: dict[str, Any] | None = None) -> list[sa.RowMapping]:
        return await self.read(lambda connection: list(connection.execute(statement, params).mappings()))

    async def _games(self, *where: sa.ColumnElement[bool]) -> list[GameRow]:
        return await self._game_rows(sa.select(games).where(*where).order_by(games.c.id))

    async def _game_rows(self, statement: sa.Executable, params: dict[str, Any] | None = None) -> list[GameRow]:
        # The rows are made in the database's thread too: the options' JSON is decoded off the event loop.
        return await self.read(
            lambda connection: [GameRow.from_sql(row) for row in connection.execute(statement, params).mappings()]
        )

    def _insert(self, table: sa.Table) -> Any:
        """INSERT with ON CONFLICT support; both dialects spell it the same way in SQLAlchemy."""
        return (postgresql.insert if self.dialect == "postgresql" else sqlite.insert)(table)

    # --- games ---------------------------------------------------------------------------------

    async def insert_game(
        self,
        *,
        guild_id: int,
        channel_id: int,
        game: str,
        options: dict[str, Any],
        players: tuple[int, int],
        challenger_id: int,
        rated: bool,
        now: float,
        expires_at: float,
        rematch_of: int | None = None,
        ai_side: int | None = None,
        ai_level: int | None = None,
        rating_min: int | None = None,
        rating_max: int | None = None,
    ) -> int:
        """A new open challenge (with :data:`OPEN_SEAT` as a player: open to anyone, within the ratings given).
        Raises :class:`DuplicateChallenge` if the pair already has one in this server, whoever challenged whom: a
        unique index decides, so racing challenges cannot both be stored (with the open seat: one open challenge
        to anyone per member). With ``rematch_of``, :class:`DuplicateRematch` if that game already has its rematch
        (a unique index too)."""

        def body(connection: sa.Connection) -> int:
            result = connection.execute(
                sa.insert(games)
                .values(
                    guild_id=guild_id,
                    channel_id=channel_id,
                    game=game,
                    options=options,
                    player0_id=players[0],
                    player1_id=players[1],
                    challenger_id=challenger_id,
                    rated=rated,
                    ai_side=ai_side,
                    ai_level=ai_level,
                    status=GameStatus.CHALLENGE,
                    ply=0,
                    created_at=now,
                    expires_at=expires_at,
                    rematch_of=rematch_of,
                    rating_min=rating_min,
                    rating_max=rating_max,
                )
                .returning(games.c.id)
            )
            return int(result.scalar_one())

        try:
            return await self.write(body)
        except sa.exc.IntegrityError as error:
            if OPEN_CHALLENGE_INDEX in str(error.orig):
                raise DuplicateChallenge(guild_id, players) from error
            if REMATCH_INDEX in str(error.orig) or "rematch_of" in str(error.orig):
                raise DuplicateRematch(rematch_of) from error
            raise

    async def game(self, game_id: int) -> GameRow | None:
        rows = await self._game_rows(GAME_BY_ID, {"game_id": game_id})
        return rows[0] if rows else None

    async def open_challenge_between(self, guild_id: int, a: int, b: int) -> GameRow | None:
        rows = await self._games(
            games.c.guild_id == guild_id,
            games.c.status == GameStatus.CHALLENGE,
            sa.or_(
                sa.and_(games.c.player0_id == a, games.c.player1_id == b),
                sa.and_(games.c.player0_id == b, games.c.player1_id == a),
            ),
        )
        return rows[0] if rows else None

    async def open_challenges_by(self, guild_id: int, user_id: int) -> int:
        """How many open challenges ``user_id`` has issued in this server."""
        rows = await self._rows(
            sa.select(sa.func.count().label("n")).where(
                games.c.guild_id == guild_id, games.c.challenger_id == user_id, games.c.status == GameStatus.CHALLENGE
            )
        )
        return int(rows[0]["n"])

    async def active_games_of(self, user_id: int, channel_id: int | None = None) -> list[GameRow]:
        """A member's active games; with ``channel_id``, those played there: in that channel or in that thread."""
        if channel_id is not None:  # every command's look-up: one statement built once
            return await self._game_rows(ACTIVE_GAMES_OF_HERE, {"user_id": user_id, "channel_id": channel_id})
        return await self._games(
            games.c.status == GameStatus.ACTIVE, sa.or_(games.c.player0_id == user_id, games.c.player1_id == user_id)
        )

    async def rematch_of(self, game_id: int) -> GameRow | None:
        """The challenge or game that is the rematch of ``game_id``, if one was offered."""
        rows = await self._games(games.c.rematch_of == game_id)
        return rows[0] if rows else None

    async def guild_games(
        self, guild_id: int, *, user_id: int | None = None, limit: int | None = None, offset: int = 0
    ) -> tuple[list[GameRow], int]:
        """A page of a server's active games (of ``user_id`` only, when given), newest first, and how many there
        are in all: filtered and counted in SQL (``games_by_guild_status``)."""
        where = [games.c.guild_id == guild_id, games.c.status == GameStatus.ACTIVE]
        if user_id is not None:
            where.append(sa.or_(games.c.player0_id == user_id, games.c.player1_id == user_id))
        page = sa.select(games).where(*where).order_by(games.c.id.desc()).offset(offset)
        if limit is not None:
            page = page.limit(limit)
        total = await self._rows(sa.select(sa.func.count().label("n")).where(*where))
        return [GameRow.from_sql(row) for row in await self._rows(page)], int(total[0]["n"])

    async def active_games(
        self, *, guild_id: int | None = None, channel_id: int | None = None, game: str | None = None
    ) -> list[GameRow]:
        """Active games, narrowed in SQL to a server, a channel and a game kind when given."""
        where = [games.c.status == GameStatus.ACTIVE]
        if guild_id is not None:
            where.append(games.c.guild_id == guild_id)
        if channel_id is not None:
            where.append(_played_in(channel_id))
        if game is not None:
            where.append(games.c.game == game)
        return await self._games(*where)

    async def games_with_status(self, status: str, *, guild_ids: list[int] | None = None) -> list[GameRow]:
        where = [games.c.status == status]
        if guild_ids is not None:
            where.append(games.c.guild_id.in_(guild_ids))
        return await self._games(*where)

    async def expirable(self, now: float, *, guild_ids: list[int] | None = None) -> list[GameRow]:
        """Open challenges past their time (of those servers, when given)."""
        where = [games.c.status == GameStatus.CHALLENGE, games.c.expires_at <= now]
        if guild_ids is not None:
            where.append(games.c.guild_id.in_(guild_ids))
        return await self._games(*where)

    async def idle_games(
        self, before: float, *, guild_ids: list[int] | None = None, now: float | None = None
    ) -> list[GameRow]:
        """Active games nobody has acted in since ``before`` and not yet reminded (of those servers, when given).
        With ``now``, a server that chose its own reminder time (``guild_settings.reminder_hours``) uses
        ``now`` minus that instead: compared in SQL, so only the games due are read."""
        since: sa.ColumnElement[float] = sa.literal(before, sa.Double)
        if now is not None:
            since = sa.func.coalesce(now - guild_settings.c.reminder_hours * 3600.0, before)
        where = [
            games.c.status == GameStatus.ACTIVE,
            games.c.reminded_at.is_(None),
            games.c.move_seconds.is_(None),  # a game with a clock is reminded by its clock (sessions/clocks.py)
            sa.func.coalesce(games.c.last_move_at, games.c.created_at) <= since,
        ]
        if guild_ids is not None:
            where.append(games.c.guild_id.in_(guild_ids))
        joined = games.outerjoin(guild_settings, guild_settings.c.guild_id == games.c.guild_id)
        rows = await self._rows(sa.select(games).select_from(joined).where(*where).order_by(games.c.id))
        return [GameRow.from_sql(row) for row in rows]

    async def clocked_games(self, guild_ids: list[int] | None = None) -> list[GameRow]:
        """Active games with a clock (of those servers, when given): their deadlines are computed from them."""
        where = [games.c.status == GameStatus.ACTIVE, games.c.move_seconds.is_not(None)]
        if guild_ids is not None:
            where.append(games.c.guild_id.in_(guild_ids))
        return await self._games(*where)

    async def tournament_games(self, tournament_id: int, status: str | None = None) -> list[GameRow]:
        where = [games.c.tournament_id == tournament_id]
        if status is not None:
            where.append(games.c.status == status)
        return await self._games(*where)

    async def set_thread(self, game_id: int, thread_id: int, follow: Collection[str]) -> None:
        """The game is played in its own thread from now on: its announcements still owed of the kinds in
        ``follow`` (the service's rule) go there too (the accepted game's first board was written to the outbox
        before the thread existed). They lose the interaction they were to be delivered by: that reply now
        answers in the channel, not with the board, so a worker must post the board in the thread rather than
        find that reply and take it for the board."""
        owed = (
            announcements.c.game_id == game_id,
            announcements.c.delivered_at.is_(None),
            announcements.c.kind.in_(list(follow)),
        )

        def body(connection: sa.Connection) -> None:
            connection.execute(sa.update(games).where(games.c.id == game_id).values(thread_id=thread_id))
            found = connection.execute(sa.select(announcements.c.id, announcements.c.payload).where(*owed))
            for announcement_id, payload in found.all():
                connection.execute(
                    sa.update(announcements)
                    .where(announcements.c.id == announcement_id)
                    .values(channel_id=thread_id, payload={**payload, "reply": None})
                )

        await self.write(body)

    async def set_message(self, game_id: int, column: str, message_id: int) -> None:
        if column != "challenge_message_id":
            raise ValueError(column)
        await self.write(
            lambda connection: connection.execute(
                sa.update(games).where(games.c.id == game_id).values({column: message_id})
            )
        )

    async def transition(
        self, game_id: int, from_status: str, to_status: str, now: float, announce: AnnounceArg = None
    ) -> bool:
        """Move a game between statuses only if it is still in ``from_status``; False if someone was first.
        ``announce`` is written in the same transaction, only if the transition happened."""
        return await self.transition_announced(game_id, from_status, to_status, now, announce) is not None

    async def transition_announced(
        self, game_id: int, from_status: str, to_status: str, now: float, announce: AnnounceArg = None
    ) -> tuple[int, ...] | None:
        """:meth:`transition`, returning the ids of the announcements written (None: no transition)."""
        values: dict[str, Any] = {"status": to_status}
        if to_status == GameStatus.ACTIVE:
            values |= {"started_at": now, "last_move_at": now}
        return await self._update_and_announce(
            sa.update(games).where(games.c.id == game_id, games.c.status == from_status).values(values), announce, now
        )

    async def abort_game(
        self, game_id: int, expected_ply: int, reason: str, now: float, announce: AnnounceArg = None
    ) -> tuple[int, ...] | None:
        """End an active game at ``expected_ply`` with no result (``cancelled``, ``reason``; nothing rated or
        counted), with ``announce`` in the same transaction; None if it moved on or ended first."""
        update = (
            sa.update(games)
            .where(games.c.id == game_id, games.c.status == GameStatus.ACTIVE, games.c.ply == expected_ply)
            .values(status=GameStatus.CANCELLED, result_reason=reason, finished_at=now)
        )
        return await self._update_and_announce(update, announce, now)

    async def activate(self, game_id: int, now: float, opening: list[MoveRow], announce: AnnounceArg = None) -> bool:
        """Accept a challenge: make the game active and log its opening chance moves in one commit.
        False when the challenge is no longer open (declined, cancelled, expired or accepted twice)."""
        return await self.activate_announced(game_id, now, opening, announce) is not None

    async def activate_announced(
        self, game_id: int, now: float, opening: list[MoveRow], announce: AnnounceArg = None
    ) -> tuple[int, ...] | None:
        """:meth:`activate`, returning the ids of the announcements written (None: the challenge was not open)."""

        def body(connection: sa.Connection) -> tuple[int, ...] | None:
            ids = _update_game(
                connection,
                sa.update(games)
                .where(games.c.id == game_id, games.c.status == GameStatus.CHALLENGE)
                .values(status=GameStatus.ACTIVE, started_at=now, last_move_at=now, ply=len(opening)),
                announce,
                now,
            )
            if ids is not None:
                _log_opening(connection, game_id, opening, now)
            return ids

        return await self.write(body)

    async def take_open_seat(
        self, game_id: int, seat: int, user_id: int, now: float, opening: list[MoveRow], announce: AnnounceArg
    ) -> tuple[int, ...] | None:
        """A member takes the open seat of an open challenge: the game becomes theirs and active, its opening
        chance moves logged and its first announcement written, in one commit, only while the seat is still open
        (one conditional update: of members clicking at once, exactly one gets it). None: someone was first, or
        the challenge closed."""
        seat_column = games.c.player0_id if seat == 0 else games.c.player1_id

        def body(connection: sa.Connection) -> tuple[int, ...] | None:
            ids = _update_game(
                connection,
                sa.update(games)
                .where(games.c.id == game_id, games.c.status == GameStatus.CHALLENGE, seat_column == OPEN_SEAT)
                .values(
                    {
                        seat_column.name: user_id,
                        "status": GameStatus.ACTIVE,
                        "started_at": now,
                        "last_move_at": now,
                        "ply": len(opening),
                    }
                ),
                announce,
                now,
            )
            if ids is not None:
                _log_opening(connection, game_id, opening, now)
            return ids

        return await self.write(body)

    async def open_challenges(self, guild_id: int) -> list[GameRow]:
        """A server's open challenges to anyone, the oldest first."""
        return await self._games(
            games.c.guild_id == guild_id,
            games.c.status == GameStatus.CHALLENGE,
            sa.or_(games.c.player0_id == OPEN_SEAT, games.c.player1_id == OPEN_SEAT),
        )

    async def claim_reminder(
        self, game_id: int, idle_since: float, now: float, payload: dict[str, Any] | None = None
    ) -> bool:
        """Take the job of reminding a game's idle player: True for exactly one caller per idle spell, and only
        if nobody moved since ``idle_since``. The 'reminder' announcement (with ``payload``) is written in the
        same transaction, so the reminder is delivered (and retried) by the outbox even if posting fails now."""
        ids = await self._update_and_announce(
            sa.update(games)
            .where(
                games.c.id == game_id,
                games.c.status == GameStatus.ACTIVE,
                games.c.reminded_at.is_(None),
                sa.func.coalesce(games.c.last_move_at, games.c.created_at) == idle_since,
            )
            .values(reminded_at=now),
            Announce("reminder", payload or {}),
            now,
        )
        return ids is not None

    async def _update_and_announce(
        self, update: sa.Update, announce: AnnounceArg, now: float
    ) -> tuple[int, ...] | None:
        return await self.write(lambda connection: _update_game(connection, update, announce, now))

    # --- moves and the end of a game -----------------------------------------------------------

    async def moves(self, game_id: int) -> list[str]:
        return await self.read(
            lambda connection: list(connection.execute(MOVES_OF_GAME, {"game_id": game_id}).scalars())
        )

    async def append_moves(
        self,
        game_id: int,
        expected_ply: int,
        moves: list[MoveRow],
        now: float,
        finish: Result | None = None,
        *,
        settle: Settle | None = None,
        announce: AnnounceArg = None,
        replacing: Supersede | None = None,
    ) -> Written:
        """Append ``(move, player, user_id)`` rows in one transaction, only if the game is still active at
        ``expected_ply`` (else :class:`StalePly`): the game row is locked first (``FOR UPDATE`` on PostgreSQL;
        SQLite's ``BEGIN IMMEDIATE`` already serialises), so a double click or a second process cannot apply a
        move twice. ``finish`` ends the game in the same commit, with both records and, through ``settle``, both
        ratings; ``announce`` is written in it too, or ``replacing.instead`` when the announcement it names was
        still owed and unclaimed (it is retired in the same commit)."""

        def body(connection: sa.Connection) -> Written:
            _lock_active(connection, game_id, expected_ply)
            connection.execute(
                ADVANCE_PLY,
                {"game_id": game_id, "expected": expected_ply, "new_ply": expected_ply + len(moves), "now": now},
            )
            if moves:
                connection.execute(
                    INSERT_MOVE,
                    [
                        dict(
                            game_id=game_id,
                            ply=expected_ply + offset,
                            move=move,
                            player=player,
                            user_id=user_id,
                            created_at=now,
                        )
                        for offset, (move, player, user_id) in enumerate(moves)
                    ],
                )
            if replacing is not None and supersede(connection, replacing.announcement_id, now):
                written = self._conclude(connection, game_id, finish, settle, replacing.instead, now)
                return dataclasses.replace(written, superseded=True)
            return self._conclude(connection, game_id, finish, settle, announce, now)

        return await self.write(body)

    async def finish_without_move(
        self,
        game_id: int,
        expected_ply: int,
        finish: Result,
        now: float,
        *,
        settle: Settle | None = None,
        announce: AnnounceArg = None,
    ) -> Written:
        """End an active game (resignation, claimed timeout) if nobody moved in the meantime (else
        :class:`StalePly`), with records, ratings and ``announce`` in the same transaction."""

        def body(connection: sa.Connection) -> Written:
            _lock_active(connection, game_id, expected_ply)
            return self._conclude(connection, game_id, finish, settle, announce, now)

        return await self.write(body)

    def _conclude(
        self,
        connection: sa.Connection,
        game_id: int,
        finish: Result | None,
        settle: Settle | None,
        announce: AnnounceArg,
        now: float,
    ) -> Written:
        settlement = None
        if finish is not None:
            winner, reason, (score0, score1) = finish
            connection.execute(
                sa.update(games)
                .where(games.c.id == game_id)
                .values(
                    status=GameStatus.FINISHED,
                    winner=winner,
                    result_reason=reason,
                    score0=score0,
                    score1=score1,
                    finished_at=now,
                )
            )
        row = GameRow.from_sql(connection.execute(GAME_BY_ID, {"game_id": game_id}).mappings().one())
        if finish is not None:
            settlement = self._settle(connection, row, settle)
        ids = insert_announcements(
            connection,
            game_id=row.id,
            guild_id=row.guild_id,
            channel_id=row.announce_channel_id,  # the game's thread when it has one
            ply=row.ply,
            announce=announce,
            now=now,
        )
        return Written(row, settlement, ids)

    def _settle(self, connection: sa.Connection, row: GameRow, settle: Settle | None) -> Settlement:
        """Count a finished game in both records and, when rated and ``settle`` is given, both ratings.

        Lost updates are what this prevents: two games of one player finishing at once must both count. Each
        player's ``records`` row (created if missing) is the lock: taken with ``FOR UPDATE`` in user-id order, so
        two finishing transactions that share players wait for each other instead of deadlocking, and the ratings
        read next are the committed ones. On SQLite the write lock already serialises the two transactions."""
        outcome = OUTCOMES[row.winner]
        if row.against_bot:  # practice against the bot: unrated and not in the records; /stats reads the games
            return Settlement(outcome, {})
        key = (records.c.guild_id == row.guild_id, records.c.game == row.game)
        users = sorted(row.players)
        for user_id in users:  # one row at a time, in order: concurrent inserts of the same keys cannot deadlock
            connection.execute(
                self._insert(records)
                .values(guild_id=row.guild_id, game=row.game, user_id=user_id, wins=0, losses=0, draws=0)
                .on_conflict_do_nothing()
            )
        connection.execute(
            sa.select(records.c.user_id)
            .where(*key, records.c.user_id.in_(users))
            .order_by(records.c.user_id)
            .with_for_update()
        )
        for user_id, column in zip(row.players, outcome, strict=True):
            connection.execute(
                sa.update(records).where(*key, records.c.user_id == user_id).values({column: records.c[column] + 1})
            )
        changes: dict[int, tuple[RatingRow | None, RatingRow]] = {}
        if row.rated and settle is not None:
            result = connection.execute(
                sa.select(ratings)
                .where(ratings.c.guild_id == row.guild_id, ratings.c.game == row.game, ratings.c.user_id.in_(users))
                .order_by(ratings.c.user_id)
                .with_for_update()
            )
            found = {
                r["user_id"]: RatingRow(r["user_id"], r["mu"], r["sigma"], r["rated_games"]) for r in result.mappings()
            }
            old = {user_id: found.get(user_id) for user_id in row.players}
            for user_id, (mu, sigma, before) in settle(row, old).items():
                previous = old[user_id]
                after = RatingRow(user_id, mu, sigma, 1 + (previous.rated_games if previous else 0))
                values = dict(mu=mu, sigma=sigma, rated_games=after.rated_games)
                connection.execute(
                    self._insert(ratings)
                    .values(guild_id=row.guild_id, game=row.game, user_id=user_id, **values)
                    .on_conflict_do_update(
                        index_elements=[ratings.c.guild_id, ratings.c.game, ratings.c.user_id], set_=values
                    )
                )
                connection.execute(
                    sa.insert(rating_changes).values(game_id=row.id, user_id=user_id, before=before, after=mu)
                )
                changes[user_id] = (previous, after)
            settle_season(connection, row, settle)  # the server's running season, if seasons are on
        return Settlement(outcome, changes)

    # --- ratings and records ---------------------------------------------------------------------

    async def rating_changes(self, game_id: int) -> dict[int, tuple[float, float]]:
        """What finishing a rated game did to each player's rating: user -> (mu before, mu after)."""
        rows = await self._rows(sa.select(rating_changes).where(rating_changes.c.game_id == game_id))
        return {row["user_id"]: (row["before"], row["after"]) for row in rows}

    async def rating(self, guild_id: int, game: str, user_id: int) -> RatingRow | None:
        rows = await self._rows(
            sa.select(ratings).where(
                ratings.c.guild_id == guild_id, ratings.c.game == game, ratings.c.user_id == user_id
            )
        )
        return RatingRow(rows[0]["user_id"], rows[0]["mu"], rows[0]["sigma"], rows[0]["rated_games"]) if rows else None

    async def leaderboard(self, guild_id: int, game: str, limit: int) -> list[RatingRow]:
        # Sorted by the conservative estimate (mu - 3 sigma), as TrueSkill-style boards do, so one
        # lucky win does not put a newcomer on top.
        rows = await self._rows(
            sa.select(ratings)
            .where(ratings.c.guild_id == guild_id, ratings.c.game == game)
            .order_by((ratings.c.mu - 3 * ratings.c.sigma).desc(), ratings.c.user_id)
            .limit(limit)
        )
        return [RatingRow(r["user_id"], r["mu"], r["sigma"], r["rated_games"]) for r in rows]

    async def results_against_bot(self, guild_id: int, user_id: int) -> list[tuple[str, int, int, int, int]]:
        """A member's finished games against the bot here: (game, level, wins, losses, draws) per game and level."""
        member_side = sa.case((games.c.player0_id == user_id, 0), else_=1)
        won = sa.func.sum(sa.case((games.c.winner == member_side, 1), else_=0))
        drawn = sa.func.sum(sa.case((games.c.winner.is_(None), 1), else_=0))
        rows = await self._rows(
            sa.select(
                games.c.game, games.c.ai_level, won.label("wins"), drawn.label("draws"), sa.func.count().label("n")
            )
            .where(
                games.c.guild_id == guild_id,
                games.c.status == GameStatus.FINISHED,
                games.c.ai_side.is_not(None),
                sa.or_(games.c.player0_id == user_id, games.c.player1_id == user_id),
            )
            .group_by(games.c.game, games.c.ai_level)
            .order_by(games.c.game, games.c.ai_level)
        )
        return [(r["game"], r["ai_level"], r["wins"], r["n"] - r["wins"] - r["draws"], r["draws"]) for r in rows]

    async def records_of(self, guild_id: int, user_id: int) -> list[RecordRow]:
        rows = await self._rows(
            sa.select(records)
            .where(records.c.guild_id == guild_id, records.c.user_id == user_id)
            .order_by(records.c.game)
        )
        return [RecordRow(r["game"], r["wins"], r["losses"], r["draws"]) for r in rows]


def _lock_active(connection: sa.Connection, game_id: int, expected_ply: int) -> None:
    # FOR UPDATE: a second writer of this game waits here until we commit, then sees the new ply (PostgreSQL
    # re-reads a locked row in READ COMMITTED). SQLite ignores it: BEGIN IMMEDIATE has serialised us already.
    row = connection.execute(LOCK_GAME, {"game_id": game_id}).first()
    if row is None or row.status != GameStatus.ACTIVE or row.ply != expected_ply:
        raise StalePly(game_id)


def _log_opening(connection: sa.Connection, game_id: int, opening: list[MoveRow], now: float) -> None:
    """The chance moves a game starts with (dice rolled before the first move), logged as it starts."""
    if opening:
        connection.execute(
            sa.insert(moves_table),
            [
                dict(game_id=game_id, ply=ply, move=move, player=player, user_id=user, created_at=now)
                for ply, (move, player, user) in enumerate(opening)
            ],
        )


def _update_game(
    connection: sa.Connection, update: sa.Update, announce: AnnounceArg, now: float
) -> tuple[int, ...] | None:
    """Run a conditional UPDATE of one game; if it matched, write ``announce`` for it and return the new
    announcements' ids; None if it did not match."""
    result = connection.execute(
        update.returning(
            games.c.id,
            games.c.guild_id,
            sa.func.coalesce(games.c.thread_id, games.c.channel_id).label("channel_id"),
            games.c.ply,
        )
    )
    row = result.mappings().first()
    if row is None:
        return None
    return insert_announcements(
        connection,
        game_id=row["id"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        ply=row["ply"],
        announce=announce,
        now=now,
    )


def _played_in(channel_id: int) -> sa.ColumnElement[bool]:
    """A game played in this channel: its own channel, or its thread (a command used inside the thread)."""
    return sa.or_(games.c.channel_id == channel_id, games.c.thread_id == channel_id)


# The statements of every move, built once: SQLAlchemy then finds their compiled form by a memoised key instead of
# walking a new statement each time.
GAME_BY_ID = sa.select(games).where(games.c.id == sa.bindparam("game_id"))
ACTIVE_GAMES_OF_HERE = (
    sa.select(games)
    .where(
        games.c.status == GameStatus.ACTIVE,
        sa.or_(games.c.player0_id == sa.bindparam("user_id"), games.c.player1_id == sa.bindparam("user_id")),
        sa.or_(games.c.channel_id == sa.bindparam("channel_id"), games.c.thread_id == sa.bindparam("channel_id")),
    )
    .order_by(games.c.id)
)
MOVES_OF_GAME = (
    sa.select(moves_table.c.move).where(moves_table.c.game_id == sa.bindparam("game_id")).order_by(moves_table.c.ply)
)
LOCK_GAME = sa.select(games.c.ply, games.c.status).where(games.c.id == sa.bindparam("game_id")).with_for_update()
ADVANCE_PLY = (
    sa.update(games)
    .where(
        games.c.id == sa.bindparam("game_id"),
        games.c.ply == sa.bindparam("expected"),
        games.c.status == GameStatus.ACTIVE,
    )
    .values(ply=sa.bindparam("new_ply"), last_move_at=sa.bindparam("now"), reminded_at=None)
)
INSERT_MOVE = sa.insert(moves_table)
