"""What code with only an interaction in hand (buttons, shared helpers) needs: the service and members' names."""

from __future__ import annotations

from typing import cast

import discord

from sessions.host import ServiceHost
from sessions.service import GameService
from storage.database import GameRow


def service_of(interaction: discord.Interaction) -> GameService:
    """The session service, for code that has an interaction but no cog (persistent buttons)."""
    return cast(ServiceHost, interaction.client).service


async def display_names(guild: discord.Guild | None, row: GameRow) -> tuple[str, str]:
    names = []
    for user_id in row.players:
        member = guild.get_member(user_id) if guild else None
        if member is None and guild is not None:
            try:
                member = await guild.fetch_member(user_id)
            except discord.HTTPException:
                member = None
        names.append(member.display_name if member else f"Player {user_id}")
    return names[0], names[1]
