"""``/season``: a server's admins turn seasons on (each lasting some months, the next starting when one ends) or
off. While seasons are on, ``/leaderboard`` ranks the running season, and each season's end is announced in the
channel where seasons were turned on, with its best players. ``default_permissions(manage_guild=True)`` only hides
the commands; the real permission is checked on every use."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from cogs.plumbing.host import GameService, ServiceHost
from cogs.presentation.markup import when
from locales import N_, tr
from sessions.model import UserError

MONTH_CHOICES = [
    app_commands.Choice(name=N_("1 month"), value=1),
    app_commands.Choice(name=N_("2 months"), value=2),
    app_commands.Choice(name=N_("3 months"), value=3),
    app_commands.Choice(name=N_("4 months"), value=4),
    app_commands.Choice(name=N_("6 months"), value=6),
    app_commands.Choice(name=N_("12 months"), value=12),
]


def require_admin(interaction: discord.Interaction) -> int:
    permissions = interaction.permissions
    if interaction.guild_id is None or not (permissions.manage_guild or permissions.administrator):
        raise UserError("Only members with the Manage Server permission can turn seasons on or off.")
    return interaction.guild_id


@app_commands.guild_only()
@app_commands.default_permissions(manage_guild=True)
class SeasonCog(commands.GroupCog, group_name="season", group_description="Admins: leaderboard seasons."):
    def __init__(self, host: ServiceHost) -> None:
        self.host = host
        super().__init__()

    @property
    def service(self) -> GameService:
        return self.host.service

    @app_commands.command(name="start", description="Turn seasons on: leaderboards rank each season's games.")
    @app_commands.describe(months="How long each season lasts.")
    @app_commands.choices(months=MONTH_CHOICES)
    async def start(self, interaction: discord.Interaction, months: app_commands.Choice[int]) -> None:
        guild_id = require_admin(interaction)
        assert interaction.channel_id is not None
        season = await self.service.seasons.start(guild_id, interaction.channel_id, months.value, interaction.user.id)
        text = tr(
            interaction.guild_locale,
            "Season {number} has begun! Rated games now count in its own leaderboard (/leaderboard); it ends "
            "{end}, and its best players will be announced here.",
            number=season.number,
            end=when(season.ends_at),
        )
        await interaction.response.send_message(text)

    @app_commands.command(name="stop", description="Turn seasons off: the running season ends now.")
    async def stop(self, interaction: discord.Interaction) -> None:
        guild_id = require_admin(interaction)
        season = await self.service.seasons.stop(guild_id, interaction.user.id)
        await interaction.response.send_message(
            tr(interaction.locale, "Season {number} has ended; seasons are off.", number=season.number),
            ephemeral=True,
        )
