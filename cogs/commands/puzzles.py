"""``/<game> puzzle`` (by theme, or a streak), ``/<game> puzzle-move`` and ``/<game> puzzle-streaks``: puzzles from
real games and the shipped set, solved privately (their message and buttons: ``cogs/components/puzzle_buttons.py``).
Mixed into every game's cog; ``/<game> puzzle`` is built per game (:func:`puzzle_command`: its themes are the
choices)."""

from __future__ import annotations

import inspect
from typing import Any

import discord
from discord import app_commands

from cogs.components.puzzle_buttons import show, show_start
from cogs.plumbing.host import service_of
from cogs.plumbing.places import IN_SERVER_ONLY, place_id
from cogs.presentation.game_text import title
from cogs.presentation.markup import mention
from cogs.presentation.puzzle_text import answer_lines
from locales import N_, ntr, tr
from sessions.model import NO_PUZZLE_OPEN, GameEntry, UserError, theme_name, themes_of, title_of

AUTOCOMPLETE_LIMIT = 25
CHOICE_TEXT_LIMIT = 100
STREAKS_TITLE = N_("{title} puzzle streaks")
NO_STREAKS = N_("No puzzle streaks here yet: start one with /{game} puzzle and its streak option.")
STREAK_ROW = N_("{rank}. {player}: {puzzles}")


def puzzle_command(entry: GameEntry) -> app_commands.Command[Any, ..., None]:
    """``/<game> puzzle``: the member's open puzzle or a new one near their rating; ``theme`` (the game's themes,
    by their translated names) picks puzzles of a theme; ``streak`` plays puzzles of rising difficulty until the
    first miss. The parameters differ per game (a game with no themes has no ``theme``), so the signature
    discord.py reads is built from the entry."""

    async def puzzle(cog: Any, interaction: discord.Interaction, **chosen: Any) -> None:
        place = place_id(interaction)
        if place is None:
            raise UserError(IN_SERVER_ONLY)
        if entry.ai is None:
            raise UserError("I do not play {title} myself, so I have no puzzles of it.", title=title_of(entry.name))
        theme = chosen.get("theme")
        await interaction.response.defer(ephemeral=True, thinking=True)
        view = await service_of(interaction).puzzles.start(
            place,
            interaction.user.id,
            entry.name,
            theme=theme.value if theme is not None else None,
            streak=bool(chosen.get("streak", False)),
        )
        await show_start(interaction, view)

    keyword = inspect.Parameter.POSITIONAL_OR_KEYWORD
    parameters = [
        inspect.Parameter("cog", keyword),
        inspect.Parameter("interaction", keyword, annotation=discord.Interaction),
    ]
    themes = themes_of(entry.name)
    described: dict[str, str] = {"streak": "Puzzles of rising difficulty until your first miss (default: no)."}
    if themes:
        parameters.append(inspect.Parameter("theme", keyword, annotation=app_commands.Choice[str] | None, default=None))
        described["theme"] = "Only puzzles of this theme."
    parameters.append(inspect.Parameter("streak", keyword, annotation=bool, default=False))
    puzzle.__signature__ = inspect.Signature(parameters)  # type: ignore[attr-defined]
    puzzle.__qualname__ = "PuzzleCommands.puzzle"  # a method: discord.py then passes the cog first
    command = app_commands.describe(**described)(puzzle)
    if themes:
        choices = [app_commands.Choice(name=theme_name(entry.name, key), value=key) for key in themes]
        command = app_commands.choices(theme=choices)(command)
    return app_commands.command(name="puzzle", description="A puzzle from real games, privately: find the best move.")(
        command
    )


class PuzzleCommands:
    """``/<game> puzzle-move`` and ``/<game> puzzle-streaks``, mixed into every game's cog
    (``cogs.commands.every_game.GameCog``, which adds ``/<game> puzzle`` from :func:`puzzle_command`)."""

    entry: GameEntry

    @app_commands.command(name="puzzle-move", description="Your move in your puzzle.")
    @app_commands.describe(move="The move; the list shows the legal ones.")
    async def puzzle_move(self, interaction: discord.Interaction, move: str) -> None:
        place = place_id(interaction)
        if place is None:
            raise UserError(IN_SERVER_ONLY)
        puzzles = service_of(interaction).puzzles
        if await puzzles.current(place, interaction.user.id, self.entry.name) is None:
            raise UserError(NO_PUZZLE_OPEN, title=title_of(self.entry.name), game=self.entry.name)
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

    @app_commands.command(name="puzzle-streaks", description="The longest puzzle streaks here.")
    async def puzzle_streaks(self, interaction: discord.Interaction) -> None:
        place = place_id(interaction)
        if place is None:
            raise UserError(IN_SERVER_ONLY)
        board = await service_of(interaction).puzzles.streak_board(place, self.entry.name)
        locale = interaction.guild_locale or interaction.locale
        heading = tr(locale, STREAKS_TITLE, title=title(self.entry.name, locale))
        if not board:
            lines = [tr(locale, NO_STREAKS, game=self.entry.name)]
        else:
            lines = [
                tr(
                    locale,
                    STREAK_ROW,
                    rank=rank,
                    player=mention(user_id),
                    puzzles=ntr(locale, "{count} puzzle", "{count} puzzles", best),
                )
                for rank, (user_id, best) in enumerate(board, start=1)
            ]
        await interaction.response.send_message(
            embed=discord.Embed(title=heading, description="\n".join(lines)),
            allowed_mentions=discord.AllowedMentions.none(),
        )
