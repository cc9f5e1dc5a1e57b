"""/polygo: Polygo's own commands, rolling the die and placing a block by its points or by an anchor.

The entry names :func:`polygo_commands` (``GameEntry.cog``), and the game's cog mixes the commands it returns in
before the commands every game has (``cogs/commands/every_game.py``), whose helpers they use. The turns a block may be
given and the placement an anchor spells come from the entry's ``spelling`` (``games/polygo.py``), so this module
imports no engine.
"""

from __future__ import annotations

import discord
from discord import app_commands

from cogs.plumbing.deadline import reply_to
from sessions.model import GameEntry, UserError

MAX_POINT_TEXT = 10


def polygo_commands(entry: GameEntry) -> type:
    """``/polygo roll`` and ``/polygo place``, with the turns of ``entry``'s blocks."""
    spelling = entry.spelling
    turns = [app_commands.Choice(name=f"{degrees}°", value=degrees) for degrees in spelling.turns]

    class PolygoCommands:
        @app_commands.command(name="roll", description="Roll the die for your turn.")
        @app_commands.describe(game="Which game, if you have several.")
        async def roll(self, interaction: discord.Interaction, game: int | None = None) -> None:
            found = await self.current_game(interaction, game)
            rolling = self.service.turns.roll(found.id, interaction.user.id, reply=reply_to(interaction), known=found)
            await self.act(interaction, rolling)

        @app_commands.command(name="place", description="Place your rolled block: list its points, or anchor it.")
        @app_commands.describe(
            stones="The block's points, like D4 D5 E5 (the list shows legal placements).",
            at="Or: the point for the block's anchor (its lowest, then leftmost point).",
            turn="With at: turn the block clockwise.",
            mirror="With at: use the mirrored shape (faces 5 and 6).",
            game="Which game, if you have several.",
        )
        @app_commands.choices(turn=turns)
        async def place(
            self,
            interaction: discord.Interaction,
            stones: str | None = None,
            at: str | None = None,
            turn: app_commands.Choice[int] | None = None,
            mirror: bool = False,
            game: int | None = None,
        ) -> None:
            if stones and at:
                raise UserError("Give either stones or at, not both.")
            if not stones and not at:
                raise UserError("Say where: stones like D4 D5 E5, or at with a point.")
            found = await self.current_game(interaction, game)
            move = stones or ""
            if at:
                state = await self.service.finder.state(found)
                if state.chance or state.to_act != found.side_of(interaction.user.id):
                    # Let the service give the precise refusal (not your turn, roll first, ...).
                    move = at[:MAX_POINT_TEXT]
                else:
                    try:
                        anchor = at.strip()[:MAX_POINT_TEXT]
                        move = spelling.placement(state, anchor, turn.value if turn else 0, mirror)
                    except ValueError as error:
                        raise UserError("That move is not legal: {reason}", reason=error) from error
            await self.play_and_announce(interaction, found.id, move)

        @place.autocomplete("stones")
        async def place_autocomplete(
            self, interaction: discord.Interaction, current: str
        ) -> list[app_commands.Choice[str]]:
            return await self.legal_choices(interaction, current)

        @roll.autocomplete("game")
        @place.autocomplete("game")
        async def polygo_game_autocomplete(
            self, interaction: discord.Interaction, current: str
        ) -> list[app_commands.Choice[int]]:
            return await self.game_choices(interaction, current)

    return PolygoCommands
