"""Answering a member's action with its announcement: the board, the moves and the next player, in one request.

The announcement was written with the action, in the same transaction (the outbox). The reply carries it and
tells the announcements part so (``sending``, then ``delivered``). A failure is logged and left to the outbox,
never shown as an error: the action was committed. At worst (the board could not be drawn, the reply failed) the
member reads privately that it was done and the board follows, and the outbox posts the board. The reply is sent
within Discord's margin or deferred first (``cogs/plumbing/deadline.py``). What follows the action (the bot's turn,
a tournament's next round) the session layer started when it committed; against the bot, the reply only holds the
place the bot's reply fills in.

Here too: an aborted game's public answer, the challenge message's answer when a challenge is declined or withdrawn,
a private game's latest interaction (its DM followups, ``cogs/deliveries/dms.py``), and the header of a game played
in a thread, which the game's end rewrites.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import discord

from cogs.plumbing.deadline import PUBLIC_PLACEHOLDER, can_still_answer, defer, reply_to, time_left
from cogs.plumbing.host import GameService, service_of
from cogs.plumbing.places import is_private
from cogs.posting.private_answers import send_private
from cogs.presentation import game_text
from cogs.presentation.board_controls import PLAYING_LAYOUT, report_controls, roll_label
from cogs.presentation.images import board_image
from cogs.presentation.markup import QUIET
from locales import N_, tr
from sessions.model import ChannelLink, DatabaseUnavailable, Game, GameStatus, LruCache, ReplyTo, Report

log = logging.getLogger(__name__)

ALREADY_ANSWERED = 40060  # Discord's code for an interaction answered already
FAILED = (discord.HTTPException, TimeoutError, OSError)
ANNOUNCED = "announced"  # interaction.extras key: the reply carries the action's announcement
PLAYED = N_("Done: it is saved. The board follows in a moment.")

CLOSED = {
    GameStatus.DECLINED: N_("{player} declined the challenge."),
    GameStatus.CANCELLED: N_("{player} withdrew the challenge."),
}
DONE = N_("Done: game #{id} is aborted. {thread} says so.")
PLAYED_FROM_STEP = N_("{title} #{id}: you played **{move}**.")
TOURNAMENT_ROUND = N_("**{name}**, round {round}")


def nonce(announcement_id: int) -> str:
    """Discord drops a second message with the same enforced nonce: a resend after a lost answer posts nothing."""
    return f"a{announcement_id}"[:25]


async def report_message(
    guild: discord.Guild | None,
    service: GameService,
    locale: Any,
    report: Report,
    buttons: dict[str, Any],
    picture: asyncio.Future[discord.File] | None = None,
) -> tuple[str, discord.File]:
    """The words and the board image of a report, in ``locale``: drawn for a phone, as it carries components
    (``buttons``, whose Roll button its words name); ``picture``: that image, already being drawn
    (:func:`start_picture`)."""
    text = game_text.report_text(locale, report, game_text.heading(locale, report), roll_label(buttons))
    return text, await (picture or start_picture(guild, service, locale, report))


def start_picture(
    guild: discord.Guild | None, service: GameService, locale: Any, report: Report
) -> asyncio.Future[discord.File]:
    """The board image of a report (drawn for a phone), handed to a drawing worker as soon as the caller yields:
    its words and components, which do not change the picture, are written while a worker draws it."""
    return asyncio.ensure_future(
        board_image(guild, service, report.game, report.state, locale=locale, layout=PLAYING_LAYOUT)
    )


async def post_report(
    client: discord.Client,
    service: GameService,
    channel: discord.abc.Messageable,
    report: Report,
    buttons: dict[str, Any],
    picture: asyncio.Future[discord.File] | None = None,
) -> None:
    """Post a report's board in ``channel`` (the game's thread, when the member acted elsewhere) with the
    announcement's nonce, and note it delivered; ``picture``: the board, already being drawn in the server's
    language (:func:`start_picture`). A failure (Discord's, the drawing's, the database's) leaves it to the outbox,
    which posts in the same place."""
    game = report.game
    guild = client.get_guild(game.guild_id)
    locale = guild.preferred_locale if guild else None
    announcement_id = report.announcement_id or 0
    try:
        text, file = await report_message(guild, service, locale, report, buttons, picture)
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


async def answer(
    interaction: discord.Interaction,
    report: Report,
    buttons: dict[str, Any],
    *,
    edit: bool,
    picture: asyncio.Future[discord.File] | None = None,
) -> None:
    """Answer the interaction with the report, in one request. ``edit`` replaces the message the clicked button
    is on (an accepted challenge), and its buttons with ``buttons``. A member who acted on a threaded game from
    outside its thread is told privately where the board went, and the board goes to the thread. When the action
    ended a game played in a thread, its challenge message then shows the result (best-effort, once per game)."""
    thread_id = report.game.thread_id
    if thread_id is not None and interaction.channel_id != thread_id and not edit:
        await _redirect_to_thread(interaction, report, thread_id, buttons, picture)
        return
    await _reply(interaction, report, buttons, edit=edit, picture=picture)
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
    interaction: discord.Interaction,
    report: Report,
    thread_id: int,
    buttons: dict[str, Any],
    picture: asyncio.Future[discord.File] | None,
) -> None:
    """The board goes to the thread, where the game is followed, and the member is told privately where (two
    requests instead of one)."""
    try:
        await send_private(interaction, "Done. The board is in {thread}.", thread=ChannelLink(thread_id))
        interaction.extras[ANNOUNCED] = True
    except FAILED as error:
        log.info("Could not point %s to the thread: %s", interaction.user.id, error)
    thread = interaction.client.get_partial_messageable(thread_id, guild_id=report.game.guild_id)
    await post_report(interaction.client, service_of(interaction), thread, report, buttons, picture)


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


async def _reply(
    interaction: discord.Interaction,
    report: Report,
    buttons: dict[str, Any],
    *,
    edit: bool,
    picture: asyncio.Future[discord.File] | None = None,
) -> None:
    service = service_of(interaction)
    locale = interaction.guild_locale
    game_id, announcement_id = report.game.id, report.announcement_id or 0
    drawing = asyncio.ensure_future(report_message(interaction.guild, service, locale, report, buttons, picture))
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


async def reply_with_report(interaction: discord.Interaction, report: Report, *, edit: bool = False) -> None:
    """Answer the member's interaction with the announcement of what they just did (with a Rematch button under a
    finished game). What follows the action (the bot's turn, a tournament's next round) the session layer started
    when it committed; against the bot, this reply only holds the place its reply fills in."""
    note_interaction(interaction, report.game)  # in a DM, what follows (the bot's move) follows this up
    picture: asyncio.Future[discord.File] | None = None
    try:
        if report.held:  # the bot's reply announces this with it, in one message
            await hold_place(interaction, report)
        else:
            service, locale = service_of(interaction), interaction.guild_locale
            picture = start_picture(interaction.guild, service, locale, report)
            await asyncio.sleep(0)  # the board goes to a worker first: its components are worked out meanwhile
            buttons = await report_controls(service, report, locale)
            await answer(interaction, report, buttons, edit=edit, picture=picture)
    except Exception as error:  # past the commit nothing is "try again": the outbox has the announcement
        if picture is not None and not picture.done():
            picture.cancel()
        after_commit_failed(report, error)
        await tell_played(interaction)


async def reply_from_step(interaction: discord.Interaction, report: Report, move: str) -> None:
    """Answer the pick that completed a move on a private step: the step now says the move was played and carries
    no menus nor board (a later press on it could only be refused), and the new board goes where the game is played,
    as when a member acts on a game outside its thread (two requests), or, against the bot, with the bot's reply.
    In a DM or group DM the board follows up this interaction: the bot cannot post there."""
    note_interaction(interaction, report.game)
    game = report.game
    locale = interaction.locale
    text = tr(locale, PLAYED_FROM_STEP, title=game_text.title(game.name, locale), id=game.id, move=move)
    try:
        if interaction.response.is_done():  # held while the database was slow: the step itself is held
            await interaction.edit_original_response(content=text, attachments=[], view=None)
        else:
            await interaction.response.edit_message(content=text, attachments=[], view=None)
    except FAILED as error:  # the step keeps its menus; a press on them is refused as out of date
        log.info("Could not mark the step of game %s as played: %s", game.id, error)
    service = service_of(interaction)
    try:
        if report.held:  # the bot's reply announces the move with its own, where the game is played
            service.announcements.sending(game.id, report.announcement_id or 0)
            return
        buttons = await report_controls(service, report, interaction.guild_locale)
        if is_private(game):
            await _follow_up(interaction, report, buttons)
            return
        channel = interaction.client.get_partial_messageable(game.announce_channel_id, guild_id=game.guild_id)
        await post_report(interaction.client, service, channel, report, buttons)
    except Exception as error:  # past the commit nothing is "try again": the outbox has the announcement
        after_commit_failed(report, error)


async def _follow_up(interaction: discord.Interaction, report: Report, buttons: dict[str, Any]) -> None:
    """A private game's board as a public followup of the interaction (its answer was the step's); a failure
    is left to the outbox, which follows up the game's latest interaction."""
    service = service_of(interaction)
    game_id, announcement_id = report.game.id, report.announcement_id or 0
    try:
        text, file = await report_message(interaction.guild, service, interaction.guild_locale, report, buttons)
        service.announcements.sending(game_id, announcement_id)
        message = await interaction.followup.send(text, file=file, wait=True, **buttons)
        service.announcements.delivered(game_id, announcement_id, message.id)
    except FAILED as error:
        log.warning("Following up announcement %s failed; the outbox will deliver it: %s", announcement_id, error)


