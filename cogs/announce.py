"""Announcing committed actions exactly once: in the acting member's own reply, or else by the outbox worker.

Every action the service commits carries an announcement row written in the same transaction. The member's
interaction answers with it in one request (text, board image, the next player mentioned) and marks it
delivered. If that reply fails, or the process dies first, the announcement stays pending; after a short grace
any process's :class:`Announcer` claims it and delivers it: it first asks Discord whether the reply arrived after
all (a lost answer), finishes a reply left "thinking", and only else posts in the game's channel with a nonce
Discord uses to drop a resend. Nothing here ever tells a member to try again for an action that was committed.
"""

from __future__ import annotations

import asyncio
import logging
import os
import socket
import time
import uuid
from datetime import UTC, datetime
from typing import Any

import discord
from discord.ext import commands, tasks

from cogs import present
from cogs.background import BackgroundCog
from cogs.context import board_image, service_of
from cogs.rematch import rematch_view
from cogs.threads import update_header
from locales import N_, tr
from sessions.host import ServiceHost
from sessions.service import GameService, ReplyTo, Report
from sessions.vocabulary import AnnouncementKind, GameStatus
from storage.database import GameRow
from storage.outbox import AnnouncementRow

log = logging.getLogger(__name__)

RENDER_BEFORE_DEFER = 2.0  # seconds: past this, defer and finish the reply by editing it (Discord allows 3 s)
TOKEN_LIFETIME = 14 * 60  # an interaction token lasts 15 minutes; leave a margin
LEASE = 60.0  # how long a claimed announcement is one worker's
MAX_ATTEMPTS = 12  # then it is given up: the channel is gone or the bot was removed
ALREADY_ANSWERED = 40060

CLOSED = {
    GameStatus.DECLINED: N_("{player} declined the challenge."),
    GameStatus.CANCELLED: N_("{player} withdrew the challenge."),
}
EXPIRED = N_("This challenge expired unanswered.")
CANCELLED = N_(
    "{title} game #{id} between {player0} and {player1} was cancelled by a server admin: no result, nothing counted."
)
FORMER_MEMBER = N_("a former member")
REMINDER = N_(
    "<@{user}>, your {title} game #{id} is waiting for your move. "
    "If you do not move, your opponent may claim the win {claim}."
)


def reply_to(interaction: discord.Interaction) -> ReplyTo:
    """What lets a later delivery find this interaction's reply."""
    return ReplyTo(interaction.application_id, interaction.token, time.time())


async def report_message(
    guild: discord.Guild | None, service: GameService, locale: Any, report: Report
) -> tuple[str, discord.File]:
    """The words and the board image of a report, in ``locale``."""
    text = present.report_text(locale, report, present.heading(locale, report))
    return text, await board_image(guild, service, report.row, report.state, locale=locale)


def report_view(report: Report, locale: Any) -> dict[str, Any]:
    """The buttons a report's message carries: Rematch under a finished game's last announcement."""
    if report.finish is None or report.row.against_bot:  # against the bot, a new challenge of it is the rematch
        return {}
    return {"view": rematch_view(report.row.id, locale)}


async def post_report(
    client: discord.Client, service: GameService, channel: discord.abc.Messageable, row: GameRow, report: Report
) -> None:
    """Post a report's board in ``channel`` (the game's thread, when the member acted elsewhere) with the
    announcement's nonce, and mark it delivered. A failure leaves it to the outbox, which posts in the same
    place."""
    guild = client.get_guild(row.guild_id)
    locale = guild.preferred_locale if guild else None
    announcement_id = report.announcement_id or 0
    try:
        text, file = await report_message(guild, service, locale, report)
        message = await channel.send(text, file=file, nonce=f"a{announcement_id}", **report_view(report, locale))
        service.delivered(row.id, announcement_id, message.id)
    except (discord.HTTPException, TimeoutError, OSError) as error:
        log.warning("Posting announcement %s failed; the outbox will deliver it: %s", announcement_id, error)
        return
    await update_header(client, service, report)


async def reply_with_report(interaction: discord.Interaction, report: Report, *, edit: bool = False) -> None:
    """Answer the member's interaction with the announcement of what they just did, mark it delivered, and in a
    game against the bot let it take its turn (whatever the member did: a move, a roll that ended in a forced
    pass, a takeback).

    One request: the reply carries the board. ``edit`` replaces the message the clicked button is on (an
    accepted challenge). A failure leaves the announcement to the outbox worker; it is logged, never shown as
    an error, because the action itself was committed. When the action ended a game played in a thread, its
    challenge message then shows the result (one more request, best-effort, once per game)."""
    service = service_of(interaction)
    thread_id = report.row.thread_id
    try:
        if thread_id is not None and interaction.channel_id != thread_id and not edit:
            await redirect_to_thread(interaction, report, thread_id)
            return
        await _reply(interaction, report, edit=edit)
    finally:
        start_bot_turn(interaction.client, report.row)
    await update_header(interaction.client, service, report)


