"""A puzzle's private message: its board, with the move picker of a board in play under it, and its buttons: Show
solution (an attempt), Next puzzle (a game), the streak's (a game), Solve it (under a daily puzzle).

Every puzzle message is ephemeral: a member solves alone. The board carries the first step of its game's picker
(``games/move_picker.py``, the menus of ``cogs/presentation/board_controls.py``); a pick either plays the member's
move in the puzzle (the answer replaces the message it was picked on: the bot's reply and the next step, or why
the move is not it) or opens the next step in a private message of its own, as a board in play does. Every item
is a ``DynamicItem`` whose ``custom_id`` holds what it acts on, so it works after a restart: a menu
``puzzle:<attempt id>:<step>:<menu>:<keys picked before, joined by />`` (``step``: the solution's moves played when
the board was drawn, so a pick on a board the puzzle has moved past is refused), the buttons
``puzzle:solution:<attempt id>``, ``puzzle:next:<game>``, ``puzzle:streak:<game>``, ``puzzle:daily:<puzzle id>``.
"""

from __future__ import annotations

import asyncio
import re
from dataclasses import dataclass
from typing import Any

import discord

from cogs.components.board_presses import NOT_OFFERED
from cogs.plumbing.host import service_of
from cogs.plumbing.places import IN_SERVER_ONLY, place_id
from cogs.posting.private_answers import answer_error
from cogs.presentation.board_controls import join, marks, said, select_menu, split
from cogs.presentation.game_text import title
from cogs.presentation.images import position_image
from cogs.presentation.markup import clip
from cogs.presentation.names import remember_members
from cogs.presentation.puzzle_text import (
    DONE,
    NEXT_IN_STREAK,
    OPPONENT,
    REPLY,
    SOLUTION,
    SOLUTION_RATED,
    answer_lines,
    finish_lines,
    last_move,
    line_text,
    moves_left,
    prompt_lines,
)
from locales import N_, tr
from sessions.model import MAX_MENUS, RESERVED, STALE_PUZZLE, PuzzleView, Step, Unavailable, UserError, entry_of

SHOW_SOLUTION = N_("Show solution")
NEXT_PUZZLE = N_("Next puzzle")
SOLVE = N_("Solve it")
START_STREAK = N_("Start a streak")
NEW_STREAK = N_("New streak")
DAILY_OVER = N_("That daily puzzle is over: its solution is posted. Try /{game} puzzle for another.")
PUZZLE_OVER = N_("This puzzle is over: start another with /{game} puzzle.")
STEP_HEADER = N_("{title} puzzle #{id}: {prompt}")
NAME = r"[0-9a-z_-]{1,40}"


class PuzzleButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=rf"puzzle:(?P<action>solution|next|streak|daily):(?P<arg>{NAME})",
):
    """Show solution (an attempt), Next puzzle (a game), the streak's next puzzle or a new streak (a game), Solve
    it (a daily puzzle)."""

    LABELS: dict[str, str] = {  # noqa: RUF012
        "solution": SHOW_SOLUTION,
        "next": NEXT_PUZZLE,
        "streak": START_STREAK,
        "daily": SOLVE,
    }

    def __init__(self, action: str, arg: str, locale: Any = None, label: str | None = None) -> None:
        style = discord.ButtonStyle.primary if action != "solution" else discord.ButtonStyle.secondary
        super().__init__(
            discord.ui.Button(
                label=tr(locale, label or self.LABELS[action]), style=style, custom_id=f"puzzle:{action}:{arg}"
            )
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
            if self.action in ("next", "streak"):
                try:
                    entry_of(self.arg)
                except KeyError:
                    raise UserError("That puzzle no longer exists.") from None
                if self.action == "next":
                    await show_start(interaction, await puzzles.next(place, interaction.user.id, self.arg))
                else:
                    await show_start(interaction, await puzzles.streak(place, interaction.user.id, self.arg))
                return
            view, rating = await puzzles.give_up(place, interaction.user.id, int(self.arg))
            if rating is None:
                text = tr(interaction.locale, SOLUTION, line=line_text(view))
            else:
                text = tr(interaction.locale, SOLUTION_RATED, line=line_text(view), before=rating[0], after=rating[1])
            expected = (
                view.puzzle.solution[view.attempt.step] if view.attempt.step < len(view.puzzle.solution) else None
            )
            await show(interaction, view, [text, *finish_lines(interaction.locale, view)], suggestion=expected)
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


@dataclass(frozen=True)
class PuzzleTap:
    """A pick in a puzzle board's menu: which attempt, at which step of its solution, the keys picked so far."""

    attempt_id: int
    step: int
    path: tuple[str, ...]


class PuzzleMenu(
    discord.ui.DynamicItem[discord.ui.Select],
    template=r"puzzle:(?P<attempt>[0-9]{1,19}):(?P<step>[0-9]{1,3}):(?P<slot>[0-4]):(?P<path>[^:]*)",
):
    """A menu of a puzzle's move picker: a pick continues the path, and the path's last pick plays the move."""

    def __init__(self, select: discord.ui.Select) -> None:
        super().__init__(select)
        match = self.__discord_ui_compiled_template__.fullmatch(select.custom_id)
        assert match is not None
        self.attempt_id, self.step, self.path = int(match["attempt"]), int(match["step"]), split(match["path"])

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Select, match: re.Match[str]
    ) -> PuzzleMenu:
        return cls(item)

    async def callback(self, interaction: discord.Interaction) -> None:
        remember_members(interaction)
        try:
            picked = tuple(str(value) for value in self.item.values[:1])
            if not picked:
                raise UserError(NOT_OFFERED)
            await answer_puzzle_tap(interaction, PuzzleTap(self.attempt_id, self.step, self.path + picked))
        except Exception as error:  # a menu has no command tree behind it: answer here
            await answer_error(interaction, error)


def puzzle_menu(view: PuzzleView, slot: int, path: tuple[str, ...], menu: Any, locale: Any) -> PuzzleMenu:
    if any(mark in key for key in path for mark in RESERVED):
        raise ValueError(f"a step's key may not contain {RESERVED}: {path}")
    custom_id = f"puzzle:{view.attempt.id}:{view.attempt.step}:{slot}:{join(path)}"
    return PuzzleMenu(select_menu(custom_id, menu, locale))


async def answer_puzzle_tap(interaction: discord.Interaction, tap: PuzzleTap) -> None:
    """A pick on a puzzle's board or on one of its steps: checked against the attempt as stored (the member's, open,
    at the board's step), then the move is played in the puzzle, or the next step is shown privately."""
    place = place_id(interaction)
    if place is None:
        raise UserError(IN_SERVER_ONLY)
    service = service_of(interaction)
    view = await service.puzzles.attempt(place, interaction.user.id, tap.attempt_id)
    game = view.puzzle.game
    if view.finished:
        raise UserError(PUZZLE_OVER, game=game)
    if view.attempt.step != tap.step:
        raise UserError(STALE_PUZZLE)
    try:
        picked = await asyncio.to_thread(entry_of(game).picker.step, view.state, tap.path)
    except (Unavailable, KeyError) as error:
        raise UserError(NOT_OFFERED) from error
    if isinstance(picked, Step):
        await show_step(interaction, view, tap, picked)
        return
    await interaction.response.defer()  # a wrong move is searched to explain it; the answer replaces this message
    answer = await service.puzzles.play(
        place, interaction.user.id, game, picked, at=(view.attempt.id, view.attempt.step)
    )
    lines, shown = answer_lines(interaction.locale, answer)
    await show(interaction, answer.view, lines, **shown)


