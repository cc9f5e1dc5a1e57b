"""Announcing in a DM or group DM (docs/dms.md): by interaction answers only.

Where a member installed the app for themselves, the bot is no member of the conversation: it cannot post there, nor
open a thread, nor remind anyone. All it may do is answer an interaction, and for 15 minutes edit that answer or
follow it up with the interaction's token. So what the outbox owes in a private game (the bot's own moves, a reply
that failed) goes out as a followup of the latest interaction of the game that is still within its 15 minutes; with
none, it is left unshown, and the next command of either player (their move, ``/board``) shows the board. The replies
note each private game's latest interaction (``cogs.posting.replies.note_interaction``).
"""

from __future__ import annotations

import logging

import discord

from cogs.plumbing.deadline import alive
from cogs.plumbing.host import client_service
from cogs.posting.replies import latest_interaction, report_message
from cogs.presentation.board_controls import report_controls
from sessions.model import Notice

log = logging.getLogger(__name__)


async def deliver_privately(client: discord.Client, notice: Notice) -> int | None:
    """The Discord requests of one owed announcement of a private game; returns the message that carries it, or None
    when nothing can show it (a closing, an expiry or a cancellation has no message to edit by a token; a board with
    no live interaction waits for the next command)."""
    report = notice.report
    if report is None:
        return None
    latest = latest_interaction(notice.game.id)
    locale = latest[1] if latest is not None else None
    service = client_service(client)
    buttons = await report_controls(service, report, locale)  # the moves to tap, or Rematch, as in a server
    if alive(notice.reply):  # the member's own reply: it may have arrived after all, or be left "thinking"
        assert notice.reply is not None
        webhook = discord.Webhook.partial(notice.reply.application_id, notice.reply.token, client=client)
        try:
            original = await webhook.fetch_message("@original")  # type: ignore[arg-type]
        except discord.NotFound:
            original = None
        if original is not None and original.flags.loading:  # left "thinking": this fills it in
            text, file = await report_message(None, service, locale, report, buttons)
            return (await webhook.edit_message(original.id, content=text, attachments=[file], **buttons)).id
        if original is not None and not original.flags.ephemeral:  # the reply arrived after all
            return original.id
        # Else a private answer is there (a step the move was played from, "done; the board follows"): the board
        # follows up the game's latest interaction.
    if latest is None or not alive(latest[0]):
        log.info("Nothing can show announcement %s of private game %s now", notice.id, notice.game.id)
        return None
    reply = latest[0]
    text, file = await report_message(None, service, locale, report, buttons)
    webhook = discord.Webhook.partial(reply.application_id, reply.token, client=client)
    return (await webhook.send(text, file=file, wait=True, **buttons)).id
