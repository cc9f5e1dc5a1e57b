"""The loops that run beside the interactions, each a cog whose loop is stopped (and awaited) before the bot closes
its database: the outbox's round (the :class:`Announcer`), housekeeping's sweep and puzzle mining. They are clocks
only: what they deliver, sweep or mine is the session's (``sessions/delivery.py``, ``sessions/housekeeping.py``,
``sessions/puzzles/mining.py``), each for this process's servers only. The daily puzzles' loop posts, so it stands
with its posts (``cogs/deliveries/daily_puzzles.py``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

from discord.ext import commands, tasks

from cogs.plumbing.host import GameService, ServiceHost, client_service
from sessions.model import DatabaseUnavailable

log = logging.getLogger(__name__)


class BackgroundCog(commands.Cog):
    """A cog whose ``loop`` runs from load until :meth:`stop`."""

    loop: tasks.Loop[Any]

    async def cog_load(self) -> None:
        self.loop.start()

    async def cog_unload(self) -> None:
        self.loop.cancel()

    async def stop(self) -> None:
        """Cancel the loop and wait until it has really ended: it may be inside a database call."""
        task = self.loop.get_task()
        self.loop.cancel()
        if task is not None and not task.done():
            with contextlib.suppress(asyncio.CancelledError):
                await task


class Announcer(BackgroundCog):
    """Delivers what is owed in the outbox: at start-up, then every ``interval`` seconds (the session hands each
    owed announcement to ``cogs.deliveries.announcements.deliver``)."""

    def __init__(self, bot: commands.Bot, interval: float) -> None:
        self.bot = bot
        self.deliver_pending.change_interval(seconds=interval)
        self.loop = self.deliver_pending

    @tasks.loop(seconds=5)
    async def deliver_pending(self) -> None:
        try:
            await client_service(self.bot).delivery.deliver_now()
        except DatabaseUnavailable:  # the next round delivers it; the tracker has logged the outage
            pass
        except Exception:  # a failed round must not stop the next one
            log.exception("Delivering pending announcements failed")

    @deliver_pending.before_loop
    async def before_delivering(self) -> None:
        await self.bot.wait_until_ready()


class HousekeepingCog(BackgroundCog):
    """Every ``interval`` seconds, the session's housekeeping sweeps this process's servers (expiries, reminders,
    clocks, tournaments, seasons, bot turns a dead process never took) and delivers what it wrote. Nothing is
    decided here."""

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


class PuzzleMiner(BackgroundCog):
    """Mines this process's servers' finished games, one at a time, every ``interval`` seconds while there are
    any (the shipped set is stored at start-up: ``bot.py``)."""

    def __init__(self, host: ServiceHost, bot: commands.Bot, interval: float) -> None:
        self.host, self.bot = host, bot
        self.mine.change_interval(seconds=interval)
        self.loop = self.mine

    @tasks.loop(seconds=60)
    async def mine(self) -> None:
        try:
            while await self.host.service.puzzle_mining.mine_next([guild.id for guild in self.bot.guilds]) is not None:
                pass
        except DatabaseUnavailable:
            pass  # the next round tries again; the tracker has logged the outage once
        except Exception:  # a failed round must not stop the next one
            log.exception("Mining puzzles failed")

    @mine.before_loop
    async def before_mining(self) -> None:
        await self.bot.wait_until_ready()
