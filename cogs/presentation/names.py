"""Members' names as a server shows them, for the boards, the threads and the standings.

Names come from the interactions themselves (the member who acts, the members an option names) into a small
cache, so drawing a board never costs a request to Discord; only a name never seen since start-up is fetched,
once.
"""

from __future__ import annotations

import discord

from cogs.plumbing.places import place_id, settle_place
from sessions.model import Game, LruCache

_names: LruCache[tuple[int, int], str] = LruCache(10_000)


def remember_members(interaction: discord.Interaction) -> None:
    """Note the display names an interaction carries: its member, and the members (in a DM, the users) its options
    resolve; and settle the language of the place (:func:`cogs.plumbing.places.settle_place`)."""
    settle_place(interaction)
    place = place_id(interaction)
    if place is None:
        return
    _names.put((place, interaction.user.id), interaction.user.display_name)
    resolved = (interaction.data or {}).get("resolved", {})
    members = resolved.get("members", {})  # type: ignore[union-attr]
    users = resolved.get("users", {})  # type: ignore[union-attr]
    for user_id, user in users.items():
        member = members.get(user_id, {}) if interaction.guild_id is not None else {}
        if interaction.guild_id is not None and not member:
            continue  # not a member of this server: no name to show here
        name = member.get("nick") or user.get("global_name") or user.get("username")
        if name:
            _names.put((place, int(user_id)), name)


async def display_names(guild: discord.Guild | None, game: Game) -> tuple[str, str]:
    first, second = [await display_name(guild, game.guild_id, user_id) for user_id in game.players]
    return first, second


async def display_name(guild: discord.Guild | None, guild_id: int, user_id: int) -> str:
    """A member's name as the server shows it: from the cache, the client's members, or one request."""
    name = _names.get((guild_id, user_id))
    if name is None:
        member = guild.get_member(user_id) if guild else None
        if member is None and guild is not None:
            try:
                member = await guild.fetch_member(user_id)
            except discord.HTTPException:
                member = None
        name = member.display_name if member else f"Player {user_id}"
        if member is not None:
            _names.put((guild_id, user_id), name)
    return name
