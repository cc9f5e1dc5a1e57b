"""Cogs that run a loop in the background, stopped (and awaited) before the bot closes its database."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from discord.ext import commands, tasks


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