def after_commit_failed(report: Report, error: Exception) -> None:
    """Log a failure after an action was committed: one line for a known condition (the database, Discord), a
    traceback for a bug. The announcement stays owed: the outbox delivers it."""
    if isinstance(error, (DatabaseUnavailable, *FAILED)):
        log.warning("Announcing %s failed after its commit; the outbox will: %s", report.announcement_id, error)
    else:
        log.error("Announcing %s failed after its commit; the outbox will", report.announcement_id, exc_info=error)


# --- a private game's latest interaction ---------------------------------------------------------------------------


# game -> its latest interaction (in this process) and that member's language: what may still follow up.
_latest: LruCache[int, tuple[ReplyTo, Any]] = LruCache(4096)


def note_interaction(interaction: discord.Interaction, game: Game) -> None:
    """Remember a private game's latest interaction: the bot's answer to a move follows it up."""
    if is_private(game):
        _latest.put(game.id, (reply_to(interaction), interaction.locale))


def latest_interaction(game_id: int) -> tuple[ReplyTo, Any] | None:
    """A private game's latest interaction in this process, and its member's language (None: none noted)."""
    return _latest.get(game_id)


# --- an aborted game ------------------------------------------------------------------------------------------------


async def reply_aborted(interaction: discord.Interaction, game: Game, announcement_id: int) -> None:
    """Answer the player who aborted ``game`` in public, where the game is played; from elsewhere (its channel,
    when it has a thread), privately, with the public words in its thread. A failure is left to the outbox."""
    service = service_of(interaction)
    text = game_text.aborted_text(interaction.guild_locale, game, interaction.user.id)
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


