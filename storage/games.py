"""The games in play and their move logs: a game by id, the games a command or a sweep looks for, the moves
appended with the result (both records and both ratings settled in the same transaction), an abort, and the
reminders of idle players. Challenges (a game row before it starts) are ``storage/challenges.py``'s.

The statements of every move are built once, at import (see docs/storage.md, "One call per transaction").
"""

from __future__ import annotations

import dataclasses
from typing import Any

import sqlalchemy as sa

from storage.outbox import Announce, AnnounceArg, Supersede, insert_announcements, supersede
from storage.ratings import settle_finish
from storage.rows import GameRow, GameStatus, MoveRow, Result, Settle, StalePly, Written
from storage.schema import games, guild_settings
from storage.schema import moves as moves_table
from storage.store import Store


class GameRepository:
    """What the table (a game and its log), turns, clocks, the computer player, aborts and the finder read and
    write of the games."""

    def __init__(self, store: Store) -> None:
        self._store = store

    async def game(self, game_id: int) -> GameRow | None:
        rows = await self._store.game_rows(GAME_BY_ID, {"game_id": game_id})
        return rows[0] if rows else None

    async def moves(self, game_id: int) -> list[str]:
        return await self._store.read(
            lambda connection: list(connection.execute(MOVES_OF_GAME, {"game_id": game_id}).scalars())
        )

    async def active_games_of(self, user_id: int, channel_id: int | None = None) -> list[GameRow]:
        """A member's active games; with ``channel_id``, those played there: in that channel or in that thread."""
        if channel_id is not None:  # every command's look-up: one statement built once
            return await self._store.game_rows(ACTIVE_GAMES_OF_HERE, {"user_id": user_id, "channel_id": channel_id})
        return await self._store.games_where(
            games.c.status == GameStatus.ACTIVE, sa.or_(games.c.player0_id == user_id, games.c.player1_id == user_id)
        )

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
        total = await self._store.rows(sa.select(sa.func.count().label("n")).where(*where))
        return [GameRow.from_sql(row) for row in await self._store.rows(page)], int(total[0]["n"])

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
        return await self._store.games_where(*where)

    async def games_with_status(self, status: str, *, guild_ids: list[int] | None = None) -> list[GameRow]:
        where = [games.c.status == status]
        if guild_ids is not None:
            where.append(games.c.guild_id.in_(guild_ids))
        return await self._store.games_where(*where)

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
        rows = await self._store.rows(sa.select(games).select_from(joined).where(*where).order_by(games.c.id))
        return [GameRow.from_sql(row) for row in rows]

    async def clocked_games(self, guild_ids: list[int] | None = None) -> list[GameRow]:
        """Active games with a clock (of those servers, when given): their deadlines are computed from them."""
        where = [games.c.status == GameStatus.ACTIVE, games.c.move_seconds.is_not(None)]
        if guild_ids is not None:
            where.append(games.c.guild_id.in_(guild_ids))
        return await self._store.games_where(*where)

    async def claim_reminder(
        self, game_id: int, idle_since: float, now: float, payload: dict[str, Any] | None = None
    ) -> bool:
        """Take the job of reminding a game's idle player: True for exactly one caller per idle spell, and only
        if nobody moved since ``idle_since``. The 'reminder' announcement (with ``payload``) is written in the
        same transaction, so the reminder is delivered (and retried) by the outbox even if posting fails now."""
        update = (
            sa.update(games)
            .where(
                games.c.id == game_id,
                games.c.status == GameStatus.ACTIVE,
                games.c.reminded_at.is_(None),
                sa.func.coalesce(games.c.last_move_at, games.c.created_at) == idle_since,
            )
            .values(reminded_at=now)
        )
        announce = Announce("reminder", payload or {})
        ids = await self._store.write(lambda connection: update_game(connection, update, announce, now))
        return ids is not None

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
                written = _conclude(connection, game_id, finish, settle, replacing.instead, now)
                return dataclasses.replace(written, superseded=True)
            return _conclude(connection, game_id, finish, settle, announce, now)

        return await self._store.write(body)

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
            return _conclude(connection, game_id, finish, settle, announce, now)

        return await self._store.write(body)

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
        return await self._store.write(lambda connection: update_game(connection, update, announce, now))


def update_game(
    connection: sa.Connection, update: sa.Update, announce: AnnounceArg, now: float
) -> tuple[int, ...] | None:
    """Inside the caller's transaction: run a conditional UPDATE of one game; if it matched, write ``announce``
    for it and return the new announcements' ids; None if it did not match (someone was first)."""
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


def log_opening(connection: sa.Connection, game_id: int, opening: list[MoveRow], now: float) -> None:
    """Inside the caller's transaction: the chance moves a game starts with (dice rolled before the first move),
    logged as it starts (an accepted challenge, a tournament's game)."""
    if opening:
        connection.execute(
            sa.insert(moves_table),
            [
                dict(game_id=game_id, ply=ply, move=move, player=player, user_id=user, created_at=now)
                for ply, (move, player, user) in enumerate(opening)
            ],
        )


def _conclude(
    connection: sa.Connection,
    game_id: int,
    finish: Result | None,
    settle: Settle | None,
    announce: AnnounceArg,
    now: float,
) -> Written:
    """The end of a move's (or a finish's) transaction: the result when the game ended, with both records and
    ratings (:func:`storage.ratings.settle_finish`), and the announcement, all in the caller's transaction."""
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
        settlement = settle_finish(connection, row, settle)
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


def _lock_active(connection: sa.Connection, game_id: int, expected_ply: int) -> None:
    # FOR UPDATE: a second writer of this game waits here until we commit, then sees the new ply (PostgreSQL
    # re-reads a locked row in READ COMMITTED). SQLite ignores it: BEGIN IMMEDIATE has serialised us already.
    row = connection.execute(LOCK_GAME, {"game_id": game_id}).first()
    if row is None or row.status != GameStatus.ACTIVE or row.ply != expected_ply:
        raise StalePly(game_id)


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
