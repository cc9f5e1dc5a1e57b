"""Queries for a server's seasons: their rows, their ratings (written with the all-time rating when a rated game
finishes, :func:`settle_season`) and boards, and their rollover. No policy here (how long a season lasts, when it
ends): that is the service's (sessions/seasons.py). A season's end is a conditional update inside the transaction
that writes its announcement, so a second process that tries the same finds it done and writes nothing."""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa

from storage.competition import DuplicateSeason, SeasonRow
from storage.outbox import Announce, insert_announcements
from storage.rows import GameRow, RatingRow, Settle
from storage.schema import OPEN_SEASON_INDEX, season_ratings, seasons
from storage.store import Store, write_audit


class SeasonRepository:
    """What the seasons part reads and writes."""

    def __init__(self, store: Store) -> None:
        self._store = store

    async def seasons_of(self, guild_id: int) -> list[SeasonRow]:
        """A server's seasons, the newest first."""
        rows = await self._store.rows(
            sa.select(seasons).where(seasons.c.guild_id == guild_id).order_by(seasons.c.number.desc())
        )
        return [SeasonRow(**{name: row[name] for name in SeasonRow.__dataclass_fields__}) for row in rows]

    async def seasons_due(self, now: float, guild_ids: Sequence[int] | None = None) -> list[SeasonRow]:
        """Running seasons whose end has come."""
        where = [seasons.c.closed_at.is_(None), seasons.c.ends_at <= now]
        if guild_ids is not None:
            where.append(seasons.c.guild_id.in_(list(guild_ids)))
        rows = await self._store.rows(sa.select(seasons).where(*where).order_by(seasons.c.guild_id))
        return [SeasonRow(**{name: row[name] for name in SeasonRow.__dataclass_fields__}) for row in rows]

    async def start_season(
        self, guild_id: int, channel_id: int, months: int, now: float, ends_at: float, admin_id: int
    ) -> int:
        """Turn seasons on: season ``n + 1`` runs from now. :class:`DuplicateSeason` if one is running."""

        def body(connection: sa.Connection) -> int:
            last = connection.execute(
                sa.select(sa.func.max(seasons.c.number)).where(seasons.c.guild_id == guild_id)
            ).scalar_one()
            number = (last or 0) + 1
            connection.execute(
                sa.insert(seasons).values(
                    guild_id=guild_id,
                    number=number,
                    channel_id=channel_id,
                    months=months,
                    starts_at=now,
                    ends_at=ends_at,
                )
            )
            details = {"season": number, "months": months}
            write_audit(connection, guild_id, admin_id, "season-start", details, now)
            return number

        try:
            return await self._store.write(body)
        except sa.exc.IntegrityError as error:
            if OPEN_SEASON_INDEX in str(error.orig) or "seasons" in str(error.orig):
                raise DuplicateSeason(guild_id) from error
            raise

    async def end_season(
        self,
        guild_id: int,
        number: int,
        now: float,
        announce: Announce,
        next_ends_at: float | None,
        admin_id: int | None = None,
    ) -> bool:
        """Close season ``number`` with its announcement and, with ``next_ends_at``, open the next one where it
        ended: True for exactly one caller (the conditional close), False if it was closed already. Games that
        finish meanwhile wait for this transaction (they read the open season ``FOR SHARE``), so the closed
        season's ratings are final when it commits."""

        def body(connection: sa.Connection) -> bool:
            closed = connection.execute(
                sa.update(seasons)
                .where(seasons.c.guild_id == guild_id, seasons.c.number == number, seasons.c.closed_at.is_(None))
                .values(closed_at=now)
                .returning(seasons.c.channel_id, seasons.c.months, seasons.c.ends_at)
            ).first()
            if closed is None:
                return False
            channel_id, months, ended = closed
            if next_ends_at is not None:
                connection.execute(
                    sa.insert(seasons).values(
                        guild_id=guild_id,
                        number=number + 1,
                        channel_id=channel_id,
                        months=months,
                        starts_at=ended,
                        ends_at=next_ends_at,
                    )
                )
            if admin_id is not None:
                write_audit(connection, guild_id, admin_id, "season-stop", {"season": number}, now)
            insert_announcements(
                connection,
                game_id=None,
                guild_id=guild_id,
                channel_id=channel_id,
                ply=None,
                announce=announce,
                now=now,
            )
            return True

        return await self._store.write(body)

    async def season_leaderboard(
        self, guild_id: int, season: int, game: str | None, limit: int
    ) -> list[tuple[str, int, float, float, int]]:
        """A season's best rated players: (game, user, mu, sigma, rated games), in one game or (None) every game,
        each game's best first, by the conservative estimate as the all-time board."""
        r = season_ratings
        where = [r.c.guild_id == guild_id, r.c.season == season]
        if game is not None:
            where.append(r.c.game == game)
        rows = await self._store.rows(
            sa.select(r).where(*where).order_by(r.c.game, (r.c.mu - 3 * r.c.sigma).desc(), r.c.user_id)
        )
        board: list[tuple[str, int, float, float, int]] = []
        shown: dict[str, int] = {}
        for row in rows:
            if shown.get(row["game"], 0) >= limit:
                continue
            shown[row["game"]] = shown.get(row["game"], 0) + 1
            board.append((row["game"], row["user_id"], row["mu"], row["sigma"], row["rated_games"]))
        return board


def settle_season(connection: sa.Connection, row: GameRow, settle: Settle) -> None:
    """Inside a rated game's finishing transaction: rate it again in the server's running season, if any, from
    the players' season ratings (a season starts everyone afresh). The season row is read ``FOR SHARE``: a season
    being closed waits for this game, or this game for it."""
    guild_id, game, players = row.guild_id, row.game, sorted(row.players)
    number = connection.execute(
        sa.select(seasons.c.number)
        .where(seasons.c.guild_id == guild_id, seasons.c.closed_at.is_(None))
        .with_for_update(read=True)
    ).scalar()
    if number is None:
        return
    r = season_ratings
    key = (r.c.guild_id == guild_id, r.c.season == number, r.c.game == game)
    found = {
        stored["user_id"]: RatingRow(stored["user_id"], stored["mu"], stored["sigma"], stored["rated_games"])
        for stored in connection.execute(
            sa.select(r).where(*key, r.c.user_id.in_(players)).order_by(r.c.user_id).with_for_update()
        ).mappings()
    }
    for user_id, (mu, sigma, _) in settle(row, {user: found.get(user) for user in players}).items():
        games_played = 1 + (found[user_id].rated_games if user_id in found else 0)
        values = dict(mu=mu, sigma=sigma, rated_games=games_played)
        if user_id in found:
            connection.execute(sa.update(r).where(*key, r.c.user_id == user_id).values(values))
        else:
            connection.execute(
                sa.insert(r).values(guild_id=guild_id, season=number, game=game, user_id=user_id, **values)
            )


def reset_season_ratings(connection: sa.Connection, guild_id: int, game: str) -> int:
    """Inside ``reset_leaderboard``'s transaction: every season's ratings of the server in ``game`` go too."""
    gone = connection.execute(
        sa.delete(season_ratings).where(season_ratings.c.guild_id == guild_id, season_ratings.c.game == game)
    )
    return int(gone.rowcount)


def forget_season_player(connection: sa.Connection, guild_id: int, member_id: int) -> None:
    """Inside ``forget_member``'s transaction: the member's season ratings in the server go."""
    connection.execute(
        sa.delete(season_ratings).where(season_ratings.c.guild_id == guild_id, season_ratings.c.user_id == member_id)
    )
