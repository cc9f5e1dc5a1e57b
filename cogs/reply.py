"""Answering a member's action with its announcement: the board, the moves and the next player, in one request.

The announcement was written with the action, in the same transaction (the outbox). The reply carries it and
tells the service so (``service.delivered``). A failure is logged and left to the outbox, never shown as an
error: the action was committed. Which buttons a message carries is the caller's choice, so this module knows
nothing of the buttons that lead back to it (a finished game's Rematch, a challenge's Accept).
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

import discord

from cogs import present
from cogs.context import PLAYING_LAYOUT, board_image, service_of
from cogs.threads import update_header
from locales import N_, tr
from sessions.service import GameService, ReplyTo, Report
from sessions.vocabulary import GameStatus

log = logging.getLogger(__name__)

RENDER_BEFORE_DEFER = 2.0  # seconds: past this, defer and finish the reply by editing it (Discord allows 3 s)
ALREADY_ANSWERED = 40060  # Discord's code for an interaction answered already
FAILED = (discord.HTTPException, TimeoutError, OSError)

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
    announcement's nonce, and note it delivered. A failure leaves it to the outbox, which posts in the same
    place."""
    game = report.game
    guild = client.get_guild(game.guild_id)
    locale = guild.preferred_locale if guild else None
    announcement_id = report.announcement_id or 0
    try:
        text, file = await report_message(guild, service, locale, report)
        message = await channel.send(text, file=file, nonce=nonce(announcement_id), **buttons)
        service.delivered(game.id, announcement_id, message.id)
    except FAILED as error:
        log.warning("Posting announcement %s failed; the outbox will deliver it: %s", announcement_id, error)
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


async def _redirect_to_thread(
    interaction: discord.Interaction, report: Report, thread_id: int, buttons: dict[str, Any]
) -> None:
    """The board goes to the thread, where the game is followed, and the member is told privately where (two
    requests instead of one)."""
    try:
        await interaction.response.send_message(
            tr(interaction.locale, "Done. The board is in {thread}.", thread=f"<#{thread_id}>"), ephemeral=True
        )
    except FAILED as error:
        log.info("Could not point %s to the thread: %s", interaction.user.id, error)
    thread = interaction.client.get_partial_messageable(thread_id, guild_id=report.game.guild_id)
    await post_report(interaction.client, service_of(interaction), thread, report, buttons)


async def _reply(interaction: discord.Interaction, report: Report, buttons: dict[str, Any], *, edit: bool) -> None:
    service = service_of(interaction)
    locale = interaction.guild_locale
    game_id, announcement_id = report.game.id, report.announcement_id or 0
    drawing = asyncio.ensure_future(report_message(interaction.guild, service, locale, report))
    try:
        try:
            text, file = await asyncio.wait_for(asyncio.shield(drawing), RENDER_BEFORE_DEFER)
        except TimeoutError:  # slow drawing: hold the interaction, then fill in the reply
            await (interaction.response.defer() if edit else interaction.response.defer(thinking=True))
            text, file = await drawing
            message = await interaction.edit_original_response(
                content=text, attachments=[file], **(buttons or {"view": None})
            )
            service.delivered(game_id, announcement_id, message.id)
            return
        if edit:
            callback = await interaction.response.edit_message(
                content=text, attachments=[file], **(buttons or {"view": None})
            )
        else:
            callback = await interaction.response.send_message(text, file=file, **buttons)
        service.delivered(game_id, announcement_id, callback.message_id)
    except discord.HTTPException as error:
        if error.code == ALREADY_ANSWERED:  # a retried answer that Discord had applied: it is there
            try:
                original = await interaction.original_response()
                service.delivered(game_id, announcement_id, original.id)
            except discord.HTTPException as lookup:
                log.warning("Could not find the reply that was answered twice: %s", lookup)
            return
        log.warning("Reply for announcement %s failed; the outbox will deliver it: %s", announcement_id, error)
    except (TimeoutError, OSError) as error:
        log.warning("Reply for announcement %s failed; the outbox will deliver it: %s", announcement_id, error)


async def reply_with_closed(interaction: discord.Interaction, status: str, announcement_id: int) -> None:
    """The challenge message says it was declined or withdrawn, and loses its buttons."""
    service = service_of(interaction)
    text = tr(interaction.guild_locale, CLOSED[status], player=interaction.user.mention)
    try:
        callback = await interaction.response.edit_message(content=text, view=None)
        service.delivered(None, announcement_id, callback.message_id)
    except FAILED as error:
        log.warning("Closing challenge message failed; the outbox will update it: %s", error)