async def redirect_to_thread(interaction: discord.Interaction, report: Report, thread_id: int) -> None:
    """A member acted on a threaded game from outside its thread: the board goes to the thread, where the game
    is followed, and the member is told privately where (two requests instead of one)."""
    service = service_of(interaction)
    try:
        await interaction.response.send_message(
            tr(interaction.locale, "Done. The board is in {thread}.", thread=f"<#{thread_id}>"), ephemeral=True
        )
    except (discord.HTTPException, TimeoutError, OSError) as error:
        log.info("Could not point %s to the thread: %s", interaction.user.id, error)
    thread = interaction.client.get_partial_messageable(thread_id, guild_id=report.row.guild_id)
    await post_report(interaction.client, service, thread, report.row, report)


async def _reply(interaction: discord.Interaction, report: Report, *, edit: bool) -> None:
    service = service_of(interaction)
    locale = interaction.guild_locale
    buttons = report_view(report, locale)
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
            service.delivered(report.row.id, report.announcement_id or 0, message.id)
            return
        if edit:
            callback = await interaction.response.edit_message(
                content=text, attachments=[file], **(buttons or {"view": None})
            )
        else:
            callback = await interaction.response.send_message(text, file=file, **buttons)
        service.delivered(report.row.id, report.announcement_id or 0, callback.message_id)
    except discord.HTTPException as error:
        if error.code == ALREADY_ANSWERED:  # a retried answer that Discord had applied: it is there
            try:
                original = await interaction.original_response()
                service.delivered(report.row.id, report.announcement_id or 0, original.id)
            except discord.HTTPException as lookup:
                log.warning("Could not find the reply that was answered twice: %s", lookup)
            return
        log.warning("Reply for announcement %s failed; the outbox will deliver it: %s", report.announcement_id, error)
    except (TimeoutError, OSError) as error:
        log.warning("Reply for announcement %s failed; the outbox will deliver it: %s", report.announcement_id, error)


async def reply_with_closed(interaction: discord.Interaction, status: str, announcement_id: int) -> None:
    """The challenge message says it was declined or withdrawn, and loses its buttons."""
    service = service_of(interaction)
    text = tr(interaction.guild_locale, CLOSED[status], player=interaction.user.mention)
    try:
        callback = await interaction.response.edit_message(content=text, view=None)
        service.delivered(None, announcement_id, callback.message_id)
    except (discord.HTTPException, TimeoutError, OSError) as error:
        log.warning("Closing challenge message failed; the outbox will update it: %s", error)


