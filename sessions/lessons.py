"""The lessons' part of the service: where each member is in each game's course, and their answers judged.

A course (``lessons/``) is data the registry entry names; this part finds it, keeps each member's place in it per
server (one row per member and game, written before the reply that shows the next step), and hands the cog a
:class:`LessonPage` to draw: the step, its position and the moves the menu offers. The engine judges every answer
(``Course.judge``); nothing here names a game.
"""

from __future__ import annotations

import games
from lessons import DONE, Course, Judgement, Place, course_at
from sessions.model import UserError
from sessions.model.lessons import LessonPage
from sessions.table import Table
from storage.database import LessonRepository


class Lessons:
    def __init__(self, table: Table, lessons: LessonRepository) -> None:
        self._table = table
        self._lessons = lessons

    @staticmethod
    def course(game: str) -> Course:
        entry = games.find(game)
        if entry.course is None:
            raise UserError("There are no lessons for {title} yet.", title=entry.title)
        return course_at(entry.course)

    @staticmethod
    def lesson_key(game: str, number: int) -> str:
        """The key of lesson ``number`` (from 1), or a refusal naming the range."""
        lessons = Lessons.course(game).lessons
        if not 1 <= number <= len(lessons):
            raise UserError("Choose a lesson from 1 to {count}.", count=len(lessons))
        return lessons[number - 1].key

    async def resume(self, guild_id: int, user_id: int, game: str) -> LessonPage:
        """Where the member left the course (its start for a newcomer)."""
        course = self.course(game)
        row = await self._lessons.lesson_progress(guild_id, user_id, game)
        place = course.start() if row is None else course.valid(Place(row.lesson, row.step))
        return LessonPage(game, course, place, row is not None and row.completed_at is not None)

    async def open(self, guild_id: int, user_id: int, game: str, lesson: str) -> LessonPage:
        """The first step of ``lesson`` (a key), which becomes the member's place."""
        course = self.course(game)
        place = course.valid(Place(lesson))
        completed = await self._save(guild_id, user_id, game, place)
        return LessonPage(game, course, place, completed)

    def page(self, game: str, place: Place) -> LessonPage:
        """A page as a button shows it (no write): an unknown place (an old button) is its lesson's start."""
        course = self.course(game)
        return LessonPage(game, course, course.valid(place), False)

    async def answer(
        self, guild_id: int, user_id: int, game: str, place: Place, move: str
    ) -> tuple[Judgement, LessonPage]:
        """The engine's verdict on ``move`` at ``place``, and the page that follows: the next step after a right
        answer, the same step after a wrong one. The member's place is written first."""
        course = self.course(game)
        place = course.valid(place)
        if place.done:
            raise UserError("You have finished this course. Pick a lesson to play it again.")
        judgement = course.judge(place, move)
        shown = course.after(place) if judgement.correct else place
        completed = await self._save(guild_id, user_id, game, shown)
        return judgement, LessonPage(game, course, shown, completed)

    async def _save(self, guild_id: int, user_id: int, game: str, place: Place) -> bool:
        """Store the member's place; whether they have finished the course (now or before)."""
        return await self._lessons.set_lesson_progress(
            guild_id, user_id, game, place.lesson, place.step, self._table.clock(), completed=place.lesson == DONE
        )
