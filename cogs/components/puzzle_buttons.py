"""A puzzle's buttons: Show solution (an attempt), Next puzzle (a game), Solve it (under a daily puzzle), and the
puzzle's private message they (and ``/<game> puzzle``) show.

Every puzzle message is ephemeral: a member solves alone. The buttons are ``DynamicItem``s whose ``custom_id`` holds
what they act on (``puzzle:solution:<attempt id>``, ``puzzle:next:<game>``, ``puzzle:daily:<puzzle id>``), so they work
after a restart.
"""

from __future__ import annotations

import re
from typing import Any

import discord

from cogs.plumbing.host import service_of
from cogs.plumbing.places import IN_SERVER_ONLY, place_id
from cogs.posting.private_answers import answer_error
from cogs.presentation.images import position_image
from cogs.presentation.markup import clip
from cogs.presentation.names import remember_members
from cogs.presentation.puzzle_text import (
    DONE,
    OPPONENT,
    REPLY,
    SOLUTION,
    SOLUTION_RATED,
    last_move,
    line_text,
    moves_left,
    prompt_lines,
)
from locales import N_, tr
from sessions.model import PuzzleView, UserError, entry_of

SHOW_SOLUTION = N_("Show solution")
NEXT_PUZZLE = N_("Next puzzle")
SOLVE = N_("Solve it")
DAILY_OVER = N_("That daily puzzle is over: its solution is posted. Try /{game} puzzle for another.")


class PuzzleButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"puzzle:(?P<action>solution|next|daily):(?P<arg>[0-9a-z_-]{1,40})",
):
    """Show solution (an attempt), Next puzzle (a game), Solve it (a daily puzzle)."""

    LABELS: dict[str, str] = {"solution": SHOW_SOLUTION, "next": NEXT_PUZZLE, "daily": SOLVE}  # noqa: RUF012

    def __init__(self, action: str, arg: str, locale: Any = None) -> None:
        style = discord.ButtonStyle.primary if action != "solution" else discord.ButtonStyle.secondary
        super().__init__(
            discord.ui.Button(label=tr(locale, self.LABELS[action]), style=style, custom_id=f"puzzle:{action}:{arg}")
        )
        self.action, self.arg = action, arg

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> PuzzleButton:
        return cls(match["action"], match["arg"], interaction.locale)

    async def callback(self, interaction: discord.Interaction) -> None:
        remember_members(interaction)
        try:
            place = place_id(interaction)  # a server, or a DM's own scope (self-play puzzles only there)
            if place is None:
                raise UserError(IN_SERVER_ONLY)
            puzzles = service_of(interaction).puzzles
            if self.action == "daily":
                await self._daily(interaction)
                return
            await interaction.response.defer()  # the board is drawn before the message is replaced
            if self.action == "next":
                try:
                    entry_of(self.arg)
                except KeyError:
                    raise UserError("That puzzle no longer exists.") from None
                await show_start(interaction, await puzzles.next(place, interaction.user.id, self.arg))
                return
            view, rating = await puzzles.give_up(place, interaction.user.id, int(self.arg))
            if rating is None:
                text = tr(interaction.locale, SOLUTION, line=line_text(view))
            else:
                text = tr(interaction.locale, SOLUTION_RATED, line=line_text(view), before=rating[0], after=rating[1])
            expected = (
                view.puzzle.solution[view.attempt.step] if view.attempt.step < len(view.puzzle.solution) else None
            )
            await show(interaction, view, [text], suggestion=expected)
        except Exception as error:  # a button has no command tree behind it: answer here
            await answer_error(interaction, error)

    async def _daily(self, interaction: discord.Interaction) -> None:
        if interaction.guild_id is None:  # a daily puzzle is a server's
            raise UserError(IN_SERVER_ONLY)
        service = service_of(interaction)
        daily = await service.daily_puzzles.daily_of_puzzle(interaction.guild_id, int(self.arg))
        if daily is None:
            raise UserError("That puzzle no longer exists.")
        if daily.revealed_at is not None:
            raise UserError(DAILY_OVER, game=daily.game)
        await interaction.response.defer(ephemeral=True, thinking=True)
        view = await service.puzzles.open_puzzle(interaction.guild_id, interaction.user.id, daily.puzzle_id)
        await show_start(interaction, view)


async def board(interaction: discord.Interaction, view: PuzzleView, **marks: Any) -> discord.File:
    """The puzzle's position, drawn in the server's language: the member's name on their side."""
    puzzle = view.puzzle
    names = ["", ""]
    names[puzzle.solver] = interaction.user.display_name
    names[1 - puzzle.solver] = tr(interaction.guild_locale, OPPONENT)
    marks = {key: value for key, value in marks.items() if value}
    return await position_image(
        service_of(interaction),
        puzzle.game,
        view.state,
        (names[0], names[1]),
        f"puzzle-{puzzle.id}-{view.attempt.step}.png",
        locale=interaction.guild_locale,
        reader=interaction.locale,  # its reader's language
        **marks,
    )


def buttons(view: PuzzleView, locale: Any) -> discord.ui.View:
    items = discord.ui.View(timeout=None)
    if view.finished:
        items.add_item(PuzzleButton("next", view.puzzle.game, locale))
    else:
        items.add_item(PuzzleButton("solution", str(view.attempt.id), locale))
    return items


async def show(interaction: discord.Interaction, view: PuzzleView, lines: list[str], **marks: Any) -> None:
    """The puzzle message, privately: a new message, or the clicked one replaced (its buttons' interaction)."""
    file = await board(interaction, view, **marks)
    content = clip("\n".join(lines))
    items = buttons(view, interaction.locale)
    message = interaction.message
    if interaction.type is discord.InteractionType.component and message is not None and message.flags.ephemeral:
        await interaction.edit_original_response(content=content, attachments=[file], view=items)
        return
    await interaction.followup.send(content, file=file, view=items, ephemeral=True)


async def show_start(interaction: discord.Interaction, view: PuzzleView) -> None:
    """A puzzle as it stands: the prompt, or where the member is in it."""
    locale = interaction.locale
    if view.finished:
        await show(interaction, view, [tr(locale, DONE, line=line_text(view))], suggestion=None)
        return
    lines = prompt_lines(locale, view)
    if view.attempt.step:
        lines.append(
            tr(locale, REPLY, reply=view.puzzle.solution[view.attempt.step - 1], left=moves_left(locale, view))
        )
    await show(interaction, view, lines, played=last_move(view.puzzle.game, view.state.moves))
