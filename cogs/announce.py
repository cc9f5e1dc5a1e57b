"""Announcing committed actions exactly once: in the acting member's own reply, or else by the outbox worker.

Every action the service commits carries an announcement row written in the same transaction. The member's
interaction answers with it in one request (:func:`reply_with_report`). What no reply delivered (a failed reply, a
process that died, a reminder, an expiry, the bot's own moves) the service's outbox worker claims, retries and
gives up on (``sessions/delivery.py``); it hands each owed announcement here as a ``Notice``, and :func:`deliver`
only does the Discord requests: it first asks Discord whether the member's reply arrived after all (a lost
answer), finishes a reply left "thinking", and only else posts in the game's channel with a nonce Discord uses to
drop a resend. Nothing here ever tells a member to try again for an action that was committed.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import Any

import discord
from discord.ext import commands, tasks

from cogs import present
from cogs.aborting import aborted_text, update_aborted_header
from cogs.background import BackgroundCog
from cogs.board_buttons import report_buttons
from cogs.context import client_service
from cogs.controls import report_components
from cogs.places import is_private
from cogs.private import deliver_privately, note_interaction
from cogs.reply import CLOSED, FAILED, answer, hold_place, is_announcement, nonce, report_message, tell_played
from cogs.stuck import tell_stuck
from cogs.threads import update_header
from cogs.tournament_news import deliver_bulletin, deliver_paired
from locales import N_, tr
from sessions.model import OPEN_SEAT, AnnouncementKind, Bulletin, DatabaseUnavailable, Game, GameStatus, Notice, Report
from sessions.service import GameService

log = logging.getLogger(__name__)

TOKEN_LIFETIME = 14 * 60  # an interaction token lasts 15 minutes; leave a margin

EXPIRED = N_("This challenge expired unanswered.")
CANCELLED = N_(
    "{title} game #{id} between {player0} and {player1} was cancelled by a server admin: no result, nothing counted."
)
FORMER_MEMBER = N_("a former member")
NOBODY_YET = N_("nobody yet")  # an open challenge's seat that no member took
REMINDER = N_(
    "<@{user}>, your {title} game #{id} is waiting for your move. "
    "If you do not move, your opponent may claim the win {claim}."
)
CLOCK_REMINDER = N_(
    "<@{user}>, your {title} game #{id} is waiting for your move, and your time runs out {deadline}: "
    "then you lose on time."
)


async def reply_with_report(interaction: discord.Interaction, report: Report, *, edit: bool = False) -> None:
    """Answer the member's interaction with the announcement of what they just did (with a Rematch button under a
    finished game). What follows the action (the bot's turn, a tournament's next round) the session layer started
    when it committed; against the bot, this reply only holds the place its reply fills in."""
    note_interaction(interaction, report.game)  # in a DM, what follows (the bot's move) follows this up
    try:
        if report.held:  # the bot's reply announces this with it, in one message
            await hold_place(interaction, report)
        else:
            buttons = await components(client_service(interaction.client), report, interaction.guild_locale)
            await answer(interaction, report, buttons, edit=edit)
    except Exception as error:  # past the commit nothing is "try again": the outbox has the announcement
        after_commit_failed(report, error)
        await tell_played(interaction)


async def components(service: GameService, report: Report, locale: Any) -> dict[str, Any]:
    """What a report's board carries: Rematch under a finished game, the moves to tap under a game in play."""
    return report_buttons(report, locale) or await report_components(service, report, locale)


def after_commit_failed(report: Report, error: Exception) -> None:
    """Log a failure after an action was committed: one line for a known condition (the database, Discord), a
    traceback for a bug. The announcement stays owed: the outbox delivers it."""
    if isinstance(error, (DatabaseUnavailable, *FAILED)):
        log.warning("Announcing %s failed after its commit; the outbox will: %s", report.announcement_id, error)
    else:
        log.error("Announcing %s failed after its commit; the outbox will", report.announcement_id, exc_info=error)


