"""Queries for challenges: a game row before it starts. Inserting one (one open challenge per pair, one rematch per
game: unique indexes decide), accepting it or taking its open seat (the game starts, its opening dice logged, in one
commit), its other transitions (declined, withdrawn, expired) and the look-ups before them. No policy here (limits,
who may): that is the service's (sessions/challenges.py, sessions/open_challenges.py)."""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa

from storage.games import log_opening, update_game
from storage.outbox import AnnounceArg
from storage.rows import OPEN_SEAT, DuplicateChallenge, DuplicateRematch, GameRow, GameStatus, MoveRow
from storage.schema import OPEN_CHALLENGE_INDEX, REMATCH_INDEX, games
from storage.store import Store


class ChallengeRepository:
    """What the challenges and open challenges parts read and write of the challenges."""

    def __init__(self, store: Store) -> None:
        self._store = store

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
            return await self._store.write(body)
        except sa.exc.IntegrityError as error:
            if OPEN_CHALLENGE_INDEX in str(error.orig):
                raise DuplicateChallenge(guild_id, players) from error
            if REMATCH_INDEX in str(error.orig) or "rematch_of" in str(error.orig):
                raise DuplicateRematch(rematch_of) from error
            raise

    async def open_challenge_between(self, guild_id: int, a: int, b: int) -> GameRow | None:
        rows = await self._store.games_where(
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
        rows = await self._store.rows(
            sa.select(sa.func.count().label("n")).where(
                games.c.guild_id == guild_id, games.c.challenger_id == user_id, games.c.status == GameStatus.CHALLENGE
            )
        )
        return int(rows[0]["n"])

    async def rematch_of(self, game_id: int) -> GameRow | None:
        """The challenge or game that is the rematch of ``game_id``, if one was offered."""
        rows = await self._store.games_where(games.c.rematch_of == game_id)
        return rows[0] if rows else None

    async def expirable(self, now: float, *, guild_ids: list[int] | None = None) -> list[GameRow]:
        """Open challenges past their time (of those servers, when given)."""
        where = [games.c.status == GameStatus.CHALLENGE, games.c.expires_at <= now]
        if guild_ids is not None:
            where.append(games.c.guild_id.in_(guild_ids))
        return await self._store.games_where(*where)

    async def open_challenges(self, guild_id: int) -> list[GameRow]:
        """A server's open challenges to anyone, the oldest first."""
        return await self._store.games_where(
            games.c.guild_id == guild_id,
            games.c.status == GameStatus.CHALLENGE,
            sa.or_(games.c.player0_id == OPEN_SEAT, games.c.player1_id == OPEN_SEAT),
        )

    async def set_message(self, game_id: int, column: str, message_id: int) -> None:
        if column != "challenge_message_id":
            raise ValueError(column)
        await self._store.write(
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
        update = sa.update(games).where(games.c.id == game_id, games.c.status == from_status).values(values)
        return await self._store.write(lambda connection: update_game(connection, update, announce, now))

    async def activate(self, game_id: int, now: float, opening: list[MoveRow], announce: AnnounceArg = None) -> bool:
        """Accept a challenge: make the game active and log its opening chance moves in one commit.
        False when the challenge is no longer open (declined, cancelled, expired or accepted twice)."""
        return await self.activate_announced(game_id, now, opening, announce) is not None

    async def activate_announced(
        self, game_id: int, now: float, opening: list[MoveRow], announce: AnnounceArg = None
    ) -> tuple[int, ...] | None:
        """:meth:`activate`, returning the ids of the announcements written (None: the challenge was not open)."""

        def body(connection: sa.Connection) -> tuple[int, ...] | None:
            ids = update_game(
                connection,
                sa.update(games)
                .where(games.c.id == game_id, games.c.status == GameStatus.CHALLENGE)
                .values(status=GameStatus.ACTIVE, started_at=now, last_move_at=now, ply=len(opening)),
                announce,
                now,
            )
            if ids is not None:
                log_opening(connection, game_id, opening, now)
            return ids

        return await self._store.write(body)

    async def take_open_seat(
        self, game_id: int, seat: int, user_id: int, now: float, opening: list[MoveRow], announce: AnnounceArg
    ) -> tuple[int, ...] | None:
        """A member takes the open seat of an open challenge: the game becomes theirs and active, its opening
        chance moves logged and its first announcement written, in one commit, only while the seat is still open
        (one conditional update: of members clicking at once, exactly one gets it). None: someone was first, or
        the challenge closed."""
        seat_column = games.c.player0_id if seat == 0 else games.c.player1_id

        def body(connection: sa.Connection) -> tuple[int, ...] | None:
            ids = update_game(
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
                log_opening(connection, game_id, opening, now)
            return ids

        return await self._store.write(body)
