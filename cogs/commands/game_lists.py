"""Game lists: ``/games all`` (the games on in this server) and ``/games mine`` (the caller's, those waiting for
them first). Private, ten to a page (``cogs/components/game_list_pages.py``)."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from cogs.components.game_list_pages import games_page
from cogs.plumbing.host import ServiceHost


@app_commands.guild_only()
@app_commands.allowed_installs(guilds=True, users=False)
class GamesCog(commands.GroupCog, group_name="games", group_description="The games on in this server."):
    def __init__(self, host: ServiceHost) -> None:
        self.host = host
        super().__init__()

    async def _answer(self, interaction: discord.Interaction, scope: str) -> None:
        content, view = await games_page(interaction, scope, 0)
        extra = {"view": view} if view is not None else {}
        # Private, and the players' mentions only name them: nobody is pinged by a list.
        await interaction.response.send_message(
            content, ephemeral=True, allowed_mentions=discord.AllowedMentions.none(), **extra
        )

    @app_commands.command(name="all", description="The games on in this server, with a link to each.")
    async def all_games(self, interaction: discord.Interaction) -> None:
        await self._answer(interaction, "all")

    @app_commands.command(name="mine", description="Your games in this server, those waiting for you first.")
    async def my_games(self, interaction: discord.Interaction) -> None:
        await self._answer(interaction, "mine")
