"""``/<game> learn``: a game's course, one rule per lesson, each step a real position and a move to find.

Private to the member (ephemeral) and resumable: the session service keeps each member's place per game. A step is
answered from the menu under its board (``cogs/components/lesson_controls.py``) or with ``/<game> learn move:``
(autocomplete lists the legal moves); the engine judges it, the answer says why, and the next step follows in the same
message. At the end, a button starts a first game against the bot at level 1.

:class:`LearnCommands` is mixed into every game's cog (``cogs.commands.every_game.GameCog``); a game whose registry
entry names no course has no ``learn`` command.
"""

from __future__ import annotations

from typing import ClassVar

import discord
from discord import app_commands

from cogs.components.lesson_controls import page_message
from cogs.plumbing.host import GameService
from cogs.plumbing.places import IN_SERVER_ONLY, place_id
from cogs.presentation.lesson_text import judgement_said
from locales import tr
from sessions.model import GameEntry, Said, UserError

AUTOCOMPLETE_LIMIT = 25


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
