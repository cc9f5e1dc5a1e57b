"""``/<game> learn``: a game's course, one rule per lesson, each step a real position and a move to find.

Private to the member (ephemeral) and resumable: the session service keeps each member's place per game. A step is
answered from the menu under its board or with ``/<game> learn move:`` (autocomplete lists the legal moves); the
engine judges it, the answer says why, and the next step follows in the same message. The menu and the buttons
are ``DynamicItem``s whose ``custom_id`` holds the game, the lesson and the step, so they work after a restart. At
the end, a button starts a first game against the bot at level 1.

:class:`LearnCommands` is mixed into every game's cog (``cogs.common.GameCog``); a game whose registry entry names
no course has no ``learn`` command.
"""

from __future__ import annotations

import asyncio
import io
import re
from typing import Any, ClassVar

import discord
from discord import app_commands

import games
from cogs import present
from cogs.announce import reply_with_report
from cogs.context import remember_members, service_of
from cogs.places import place_id
from cogs.reply import reply_to
from cogs.tree import IN_SERVER_ONLY, answer_error, clip, printable
from games import GameEntry
from lessons import Judgement, Place, Said
from locales import N_, tr
from sessions.model import LessonPage, UserError
from sessions.service import GameService

AUTOCOMPLETE_LIMIT = 25
NAME = r"[a-z0-9_-]{1,32}"
LEVEL = 1  # a first game: the gentle bot
ACTIONS: dict[str, str] = {"show": N_("Show me"), "open": N_("Start again"), "play": N_("Play the bot (level 1)")}


def page_text(locale: Any, entry: GameEntry, page: LessonPage, said: tuple[Said, ...] = (), shown: str = "") -> str:
    """The words of a page: what was said about the last answer, then the step's heading and question."""
    # What the member typed comes back in the verdict: quoted as printable() makes it fit to show.
    lines = [
        tr(locale, message, **{key: printable(value) for key, value in params.items()}) for message, params in said
    ]
    title = present.title(entry.name, locale)
    if page.done:
        lines += [
            tr(locale, "**{title}: course complete!**", title=title),
            tr(locale, page.course.farewell),
            tr(
                locale,
                "Play your first game against me with the button (level 1, gentle), or pick a lesson again with "
                "`/{game} learn lesson:`.",
                game=entry.name,
            ),
        ]
        return clip("\n\n".join(lines))
    state = page.state
    side = tr(locale, entry.sides[state.to_act or 0])
    heading = tr(
        locale,
        "**{title}, lesson {number} of {count}: {lesson}** (step {step} of {steps}). You play {side}.",
        title=title,
        number=page.number,
        count=len(page.course.lessons),
        lesson=tr(locale, page.lesson.title),
        step=page.place.step + 1,
        steps=len(page.lesson.steps),
        side=side,
    )
    lines.append(heading)
    if page.number == 1 and page.place.step == 0 and not said:
        lines.append(tr(locale, page.course.welcome))
    lines.append(tr(locale, page.step.prompt, **page.step.params))
    if shown:
        lines.append(tr(locale, "The answer: **{move}** (the star on the board). Play it to go on.", move=shown))
    lines.append(tr(locale, "-# Answer with the menu under the board, or type `/{game} learn move:`.", game=entry.name))
    return clip("\n\n".join(lines))


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
    service, shown_names = service_of(interaction), (names[0], names[1])
    png, description = await asyncio.gather(
        service.boards.render_position(entry.name, state, shown_names, locale, **marks),
        service.boards.describe_position(entry.name, state, shown_names, locale),
    )
    name = f"{entry.name}-lesson-{page.place.lesson}-{page.place.step + 1}.png"
    message["attachments"] = [discord.File(io.BytesIO(png), filename=name, description=description)]
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
        return games.find(name)
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


RIGHT, WRONG = N_("{mark} Right!"), N_("{mark} Not quite.")


def judgement_said(judgement: Judgement) -> tuple[Said, ...]:
    """What to say about an answer: a mark, then the course's words. (The emoji stay out of the catalogue: every
    character of a translation must be one the board font can draw.)"""
    mark: Said = (RIGHT, {"mark": "✅"}) if judgement.correct else (WRONG, {"mark": "❌"})
    return (mark, *judgement.said)


class LearnCommands:
    """The ``learn`` command of a game's cog (mixed into GameCog, which provides ``entry`` and ``service``)."""

    entry: ClassVar[GameEntry]
    service: GameService

    def drop_learn_without_course(self) -> None:
        """A game with no course offers no ``learn`` command (called once the cog's commands exist)."""
        group = getattr(self, "app_command", None)
        if self.entry.course is None and group is not None:
            group.remove_command("learn")

    @app_commands.command(name="learn", description="Learn the game by playing: one rule a lesson, privately.")
    @app_commands.describe(
        lesson="Start this lesson (default: carry on where you left off).",
        move="Your answer to the current step; the list shows the legal moves.",
    )
    async def learn(
        self,
        interaction: discord.Interaction,
        lesson: app_commands.Range[int, 1, 99] | None = None,
        move: str | None = None,
    ) -> None:
        place = place_id(interaction)
        if place is None:
            raise UserError(IN_SERVER_ONLY)
        if lesson is not None and move is not None:
            raise UserError("Give either a lesson or a move, not both.")
        lessons = self.service.lessons
        guild, user, game = place, interaction.user.id, self.entry.name
        said: tuple[Said, ...] = ()
        if lesson is not None:
            page = await lessons.open(guild, user, game, lessons.lesson_key(game, lesson))
        else:
            page = await lessons.resume(guild, user, game)
            if move is not None:
                if page.done:
                    raise UserError("You have finished this course. Pick a lesson to play it again.")
                judgement, page = await lessons.answer(guild, user, game, page.place, move)
                said = judgement_said(judgement)
        await interaction.response.defer(ephemeral=True, thinking=True)
        message = await page_message(interaction, self.entry, page, said)
        message["files"] = message.pop("attachments")
        await interaction.followup.send(ephemeral=True, **message)

    @learn.autocomplete("lesson")
    async def lesson_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[int]]:
        if self.entry.course is None:
            return []
        course = self.service.lessons.course(self.entry.name)
        wanted = current.strip().lower()
        choices = []
        for number, lesson in enumerate(course.lessons, start=1):
            label = f"{number}. {tr(interaction.locale, lesson.title)}"
            if wanted in label.lower():
                choices.append(app_commands.Choice(name=label[:100], value=number))
        return choices[:AUTOCOMPLETE_LIMIT]

    @learn.autocomplete("move")
    async def answer_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        place = place_id(interaction)
        if place is None or self.entry.course is None:
            return []
        page = await self.service.lessons.resume(place, interaction.user.id, self.entry.name)
        if page.done:
            return []
        wanted = current.lower().replace(" ", "").replace(",", "")
        legal = page.state.legal_moves()
        matches = [move for move in legal if wanted in move.lower().replace(" ", "")]
        return [app_commands.Choice(name=move, value=move) for move in matches if len(move) <= 100][:AUTOCOMPLETE_LIMIT]
