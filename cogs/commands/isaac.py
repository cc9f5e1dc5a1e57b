"""/isaac: ISAAC's own commands, placing by piece, square and direction, and removing by square.

The entry names :func:`isaac_commands` (``GameEntry.cog``), and the game's cog mixes the commands it returns in
before the commands every game has (``cogs/commands/every_game.py``), whose helpers they use. The pieces to choose
from, the moves they write and what autocomplete offers come from the entry's ``spelling`` (``games/isaac.py``), so
this module imports no engine.
"""

from __future__ import annotations

import discord
from discord import app_commands

from locales import N_, tr
from sessions.model import GameEntry, IllegalMove, UserError

PIECE_LABEL = N_("{length} squares (value {value})")
DIRECTIONS = [
    app_commands.Choice(name=N_("right (along the row)"), value="right"),
    app_commands.Choice(name=N_("up (along the column)"), value="up"),
]
MAX_SQUARE_TEXT = 20


def isaac_commands(entry: GameEntry) -> type:
    """``/isaac place`` and ``/isaac remove``, with the piece choices of ``entry``."""
    spelling = entry.spelling
    pieces = [
        app_commands.Choice(
            name=app_commands.locale_str(
                PIECE_LABEL.format(length=length, value=value), template=PIECE_LABEL, length=length, value=value
            ),
            value=length,
        )
        for length, value in spelling.pieces.items()
    ]

    class IsaacCommands:
        @app_commands.command(
            name="place", description="Place a piece: its length, its lower or left end, a direction."
        )
        @app_commands.describe(
            piece="The piece by its length.",
            at="The square of its lower or left end, like c3.",
            direction="Along the row (right) or the column (up).",
            game="Which game, if you have several.",
        )
        @app_commands.choices(piece=pieces, direction=DIRECTIONS)
        async def place(
            self,
            interaction: discord.Interaction,
            piece: app_commands.Choice[int],
            at: str,
            direction: app_commands.Choice[str],
            game: int | None = None,
        ) -> None:
            try:
                move = spelling.placement(piece.value, at[:MAX_SQUARE_TEXT], direction.value)
            except IllegalMove as error:
                raise UserError("That move is not legal: {reason}", reason=error) from error
            await self.play_and_announce(interaction, game, move)

        @place.autocomplete("at")
        async def place_at_autocomplete(
            self, interaction: discord.Interaction, current: str
        ) -> list[app_commands.Choice[str]]:
            state = await self.state_for_autocomplete(interaction)
            if state is None:
                return []
            length = getattr(interaction.namespace, "piece", None)
            starts = spelling.starts(
                state, int(length) if length is not None else None, getattr(interaction.namespace, "direction", None)
            )
            wanted = current.lower().strip()
            return [
                app_commands.Choice(name=f"{start} → {span}", value=start)
                for start, span in starts.items()
                if wanted in start
            ][:25]

        @app_commands.command(name="remove", description="Remove one of your pieces and move your score counter.")
        @app_commands.describe(
            piece="A square of the piece (or its span like c3-g3); the list shows what each removal scores.",
            score="Your new score (default: the full points).",
            game="Which game, if you have several.",
        )
        async def remove(
            self,
            interaction: discord.Interaction,
            piece: str,
            score: app_commands.Range[int, 0, 200] | None = None,
            game: int | None = None,
        ) -> None:
            found = await self.current_game(interaction, game)
            state = await self.service.finder.state(found)
            if not spelling.removing(state):
                raise UserError("Pieces are removed in the scoring phase; now place one with /isaac place.")
            if state.to_act != found.side_of(interaction.user.id):
                move = "x " + piece[:MAX_SQUARE_TEXT]  # the service gives the precise refusal (not your turn)
            else:
                try:
                    move = spelling.removal(state, piece[:MAX_SQUARE_TEXT], score)
                except IllegalMove as error:
                    raise UserError("That move is not legal: {reason}", reason=error) from error
            await self.play_and_announce(interaction, found.id, move)

        @remove.autocomplete("piece")
        async def remove_autocomplete(
            self, interaction: discord.Interaction, current: str
        ) -> list[app_commands.Choice[str]]:
            state = await self.state_for_autocomplete(interaction)
            if state is None:
                return []
            wanted = current.lower().strip()
            return [
                app_commands.Choice(
                    name=tr(interaction.locale, "x {span} -> {points} points", span=span, points=points), value=span
                )
                for span, points in spelling.removal_gains(state).items()
                if wanted in span
            ][:25]

        @place.autocomplete("game")
        @remove.autocomplete("game")
        async def isaac_game_autocomplete(
            self, interaction: discord.Interaction, current: str
        ) -> list[app_commands.Choice[int]]:
            return await self.game_choices(interaction, current)

    return IsaacCommands
