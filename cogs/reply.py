"""Answering a member's action with its announcement: the board, the moves and the next player, in one request.

The announcement was written with the action, in the same transaction (the outbox). The reply carries it and
tells the announcements part so (``sending``, then ``delivered``). A failure is logged and left to the outbox,
never shown as an error: the action was committed. At worst (the board could not be drawn, the reply failed) the
member reads privately that it was done and the board follows, and the outbox posts the board. The reply is sent
within Discord's margin or deferred first (cogs/deadline.py). Which buttons a message carries is the caller's
choice, so this module knows nothing of the buttons that lead back to it (a finished game's Rematch, a challenge's
Accept).
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

import discord

from cogs import present
from cogs.context import PLAYING_LAYOUT, board_image, service_of
from cogs.deadline import PUBLIC_PLACEHOLDER, can_still_answer, defer, time_left
from cogs.threads import update_header
from cogs.tree import send_private
from locales import N_, tr
from sessions.model import ChannelLink, GameStatus, ReplyTo, Report
from sessions.service import GameService

log = logging.getLogger(__name__)

ALREADY_ANSWERED = 40060  # Discord's code for an interaction answered already
FAILED = (discord.HTTPException, TimeoutError, OSError)
ANNOUNCED = "announced"  # interaction.extras key: the reply carries the action's announcement
PLAYED = N_("Done: it is saved. The board follows in a moment.")

CLOSED = {
    GameStatus.DECLINED: N_("{player} declined the challenge."),
    GameStatus.CANCELLED: N_("{player} withdrew the challenge."),
}


def reply_to(interaction: discord.Interaction) -> ReplyTo:
    """What lets a later delivery find this interaction's reply."""
    return ReplyTo(interaction.application_id, interaction.token, time.time())


def nonce(announcement_id: int) -> str:
    """Discord drops a second message with the same enforced nonce: a resend after a lost answer posts nothing."""
    return f"a{announcement_id}"[:25]


async def report_message(
    guild: discord.Guild | None, service: GameService, locale: Any, report: Report
) -> tuple[str, discord.File]:
    """The words and the board image of a report, in ``locale``: drawn for a phone, as it carries components."""
    text = present.report_text(locale, report, present.heading(locale, report))
    return text, await board_image(guild, service, report.game, report.state, locale=locale, layout=PLAYING_LAYOUT)


async def post_report(
    client: discord.Client,
    service: GameService,
    channel: discord.abc.Messageable,
    report: Report,
    buttons: dict[str, Any],
) -> None:
    """Post a report's board in ``channel`` (the game's thread, when the member acted elsewhere) with the
    announcement's nonce, and note it delivered. A failure (Discord's, the drawing's, the database's) leaves it
    to the outbox, which posts in the same place."""
    game = report.game
    guild = client.get_guild(game.guild_id)
    locale = guild.preferred_locale if guild else None
    announcement_id = report.announcement_id or 0
    try:
        text, file = await report_message(guild, service, locale, report)
        service.announcements.sending(game.id, announcement_id)
        message = await channel.send(text, file=file, nonce=nonce(announcement_id), **buttons)
        service.announcements.delivered(game.id, announcement_id, message.id)
    except FAILED as error:
        log.warning("Posting announcement %s failed; the outbox will deliver it: %s", announcement_id, error)
        return
    except Exception:  # drawing: a bug, logged; the action was played all the same
        log.exception("Posting announcement %s failed; the outbox will deliver it", announcement_id)
        return
    await update_header(client, service, report)


async def answer(interaction: discord.Interaction, report: Report, buttons: dict[str, Any], *, edit: bool) -> None:
    """Answer the interaction with the report, in one request. ``edit`` replaces the message the clicked button
    is on (an accepted challenge), and its buttons with ``buttons``. A member who acted on a threaded game from
    outside its thread is told privately where the board went, and the board goes to the thread. When the action
    ended a game played in a thread, its challenge message then shows the result (best-effort, once per game)."""
    thread_id = report.game.thread_id
    if thread_id is not None and interaction.channel_id != thread_id and not edit:
        await _redirect_to_thread(interaction, report, thread_id, buttons)
        return
    await _reply(interaction, report, buttons, edit=edit)
    await update_header(interaction.client, service_of(interaction), report)


async def hold_place(interaction: discord.Interaction, report: Report) -> None:
    """Against the bot, an action the bot answers: its reply announces both in one message, which completes this
    interaction's "thinking" reply (the outbox delivery finds it through the interaction); acted on a threaded game
    from outside its thread, the member is told privately where, and the message goes to the thread. The bot's
    reply waits for this place (``sending``): held or not, it may go on once this returns."""
    thread_id = report.game.thread_id
    try:
        if interaction.response.is_done():
            return  # held already while the database was slow: the bot's reply fills that placeholder in
        if thread_id is not None and interaction.channel_id != thread_id:
            where = tr(interaction.locale, "Done. The board is in {thread}.", thread=f"<#{thread_id}>")
            await interaction.response.send_message(where, ephemeral=True)
        else:
            await interaction.response.defer(thinking=True)
    except FAILED as error:  # the bot's reply is posted in the game's channel instead
        log.info("Could not hold the reply to %s for the bot's turn: %s", interaction.user.id, error)
    finally:
        service_of(interaction).announcements.sending(report.game.id, report.announcement_id or 0)


