"""Background chores: expire unanswered challenges, remind players who have not moved, run the clocks of
tournament games, advance tournaments and roll seasons over.

Each only writes to the outbox, in the same transaction as the change it announces (an expiry, a claimed
reminder, a loss on time, a round, a season's end); the outbox delivers them, with retries, so a failed post loses
nothing, and each change is conditional in the database, so several processes sweeping at once make it once.
"""

from __future__ import annotations

import logging

from discord.ext import commands, tasks

from cogs.announce import deliver_now, start_bot_turn
from cogs.background import BackgroundCog
from sessions.host import ServiceHost
from sessions.model import DatabaseUnavailable
from sessions.service import GameService

log = logging.getLogger(__name__)


class HousekeepingCog(BackgroundCog):
    def __init__(self, bot: commands.Bot, host: ServiceHost, interval: float) -> None:
        self.bot = bot
        self.host = host
        self.sweep.change_interval(seconds=interval)
        self.loop = self.sweep

    @property
    def service(self) -> GameService:
        return self.host.service

    @tasks.loop(seconds=60)
    async def sweep(self) -> None:
        try:
            # Only this process's servers: with shards, every server's chores are done by the process that has it.
            guilds = [guild.id for guild in self.bot.guilds]
            await self.service.challenges.expire_challenges(guilds)
            await self.service.turns.due_reminders(guilds)
            await self.service.clocks.run(guilds)  # reminders before a clock runs out; losses on time
            await self.service.tournaments.sweep(guilds)  # sign-ups that closed, rounds whose last game ended
            await self.service.seasons.roll(guilds)  # seasons whose end has come
            for game in await self.service.computer.games_to_move(guilds):  # a turn a dead process never took
                start_bot_turn(self.bot, game)
            await deliver_now(self.bot)  # post what the sweep wrote now, not at the next round
        except DatabaseUnavailable:
            pass  # the next sweep tries again; the tracker has logged the outage once
        except Exception:  # a failed sweep must not stop the next one
            log.exception("Housekeeping sweep failed")

    @sweep.before_loop
    async def before_sweep(self) -> None:
        await self.bot.wait_until_ready()
