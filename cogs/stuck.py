"""When the bot cannot take its turn: its search failed every attempt (the worker processes died), so the session
writes an apology to the outbox, once a spell, and this module delivers it in the game's channel or thread, with a
Try again button; the housekeeping sweep tries again later by itself, and the member may end the game with resign.

The button is a ``DynamicItem`` whose ``custom_id`` is ``bot-turn:<game id>``, so it works after a restart. It asks
the computer player to try again (``service.computer.try_again``), which checks the game and starts the turn.
"""

from __future__ import annotations

import logging
import re
from typing import Any

import discord

from cogs import present
from cogs.context import remember_members, service_of
from cogs.tree import IN_SERVER_ONLY, answer_error, send_private
from locales import N_, tr
from sessions.model import Notice, UserError

log = logging.getLogger(__name__)

LABEL = N_("Try again")
STUCK = N_(
    "{member}, I cannot find my move in {title} game #{id} right now: my thinking process stopped. "
    "I will try again by myself shortly. Press Try again to retry now, or end the game with /{game} resign."
)


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


async def tell_stuck(client: discord.Client, notice: Notice) -> int | None:
    """Deliver the bot's apology (its search failed): said in the game's channel (its thread, if it has one), with
    how to go on. Raising leaves it to the outbox's retry; the sweep retries the turn whether or not it is read."""
    game = notice.game
    guild = client.get_guild(game.guild_id)
    locale = guild.preferred_locale if guild else None
    member = next((player for side, player in enumerate(game.players) if side != game.ai_side), game.players[0])
    text = tr(
        locale,
        STUCK,
        member=present.mention(member),
        title=present.title(game.name, locale),
        id=game.id,
        game=game.name,
    )
    view = discord.ui.View(timeout=None)
    view.add_item(BotTurnButton(game.id, locale))
    channel = client.get_partial_messageable(notice.channel_id, guild_id=game.guild_id)
    message = await channel.send(text, view=view, nonce=f"a{notice.id}"[:25])
    log.warning("The bot cannot move in game %s now (its search failed); the game was told", game.id)
    return message.id
