"""Telling that a game was aborted: the answer to the player who aborted it (``/<game> abort`` or a board's Abort
button), public so both players read it (and both are mentioned), and the header of a game played in a thread.

The outbox holds the same announcement (``AnnouncementKind.ABORTED``): a reply that fails is delivered later
(``cogs/announce.py``).
"""

from __future__ import annotations

import logging
from typing import Any

import discord

from cogs import present
from cogs.context import service_of
from cogs.deadline import PUBLIC_PLACEHOLDER
from cogs.reply import FAILED, nonce
from cogs.threads import QUIET, header_text
from cogs.tree import send_private
from locales import N_, tr
from sessions.model import ChannelLink, Game

log = logging.getLogger(__name__)

ABORTED = N_(
    "{player} aborted {title} game #{id} against {opponent} before it had really begun: no result, nothing counted."
)
DONE = N_("Done: game #{id} is aborted. {thread} says so.")


def aborted_text(locale: Any, game: Game, by: int) -> str:
    """The public words of an aborted game, mentioning both players."""
    opponent = next((user for user in game.players if user != by), game.players[1])
    return tr(
        locale,
        ABORTED,
        player=present.mention(by),
        title=present.title(game.name, locale),
        id=game.id,
        opponent=present.mention(opponent),
    )


async def reply_aborted(interaction: discord.Interaction, game: Game, announcement_id: int) -> None:
    """Answer the player who aborted ``game`` in public, where the game is played; from elsewhere (its channel,
    when it has a thread), privately, with the public words in its thread. A failure is left to the outbox."""
    service = service_of(interaction)
    text = aborted_text(interaction.guild_locale, game, interaction.user.id)
    try:
        if game.thread_id is not None and interaction.channel_id != game.thread_id:
            await send_private(interaction, DONE, id=game.id, thread=ChannelLink(game.thread_id))
            thread = interaction.client.get_partial_messageable(game.thread_id, guild_id=game.guild_id)
            message = await thread.send(text, nonce=nonce(announcement_id))
            service.announcements.delivered(game.id, announcement_id, message.id)
        elif interaction.response.is_done():  # held while the database was slow: fill in the placeholder
            message = await interaction.edit_original_response(content=text)
            interaction.extras.pop(PUBLIC_PLACEHOLDER, None)
            service.announcements.delivered(game.id, announcement_id, message.id)
        else:
            callback = await interaction.response.send_message(text)
            service.announcements.delivered(game.id, announcement_id, callback.message_id)
    except FAILED as error:
        log.warning("Announcing the abort of game %s failed; the outbox will: %s", game.id, error)
    await update_aborted_header(interaction.client, game)


async def update_aborted_header(client: discord.Client, game: Game) -> None:
    """The challenge message of a game played in a thread says it ended with no result (best-effort)."""
    if game.thread_id is None or game.challenge_message_id is None:
        return
    guild = client.get_guild(game.guild_id)
    locale = guild.preferred_locale if guild else None
    channel = client.get_partial_messageable(game.channel_id, guild_id=game.guild_id)
    try:
        await channel.get_partial_message(game.challenge_message_id).edit(
            content=header_text(locale, game), view=None, allowed_mentions=QUIET
        )
    except FAILED as error:
        log.info("Could not update the header of game %s: %s", game.id, error)
