"""A lesson page's controls: the answer menu under its board, Show me and Start again, and at the end of the course
Play the bot (a first game at level 1); and the page they and ``/<game> learn`` show.

The menu and the buttons are ``DynamicItem``s whose ``custom_id`` holds the game, the lesson and the step, so they
work after a restart.
"""

from __future__ import annotations

import re
from typing import Any

import discord

from cogs.plumbing.deadline import reply_to
from cogs.plumbing.host import service_of
from cogs.plumbing.places import IN_SERVER_ONLY, place_id
from cogs.posting.private_answers import answer_error
from cogs.posting.replies import reply_with_report
from cogs.presentation.images import position_image
from cogs.presentation.lesson_text import judgement_said, page_text
from cogs.presentation.names import remember_members
from locales import N_, tr
from sessions.model import GameEntry, LessonPage, Place, Said, UserError, entry_of

NAME = r"[a-z0-9_-]{1,32}"

LEVEL = 1  # a first game: the gentle bot

ACTIONS: dict[str, str] = {"show": N_("Show me"), "open": N_("Start again"), "play": N_("Play the bot (level 1)")}


def page_view(entry: GameEntry, page: LessonPage, locale: Any) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    if page.done:
        view.add_item(LearnButton(entry.name, page.place, "play", locale))
        view.add_item(LearnButton(entry.name, page.course.start(), "open", locale))
        return view
    view.add_item(AnswerMenu(entry.name, page.place, page.choices(), locale))
    view.add_item(LearnButton(entry.name, page.place, "show", locale))
    return view


async def page_message(
    interaction: discord.Interaction,
    entry: GameEntry,
    page: LessonPage,
    said: tuple[Said, ...] = (),
    *,
    show: bool = False,
) -> dict[str, Any]:
    """What to send or edit: the text, the board (with the step's marks, and the answer's star when shown) and
    the menu and buttons. Everything is in the member's own language: nobody else sees a lesson."""
    locale = interaction.locale
    shown = page.answer() if show and not page.done else ""
    message: dict[str, Any] = {
        "content": page_text(locale, entry, page, said, shown),
        "view": page_view(entry, page, locale),
    }
    if page.done:
        message["attachments"] = []
        return message
    state = page.state
    you = state.to_act or 0
    names = [tr(locale, "Opponent"), tr(locale, "Opponent")]
    names[you] = tr(locale, "You")
    marks: dict[str, Any] = {}
    if page.step.highlight:
        marks["highlight"] = list(page.step.highlight)
    if shown:
        marks["suggestion"] = shown
    name = f"{entry.name}-lesson-{page.place.lesson}-{page.place.step + 1}.png"
    shown_names = (names[0], names[1])
    board = await position_image(service_of(interaction), entry.name, state, shown_names, name, locale=locale, **marks)
    message["attachments"] = [board]
    return message


async def edit_page(
    interaction: discord.Interaction,
    entry: GameEntry,
    page: LessonPage,
    said: tuple[Said, ...] = (),
    *,
    show: bool = False,
) -> None:
    """Show ``page`` in the message whose menu or button was used (acknowledged first: drawing takes a while)."""
    await interaction.response.defer()
    message = await page_message(interaction, entry, page, said, show=show)
    await interaction.edit_original_response(**message)


def _place(match: re.Match[str]) -> Place:
    return Place(match["lesson"], int(match["step"]))


def _entry(name: str) -> GameEntry:
    try:
        return entry_of(name)
    except KeyError:
        raise UserError("This lesson belongs to a game I no longer have.") from None


class AnswerMenu(
    discord.ui.DynamicItem[discord.ui.Select],
    template=rf"lesson:(?P<game>{NAME}):(?P<lesson>{NAME}):(?P<step>[0-9]{{1,3}})",
):
    """The moves a step offers, under its board; picking one answers the step."""

    def __init__(self, game: str, place: Place, moves: list[str], locale: Any = None) -> None:
        options = [discord.SelectOption(label=move[:100], value=move[:100]) for move in moves] or [
            discord.SelectOption(label="-", value="-")
        ]
        super().__init__(
            discord.ui.Select(
                custom_id=f"lesson:{game}:{place.lesson}:{place.step}",
                placeholder=tr(locale, "Choose your move"),
                options=options,
            )
        )
        self.game, self.place = game, place

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Select, match: re.Match[str]
    ) -> AnswerMenu:
        return cls(match["game"], _place(match), [option.value for option in item.options], interaction.locale)

    async def callback(self, interaction: discord.Interaction) -> None:
        remember_members(interaction)
        try:
            place = place_id(interaction)
            if place is None:
                raise UserError(IN_SERVER_ONLY)
            entry = _entry(self.game)
            values = (interaction.data or {}).get("values", [])  # type: ignore[union-attr]
            if not values:
                raise UserError("Pick a move from the menu.")
            judgement, page = await service_of(interaction).lessons.answer(
                place, interaction.user.id, entry.name, self.place, str(values[0])[:100]
            )
            await edit_page(interaction, entry, page, judgement_said(judgement))
        except Exception as error:  # a menu has no command tree behind it: answer here
            await answer_error(interaction, error)


class LearnButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=rf"lesson:(?P<game>{NAME}):(?P<lesson>{NAME}):(?P<step>[0-9]{{1,3}}):(?P<action>show|open|play)",
):
    """Show me (the answer, starred on the board), Start again (the first lesson) and, at the end of the course,
    Play the bot (a first game at level 1)."""

    def __init__(self, game: str, place: Place, action: str, locale: Any = None) -> None:
        style = discord.ButtonStyle.primary if action == "play" else discord.ButtonStyle.secondary
        super().__init__(
            discord.ui.Button(
                label=tr(locale, ACTIONS[action]),
                style=style,
                custom_id=f"lesson:{game}:{place.lesson}:{place.step}:{action}",
            )
        )
        self.game, self.place, self.action = game, place, action

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> LearnButton:
        return cls(match["game"], _place(match), match["action"], interaction.locale)

    async def callback(self, interaction: discord.Interaction) -> None:
        remember_members(interaction)
        try:
            place = place_id(interaction)
            if place is None or interaction.channel_id is None:
                raise UserError(IN_SERVER_ONLY)
            entry = _entry(self.game)
            lessons = service_of(interaction).lessons
            if self.action == "play":
                await play_the_bot(interaction, entry)
            elif self.action == "open":
                page = await lessons.open(place, interaction.user.id, entry.name, self.place.lesson)
                await edit_page(interaction, entry, page)
            else:
                await edit_page(interaction, entry, lessons.page(entry.name, self.place), show=True)
        except Exception as error:  # a button has no command tree behind it: answer here
            await answer_error(interaction, error)


async def play_the_bot(interaction: discord.Interaction, entry: GameEntry) -> None:
    """A first real game: the member challenges the bot at level 1 here, as ``/<game> challenge`` does."""
    place = place_id(interaction)
    assert place is not None and interaction.channel_id is not None
    bot = interaction.client.user
    if bot is None or entry.ai is None:
        raise UserError("I cannot play this game myself: challenge a member instead.")
    channel = interaction.channel
    report = await service_of(interaction).challenges.challenge_computer(
        game=entry.name,
        guild_id=place,
        channel_id=interaction.channel_id,
        member_id=interaction.user.id,
        bot_id=bot.id,
        options={option.name: option.default for option in entry.options},
        side=None,
        level=LEVEL,
        reply=reply_to(interaction),
        parent_id=channel.parent_id if isinstance(channel, discord.Thread) else None,
    )
    await reply_with_report(interaction, report)
