"""Private answers, in the member's own language: what a member reads alone, and the one answer to every failure of a
command or a button.

No interaction is left unanswered: what a member can get wrong (a server command in a DM, a cooldown, a refused
move) gets a polite private answer that says what to do; a database that is down, locked, read-only or full is a
known condition, answered "try again in a moment" without a log line (the database's tracker logs the outage once);
anything else is logged and answered too.
"""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands

from cogs.plumbing.deadline import PUBLIC_PLACEHOLDER
from cogs.plumbing.places import IN_SERVER_ONLY
from cogs.presentation.markup import clip, printable
from locales import N_, tr
from sessions.model import DatabaseUnavailable, UserError

log = logging.getLogger(__name__)

UNAVAILABLE = N_(
    "I cannot save or load games right now: my database is not answering. Nothing was changed. "
    "Please try again in a moment."
)


async def send_private(interaction: discord.Interaction, message: str, **params: Any) -> None:
    """A private answer in the member's own language, whether or not the interaction was answered, always
    within Discord's limits (a refusal may quote what the member typed). A public "thinking..." placeholder left
    by a deferral is deleted first: a private answer must not fill it in for everyone to read."""
    text = clip(tr(interaction.locale, message, **{key: printable(value) for key, value in params.items()}))
    if interaction.type is discord.InteractionType.autocomplete:
        if not interaction.response.is_done():
            await interaction.response.autocomplete([])
        return
    if interaction.extras.pop(PUBLIC_PLACEHOLDER, False):
        try:
            await interaction.delete_original_response()
        except discord.HTTPException as error:
            log.info("Could not delete the placeholder of interaction %s: %s", interaction.id, error)
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=True)
    else:
        await interaction.response.send_message(text, ephemeral=True)


async def answer_error(interaction: discord.Interaction, error: Exception) -> None:
    """The one answer to every failure of a command or a button."""
    original = getattr(error, "original", error)
    try:
        if isinstance(original, UserError):
            await send_private(interaction, original.message, **original.params)
        elif isinstance(original, DatabaseUnavailable):  # nothing was committed: the tracker has logged it
            await send_private(interaction, UNAVAILABLE)
        elif isinstance(original, app_commands.CommandOnCooldown):
            await send_private(
                interaction, "Slow down: try again in {seconds} s.", seconds=max(1, round(original.retry_after))
            )
        elif isinstance(original, app_commands.NoPrivateMessage):
            await send_private(interaction, IN_SERVER_ONLY)
        elif isinstance(original, app_commands.TransformerError):
            await send_private(interaction, "I cannot use that option: pick a member of this server or a listed value.")
        elif isinstance(original, app_commands.CheckFailure):
            await send_private(interaction, "That is not something I can do here. Check the command's options.")
        else:
            log.error("Command failed", exc_info=original)
            await send_private(interaction, "Something went wrong on my side. Please try again in a moment.")
    except (discord.HTTPException, TimeoutError, OSError) as failed:
        log.warning("Could not answer interaction %s after an error: %s", interaction.id, failed)