class Announcer(BackgroundCog):
    """Delivers what is pending in the outbox: at start-up, then every ``interval`` seconds."""

    def __init__(self, bot: commands.Bot, host: ServiceHost, interval: float) -> None:
        self.bot = bot
        self.host = host
        self.worker = f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"
        self.deliver_pending.change_interval(seconds=interval)
        self.loop = self.deliver_pending

    @property
    def service(self) -> GameService:
        return self.host.service

    @tasks.loop(seconds=5)
    async def deliver_pending(self) -> None:
        try:
            await self.deliver_once()
        except Exception:  # a failed round must not stop the next one
            log.exception("Delivering pending announcements failed")

    @deliver_pending.before_loop
    async def before_delivering(self) -> None:
        await self.bot.wait_until_ready()

    async def deliver_once(self) -> int:
        """Claim what is due for this process's servers and deliver it; returns how many were delivered."""
        guilds = [guild.id for guild in self.bot.guilds]
        if not guilds:
            return 0
        now = self.service.clock()  # the clock the announcements were written with
        claimed = await self.service.db.claim_pending(self.worker, now, LEASE, 20, guild_filter=guilds)
        delivered = 0
        for announcement in claimed:
            try:
                message_id = await self.deliver(announcement)
            except Exception as error:
                await self._retry_later(announcement, error)
                continue
            if await self.service.db.mark_delivered(announcement.id, message_id):
                delivered += 1
        return delivered

    async def _retry_later(self, announcement: AnnouncementRow, error: Exception) -> None:
        log.warning("Announcement %s (%s) not delivered: %s", announcement.id, announcement.kind, error)
        if announcement.attempts + 1 >= MAX_ATTEMPTS:
            log.error("Giving up announcement %s after %d attempts", announcement.id, MAX_ATTEMPTS)
            await self.service.db.mark_delivered(announcement.id, None)
            return
        backoff = min(300.0, 2.0 * 2**announcement.attempts)
        await self.service.db.release(announcement.id, repr(error), self.service.clock() + backoff)

    async def deliver(self, announcement: AnnouncementRow) -> int | None:
        """Deliver one announcement; returns the message that carries it."""
        channel = self.bot.get_partial_messageable(announcement.channel_id, guild_id=announcement.guild_id)
        guild = self.bot.get_guild(announcement.guild_id)
        locale = guild.preferred_locale if guild else None
        if AnnouncementKind(announcement.kind).reports:
            report = await self.service.announcement_report(announcement)
            text, file = await report_message(guild, self.service, locale, report)
            found = await self._finish_reply(announcement, text, file, report_view(report, locale))
            if found is None:
                text, file = await report_message(guild, self.service, locale, report)  # a File is read once
                message = await channel.send(text, file=file, nonce=nonce(announcement), **report_view(report, locale))
                found = message.id
                if announcement.kind == AnnouncementKind.START and report.row.thread_id is None:
                    await self._clear_challenge(report.row)
            await update_header(self.bot, self.service, report)
            return found
        row = await self.service.row(announcement.game_id)
        if announcement.kind == AnnouncementKind.CANCELLED:
            players = [present.mention(user) if user > 0 else tr(locale, FORMER_MEMBER) for user in row.players]
            text = tr(
                locale,
                CANCELLED,
                title=present.title(row.game, locale),
                id=row.id,
                player0=players[0],
                player1=players[1],
            )
            if announcement.payload.get("was") == GameStatus.CHALLENGE and row.challenge_message_id is not None:
                await channel.get_partial_message(row.challenge_message_id).edit(content=text, view=None)
                return row.challenge_message_id
            return (await channel.send(text, nonce=nonce(announcement))).id
        if announcement.kind == AnnouncementKind.REMINDER:
            payload = announcement.payload
            # Reminders written before the deadline was stored: it is twice the reminder time after the last move.
            claim_at = payload.get("claim_at") or (row.last_move_at or row.created_at) + 2 * payload["hours"] * 3600
            claim = discord.utils.format_dt(datetime.fromtimestamp(claim_at, tz=UTC), "R")
            title = present.title(row.game, locale)
            text = tr(locale, REMINDER, user=payload["user_id"], title=title, id=row.id, claim=claim)
            return (await channel.send(text, nonce=nonce(announcement))).id
        channel = self.bot.get_partial_messageable(row.channel_id, guild_id=row.guild_id)  # the challenge's own
        closing = announcement.kind in (AnnouncementKind.EXPIRY, AnnouncementKind.CLOSED)
        if closing and row.challenge_message_id is not None:
            if announcement.kind == AnnouncementKind.EXPIRY:
                text = tr(locale, EXPIRED)
            else:
                text = tr(locale, CLOSED[row.status], player=f"<@{announcement.payload.get('by')}>")
            await channel.get_partial_message(row.challenge_message_id).edit(content=text, view=None)
            return row.challenge_message_id
        return None  # nothing to show (a challenge message never posted)

    async def _clear_challenge(self, row: GameRow) -> None:
        """The accepted challenge keeps no buttons, though its own reply never came. It is in the game's channel,
        whatever channel the announcements go to."""
        if row.challenge_message_id is None:
            return
        channel = self.bot.get_partial_messageable(row.channel_id, guild_id=row.guild_id)
        try:
            await channel.get_partial_message(row.challenge_message_id).edit(view=None)
        except discord.HTTPException as error:
            log.info("Could not clear the buttons of challenge %s: %s", row.id, error)

    async def _finish_reply(
        self, announcement: AnnouncementRow, text: str, file: discord.File, buttons: dict[str, Any]
    ) -> int | None:
        """When the member's reply may still be reachable: the message id if it arrived (or once a reply left
        "thinking" is filled in), else None."""
        reply = announcement.payload.get("reply")
        if not reply or time.time() - reply["created_at"] > TOKEN_LIFETIME:
            return None
        webhook = discord.Webhook.partial(reply["application_id"], reply["token"], client=self.bot)
        try:
            original = await webhook.fetch_message("@original")  # type: ignore[arg-type]
        except discord.NotFound:
            return None  # never answered
        if not original.flags.loading:
            return original.id
        edited = await webhook.edit_message(original.id, content=text, attachments=[file], **buttons)
        return edited.id


_bot_turns: set[asyncio.Task[None]] = set()  # held so that a running turn is not garbage-collected


def start_bot_turn(client: discord.Client, row: GameRow) -> None:
    """In a game against the bot, let it take its turn in the background (searched in the worker pool), then
    announce its move at once. Nothing waits for it: the member's own reply is already out."""
    if not row.against_bot or row.status != GameStatus.ACTIVE:
        return
    task = asyncio.create_task(_bot_turn(client, row.id), name=f"bot turn in game {row.id}")
    _bot_turns.add(task)
    task.add_done_callback(_bot_turns.discard)


async def _bot_turn(client: discord.Client, game_id: int) -> None:
    host: Any = client
    service: GameService = host.service
    try:
        if await service.play_for_bot(game_id):
            announcer = host.get_cog(Announcer.__cog_name__)
            if isinstance(announcer, Announcer):
                await announcer.deliver_once()
    except Exception:  # the sweep will try again: a bot turn is never lost, only delayed
        log.exception("The bot's turn in game %s failed", game_id)


def nonce(announcement: AnnouncementRow) -> str:
    """Discord drops a second message with the same enforced nonce: a resend after a lost answer posts nothing."""
    return f"a{announcement.id}"[:25]
