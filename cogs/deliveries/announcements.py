"""Delivering what the outbox owes: the Discord requests of one owed announcement, chosen by its kind.

Every action the service commits carries an announcement row written in the same transaction. The member's
interaction answers with it in one request (``cogs/posting/replies.py``). What no reply delivered (a failed reply, a
process that died, a reminder, an expiry, the bot's own moves) the service's outbox worker claims, retries and
gives up on (``sessions/delivery.py``); it hands each owed announcement here as a ``Notice``, and :func:`deliver`
only does the Discord requests: it first asks Discord whether the member's reply arrived after all (a lost
answer), finishes a reply left "thinking", and only else posts in the game's channel with a nonce Discord uses to
drop a resend. Nothing here ever tells a member to try again for an action that was committed. A tournament's or a
season's announcement is a ``Bulletin`` (``cogs/deliveries/bulletins.py``); in a DM or group DM the bot can only
follow up interactions (``cogs/deliveries/dms.py``).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

import discord

from cogs.components.bot_turn_button import BotTurnButton
from cogs.deliveries.bulletins import deliver_bulletin, deliver_paired
from cogs.deliveries.dms import deliver_privately
from cogs.plumbing.deadline import TOKEN_LIFETIME
from cogs.plumbing.host import client_service
from cogs.plumbing.places import is_private
from cogs.posting.replies import CLOSED, is_announcement, nonce, report_message, update_aborted_header, update_header
from cogs.presentation import game_text
from cogs.presentation.board_controls import report_controls
from cogs.presentation.markup import mention, when
from locales import N_, tr
from sessions.model import OPEN_SEAT, AnnouncementKind, Bulletin, Game, GameStatus, Notice

log = logging.getLogger(__name__)

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
STUCK = N_(
    "{member}, I cannot find my move in {title} game #{id} right now: my thinking process stopped. "
    "I will try again by myself shortly. Press Try again to retry now, or end the game with /{game} resign."
)


async def deliver(client: discord.Client, notice: Notice | Bulletin) -> int | None:
    """The Discord requests of one owed announcement; returns the message that carries it (None: nothing to show).
    Raising leaves it to the outbox worker's retry. In a DM or group DM the bot can only follow up interactions."""
    if isinstance(notice, Bulletin):  # about no one game: a tournament's or a season's (bulletins.py)
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
    buttons = await report_controls(service, report, locale)
    text, file = await report_message(guild, service, locale, report, buttons)
    found = await _finish_reply(client, notice, text, file, buttons)
    if found is None:
        text, file = await report_message(guild, service, locale, report, buttons)  # a File is read once
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
        mention(user) if user > 0 else tr(locale, NOBODY_YET if user == OPEN_SEAT else FORMER_MEMBER)
        for user in game.players
    ]
    title = game_text.title(game.name, locale)
    text = tr(locale, CANCELLED, title=title, id=game.id, player0=players[0], player1=players[1])
    if notice.was == GameStatus.CHALLENGE and game.challenge_message_id is not None:
        await channel.get_partial_message(game.challenge_message_id).edit(content=text, view=None)
        return game.challenge_message_id
    return (await channel.send(text, nonce=nonce(notice.id))).id


async def _reminder(client: discord.Client, notice: Notice) -> int | None:
    channel, locale = _where(client, notice)
    if notice.deadline is not None:  # a game with a clock: its time runs out, nobody claims
        deadline = when(notice.deadline)
        title = game_text.title(notice.game.name, locale)
        text = tr(locale, CLOCK_REMINDER, user=notice.remind, title=title, id=notice.game.id, deadline=deadline)
        return (await channel.send(text, nonce=nonce(notice.id))).id
    assert notice.claim_at is not None
    claim = when(notice.claim_at)
    title = game_text.title(notice.game.name, locale)
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
        text = tr(locale, CLOSED[game.status], player=mention(notice.by or 0))
    channel = client.get_partial_messageable(game.channel_id, guild_id=game.guild_id)
    await channel.get_partial_message(game.challenge_message_id).edit(content=text, view=None)
    return game.challenge_message_id


async def _aborted(client: discord.Client, notice: Notice) -> int | None:
    """A game a player aborted: the member's reply if it arrived, else said in the game's channel."""
    channel, locale = _where(client, notice)
    text = game_text.aborted_text(locale, notice.game, notice.by or 0)
    found = await _finish_reply(client, notice, text, None, {})
    if found is None:
        found = (await channel.send(text, nonce=nonce(notice.id))).id
    await update_aborted_header(client, notice.game)
    return found


async def _stuck(client: discord.Client, notice: Notice) -> int | None:
    """Deliver the bot's apology (its search failed): said in the game's channel (its thread, if it has one), with
    how to go on. Raising leaves it to the outbox's retry; the sweep retries the turn whether or not it is read."""
    game = notice.game
    guild = client.get_guild(game.guild_id)
    locale = guild.preferred_locale if guild else None
    member = next((player for side, player in enumerate(game.players) if side != game.ai_side), game.players[0])
    text = tr(
        locale,
        STUCK,
        member=mention(member),
        title=game_text.title(game.name, locale),
        id=game.id,
        game=game.name,
    )
    view = discord.ui.View(timeout=None)
    view.add_item(BotTurnButton(game.id, locale))
    channel = client.get_partial_messageable(notice.channel_id, guild_id=game.guild_id)
    message = await channel.send(text, view=view, nonce=nonce(notice.id))
    log.warning("The bot cannot move in game %s now (its search failed); the game was told", game.id)
    return message.id


DELIVERIES: dict[AnnouncementKind, Callable[[discord.Client, Notice], Awaitable[int | None]]] = {
    AnnouncementKind.START: _report,
    AnnouncementKind.MOVE: _report,
    AnnouncementKind.FINISH: _report,
    AnnouncementKind.TAKEBACK: _report,
    AnnouncementKind.PAIRED: deliver_paired,
    AnnouncementKind.CANCELLED: _cancelled,
    AnnouncementKind.ABORTED: _aborted,
    AnnouncementKind.REMINDER: _reminder,
    AnnouncementKind.STUCK: _stuck,
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
