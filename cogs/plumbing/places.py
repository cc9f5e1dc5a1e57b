"""Where a command is used: a server that installed the app, or a private place (a DM or group DM) where a member
installed it for themselves (docs/dms.md).

A game belongs to a *place*: a server's games are stored under the server's id, as always; a private place's under
the negative of its channel id, so each DM or group DM is a scope of its own, like a small server: its games, its
ratings and records (which no server's leaderboard shows, as no server has a negative id), and nothing of it is
reachable from anywhere else. The background chores (challenge expiry, reminders, the outbox worker) run for this
process's servers only, so in a private place nothing is posted by the bot on its own: every board is an answer to
a member's interaction (docs/dms.md says what that means).
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from locales import N_
from sessions.model import Game

IN_SERVER_ONLY = N_("Games are played in a server channel, not in direct messages. Use my commands in a server.")
NOT_INSTALLED_HERE = N_(
    "I am not a member of this server, so I cannot run games here. Ask an admin to add me, or play in a DM or "
    "group DM with your friends."
)
SERVER_COMMAND = N_(
    "That command works in servers only. In a DM, use the commands of a game, such as /<game> challenge."
)
NOT_IN_THIS_DM = N_("You can challenge only someone in this conversation (or me).")

# Interaction contexts (Discord's InteractionContextType) and installation types.
PRIVATE_PLACES = app_commands.AppCommandContext(guild=True, dm_channel=True, private_channel=True)
EVERY_INSTALL = app_commands.AppInstallationType(guild=True, user=True)
SERVER_INSTALL = app_commands.AppInstallationType(guild=True, user=False)


def place_id(interaction: discord.Interaction) -> int | None:
    """The scope of the games here: the server's id, or in a DM or group DM the negative of its channel's id."""
    if interaction.guild_id is not None:
        return interaction.guild_id
    return None if interaction.channel_id is None else -interaction.channel_id


def is_private(game: Game) -> bool:
    """A game of a DM or group DM: played by interaction answers only."""
    return game.guild_id < 0


def settle_place(interaction: discord.Interaction) -> None:
    """In a DM or group DM there is no server, so no server language: what everyone there reads is in the language
    of the member whose command it answers. Set once, so every ``interaction.guild_locale`` of the cogs reads so."""
    if interaction.guild_id is None and interaction.guild_locale is None:
        interaction.guild_locale = interaction.locale


def place_refusal(interaction: discord.Interaction, command: Any) -> str | None:
    """Why a command cannot run where it was sent, or None. ``command`` is the top-level command (or group) named
    by the interaction, if the tree knows it. Discord itself does not offer a command where it is not allowed;
    this guards against what no client sends (a forged request) and a server that only a member installed me in."""
    data = interaction.data or {}
    if interaction.guild_id is not None:
        # A command in a server: the server must have installed me (a member's own install shows my commands in
        # every server, but there I can neither post nor be found).
        return None if interaction.is_guild_integration() else NOT_INSTALLED_HERE
    if data.get("guild_id") is not None:  # a server's own command, sent in a DM: no client does that
        return SERVER_COMMAND
    contexts = getattr(command, "allowed_contexts", None)
    if contexts is None or not (contexts.private_channel or contexts.dm_channel):
        return SERVER_COMMAND
    return None


def may_play_here(interaction: discord.Interaction, user: discord.abc.User) -> bool:
    """In a DM or group DM, a challenge is for someone in the conversation (or the bot itself); in a server, for a
    member of it."""
    if interaction.guild_id is not None:
        return isinstance(user, discord.Member)
    if interaction.client.user is not None and user.id == interaction.client.user.id:
        return True
    recipients = getattr(interaction.channel, "recipients", None)
    if not recipients:  # Discord did not say who is there: anyone named is taken to be
        return True
    return user.id == interaction.user.id or any(member.id == user.id for member in recipients)
