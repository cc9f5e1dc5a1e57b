"""Queries for server admins: per-server settings, the audit log, cancelling a game, resetting a leaderboard and
forgetting a member. No policy here (bounds, defaults, who may do it): that is the service's and the cog's."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa

from storage.outbox import Announce, insert_announcements
from storage.puzzles import forget_puzzles
from storage.rows import OPEN, GameStatus
from storage.schema import (
    admin_audit,
    announcements,
    games,
    guild_settings,
    lesson_progress,
    moves,
    rating_changes,
    ratings,
    records,
)
from storage.seasons import forget_season_player, reset_season_ratings
from storage.store import Store, write_audit
from storage.tournaments import forget_competitor

SETTING_COLUMNS = (
    "disabled_games",
    "allowed_channels",
    "threads",
    "challenge_minutes",
    "reminder_hours",
    "daily_puzzles",
)


@dataclass(frozen=True)
class AuditRow:
    id: int
    guild_id: int
    user_id: int
    action: str
    details: dict[str, Any]
    created_at: float


@dataclass(frozen=True)
class Forgotten:
    """What forgetting a member changed in one server."""

    anonymous_id: int
    ratings: int
    records: int
    games: int
    cancelled: tuple[int, ...]  # games (and open challenges) that were still open, ended with no result


class AdminRepository:
    """What a server's settings and its admins' actions read and write: the settings, the audit log, cancelling a
    game, resetting a leaderboard, forgetting a member. Every change is written with its audit row in one
    transaction, so no admin action is ever done without a trace (nor traced without being done)."""

    def __init__(self, store: Store) -> None:
        self._store = store

    async def guild_settings(self, guild_id: int) -> dict[str, Any]:
        """The server's own choices: column -> value, NULL (the operator's default) for what it never set."""
        rows = await self._store.rows(sa.select(guild_settings).where(guild_settings.c.guild_id == guild_id))
        return {name: rows[0][name] for name in SETTING_COLUMNS} if rows else dict.fromkeys(SETTING_COLUMNS)

    async def update_guild_settings(
        self, guild_id: int, user_id: int, changes: dict[str, Any], now: float, details: dict[str, Any]
    ) -> None:
        """Change some settings of a server and audit it (action ``set``) in one transaction."""
        unknown = set(changes) - set(SETTING_COLUMNS)
        if unknown:
            raise ValueError(f"not a setting: {sorted(unknown)}")
        values = {**changes, "updated_at": now}
        upsert = (
            self._store.insert(guild_settings)
            .values(guild_id=guild_id, **values)
            .on_conflict_do_update(index_elements=[guild_settings.c.guild_id], set_=values)
        )

        def body(connection: sa.Connection) -> None:
            connection.execute(upsert)
            write_audit(connection, guild_id, user_id, "set", details, now)

        await self._store.write(body)

    async def audit(self, guild_id: int, user_id: int, action: str, details: dict[str, Any], now: float) -> None:
        await self._store.write(lambda connection: write_audit(connection, guild_id, user_id, action, details, now))

    async def audit_log(self, guild_id: int, limit: int = 20) -> list[AuditRow]:
        """A server's latest admin actions, newest first."""
        rows = await self._store.rows(
            sa.select(admin_audit)
            .where(admin_audit.c.guild_id == guild_id)
            .order_by(admin_audit.c.id.desc())
            .limit(limit)
        )
        return [AuditRow(**{name: row[name] for name in AuditRow.__dataclass_fields__}) for row in rows]

    async def cancel_game(self, game_id: int, guild_id: int, user_id: int, now: float, announce: Announce) -> bool:
        """End an open challenge or a game in play with no result (status ``cancelled``, nothing rated or
        counted), with its announcement and audit row. False if it had already ended."""

        def body(connection: sa.Connection) -> bool:
            changed = _cancel(connection, game_id, guild_id, now, announce)
            if changed:
                write_audit(connection, guild_id, user_id, "cancel", {"game_id": game_id}, now)
            return changed

        return await self._store.write(body)

    async def reset_leaderboard(
        self, guild_id: int, game: str, user_id: int, now: float, *, with_records: bool
    ) -> tuple[int, int]:
        """Delete a server's ratings in one game (and its win/loss records if asked); (ratings, records)."""

        def body(connection: sa.Connection) -> tuple[int, int]:
            gone = connection.execute(sa.delete(ratings).where(ratings.c.guild_id == guild_id, ratings.c.game == game))
            reset_season_ratings(connection, guild_id, game)  # the seasons' boards too
            counted = 0
            if with_records:
                result = connection.execute(
                    sa.delete(records).where(records.c.guild_id == guild_id, records.c.game == game)
                )
                counted = result.rowcount
            details = {"game": game, "ratings": gone.rowcount, "records": counted, "with_records": with_records}
            write_audit(connection, guild_id, user_id, "reset-leaderboard", details, now)
            return gone.rowcount, counted

        return await self._store.write(body)

    async def forget_member(
        self,
        guild_id: int,
        member_id: int,
        anonymous_id: int,
        admin_id: int,
        now: float,
        announce: Announce,
    ) -> Forgotten:
        """Forget a member in one server: delete their ratings and records, end their open games with no result,
        and replace their id by ``anonymous_id`` in every game of the server (players, challenger, move log,
        rating history). The audit row names the anonymous id only: the log must not keep what was forgotten."""

        def body(connection: sa.Connection) -> Forgotten:
            mine = sa.or_(games.c.player0_id == member_id, games.c.player1_id == member_id)
            still_open = games.c.status.in_(OPEN)
            open_ids = (
                connection.execute(sa.select(games.c.id).where(games.c.guild_id == guild_id, mine, still_open))
                .scalars()
                .all()
            )
            cancelled = [game_id for game_id in open_ids if _cancel(connection, game_id, guild_id, now, announce)]
            game_ids = list(
                connection.execute(sa.select(games.c.id).where(games.c.guild_id == guild_id, mine)).scalars()
            )
            for column in ("player0_id", "player1_id", "challenger_id"):
                connection.execute(
                    sa.update(games)
                    .where(games.c.guild_id == guild_id, games.c[column] == member_id)
                    .values({column: anonymous_id})
                )
            if game_ids:
                connection.execute(
                    sa.update(moves)
                    .where(moves.c.game_id.in_(game_ids), moves.c.user_id == member_id)
                    .values(user_id=anonymous_id)
                )
                connection.execute(
                    sa.update(rating_changes)
                    .where(rating_changes.c.game_id.in_(game_ids), rating_changes.c.user_id == member_id)
                    .values(user_id=anonymous_id)
                )
                # Delivered announcements are delivery bookkeeping only; their payloads may name the member.
                connection.execute(
                    sa.delete(announcements).where(
                        announcements.c.game_id.in_(game_ids), announcements.c.delivered_at.is_not(None)
                    )
                )
            gone_ratings = connection.execute(
                sa.delete(ratings).where(ratings.c.guild_id == guild_id, ratings.c.user_id == member_id)
            )
            gone_records = connection.execute(
                sa.delete(records).where(records.c.guild_id == guild_id, records.c.user_id == member_id)
            )
            forget_puzzles(connection, guild_id, member_id, anonymous_id)
            forget_season_player(connection, guild_id, member_id)
            forget_competitor(connection, guild_id, member_id, anonymous_id, now)  # the tournaments
            connection.execute(
                sa.delete(lesson_progress).where(
                    lesson_progress.c.guild_id == guild_id, lesson_progress.c.user_id == member_id
                )
            )
            forgotten = Forgotten(
                anonymous_id, gone_ratings.rowcount, gone_records.rowcount, len(game_ids), tuple(cancelled)
            )
            details = {
                "anonymous_id": anonymous_id,
                "ratings": forgotten.ratings,
                "records": forgotten.records,
                "games": forgotten.games,
                "cancelled": list(forgotten.cancelled),
            }
            write_audit(connection, guild_id, admin_id, "forget-member", details, now)
            return forgotten

        return await self._store.write(body)


def _cancel(connection: sa.Connection, game_id: int, guild_id: int, now: float, announce: Announce) -> bool:
    # Conditional on the status: a move committed first wins, and the admin is told the game is over.
    result = connection.execute(
        sa.update(games)
        .where(games.c.id == game_id, games.c.guild_id == guild_id, games.c.status.in_(OPEN))
        .values(status=GameStatus.CANCELLED, finished_at=now, result_reason="cancelled")
        .returning(games.c.id, games.c.channel_id, games.c.ply)
    )
    row = result.mappings().first()
    if row is None:
        return False
    insert_announcements(
        connection,
        game_id=game_id,
        guild_id=guild_id,
        channel_id=row["channel_id"],
        ply=row["ply"],
        announce=announce,
        now=now,
    )
    return True
