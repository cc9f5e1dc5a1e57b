"""/isaac: ISAAC, place bars on a 10x10 board, then remove them to score along their lines."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from cogs.common import GameCog, side_choices
from locales import N_, tr
from sessions.service import UserError

PIECES = [
    app_commands.Choice(name=N_("3 squares (value 1)"), value=3),
    app_commands.Choice(name=N_("4 squares (value 2)"), value=4),
    app_commands.Choice(name=N_("5 squares (value 3)"), value=5),
    app_commands.Choice(name=N_("6 squares (value 4)"), value=6),
    app_commands.Choice(name=N_("7 squares (value 6)"), value=7),
]
DIRECTIONS = [
    app_commands.Choice(name=N_("right (along the row)"), value="right"),
    app_commands.Choice(name=N_("up (along the column)"), value="up"),
]


def span_length(span: str) -> int:
    start, end = span.split("-")
    if start[0] == end[0]:
        return int(end[1:]) - int(start[1:]) + 1
    return ord(end[0]) - ord(start[0]) + 1


def removals(state: Any) -> dict[str, int]:
    """Each removable piece's span and its highest reachable score, from the legal move list."""
    best: dict[str, int] = {}
    for move in state.legal_moves():
        if move.startswith("x "):
            _, span, score = move.split()
            best[span] = max(best.get(span, 0), int(score))
    return best


@app_commands.guild_only()
class IsaacCog(GameCog, group_name="isaac", group_description="Play ISAAC: place bars, then remove them to score."):
    game = "isaac"

    @app_commands.command(name="challenge", description="Challenge a member of this server to ISAAC.")
    @app_commands.describe(
        opponent="Who you want to play.",
        side="Your side: Black moves first (default: random).",
        rated="Count the game for ratings (default: yes).",
    )
    @app_commands.choices(side=side_choices("isaac"))
    async def challenge(
        self,
        interaction: discord.Interaction,
        opponent: discord.Member,
        side: app_commands.Choice[int] | None = None,
        rated: bool = True,
    ) -> None:
        await self.send_challenge(interaction, opponent, {}, side.value if side else None, rated)

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
        from engines.isaac import placement_move  # the engine's own notation helper

        try:
            move = placement_move(piece.value, at.strip().lower(), direction.value)
        except ValueError as error:
            raise UserError("That move is not legal: {reason}", reason=str(error)) from error
        await self.play_and_announce(interaction, game, move)

    @place.autocomplete("at")
    async def place_at_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        length = getattr(interaction.namespace, "piece", None)
        direction = getattr(interaction.namespace, "direction", None)
        found: dict[str, str] = {}
        for span in await self._all_placements(interaction):
            start, end = span.split("-")
            horizontal = start[1:] == end[1:]
            if length is not None and span_length(span) != int(length):
                continue
            if direction is not None and (direction == "right") != horizontal:
                continue
            if current.lower() in start:
                found.setdefault(start, f"{start} → {span}")
        return [app_commands.Choice(name=label, value=start) for start, label in list(found.items())[:25]]

    async def _all_placements(self, interaction: discord.Interaction) -> list[str]:
        state = await self.state_for_autocomplete(interaction)
        if state is None:
            return []
        return [m for m in state.legal_moves() if "-" in m and not m.startswith("x")]

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
        row = await self.current_game(interaction, game)
        state = await self.service.state(row)
        if getattr(state, "phase", "") != "scoring":
            raise UserError("Pieces are removed in the scoring phase; now place one with /isaac place.")
        text = piece.strip().lower()[:20]
        span = text
        if "-" not in text:
            found = state.piece_at(text)
            if found is None:
                raise UserError("There is no piece on {square}.", square=text)
            span = found[0]
        if score is None:
            reachable = removals(state)
            if span not in reachable:
                raise UserError("You cannot remove the piece {span} now.", span=span)
            score = reachable[span]
        await self.play_and_announce(interaction, row.id, f"x {span} {score}")

    @remove.autocomplete("piece")
    async def remove_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        state = await self.state_for_autocomplete(interaction)
        if state is None:
            return []
        current_score = state.scores()[state.turn]
        choices = []
        for span, best in removals(state).items():
            if current.lower().strip() in span:
                label = tr(interaction.locale, "x {span} -> {points} points", span=span, points=best - current_score)
                choices.append(app_commands.Choice(name=label, value=span))
        return choices[:25]

    @place.autocomplete("game")
    @remove.autocomplete("game")
    async def isaac_game_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[int]]:
        return await self.game_choices(interaction, current)


async def setup(bot: discord.ext.commands.Bot) -> None:
    await bot.add_cog(IsaacCog(bot))  # type: ignore[arg-type]
