"""Ratings and records: the ratings a finish writes (computed inside its transaction), what a finish reports, and
the leaderboards and stats members read.

A game's end, both records and both ratings are written in one transaction by storage; :meth:`Ratings.rate` is the
pure callback that transaction calls with the rows it locked, so two games of one player finishing at once both
count (docs/storage.md, "Atomic finish").
"""

from __future__ import annotations

from sessions.model import Finish, Game, Rating
from sessions.model.ratings import rate
from storage.database import RatingRepository
from storage.rows import GameRow, NewRating, RatingRow, Settlement


class Ratings:
    def __init__(self, ratings: RatingRepository) -> None:
        self._ratings = ratings

    @staticmethod
    def rate(row: GameRow, old: dict[int, RatingRow | None]) -> dict[int, NewRating]:
        """The settle callback: new ratings from the ones the finishing transaction read and locked. Pure, as it
        runs while those rows are locked."""
        stored = [old[user] for user in row.players]
        before = [Rating() if r is None else Rating(r.mu, r.sigma, r.rated_games) for r in stored]
        after = rate((before[0], before[1]), row.winner)
        return {u: NewRating(a.mu, a.sigma, b.mu) for u, b, a in zip(row.players, before, after, strict=True)}

    @staticmethod
    def finish(game: Game, settlement: Settlement) -> Finish:
        """The finish report: the result and, for rated games, each player's shown rating before and after. The
        records and ratings were written with the result, in the same transaction."""
        assert game.result_reason is not None and game.scores is not None
        changes = {
            user: ((Rating() if before is None else Rating(before.mu)).shown, Rating(after.mu).shown)
            for user, (before, after) in settlement.ratings.items()
        }
        return Finish(game.winner, game.result_reason, game.scores, changes)

    async def finish_of(self, game: Game) -> Finish:
        """A finished game's result and rating changes as stored (to tell it again, after a restart say)."""
        assert game.result_reason is not None and game.scores is not None
        changes = {
            user: (Rating(before).shown, Rating(after).shown)
            for user, (before, after) in (await self._ratings.rating_changes(game.id)).items()
        }
        return Finish(game.winner, game.result_reason, game.scores, changes)

    async def rating(self, guild_id: int, game: str, user_id: int) -> Rating:
        stored = await self._ratings.rating(guild_id, game, user_id)
        return Rating() if stored is None else Rating(stored.mu, stored.sigma, stored.rated_games)

    async def leaderboard(self, guild_id: int, game: str, limit: int = 10) -> list[tuple[int, Rating]]:
        rows = await self._ratings.leaderboard(guild_id, game, limit)
        return [(r.user_id, Rating(r.mu, r.sigma, r.rated_games)) for r in rows]

    async def stats(self, guild_id: int, user_id: int) -> list[tuple[str, int, int, int, Rating]]:
        """A member's (game, wins, losses, draws, rating) in each game they finished here."""
        return [
            (r.game, r.wins, r.losses, r.draws, await self.rating(guild_id, r.game, user_id))
            for r in await self._ratings.records_of(guild_id, user_id)
        ]

    async def results_against_bot(self, guild_id: int, user_id: int) -> list[tuple[str, int, int, int, int]]:
        """A member's (game, level, wins, losses, draws) against each level of the bot here (practice: unrated)."""
        return await self._ratings.results_against_bot(guild_id, user_id)
