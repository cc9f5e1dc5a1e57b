"""Delete or Keep, under ``/admin reset-leaderboard``'s question: only the admin who asked may press, within
``CONFIRM_SECONDS``; and the admin check every ``/admin`` command and this view make on every use
(``default_permissions(manage_guild=True)`` only hides the commands in the Discord client).
"""

from __future__ import annotations

import contextlib
from typing import Any

import discord
from discord import app_commands

from cogs.plumbing.host import GameService
from cogs.posting.private_answers import answer_error
from locales import N_, tr
from sessions.model import UserError, entry_of

CONFIRM_SECONDS = 60.0  # how long a destructive action's confirm button stays usable

NOT_ADMIN = N_("Only members with the Manage Server permission can use /admin.")


class NotAdmin(app_commands.CheckFailure, UserError):
    """A refused admin command: a check failure for discord.py, a catalogue message for the one error handler."""

    def __init__(self) -> None:
        UserError.__init__(self, NOT_ADMIN)


def require_admin(interaction: discord.Interaction) -> None:
    permissions = interaction.permissions
    if interaction.guild_id is None or not (permissions.manage_guild or permissions.administrator):
        raise NotAdmin()


class ConfirmReset(discord.ui.View):
    """Delete or keep: only the admin who asked may press, within ``CONFIRM_SECONDS``."""

    def __init__(self, service: GameService, origin: discord.Interaction, game: str, with_records: bool) -> None:
        super().__init__(timeout=CONFIRM_SECONDS)
        self.service, self.origin, self.game, self.with_records = service, origin, game, with_records
        locale = origin.locale
        self.confirm.label = tr(locale, "Delete")
        self.keep.label = tr(locale, "Keep")

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        require_admin(interaction)
        if interaction.user.id != self.origin.user.id:
            raise UserError("Only the admin who asked can confirm this.")
        return True

    async def on_error(self, interaction: discord.Interaction, error: Exception, item: discord.ui.Item[Any], /) -> None:
        await answer_error(interaction, error)

    async def on_timeout(self) -> None:
        # The message may be gone or the token lapsed: then there is nothing to tidy.
        with contextlib.suppress(discord.HTTPException):
            await self.origin.edit_original_response(
                content=tr(self.origin.locale, "This confirmation expired. Nothing was deleted."), view=None
            )

    @discord.ui.button(style=discord.ButtonStyle.danger)
    async def confirm(self, interaction: discord.Interaction, button: discord.ui.Button[Any]) -> None:
        assert interaction.guild_id is not None
        self.stop()
        rated, counted = await self.service.admin.reset_leaderboard(
            interaction.guild_id, self.game, interaction.user.id, with_records=self.with_records
        )
        title = tr(interaction.locale, entry_of(self.game).title)
        if self.with_records:
            text = tr(
                interaction.locale,
                "{title} leaderboard reset: {ratings} ratings and {records} records deleted.",
                title=title,
                ratings=rated,
                records=counted,
            )
        else:
            text = tr(
                interaction.locale,
                "{title} leaderboard reset: {ratings} ratings deleted; win/loss records kept.",
                title=title,
                ratings=rated,
            )
        await interaction.response.edit_message(content=text, view=None)

    @discord.ui.button(style=discord.ButtonStyle.secondary)
    async def keep(self, interaction: discord.Interaction, button: discord.ui.Button[Any]) -> None:
        self.stop()
        await interaction.response.edit_message(content=tr(interaction.locale, "Nothing was deleted."), view=None)