# --- the header of a game played in a thread --------------------------------------------------------------------


async def update_header(client: discord.Client, service: GameService, report: Report) -> None:
    """Write the result into the challenge message of a game played in a thread, when ``report`` ended it; any
    other action leaves the header alone (one request per move). Best-effort: it runs after the last move was
    announced, and a failure must never touch the move."""
    if report.finish is None or report.game.thread_id is None:
        return
    game_id = report.game.id
    try:
        game = await service.finder.game(game_id)
        if game.thread_id is None or game.challenge_message_id is None:
            return
        guild = client.get_guild(game.guild_id)
        locale = guild.preferred_locale if guild else None
        heading = None
        if game.tournament_id is not None:  # a tournament game's header keeps saying which tournament and round
            view = await service.tournaments.view(game.tournament_id)
            heading = tr(locale, TOURNAMENT_ROUND, name=view.tournament.name, round=view.round_of(game.id))
        channel = client.get_partial_messageable(game.channel_id, guild_id=game.guild_id)
        await channel.get_partial_message(game.challenge_message_id).edit(
            content=game_text.header_text(locale, game, heading), view=None, allowed_mentions=QUIET
        )
    except Exception as error:
        log.info("Could not update the header of game %s: %s", game_id, error)


async def update_aborted_header(client: discord.Client, game: Game) -> None:
    """The challenge message of a game played in a thread says it ended with no result (best-effort)."""
    if game.thread_id is None or game.challenge_message_id is None:
        return
    guild = client.get_guild(game.guild_id)
    locale = guild.preferred_locale if guild else None
    channel = client.get_partial_messageable(game.channel_id, guild_id=game.guild_id)
    try:
        await channel.get_partial_message(game.challenge_message_id).edit(
            content=game_text.header_text(locale, game), view=None, allowed_mentions=QUIET
        )
    except FAILED as error:
        log.info("Could not update the header of game %s: %s", game.id, error)
