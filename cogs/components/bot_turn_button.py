"""Try again, under the bot's apology when it cannot take its turn (its search failed every attempt: the worker
processes died; the apology is an outbox announcement, ``cogs/deliveries/announcements.py``). The housekeeping sweep
tries again later by itself, and the member may end the game with resign.

The button is a ``DynamicItem`` whose ``custom_id`` is ``bot-turn:<game id>``, so it works after a restart. It asks
the computer player to try again (``service.computer.try_again``), which checks the game and starts the turn.
"""

from __future__ import annotations

import re
from typing import Any

import discord

from cogs.plumbing.host import service_of
from cogs.plumbing.places import IN_SERVER_ONLY
from cogs.posting.private_answers import answer_error, send_private
from cogs.presentation.names import remember_members
from locales import N_, tr
from sessions.model import UserError

LABEL = N_("Try again")


class BotTurnButton(discord.ui.DynamicItem[discord.ui.Button], template=r"bot-turn:(?P<game_id>[0-9]{1,19})"):
    def __init__(self, game_id: int, locale: Any = None) -> None:
        super().__init__(
            discord.ui.Button(
                label=tr(locale, LABEL), style=discord.ButtonStyle.primary, custom_id=f"bot-turn:{game_id}"
            )
        )
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> BotTurnButton:
        return cls(int(match["game_id"]), interaction.guild_locale)

    async def callback(self, interaction: discord.Interaction) -> None:
        remember_members(interaction)
        try:
            await self.try_again(interaction)
        except Exception as error:  # a button has no command tree behind it: answer here
            await answer_error(interaction, error)

    async def try_again(self, interaction: discord.Interaction) -> None:
        if interaction.guild_id is None:
            raise UserError(IN_SERVER_ONLY)
        await service_of(interaction).computer.try_again(self.game_id, interaction.guild_id, interaction.user.id)
        await send_private(interaction, "Trying again now.")
