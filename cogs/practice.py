"""Games against the bot: each gets its own thread like any game (the channel keeps one header line per game), and
the bot's turns are announced with the member's move before them, one message a turn (``cogs/announce.py``). The
session starts the bot's turn when it commits; a first move of the bot's waits until this says where the game is.

The thread is opened before the interaction is answered, and the game follows it into the thread (its first board
loses the interaction it was to be delivered by) before the header is written, so a process that dies at any point
leaves the first board to the outbox, in the thread or, without one yet, in the channel: never taken for delivered.
"""

from __future__ import annotations

import dataclasses
import logging

import discord

from cogs import present
from cogs.announce import reply_with_report
from cogs.context import display_names, service_of
from cogs.reply import FAILED, post_report
from cogs.threads import ARCHIVE_MINUTES, QUIET, header_text, tell_once, thread_name, wants_thread
from sessions.model import Report

log = logging.getLogger(__name__)


def parent_of(interaction: discord.Interaction) -> int | None:
    """The channel a thread belongs to (a game may be started in a thread of an allowed channel)."""
    return interaction.channel.parent_id if isinstance(interaction.channel, discord.Thread) else None


async def open_practice(interaction: discord.Interaction, report: Report) -> None:
    """Answer the interaction that started a game against the bot (a challenge of it, a rematch), and let the bot
    take its turn if it begins. In a text channel where the bot may open threads the answer is the game's header
    and the game is played in its new thread; elsewhere (threads off, no permission, already in a thread) the
    answer is the first board, as for any game."""
    # Held already (the database was slow): the answer must fill in that placeholder, so no thread.
    wanted = None if interaction.response.is_done() else await wants_thread(interaction)
    thread = await _open_thread(interaction, report) if wanted else None
    if thread is None:
        await reply_with_report(interaction, report)
        if wanted is False:
            await tell_once(interaction)
        return
    service = service_of(interaction)
    game = await service.announcements.follow_thread(
        report.game.id, thread.id
    )  # its first board goes to the thread now
    report = dataclasses.replace(report, game=game)
    locale = interaction.guild_locale
    try:
        text = header_text(locale, game, present.heading(locale, report))
        callback = await interaction.response.send_message(text, allowed_mentions=QUIET)
        if callback.message_id is not None:  # the header: the game's end writes its result there
            await service.challenges.posted(game.id, callback.message_id)
    except FAILED as error:
        log.warning("Could not write the header of game %s: %s", game.id, error)
    if report.held:  # the bot's first move announces the start with it, in the thread: it may go on now
        service.announcements.sending(game.id, report.announcement_id or 0)
    else:
        await post_report(interaction.client, service, thread, report, {})


async def _open_thread(interaction: discord.Interaction, report: Report) -> discord.Thread | None:
    channel = interaction.channel
    if not isinstance(channel, discord.TextChannel):
        return None
    game = report.game
    name = thread_name(interaction.guild_locale, game, await display_names(interaction.guild, game))
    try:
        return await channel.create_thread(
            name=name, type=discord.ChannelType.public_thread, auto_archive_duration=ARCHIVE_MINUTES
        )
    except FAILED as error:  # no permission after all, or Discord failed: the game is played in the channel
        log.warning("Could not open a thread for game %s; it is played in the channel: %s", game.id, error)
        return None
