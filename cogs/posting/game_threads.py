"""Where a game is played once it begins: a thread per game, opened from the challenge message when the challenge is
accepted, so the moves, boards, reminders and result of one game stay together and the channel keeps one line per
game (the challenge message becomes the game's header: the players and a link to the thread, and finally the result).

The header is written when the game starts and when it ends, never per move: a move costs one Discord request,
its reply (issue 11). The running score is in the thread, on every board.

Without the permission to open threads the game is played in the channel, and the channel is told why once.

A game against the bot gets its own thread too, opened before the interaction is answered; the game follows it into
the thread (its first board loses the interaction it was to be delivered by) before the header is written, so a
process that dies at any point leaves the first board to the outbox, in the thread or, without one yet, in the
channel: never taken for delivered. The bot's turns are announced with the member's move before them, one message a
turn; the session starts the bot's turn when it commits, and a first move of the bot's waits until this says where
the game is.
"""

from __future__ import annotations

import dataclasses
import logging

import discord

from cogs.plumbing.deadline import in_time
from cogs.plumbing.host import service_of
from cogs.posting.replies import FAILED, answer, post_report, reply_with_report
from cogs.presentation import game_text
from cogs.presentation.board_controls import report_components
from cogs.presentation.markup import QUIET
from cogs.presentation.names import display_names
from locales import N_, tr
from sessions.model import DatabaseUnavailable, Report

log = logging.getLogger(__name__)

ARCHIVE_MINUTES = 10080  # a week idle: games are slow, and a thread archived early hides the game from the list
NO_THREADS = N_(
    "I cannot open a thread per game in this channel (I need the Create Public Threads and Send Messages in "
    "Threads permissions), so games here are played in the channel."
)

# Channels already told why their games are not in threads: once per channel (and per process; after a restart
# a channel may read it once more, which is harmless and lets a fixed permission be noticed).
_told: set[int] = set()


async def wants_thread(interaction: discord.Interaction) -> bool | None:
    """True: open a thread here. False: the bot lacks the permission (say so). None: threads are off (for the
    whole bot, or this server's admins turned them off), or the challenge is already in a thread (a rematch in a
    game's thread is played in that thread)."""
    if (
        interaction.guild_id is None
        or not (await service_of(interaction).server_settings.settings_for(interaction.guild_id)).threads
    ):
        return None
    if not isinstance(interaction.channel, discord.TextChannel):
        return None
    permissions = interaction.app_permissions
    return permissions.create_public_threads and permissions.send_messages_in_threads


async def open_game_thread(interaction: discord.Interaction, report: Report) -> tuple[discord.Thread | None, bool]:
    """Open the accepted game's thread from the challenge message, record it, and answer the click by turning
    the challenge message into the game's header (the interaction's one response). Returns the thread, or None
    when the game stays in the channel (the caller then answers the click with the first board, as without
    threads), and whether the channel should be told why (:func:`tell_once`, after that answer)."""
    try:
        wanted = await wants_thread(interaction)
    except DatabaseUnavailable:  # the game is committed: it is played in the channel rather than not announced
        wanted = None
    if not wanted or interaction.message is None:
        return None, wanted is False
    service = service_of(interaction)
    game = report.game
    name = game_text.thread_name(interaction.guild_locale, game, await display_names(interaction.guild, game))
    try:  # a slow Discord may take seconds to open it: the click is held meanwhile
        creating = interaction.message.create_thread(name=name, auto_archive_duration=ARCHIVE_MINUTES)
        thread = await in_time(interaction, creating, update=True)
    except discord.Forbidden:  # the permissions changed, or a channel override the interaction did not show
        return None, True
    except (discord.HTTPException, TimeoutError, OSError) as error:
        log.warning("Could not open a thread for game %s; it is played in the channel: %s", game.id, error)
        return None, False
    try:
        game = await service.announcements.follow_thread(
            game.id, thread.id
        )  # what the game still owes goes to the thread too
    except DatabaseUnavailable:  # the game is not recorded in its thread: it is played in the channel
        log.warning("Could not move game %s into its thread: the database is unavailable", game.id)
        return None, False
    locale = interaction.guild_locale
    header = {"content": game_text.header_text(locale, game, game_text.heading(locale, report)), "view": None}
    try:
        if interaction.response.is_done():  # held while the thread was opened
            await interaction.edit_original_response(**header, allowed_mentions=QUIET)
        else:
            await interaction.response.edit_message(**header, allowed_mentions=QUIET)
    except (discord.HTTPException, TimeoutError, OSError) as error:  # the game's end rewrites the header
        log.warning("Could not turn challenge %s into its header: %s", game.id, error)
    return thread, False


async def tell_once(interaction: discord.Interaction) -> None:
    """Say in the channel, once, why its games are not in threads: a public followup of the click, sent after
    its own answer (a followup is a webhook message, so it needs no channel permission of the bot)."""
    channel_id = interaction.channel_id
    if channel_id is None or channel_id in _told or not interaction.response.is_done():
        return
    _told.add(channel_id)
    try:
        await interaction.followup.send(tr(interaction.guild_locale, NO_THREADS))
    except (discord.HTTPException, TimeoutError, OSError) as error:
        log.info("Could not say why there are no threads in %s: %s", channel_id, error)


async def announce_start(interaction: discord.Interaction, report: Report) -> None:
    """The accepted game's first board: in its new thread (the click turns the challenge message into the game's
    header), or else in the challenge message itself; with the first move's components."""
    service = service_of(interaction)
    buttons = await report_components(service, report, interaction.guild_locale)
    thread, tell = await open_game_thread(interaction, report)  # answers the click with the game's header
    if thread is None:
        await answer(interaction, report, buttons, edit=True)  # the challenge message becomes the first board
        if tell:
            await tell_once(interaction)
        return
    # The first board opens the thread. If this post fails the outbox posts it there (the game's owed
    # announcements followed it into the thread).
    await post_report(interaction.client, service, thread, report, buttons)


# --- a game against the bot ---------------------------------------------------------------------------------------


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
    thread = await _open_practice_thread(interaction, report) if wanted else None
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
        text = game_text.header_text(locale, game, game_text.heading(locale, report))
        callback = await interaction.response.send_message(text, allowed_mentions=QUIET)
        if callback.message_id is not None:  # the header: the game's end writes its result there
            await service.challenges.posted(game.id, callback.message_id)
    except FAILED as error:
        log.warning("Could not write the header of game %s: %s", game.id, error)
    if report.held:  # the bot's first move announces the start with it, in the thread: it may go on now
        service.announcements.sending(game.id, report.announcement_id or 0)
    else:  # the member moves first: the first board carries what they tap, as every board of a game in play
        buttons = await report_components(service, report, locale)
        await post_report(interaction.client, service, thread, report, buttons)


async def _open_practice_thread(interaction: discord.Interaction, report: Report) -> discord.Thread | None:
    channel = interaction.channel
    if not isinstance(channel, discord.TextChannel):
        return None
    game = report.game
    name = game_text.thread_name(interaction.guild_locale, game, await display_names(interaction.guild, game))
    try:
        return await channel.create_thread(
            name=name, type=discord.ChannelType.public_thread, auto_archive_duration=ARCHIVE_MINUTES
        )
    except FAILED as error:  # no permission after all, or Discord failed: the game is played in the channel
        log.warning("Could not open a thread for game %s; it is played in the channel: %s", game.id, error)
        return None
