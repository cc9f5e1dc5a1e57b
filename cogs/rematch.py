"""Rematch: a button on the message that announces a finished game. Either player may click it once: it
challenges the other to the same game again, sides swapped, same options and rated flag, with the ordinary
challenge message (Accept / Decline / Cancel) posted where the click was.

The button is a ``DynamicItem`` whose ``custom_id`` is ``rematch:<game id>``, so it works after a restart.
"""

from __future__ import annotations

import re
from typing import Any

import discord

from cogs.challenges import post_challenge
from cogs.context import remember_members, service_of
from cogs.deadline import in_time
from cogs.places import place_id
from cogs.tree import IN_SERVER_ONLY, answer_error
from locales import N_, tr
from sessions.service import Report, UserError

LABEL = N_("Rematch")


class RematchButton(discord.ui.DynamicItem[discord.ui.Button], template=r"rematch:(?P<game_id>[0-9]{1,19})"):
    def __init__(self, game_id: int, locale: Any = None) -> None:
        super().__init__(
            discord.ui.Button(
                label=tr(locale, LABEL), style=discord.ButtonStyle.primary, custom_id=f"rematch:{game_id}"
            )
        )
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
            offering = service_of(interaction).rematch(
                self.game_id, interaction.user.id, guild_id=place, channel_id=interaction.channel_id
            )
            await post_challenge(interaction, await in_time(interaction, offering))
        except Exception as error:  # a button has no command tree behind it: answer here
            await answer_error(interaction, error)


def rematch_view(game_id: int, locale: Any) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(RematchButton(game_id, locale))
    return view


def report_buttons(report: Report, locale: Any) -> dict[str, Any]:
    """The buttons a report's message carries: Rematch under a finished game's last announcement."""
    if report.finish is None or report.game.against_bot:  # against the bot, a new challenge of it is the rematch
        return {}
    if report.game.tournament_id is not None:  # a tournament pairs its players itself
        return {}
    return {"view": rematch_view(report.game.id, locale)}
