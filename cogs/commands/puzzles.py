"""``/<game> puzzle`` and ``/<game> puzzle-move``: a puzzle from real games, solved privately (its message and
buttons: ``cogs/components/puzzle_buttons.py``). Mixed into every game's cog."""

from __future__ import annotations

import discord
from discord import app_commands

from cogs.components.puzzle_buttons import show, show_start
from cogs.plumbing.host import service_of
from cogs.plumbing.places import IN_SERVER_ONLY, place_id
from cogs.presentation.puzzle_text import answer_lines
from sessions.model import GameEntry, UserError

AUTOCOMPLETE_LIMIT = 25
CHOICE_TEXT_LIMIT = 100


class PuzzleCommands:
    """``/<game> puzzle`` and ``/<game> puzzle-move``, mixed into every game's cog
    (``cogs.commands.every_game.GameCog``)."""

    entry: GameEntry

    @app_commands.command(name="puzzle", description="A puzzle from real games, privately: find the best move.")
    async def puzzle(self, interaction: discord.Interaction) -> None:
        place = place_id(interaction)
        if place is None:
            raise UserError(IN_SERVER_ONLY)
        if self.entry.ai is None:
            raise UserError("I do not play {title} myself, so I have no puzzles of it.", title=self.entry.title)
        await interaction.response.defer(ephemeral=True, thinking=True)
        view = await service_of(interaction).puzzles.start(place, interaction.user.id, self.entry.name)
        await show_start(interaction, view)

    @app_commands.command(name="puzzle-move", description="Your move in your puzzle.")
    @app_commands.describe(move="The move; the list shows the legal ones.")
    async def puzzle_move(self, interaction: discord.Interaction, move: str) -> None:
        place = place_id(interaction)
        if place is None:
            raise UserError(IN_SERVER_ONLY)
        puzzles = service_of(interaction).puzzles
        if await puzzles.current(place, interaction.user.id, self.entry.name) is None:
            raise UserError("You have no puzzle open in {game}: start one with /{game} puzzle.", game=self.entry.name)
        await interaction.response.defer(ephemeral=True, thinking=True)  # a wrong move is searched to explain it
        answer = await puzzles.play(place, interaction.user.id, self.entry.name, move)
        lines, marks = answer_lines(interaction.locale, answer)
        await show(interaction, answer.view, lines, **marks)

    @puzzle_move.autocomplete("move")
    async def puzzle_move_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        place = place_id(interaction)
        if place is None:
            return []
        view = await service_of(interaction).puzzles.current(place, interaction.user.id, self.entry.name)
        if view is None:
            return []
        wanted = current.lower().replace(" ", "").replace(",", "")
        matches = [m for m in view.state.legal_moves() if wanted in m.lower().replace(" ", "")]
        return [app_commands.Choice(name=m, value=m) for m in matches if len(m) <= CHOICE_TEXT_LIMIT][
            :AUTOCOMPLETE_LIMIT
        ]
