"""The command tree: one guard in front of every command and one error handler behind it.

The guard refuses, privately and before any work, what no command takes: a command where it cannot run (a server
command in a DM, a server that did not install the bot), an oversized option, a value of the wrong type, a number out
of range. Every failure of a command is answered by ``cogs.posting.private_answers.answer_error``, the one answer a
button's failure gets too. Nothing is changed by a refused interaction: the guard runs before any work.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import discord
from discord import app_commands

from cogs.plumbing.deadline import arrived
from cogs.plumbing.places import place_refusal
from cogs.posting.private_answers import answer_error, send_private
from cogs.presentation.names import remember_members
from locales import N_

MAX_OPTION_TEXT = 200  # no option of ours needs more; longer text is refused before any work
MAX_OPTION_NUMBER = 2**53  # Discord's own bound on integer options; a forged value past it is refused
WRONG_KIND = N_("The {option} option got a value of the wrong kind. Pick one from the list and try again.")
# Discord's option types (ApplicationCommandOptionType) and what a value of each must be.
STRING, INTEGER, BOOLEAN, NUMBER = 3, 4, 5, 10
SNOWFLAKES = (6, 7, 8, 9, 11)  # user, channel, role, mentionable, attachment: an id


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
        arrived(interaction)  # Discord's 3 s run from here (cogs/plumbing/deadline.py)
        remember_members(interaction)
        refused = refusal(interaction, self.get_command(str((interaction.data or {}).get("name", ""))))
        if refused is None:
            return True
        message, params = refused
        await send_private(interaction, message, **params)
        return False

    async def on_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError, /) -> None:
        await answer_error(interaction, error)