async def _redirect_to_thread(
    interaction: discord.Interaction, report: Report, thread_id: int, buttons: dict[str, Any]
) -> None:
    """The board goes to the thread, where the game is followed, and the member is told privately where (two
    requests instead of one)."""
    try:
        await send_private(interaction, "Done. The board is in {thread}.", thread=ChannelLink(thread_id))
        interaction.extras[ANNOUNCED] = True
    except FAILED as error:
        log.info("Could not point %s to the thread: %s", interaction.user.id, error)
    thread = interaction.client.get_partial_messageable(thread_id, guild_id=report.game.guild_id)
    await post_report(interaction.client, service_of(interaction), thread, report, buttons)


async def tell_played(interaction: discord.Interaction) -> None:
    """The action was committed but its reply cannot carry the board: say privately that it is done and the board
    follows (the outbox posts it). Never "try again"; never raises."""
    if interaction.extras.get(ANNOUNCED) or not (interaction.response.is_done() or can_still_answer(interaction)):
        return  # the board is out, or the interaction is lost: the outbox speaks for it
    try:
        await send_private(interaction, PLAYED)
        interaction.extras[ANNOUNCED] = True
    except FAILED as error:
        log.info("Could not tell %s that the action was played: %s", interaction.user.id, error)


def is_announcement(message: discord.Message, text: str) -> bool:
    """Whether an interaction's reply found on Discord is the announcement (``text`` and its board), and not another
    answer to the same interaction (every other answer is private: a duplicate delivery's refusal, "done; the board
    follows"), nor a clicked message held while the database waited and never filled in (a challenge)."""
    if message.flags.ephemeral or message.flags.loading:
        return False
    return bool(message.attachments) or message.content.strip() == text.strip()


async def _reply(interaction: discord.Interaction, report: Report, buttons: dict[str, Any], *, edit: bool) -> None:
    service = service_of(interaction)
    locale = interaction.guild_locale
    game_id, announcement_id = report.game.id, report.announcement_id or 0
    drawing = asyncio.ensure_future(report_message(interaction.guild, service, locale, report))
    done, _ = await asyncio.wait({drawing}, timeout=time_left(interaction))
    if not done:  # slow drawing, or time spent waiting on the database: hold the interaction, then fill it in
        await defer(interaction, update=edit)
    try:
        text, file = await drawing
    except Exception:  # a bug in drawing, or its worker died: the action was played all the same
        log.exception("Drawing announcement %s failed; the outbox will post it", announcement_id)
        await tell_played(interaction)
        return
    view = buttons or {"view": None}
    try:
        service.announcements.sending(game_id, announcement_id)
        if interaction.response.is_done():  # deferred: fill in the placeholder (or the clicked message)
            message = await interaction.edit_original_response(content=text, attachments=[file], **view)
            interaction.extras.pop(PUBLIC_PLACEHOLDER, None)
            message_id: int | None = message.id
        elif edit:
            message_id = (await interaction.response.edit_message(content=text, attachments=[file], **view)).message_id
        else:
            message_id = (await interaction.response.send_message(text, file=file, **buttons)).message_id
        interaction.extras[ANNOUNCED] = True
        service.announcements.delivered(game_id, announcement_id, message_id)
    except discord.HTTPException as error:
        if error.code == ALREADY_ANSWERED:  # answered already: by this reply (a retry Discord had applied)?
            await _already_answered(interaction, game_id, announcement_id, text)
            return
        log.warning("Reply for announcement %s failed; the outbox will deliver it: %s", announcement_id, error)
        await tell_played(interaction)
    except (TimeoutError, OSError) as error:
        log.warning("Reply for announcement %s failed; the outbox will deliver it: %s", announcement_id, error)
        await tell_played(interaction)


async def _already_answered(interaction: discord.Interaction, game_id: int, announcement_id: int, text: str) -> None:
    """A retried reply that Discord had applied is there: it is delivered. Any other answer (a duplicate delivery
    of the interaction answered first) is not the announcement: the outbox posts it."""
    try:
        original = await interaction.original_response()
    except discord.HTTPException as lookup:
        log.warning("Could not find the reply that was answered twice: %s", lookup)
        return
    if is_announcement(original, text):
        interaction.extras[ANNOUNCED] = True
        service_of(interaction).announcements.delivered(game_id, announcement_id, original.id)
    else:
        log.info("Interaction %s had another answer; the outbox delivers %s", interaction.id, announcement_id)


async def reply_with_closed(interaction: discord.Interaction, status: str, announcement_id: int) -> None:
    """The challenge message says it was declined or withdrawn, and loses its buttons."""
    service = service_of(interaction)
    text = tr(interaction.guild_locale, CLOSED[status], player=interaction.user.mention)
    try:
        if interaction.response.is_done():  # deferred while the database was slow
            message_id: int | None = (await interaction.edit_original_response(content=text, view=None)).id
        else:
            message_id = (await interaction.response.edit_message(content=text, view=None)).message_id
        service.announcements.delivered(None, announcement_id, message_id)
    except FAILED as error:
        log.warning("Closing challenge message failed; the outbox will update it: %s", error)
