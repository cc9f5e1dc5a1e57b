"""The pictures a message attaches, as ``discord.File``s: a game's board, a position of no stored game (a lesson's, a
puzzle's, a record's), a replay's animation and a tournament's standings, each with its words for screen readers.

The service's boards part draws them off the event loop (``sessions/boards.py``); here they get the players' names,
the language they are drawn in (the server's: a board reads the same wherever it is shown) and the language their
description is read in (a private message's reader's).
"""

from __future__ import annotations

import io
from typing import Any

import discord

from cogs.plumbing.host import GameService, service_of
from cogs.presentation.markup import clip
from cogs.presentation.names import display_name, display_names
from cogs.presentation.tournament_text import points_text
from locales import tr
from sessions.model import Game, GameState, TournamentView, shown

SAME: Any = object()  # a picture described in the language it is drawn in


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
    png, description = await service.boards.board_picture(
        game, state, names, locale, locale if reader is SAME else reader, **marks
    )
    filename = name or f"{game.name}-{game.id}-{len(state.moves)}.png"
    return discord.File(io.BytesIO(png), filename=filename, description=description)


async def position_image(
    service: GameService,
    game: str,
    state: GameState,
    names: tuple[str, str],
    filename: str,
    *,
    locale: Any = None,
    reader: Any = SAME,
    **marks: Any,
) -> discord.File:
    """A position of no stored game of ``game`` (a lesson's, a puzzle's, a record's) as an attachment, drawn in
    ``locale``'s language with the renderer's ``marks`` and described in ``reader``'s (by default the same)."""
    png, description = await service.boards.position_picture(
        game, state, names, locale, locale if reader is SAME else reader, **marks
    )
    return discord.File(io.BytesIO(png), filename=filename, description=description)


async def animation_file(interaction: discord.Interaction, game: Game) -> tuple[discord.File, int]:
    """The whole game as a looping GIF, a frame per ply plus the start; drawn off the event loop."""
    names = await display_names(interaction.guild, game)
    service = service_of(interaction)
    gif, frames = await service.boards.animation(game, names, interaction.guild_locale)
    description = await service.boards.describe_animation(game, frames, names, interaction.guild_locale)
    return discord.File(io.BytesIO(gif), filename=f"{game.name}-{game.id}-replay.gif", description=description), frames


async def positions_animation(
    service: GameService, game: str, states: list[GameState], names: tuple[str, str], locale: Any, filename: str
) -> discord.File:
    """Positions of no stored game (a record's) as a looping GIF, a frame each, drawn and described in ``locale``'s
    language."""
    gif = await service.boards.animate_positions(game, states, names, locale)
    description = await service.boards.describe_animated_positions(game, states, names, locale)
    return discord.File(io.BytesIO(gif), filename=filename, description=description)


async def standings_file(
    client: discord.Client,
    service: GameService,
    view: TournamentView,
    subtitle: str,
    locale: Any,
    reader: Any = None,
) -> discord.File:
    """The standings as an image, the players by their names in the server, drawn in ``locale``'s language and
    described (its alt text, for screen readers) in ``reader``'s (default: the same)."""
    guild = client.get_guild(view.tournament.guild_id)
    names = {row.player: await display_name(guild, view.tournament.guild_id, row.player) for row in view.standings}
    png = await service.boards.standings_image(view, names, subtitle, locale)
    reader = locale if reader is None else reader
    rows = tr(reader, "; ").join(
        tr(
            reader,
            "{place}. {player}, {points}, Buchholz {buchholz}, S-B {sb}",
            place=row.place,
            player=names[row.player],
            points=points_text(reader, row.points),
            buchholz=shown(row.buchholz),
            sb=shown(row.sonneborn_berger),
        )
        for row in view.standings
    )
    description = tr(
        reader, "Standings of {name} ({subtitle}): {rows}", name=view.tournament.name, subtitle=subtitle, rows=rows
    )
    return discord.File(
        io.BytesIO(png), filename=f"tournament-{view.tournament.id}-standings.png", description=clip(description, 1024)
    )
