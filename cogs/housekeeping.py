"""The clock of the background chores: every ``interval`` seconds, the session's housekeeping sweeps this process's
servers (expiries, reminders, clocks, tournaments, seasons, bot turns a dead process never took:
``sessions/housekeeping.py``), and delivers what it wrote. Nothing is decided here.
"""

from __future__ import annotations

import logging

from discord.ext import commands, tasks

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
            await self.service.housekeeping.sweep([guild.id for guild in self.bot.guilds])
        except DatabaseUnavailable:
            pass  # the next sweep tries again; the tracker has logged the outage once
        except Exception:  # a failed sweep must not stop the next one
            log.exception("Housekeeping sweep failed")

    @sweep.before_loop
    async def before_sweep(self) -> None:
        await self.bot.wait_until_ready()
