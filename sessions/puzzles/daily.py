"""The daily puzzle: where a server's admins chose a channel and an hour for a game, one puzzle a day, posted at
that hour (UTC), and its solution with who solved it posted the next day. The day's puzzle is one that was not the
server's daily puzzle within a year (:data:`REPEAT_DAYS`), preferably one its members never tried, and the server's
own (mined from its games) before the shipped set's: a new server draws from the shipped set.

Exactly once, whatever the processes do: the day's puzzle is chosen by the first process to ask (a row keyed by
server, game and day), and posting it and posting its solution are each a claim under a lease
(``storage/puzzles.py``), as the outbox's deliveries are. A process that posts and dies before marking it lets
the lease lapse; the next one posts again with the same nonce, which Discord answers with the first message.
Days and hours come from the service's clock (tests move it).
"""

from __future__ import annotations

import games
from sessions.model.puzzles import DailyJob, day_of, due_at
from sessions.model.ratings import START_MU
from sessions.table import Table
from storage.database import DailyPuzzleRepository, PuzzleRepository
from storage.puzzles import DailyRow

LEASE = 120.0  # seconds a claimed post is one process's
REPEAT_DAYS = 366  # a daily puzzle may be a server's daily puzzle again this many days later, never sooner


class DailyPuzzles:
    def __init__(self, table: Table, dailies: DailyPuzzleRepository, puzzles: PuzzleRepository, worker: str) -> None:
        self._table = table
        self._dailies = dailies
        self._puzzles = puzzles
        self.worker = worker

    async def due(self, guild_ids: list[int]) -> list[DailyJob]:
        """What is owed now in these servers (this process's): earlier days' solutions first, then today's
        puzzle, each claimed for this process."""
        if not guild_ids:
            return []
        now = self._table.clock()
        today = day_of(now)
        jobs: list[DailyJob] = []
        for guild_id, chosen in (await self._dailies.daily_settings(guild_ids)).items():
            for game, (channel_id, hour) in sorted(chosen.items()):
                if game not in games.names() or now < due_at(today, int(hour)):
                    continue
                for earlier in await self._dailies.dailies_to_reveal(guild_id, game, today):
                    job = await self._claim(earlier, "reveal", now)
                    if job is not None:
                        jobs.append(job)
                daily = await self._dailies.choose_daily(
                    guild_id, game, today, int(channel_id), START_MU, now, today - REPEAT_DAYS
                )
                if daily is not None and daily.posted_at is None:
                    job = await self._claim(daily, "post", now)
                    if job is not None:
                        jobs.append(job)
        return jobs

    async def _claim(self, daily: DailyRow, kind: str, now: float) -> DailyJob | None:
        claimed = await self._dailies.claim_daily(daily.guild_id, daily.game, daily.day, kind, self.worker, now, LEASE)
        if claimed is None:
            return None
        puzzle = await self._puzzles.puzzle(claimed.puzzle_id)
        if puzzle is None:
            return None
        if kind == "post":
            return DailyJob(kind, claimed, puzzle, claimed.channel_id)
        solvers, tried = await self._dailies.solvers(claimed.guild_id, claimed.puzzle_id)
        return DailyJob(kind, claimed, puzzle, claimed.channel_id, tuple(solvers), tried)

    async def done(self, job: DailyJob, message_id: int | None) -> bool:
        d = job.daily
        return await self._dailies.finish_daily(
            d.guild_id, d.game, d.day, job.kind, self.worker, self._table.clock(), message_id
        )

    async def failed(self, job: DailyJob) -> None:
        d = job.daily
        await self._dailies.release_daily(d.guild_id, d.game, d.day, job.kind, self.worker)

    async def daily_of_puzzle(self, guild_id: int, puzzle_id: int) -> DailyRow | None:
        """The daily post a puzzle was in this server, if it was one (its Solve button)."""
        return await self._dailies.daily_by_puzzle(guild_id, puzzle_id)