async def deliver_now(client: discord.Client) -> int:
    """Deliver what is owed in this process's servers now, not at the next round of the :class:`Announcer`;
    returns how many were delivered."""
    try:
        return await client_service(client).delivery.deliver_now()
    except DatabaseUnavailable:  # the Announcer's next round delivers it; the tracker has logged the outage
        return 0


class Announcer(BackgroundCog):
    """Delivers what is owed in the outbox: at start-up, then every ``interval`` seconds."""

    def __init__(self, bot: commands.Bot, interval: float) -> None:
        self.bot = bot
        self.deliver_pending.change_interval(seconds=interval)
        self.loop = self.deliver_pending

    @tasks.loop(seconds=5)
    async def deliver_pending(self) -> None:
        try:
            await deliver_now(self.bot)  # an unavailable database: the next round tries again, quietly
        except Exception:  # a failed round must not stop the next one
            log.exception("Delivering pending announcements failed")

    @deliver_pending.before_loop
    async def before_delivering(self) -> None:
        await self.bot.wait_until_ready()


async def deliver(client: discord.Client, notice: Notice | Bulletin) -> int | None:
    """The Discord requests of one owed announcement; returns the message that carries it (None: nothing to show).
    Raising leaves it to the outbox worker's retry. In a DM or group DM the bot can only follow up interactions."""
    if isinstance(notice, Bulletin):  # about no one game: a tournament's or a season's (cogs/tournament_news.py)
        return await deliver_bulletin(client, notice)
    if is_private(notice.game):
        return await deliver_privately(client, notice)
    return await DELIVERIES[notice.kind](client, notice)


def _where(client: discord.Client, notice: Notice) -> tuple[discord.PartialMessageable, Any]:
    """The channel the notice goes to, and the server's language."""
    guild = client.get_guild(notice.game.guild_id)
    channel = client.get_partial_messageable(notice.channel_id, guild_id=notice.game.guild_id)
    return channel, (guild.preferred_locale if guild else None)


async def _report(client: discord.Client, notice: Notice) -> int | None:
    """A board: the member's reply if it arrived after all (or is left "thinking"), else a post with the nonce."""
    assert notice.report is not None
    report, service = notice.report, client_service(client)
    channel, locale = _where(client, notice)
    guild = client.get_guild(notice.game.guild_id)
    buttons = await components(service, report, locale)
    text, file = await report_message(guild, service, locale, report)
    found = await _finish_reply(client, notice, text, file, buttons)
    if found is None:
        text, file = await report_message(guild, service, locale, report)  # a File is read once
        message = await channel.send(text, file=file, nonce=nonce(notice.id), **buttons)
        found = message.id
        if notice.kind == AnnouncementKind.START and report.game.thread_id is None:
            await _clear_challenge(client, report.game)
    await update_header(client, service, report)
    return found


async def _cancelled(client: discord.Client, notice: Notice) -> int | None:
    channel, locale = _where(client, notice)
    game = notice.game
    players = [
        present.mention(user) if user > 0 else tr(locale, NOBODY_YET if user == OPEN_SEAT else FORMER_MEMBER)
        for user in game.players
    ]
    title = present.title(game.name, locale)
    text = tr(locale, CANCELLED, title=title, id=game.id, player0=players[0], player1=players[1])
    if notice.was == GameStatus.CHALLENGE and game.challenge_message_id is not None:
        await channel.get_partial_message(game.challenge_message_id).edit(content=text, view=None)
        return game.challenge_message_id
    return (await channel.send(text, nonce=nonce(notice.id))).id


