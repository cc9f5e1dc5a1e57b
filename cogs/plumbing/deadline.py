"""Discord's clocks on an interaction: three seconds to answer it, fifteen minutes to follow it up.

An interaction is answered, or at least deferred, within a safe margin of its arrival, however long the database (a
lock, a slow server) or the drawing keeps the answer.

Work that may wait runs under :func:`in_time`: if it has not finished by ``ANSWER_BY`` seconds after the interaction
arrived, the interaction is deferred first (a "thinking..." placeholder for a command, a quiet hold for a button
that edits its own message), and the answer follows as an edit or a followup. The clock runs from the interaction's
arrival (:func:`arrived`, noted by the command tree's guard, or on first use for a button), so time already spent
counts. A public placeholder that ends up holding a private answer (a refusal, "try again") is deleted and the
answer sent privately instead (``cogs.posting.private_answers.send_private`` does it).

For fifteen minutes its token lets the bot edit its answer or follow it up: :func:`reply_to` keeps what a later
delivery needs to find the answer (the outbox stores it with the action's announcement).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable
from typing import TypeVar

import discord

from sessions.model import ReplyTo

log = logging.getLogger(__name__)

ANSWER_BY = 2.0  # seconds after arrival by which an interaction is answered or deferred (Discord allows 3)
LAST_CHANCE = 2.8  # seconds after arrival past which a first answer is not even tried (it would arrive too late)
ARRIVED = "arrived"  # interaction.extras key: time.monotonic() when the bot first saw it
PUBLIC_PLACEHOLDER = "public placeholder"  # interaction.extras key: deferred with a public "thinking..." message
TOKEN_LIFETIME = 14 * 60  # an interaction token lasts 15 minutes; leave a margin

T = TypeVar("T")


def arrived(interaction: discord.Interaction) -> float:
    """When the bot first saw ``interaction`` (noted now if nobody did before)."""
    return interaction.extras.setdefault(ARRIVED, time.monotonic())  # type: ignore[no-any-return]


def time_left(interaction: discord.Interaction) -> float:
    """Seconds left before the interaction must be answered or deferred (never negative)."""
    return max(0.0, arrived(interaction) + ANSWER_BY - time.monotonic())


def can_still_answer(interaction: discord.Interaction) -> bool:
    """Whether a first answer sent now may still reach Discord in time."""
    return time.monotonic() - arrived(interaction) < LAST_CHANCE


async def defer(interaction: discord.Interaction, *, update: bool = False, ephemeral: bool = False) -> bool:
    """Hold the interaction: ``update`` for a button whose own message the answer edits, else a "thinking..."
    placeholder (``ephemeral`` or public) that the answer fills in. True if it is held (or was answered
    already); False if Discord refused (the interaction is then lost, and the outbox speaks for what was done)."""
    if interaction.response.is_done():
        return True
    try:
        if update:
            await interaction.response.defer()
        else:
            await interaction.response.defer(thinking=True, ephemeral=ephemeral)
            if not ephemeral:
                interaction.extras[PUBLIC_PLACEHOLDER] = True
    except (discord.HTTPException, TimeoutError, OSError) as error:
        log.info("Could not defer interaction %s: %s", interaction.id, error)
        return False
    return True


async def in_time(
    interaction: discord.Interaction, work: Awaitable[T], *, update: bool = False, ephemeral: bool = False
) -> T:
    """The result of ``work``; if it is not ready when the interaction's margin runs out, the interaction is
    deferred first (see :func:`defer`) and the caller answers by editing or following up. ``work`` goes on
    meanwhile and its exception, if any, is raised as is."""
    task = asyncio.ensure_future(work)
    try:
        done, _ = await asyncio.wait({task}, timeout=time_left(interaction))
        if not done:
            await defer(interaction, update=update, ephemeral=ephemeral)
        return await task
    finally:
        task.cancel()  # only if this call is cancelled itself: the work is done otherwise


def reply_to(interaction: discord.Interaction) -> ReplyTo:
    """What lets a later delivery find this interaction's reply."""
    return ReplyTo(interaction.application_id, interaction.token, time.time())


def alive(reply: ReplyTo | None) -> bool:
    """Whether an interaction's token may still edit its answer or follow it up."""
    return reply is not None and time.time() - reply.created_at < TOKEN_LIFETIME
