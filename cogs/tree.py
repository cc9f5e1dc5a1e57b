"""The command tree: one guard in front of every interaction and one error handler behind every command.

No interaction is left unanswered: what a member can get wrong (a server command in a DM, an oversized option, a
value of the wrong type, a number out of range, a cooldown, a refused move) gets a polite private answer that says
what to do; a database that is down, locked, read-only or full is a known condition, answered "try again in a
moment" without a log line (the database's tracker logs the outage once); anything else is logged and answered too.
Nothing is changed by a refused interaction: the guard runs before any work.
"""

from __future__ import annotations

import logging
import unicodedata
from collections.abc import Iterator
from datetime import datetime
from typing import Any

import discord
from discord import app_commands

from cogs import present
from cogs.context import remember_members
from cogs.deadline import PUBLIC_PLACEHOLDER, arrived
from cogs.places import place_refusal
from engines import Phrase
from locales import N_, nested, tr
from sessions.model import ChannelLink, DatabaseUnavailable, Mention, UserError

log = logging.getLogger(__name__)

IN_SERVER_ONLY = N_("Games are played in a server channel, not in direct messages. Use my commands in a server.")
MESSAGE_LIMIT = 2000  # Discord's cap on a message's content
MAX_OPTION_TEXT = 200  # no option of ours needs more; longer text is refused before any work
MAX_OPTION_NUMBER = 2**53  # Discord's own bound on integer options; a forged value past it is refused
UNAVAILABLE = N_(
    "I cannot save or load games right now: my database is not answering. Nothing was changed. "
    "Please try again in a moment."
)
WRONG_KIND = N_("The {option} option got a value of the wrong kind. Pick one from the list and try again.")
# Discord's option types (ApplicationCommandOptionType) and what a value of each must be.
STRING, INTEGER, BOOLEAN, NUMBER = 3, 4, 5, 10
SNOWFLAKES = (6, 7, 8, 9, 11)  # user, channel, role, mentionable, attachment: an id


def clip(text: str, limit: int = MESSAGE_LIMIT) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def printable(value: Any) -> Any:
    """A refusal's parameter as the reader sees it. Text a member typed is fit to quote back: no control or
    direction-override characters that would garble the answer around it, and never a mass mention. A nested
    message (an engine's refusal) is cleaned inside, and stays translatable. What the service names (a moment, a
    member, channels) is written in Discord's markup here, the only place that knows it."""
    message = nested(value)
    if message is not None:
        template, params = message
        return Phrase(template, **{key: printable(inner) for key, inner in params.items()})
    if isinstance(value, datetime):  # a moment: Discord shows it in each reader's language and time zone
        return discord.utils.format_dt(value, "R")
    if isinstance(value, Mention):
        return present.mention(value.user_id)
    if isinstance(value, ChannelLink):
        return present.channel_link(value.channel_id)
    if isinstance(value, tuple):  # several of them: a list in the sentence
        return ", ".join(str(printable(item)) for item in value)
    if not isinstance(value, str):
        return value
    shown = "".join(char for char in value if unicodedata.category(char) not in ("Cc", "Cf") or char == "\n")
    return shown.replace("@everyone", "@\u200beveryone").replace("@here", "@\u200bhere")


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


def _leaves(options: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """The options that carry a value, through subcommands and groups."""
    for option in options:
        if "value" in option:
            yield option
        yield from _leaves(option.get("options", []))


def _fits(kind: int, value: Any) -> bool:
    """Whether ``value`` is what an option of type ``kind`` carries (a forged payload may send anything)."""
    if isinstance(value, bool):
        return kind == BOOLEAN
    if kind == STRING:
        return isinstance(value, str)
    if kind == INTEGER:
        return isinstance(value, int)
    if kind == NUMBER:
        return isinstance(value, int | float)
    if kind == BOOLEAN:
        return False
    if kind in SNOWFLAKES:
        return isinstance(value, int | str) and str(value).isdigit()
    return True


def _declared_types(interaction: discord.Interaction) -> dict[str, int]:
    """The option types the command itself declares, by name (the payload's own types may be forged too)."""
    try:
        command = interaction.command
    except Exception:  # an unknown command: the tree answers that itself
        return {}
    if not isinstance(command, app_commands.Command):
        return {}
    return {parameter.display_name: parameter.type.value for parameter in command.parameters}


def _wrong_kind(interaction: discord.Interaction, options: list[dict[str, Any]]) -> str | None:
    """The name of an option whose value is not of its type, or None."""
    declared: dict[str, int] | None = None
    for option in _leaves(options):
        if option.get("focused"):
            continue  # autocomplete: the text typed so far, whatever the option's type
        value, name, kind = option["value"], str(option.get("name", "")), option.get("type")
        if not _fits(kind if isinstance(kind, int) else 0, value):
            return name
        if declared is None:
            declared = _declared_types(interaction)
        if name in declared and not _fits(declared[name], value):
            return name
    return None


def refusal(interaction: discord.Interaction, command: Any = None) -> tuple[str, dict[str, Any]] | None:
    """Why an interaction is refused before any work, or None to let it through. ``command``: the top-level command
    it names (its allowed contexts say whether it works in a DM)."""
    where = place_refusal(interaction, command)
    if where is not None:
        return where, {}
    data = interaction.data or {}
    options = list(data.get("options", []))  # type: ignore[arg-type]
    for option in _leaves(options):
        value = option["value"]
        if isinstance(value, str) and len(value) > MAX_OPTION_TEXT:
            return N_("That text is too long ({length} characters): options take at most {limit}."), {
                "length": len(value),
                "limit": MAX_OPTION_TEXT,
            }
        if isinstance(value, int) and not isinstance(value, bool) and abs(value) > MAX_OPTION_NUMBER:
            return N_("That number is out of range. Pick one from the list."), {}
    wrong = _wrong_kind(interaction, options)
    if wrong is not None:
        return WRONG_KIND, {"option": wrong}
    return None


class GameTree(app_commands.CommandTree):
    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        arrived(interaction)  # Discord's 3 s run from here (cogs/deadline.py)
        remember_members(interaction)
        refused = refusal(interaction, self.get_command(str((interaction.data or {}).get("name", ""))))
        if refused is None:
            return True
        message, params = refused
        await send_private(interaction, message, **params)
        return False

    async def on_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError, /) -> None:
        await answer_error(interaction, error)


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