async def _reminder(client: discord.Client, notice: Notice) -> int | None:
    channel, locale = _where(client, notice)
    if notice.deadline is not None:  # a game with a clock: its time runs out, nobody claims
        deadline = discord.utils.format_dt(datetime.fromtimestamp(notice.deadline, tz=UTC), "R")
        title = present.title(notice.game.name, locale)
        text = tr(locale, CLOCK_REMINDER, user=notice.remind, title=title, id=notice.game.id, deadline=deadline)
        return (await channel.send(text, nonce=nonce(notice.id))).id
    assert notice.claim_at is not None
    claim = discord.utils.format_dt(datetime.fromtimestamp(notice.claim_at, tz=UTC), "R")
    title = present.title(notice.game.name, locale)
    text = tr(locale, REMINDER, user=notice.remind, title=title, id=notice.game.id, claim=claim)
    return (await channel.send(text, nonce=nonce(notice.id))).id


async def _closing(client: discord.Client, notice: Notice) -> int | None:
    """An expired, declined or withdrawn challenge: its message (in the challenge's own channel) says so."""
    game = notice.game
    if game.challenge_message_id is None:
        return None  # nothing to show: the challenge message was never posted
    _, locale = _where(client, notice)
    if notice.kind == AnnouncementKind.EXPIRY:
        text = tr(locale, EXPIRED)
    else:
        text = tr(locale, CLOSED[game.status], player=present.mention(notice.by or 0))
    channel = client.get_partial_messageable(game.channel_id, guild_id=game.guild_id)
    await channel.get_partial_message(game.challenge_message_id).edit(content=text, view=None)
    return game.challenge_message_id


async def _aborted(client: discord.Client, notice: Notice) -> int | None:
    """A game a player aborted: the member's reply if it arrived, else said in the game's channel."""
    channel, locale = _where(client, notice)
    text = aborted_text(locale, notice.game, notice.by or 0)
    found = await _finish_reply(client, notice, text, None, {})
    if found is None:
        found = (await channel.send(text, nonce=nonce(notice.id))).id
    await update_aborted_header(client, notice.game)
    return found


DELIVERIES: dict[AnnouncementKind, Callable[[discord.Client, Notice], Awaitable[int | None]]] = {
    AnnouncementKind.START: _report,
    AnnouncementKind.MOVE: _report,
    AnnouncementKind.FINISH: _report,
    AnnouncementKind.TAKEBACK: _report,
    AnnouncementKind.PAIRED: deliver_paired,
    AnnouncementKind.CANCELLED: _cancelled,
    AnnouncementKind.ABORTED: _aborted,
    AnnouncementKind.REMINDER: _reminder,
    AnnouncementKind.STUCK: tell_stuck,
    AnnouncementKind.EXPIRY: _closing,
    AnnouncementKind.CLOSED: _closing,
}


async def _clear_challenge(client: discord.Client, game: Game) -> None:
    """The accepted challenge keeps no buttons, though its own reply never came. It is in the game's channel,
    whatever channel the announcements go to."""
    if game.challenge_message_id is None:
        return
    channel = client.get_partial_messageable(game.channel_id, guild_id=game.guild_id)
    try:
        await channel.get_partial_message(game.challenge_message_id).edit(view=None)
    except discord.HTTPException as error:
        log.info("Could not clear the buttons of challenge %s: %s", game.id, error)


async def _finish_reply(
    client: discord.Client, notice: Notice, text: str, file: discord.File | None, buttons: dict[str, Any]
) -> int | None:
    """When the member's reply may still be reachable: the message id if it arrived (or once a reply left
    "thinking" is filled in), else None."""
    reply = notice.reply
    if reply is None or time.time() - reply.created_at > TOKEN_LIFETIME:
        return None
    webhook = discord.Webhook.partial(reply.application_id, reply.token, client=client)
    try:
        original = await webhook.fetch_message("@original")  # type: ignore[arg-type]
    except discord.NotFound:
        return None  # never answered
    if is_announcement(original, text):
        return original.id
    if not original.flags.loading:
        return None  # another answer (a duplicate's refusal, "done; the board follows"), a held click: post it
    edited = await webhook.edit_message(original.id, content=text, attachments=[file] if file else [], **buttons)
    return edited.id
