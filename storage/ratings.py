"""Ratings and records: what a finished game writes to them (:func:`settle_finish`, inside the finishing
transaction of ``storage/games.py``) and what members read of them (a rating, a leaderboard, a game's rating
changes, a member's records and results against the bot). The rating arithmetic is the service's: storage gets
it as a pure ``settle`` callback and runs it under the locks below."""

from __future__ import annotations

import sqlalchemy as sa

from storage.rows import OUTCOMES, GameRow, GameStatus, RatingRow, RecordRow, Settle, Settlement
from storage.schema import games, rating_changes, ratings, records
from storage.seasons import settle_season
from storage.store import Store, insert_for


class RatingRepository:
    """What the records part (ratings, leaderboards and stats) reads."""

    def __init__(self, store: Store) -> None:
        self._store = store

    async def rating_changes(self, game_id: int) -> dict[int, tuple[float, float]]:
        """What finishing a rated game did to each player's rating: user -> (mu before, mu after)."""
        rows = await self._store.rows(sa.select(rating_changes).where(rating_changes.c.game_id == game_id))
        return {row["user_id"]: (row["before"], row["after"]) for row in rows}

    async def rating(self, guild_id: int, game: str, user_id: int) -> RatingRow | None:
        rows = await self._store.rows(
            sa.select(ratings).where(
                ratings.c.guild_id == guild_id, ratings.c.game == game, ratings.c.user_id == user_id
            )
        )
        return RatingRow(rows[0]["user_id"], rows[0]["mu"], rows[0]["sigma"], rows[0]["rated_games"]) if rows else None

    async def leaderboard(self, guild_id: int, game: str, limit: int) -> list[RatingRow]:
        # Sorted by the conservative estimate (mu - 3 sigma), as TrueSkill-style boards do, so one
        # lucky win does not put a newcomer on top.
        rows = await self._store.rows(
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
        rows = await self._store.rows(
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
        rows = await self._store.rows(
            sa.select(records)
            .where(records.c.guild_id == guild_id, records.c.user_id == user_id)
            .order_by(records.c.game)
        )
        return [RecordRow(r["game"], r["wins"], r["losses"], r["draws"]) for r in rows]


def settle_finish(connection: sa.Connection, row: GameRow, settle: Settle | None) -> Settlement:
    """Inside a game's finishing transaction: count the finished game in both records and, when rated and
    ``settle`` is given, both ratings (and the server's running season's).

    Lost updates are what this prevents: two games of one player finishing at once must both count. Each
    player's ``records`` row (created if missing) is the lock: taken with ``FOR UPDATE`` in user-id order, so
    two finishing transactions that share players wait for each other instead of deadlocking, and the ratings
    read next are the committed ones. On SQLite the write lock already serialises the two transactions."""
    outcome = OUTCOMES[row.winner]
    if row.against_bot:  # practice against the bot: unrated and not in the records; /stats reads the games
        return Settlement(outcome, {})
    dialect = connection.dialect.name
    key = (records.c.guild_id == row.guild_id, records.c.game == row.game)
    users = sorted(row.players)
    for user_id in users:  # one row at a time, in order: concurrent inserts of the same keys cannot deadlock
        connection.execute(
            insert_for(dialect, records)
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
                insert_for(dialect, ratings)
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
