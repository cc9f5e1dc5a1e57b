"""Seasons: when a server's admins turn them on, rated games also count in the running season's own ratings
(everyone starts a season afresh), the leaderboards rank that season, earlier seasons stay readable, and each
season's end is announced with its best players.

A season ends when the sweep finds its end has come: one transaction closes it, opens the next and writes the
announcement, and only if it is still open, so the rollover happens once however many processes sweep. Games
finishing at that moment wait for it, or it for them (``storage.competition.settle_season``).
"""

from __future__ import annotations

from competition.season import SEASON_MONTHS, add_months
from sessions.events import GameFinished, SeasonOver
from sessions.model import AnnouncementKind, Rating, UserError
from sessions.table import Table
from storage.competition import DuplicateSeason, SeasonRow
from storage.database import SeasonRepository
from storage.outbox import Announce

Season = SeasonRow
TOP_SHOWN = 3  # players named per game when a season ends


class Seasons:
    def __init__(self, table: Table, seasons: SeasonRepository) -> None:
        self._table = table
        self._seasons = seasons

    async def of_server(self, guild_id: int) -> list[Season]:
        """Every season of the server, the newest (the running one, if any) first."""
        return await self._seasons.seasons_of(guild_id)

    async def running(self, guild_id: int) -> Season | None:
        seasons = await self.of_server(guild_id)
        return seasons[0] if seasons and seasons[0].closed_at is None else None

    async def start(self, guild_id: int, channel_id: int, months: int, admin_id: int) -> Season:
        """Turn seasons on: one of ``months`` starts now, and the next ones follow it; its end is announced in
        ``channel_id``."""
        if months not in SEASON_MONTHS:
            raise UserError("A season lasts 1, 2, 3, 4, 6 or 12 months.")
        now = self._table.clock()
        try:
            await self._seasons.start_season(guild_id, channel_id, months, now, add_months(now, months), admin_id)
        except DuplicateSeason as error:
            raise UserError("A season is already running here. Stop it first to start another.") from error
        running = await self.running(guild_id)
        assert running is not None
        return running

    async def stop(self, guild_id: int, admin_id: int) -> Season:
        """Turn seasons off: the running season ends now, with its announcement; no next one starts."""
        running = await self.running(guild_id)
        if running is None:
            raise UserError("No season is running here.")
        announce = Announce(AnnouncementKind.SEASON_END, {"season": running.number, "next": None})
        now = self._table.clock()
        if not await self._seasons.end_season(guild_id, running.number, now, announce, None, admin_id):
            raise UserError("No season is running here.")
        self._table.events.publish(SeasonOver(guild_id, running.number))
        return running

    async def roll(self, guild_ids: list[int] | None = None) -> int:
        """End every season whose time has come and start the next (in these servers); how many ended here."""
        now = self._table.clock()
        ended = 0
        for season in await self._seasons.seasons_due(now, guild_ids):
            next_end = add_months(season.ends_at, season.months)
            while next_end <= now:  # the bot was away for a whole season: the next one covers the gap
                next_end = add_months(next_end, season.months)
            announce = Announce(AnnouncementKind.SEASON_END, {"season": season.number, "next": season.number + 1})
            if await self._seasons.end_season(season.guild_id, season.number, now, announce, next_end):
                ended += 1
                self._table.events.publish(SeasonOver(season.guild_id, season.number))
        return ended

    async def follow_finish(self, event: GameFinished) -> None:
        """Follows a finished game: a season of its server whose time has come ends now, so the next game counts
        in the next season, not at the next sweep."""
        await self.roll([event.report.game.guild_id])

    async def season(self, guild_id: int, number: int) -> Season:
        for season in await self.of_server(guild_id):
            if season.number == number:
                return season
        raise UserError("This server has no season {number}.", number=number)

    async def leaderboard(
        self, guild_id: int, number: int, game: str | None, limit: int = 10
    ) -> dict[str, list[tuple[int, Rating]]]:
        """A season's best players per game (one game, or every game played in it)."""
        board: dict[str, list[tuple[int, Rating]]] = {}
        for name, user, mu, sigma, played in await self._seasons.season_leaderboard(guild_id, number, game, limit):
            board.setdefault(name, []).append((user, Rating(mu, sigma, played)))
        return board
