"""/iago: Iago, the hex Othello with red captives."""

from __future__ import annotations

import discord
from discord import app_commands

from cogs.common import GameCog, side_choices
from locales import N_

VARIANTS = [
    app_commands.Choice(name=N_("standard"), value="standard"),
    app_commands.Choice(name=N_("loose (no forced capture)"), value="loose"),
    app_commands.Choice(name=N_("simple (no releases)"), value="simple"),
    app_commands.Choice(name=N_("penalty (missed captures can be called)"), value="penalty"),
]


@app_commands.guild_only()
class IagoCog(GameCog, group_name="iago", group_description="Play Iago, the hex Othello with red captives."):
    game = "iago"

    @app_commands.command(name="challenge", description="Challenge a member of this server to Iago.")
    @app_commands.describe(
        opponent="Who you want to play.",
        variant="Rules variant (default: standard).",
        side="Your side: Dark moves first (default: random).",
        rated="Count the game for ratings (default: yes).",
    )
    @app_commands.choices(variant=VARIANTS, side=side_choices("iago"))
    async def challenge(
        self,
        interaction: discord.Interaction,
        opponent: discord.Member,
        variant: app_commands.Choice[str] | None = None,
        side: app_commands.Choice[int] | None = None,
        rated: bool = True,
    ) -> None:
        options = {"variant": variant.value if variant else "standard"}
        await self.send_challenge(interaction, opponent, options, side.value if side else None, rated)


async def setup(bot: discord.ext.commands.Bot) -> None:
    await bot.add_cog(IagoCog(bot))  # type: ignore[arg-type]
