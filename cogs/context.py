"""What code with only an interaction or the client in hand (buttons, shared helpers) needs: the service and
members' names.

Names come from the interactions themselves (the member who acts, the members an option names) into a small
cache, so drawing a board never costs a request to Discord; only a name never seen since start-up is fetched,
once.
"""

from __future__ import annotations

import asyncio
import io
from typing import Any, cast

import discord

from cogs.places import place_id, settle_place
from engines import GameState
from sessions.host import ServiceHost
from sessions.memory import LruCache
from sessions.model import Game
from sessions.service import GameService

# How a board of a game in play is drawn, wherever it carries components to tap: for a phone (docs/boards.md).
PLAYING_LAYOUT = "portrait"

SAME: Any = object()  # a board described in the language it is drawn in
_names: LruCache[tuple[int, int], str] = LruCache(10_000)


def service_of(interaction: discord.Interaction) -> GameService:
    """The session service, for code that has an interaction but no cog (persistent buttons)."""
    return client_service(interaction.client)


def client_service(client: discord.Client) -> GameService:
    """The session service of the bot ``client`` is (typed by ``ServiceHost``, so no cog imports the bot)."""
    return cast(ServiceHost, client).service


def remember_members(interaction: discord.Interaction) -> None:
    """Note the display names an interaction carries: its member, and the members (in a DM, the users) its options
    resolve; and settle the language of the place (:func:`cogs.places.settle_place`)."""
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


async def board_image(
    guild: discord.Guild | None,
    service: GameService,
    game: Game,
    state: GameState,
    name: str | None = None,
    *,
    locale: Any = None,
    reader: Any = SAME,
    **marks: Any,
) -> discord.File:
    """The board of ``state`` as an attachment, drawn off the event loop, with the players' names and its words
    in ``locale`` (the server's: a board reads the same wherever it is shown), described for screen readers in
    ``reader``'s language (a private message's reader; by default ``locale``, for a public one); ``marks``: the
    renderer's layout and marks (docs/boards.md)."""
    names = await display_names(guild, game)
    png, description = await asyncio.gather(
        service.boards.render_board(game, state, names, locale, **marks),
        service.boards.describe_board(game, state, names, locale if reader is SAME else reader),
    )
    filename = name or f"{game.name}-{game.id}-{len(state.moves)}.png"
    return discord.File(io.BytesIO(png), filename=filename, description=description)
