"""/isaac: ISAAC's own commands, placing by piece, square and direction, and removing by square."""

from __future__ import annotations

import discord
from discord import app_commands

from cogs.common import GameCog
from engines import IllegalMove
from engines import isaac as engine
from games.isaac import ENTRY
from locales import N_, tr
from sessions.model import UserError

PIECE_LABEL = N_("{length} squares (value {value})")
PIECES = [
    app_commands.Choice(
        name=app_commands.locale_str(
            PIECE_LABEL.format(length=length, value=value), template=PIECE_LABEL, length=length, value=value
        ),
        value=length,
    )
    for length, value in engine.VALUES.items()
]
DIRECTIONS = [
    app_commands.Choice(name=N_("right (along the row)"), value="right"),
    app_commands.Choice(name=N_("up (along the column)"), value="up"),
]
MAX_SQUARE_TEXT = 20


class IsaacCog(GameCog, entry=ENTRY, group_name=ENTRY.name, group_description=ENTRY.description):
    @app_commands.command(name="place", description="Place a piece: its length, its lower or left end, a direction.")
    @app_commands.describe(
        piece="The piece by its length.",
        at="The square of its lower or left end, like c3.",
        direction="Along the row (right) or the column (up).",
        game="Which game, if you have several.",
    )
    @app_commands.choices(piece=PIECES, direction=DIRECTIONS)
    async def place(
        self,
        interaction: discord.Interaction,
        piece: app_commands.Choice[int],
        at: str,
        direction: app_commands.Choice[str],
        game: int | None = None,
    ) -> None:
        try:
            move = engine.placement_move(piece.value, at[:MAX_SQUARE_TEXT], direction.value)
        except IllegalMove as error:
            raise UserError("That move is not legal: {reason}", reason=error) from error
        await self.play_and_announce(interaction, game, move)

    @place.autocomplete("at")
    async def place_at_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        state = await self.state_for_autocomplete(interaction)
        if not isinstance(state, engine.IsaacGame):
            return []
        length = getattr(interaction.namespace, "piece", None)
        starts = state.placement_starts(
            int(length) if length is not None else None, getattr(interaction.namespace, "direction", None)
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
        assert isinstance(state, engine.IsaacGame)
        if state.phase != engine.SCORING:
            raise UserError("Pieces are removed in the scoring phase; now place one with /isaac place.")
        if state.to_act != found.side_of(interaction.user.id):
            move = "x " + piece[:MAX_SQUARE_TEXT]  # the service gives the precise refusal (not your turn)
        else:
            try:
                move = state.removal_move(piece[:MAX_SQUARE_TEXT], score)
            except IllegalMove as error:
                raise UserError("That move is not legal: {reason}", reason=error) from error
        await self.play_and_announce(interaction, found.id, move)

    @remove.autocomplete("piece")
    async def remove_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        state = await self.state_for_autocomplete(interaction)
        if not isinstance(state, engine.IsaacGame) or state.turn is None:
            return []
        current_score = state.scores()[state.turn]
        wanted = current.lower().strip()
        return [
            app_commands.Choice(
                name=tr(interaction.locale, "x {span} -> {points} points", span=span, points=best - current_score),
                value=span,
            )
            for span, best in state.best_removals().items()
            if wanted in span
        ][:25]

    @place.autocomplete("game")
    @remove.autocomplete("game")
    async def isaac_game_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[int]]:
        return await self.game_choices(interaction, current)
