"""Background chores: expire unanswered challenges and remind players who have not moved."""

from __future__ import annotations

import logging

import discord
from discord.ext import commands, tasks

from locales import tr
from sessions.host import ServiceHost
from sessions.service import GameService

log = logging.getLogger(__name__)


class HousekeepingCog(commands.Cog):
    def __init__(self, bot: commands.Bot, host: ServiceHost, interval: float) -> None:
        self.bot = bot
        self.host = host
        self.sweep.change_interval(seconds=interval)

    @property
    def service(self) -> GameService:
        return self.host.service

    async def cog_load(self) -> None:
        self.sweep.start()

    async def cog_unload(self) -> None:
        self.sweep.cancel()

    @tasks.loop(seconds=60)
    async def sweep(self) -> None:
        try:
            await self.expire()
            await self.remind()
        except Exception:  # a failed sweep must not stop the next one
            log.exception("Housekeeping sweep failed")

    @sweep.before_loop
    async def before_sweep(self) -> None:
        await self.bot.wait_until_ready()

    async def expire(self) -> None:
        for row in await self.service.expire_challenges():
            channel = self.bot.get_channel(row.channel_id)
            if row.challenge_message_id is None or not isinstance(channel, discord.abc.Messageable):
                continue
            locale = getattr(getattr(channel, "guild", None), "preferred_locale", None)
            try:
                message = channel.get_partial_message(row.challenge_message_id)  # type: ignore[union-attr]
                await message.edit(content=tr(locale, "This challenge expired unanswered."), view=None)
            except discord.HTTPException:
                log.info("Could not update expired challenge %s", row.id)

    async def remind(self) -> None:
        hours = round(self.service.settings.reminder_after / 3600)
        for row, user_id in await self.service.due_reminders():
            channel = self.bot.get_channel(row.channel_id)
            if not isinstance(channel, discord.abc.Messageable):
                continue
            locale = getattr(getattr(channel, "guild", None), "preferred_locale", None)
            text = tr(
                locale,
                "<@{user}>, your {game} game #{id} is waiting for your move. "
                "If you do not move within {hours} h, your opponent may claim the win.",
                user=user_id,
                game=row.game,
                id=row.id,
                hours=hours,
            )
            try:
                await channel.send(text)
            except discord.HTTPException:
                log.info("Could not remind in game %s", row.id)
