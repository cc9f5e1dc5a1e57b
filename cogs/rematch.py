"""Rematch: a button on the message that announces a finished game. Either player may click it once: it
challenges the other to the same game again, sides swapped, same options and rated flag, with the ordinary
challenge message (Accept / Decline / Cancel) posted where the click was. Under a game against the bot, the member's
click starts the new game against it at once (sides swapped, the same level), where the click was.

The button is a ``DynamicItem`` whose ``custom_id`` is ``rematch:<game id>``, so it works after a restart.
"""

from __future__ import annotations

import re
from typing import Any

import discord

from cogs.board_buttons import rematch_button
from cogs.challenges import post_challenge
from cogs.context import remember_members, service_of
from cogs.deadline import in_time
from cogs.places import place_id
from cogs.practice import open_practice, parent_of
from cogs.reply import reply_to
from cogs.tree import IN_SERVER_ONLY, answer_error
from sessions.model import UserError


class RematchButton(discord.ui.DynamicItem[discord.ui.Button], template=r"rematch:(?P<game_id>[0-9]{1,19})"):
    def __init__(self, game_id: int, locale: Any = None) -> None:
        super().__init__(rematch_button(game_id, locale))
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> RematchButton:
        return cls(int(match["game_id"]), interaction.guild_locale)

    async def callback(self, interaction: discord.Interaction) -> None:
        remember_members(interaction)
        try:
            place = place_id(interaction)
            if place is None or interaction.channel_id is None:
                raise UserError(IN_SERVER_ONLY)
            service = service_of(interaction)
            if (await service.finder.game(self.game_id, place)).against_bot:
                report = await service.challenges.rematch_computer(
                    self.game_id,
                    interaction.user.id,
                    guild_id=place,
                    channel_id=interaction.channel_id,
                    reply=reply_to(interaction),
                    parent_id=parent_of(interaction),
                )
                await open_practice(interaction, report)
                return
            offering = service.challenges.rematch(
                self.game_id, interaction.user.id, guild_id=place, channel_id=interaction.channel_id
            )
            await post_challenge(interaction, await in_time(interaction, offering))
        except Exception as error:  # a button has no command tree behind it: answer here
            await answer_error(interaction, error)