async def show_step(interaction: discord.Interaction, view: PuzzleView, tap: PuzzleTap, step: Step) -> None:
    """The next step of a move, privately: its prompt, the puzzle's board with what it highlights, its menus. A
    step picked on the puzzle's board opens a message of its own (the board stays as it is, to pick again); a step
    picked on a step replaces it."""
    locale = interaction.locale
    in_place = len(tap.path) > 1
    if in_place:
        await interaction.response.defer()
    else:
        await interaction.response.defer(ephemeral=True, thinking=True)
    text = tr(
        locale,
        STEP_HEADER,
        title=title(view.puzzle.game, locale),
        id=view.puzzle.id,
        prompt=said(locale, step.prompt),
    )
    file = await board(interaction, view, **marks(step))
    items = discord.ui.View(timeout=None)
    for slot, menu in enumerate(step.menus[:MAX_MENUS]):
        item = puzzle_menu(view, slot, tap.path, menu, locale)
        item.row = slot
        items.add_item(item)
    if in_place:
        await interaction.edit_original_response(content=clip(text), attachments=[file], view=items)
    else:
        await interaction.followup.send(clip(text), file=file, view=items, ephemeral=True)


async def board(interaction: discord.Interaction, view: PuzzleView, **marked: Any) -> discord.File:
    """The puzzle's position, drawn in the server's language in the portrait layout of a board in play (it is
    tapped on a phone as often as not): the member's name on their side."""
    puzzle = view.puzzle
    names = ["", ""]
    names[puzzle.solver] = interaction.user.display_name
    names[1 - puzzle.solver] = tr(interaction.guild_locale, OPPONENT)
    drawn = {**marks(), **{key: value for key, value in marked.items() if value}}
    return await position_image(
        service_of(interaction),
        puzzle.game,
        view.state,
        (names[0], names[1]),
        f"puzzle-{puzzle.id}-{view.attempt.step}.png",
        locale=interaction.guild_locale,
        reader=interaction.locale,  # its reader's language
        **{key: value for key, value in drawn.items() if value},
    )


async def controls(view: PuzzleView, locale: Any) -> discord.ui.View:
    """What a puzzle's message carries: while it is open, the first step of its game's picker and Show solution;
    once it is over, Next puzzle and the streak's button (its next puzzle, or a new streak)."""
    items = discord.ui.View(timeout=None)
    game = view.puzzle.game
    if view.finished:
        items.add_item(PuzzleButton("next", game, locale))
        streak = view.streak
        label = START_STREAK
        if streak is not None and streak.attempt_id == view.attempt.id:
            label = NEXT_IN_STREAK if streak.open else NEW_STREAK
        items.add_item(PuzzleButton("streak", game, locale, label))
        return items
    first: Step | str | None
    try:
        first = await asyncio.to_thread(entry_of(game).picker.step, view.state, ())
    except KeyError:  # a game no longer registered: /<game> puzzle-move is gone too, but Show solution works
        first = None
    menus = first.menus[:MAX_MENUS] if isinstance(first, Step) else ()
    for slot, menu in enumerate(menus):
        item = puzzle_menu(view, slot, (), menu, locale)
        item.row = slot
        items.add_item(item)
    button = PuzzleButton("solution", str(view.attempt.id), locale)
    button.row = len(menus)
    items.add_item(button)
    return items


async def show(interaction: discord.Interaction, view: PuzzleView, lines: list[str], **marked: Any) -> None:
    """The puzzle message, privately: a new message, or the one picked or clicked on replaced (its interaction,
    deferred first)."""
    file, items = await asyncio.gather(board(interaction, view, **marked), controls(view, interaction.locale))
    content = clip("\n".join(lines))
    message = interaction.message
    if interaction.type is discord.InteractionType.component and message is not None and message.flags.ephemeral:
        await interaction.edit_original_response(content=content, attachments=[file], view=items)
        return
    await interaction.followup.send(content, file=file, view=items, ephemeral=True)


async def show_start(interaction: discord.Interaction, view: PuzzleView) -> None:
    """A puzzle as it stands: the prompt, or where the member is in it."""
    locale = interaction.locale
    if view.finished:
        lines = [tr(locale, DONE, line=line_text(view)), *finish_lines(locale, view)]
        await show(interaction, view, lines, suggestion=None)
        return
    lines = prompt_lines(locale, view)
    if view.attempt.step:
        lines.append(
            tr(locale, REPLY, reply=view.puzzle.solution[view.attempt.step - 1], left=moves_left(locale, view))
        )
    await show(interaction, view, lines, played=last_move(view.puzzle.game, view.state.moves))
