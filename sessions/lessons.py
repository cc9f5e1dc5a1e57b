"""The lessons' part of the service: where each member is in each game's course, and their answers judged.

A course (``lessons/``) is data the registry entry names; this part finds it, keeps each member's place in it per
server (one row per member and game, written before the reply that shows the next step), and hands the cog a
:class:`LessonPage` to draw: the step, its position and the moves the menu offers. The engine judges every answer
(``Course.judge``); nothing here names a game.
"""

from __future__ import annotations

from dataclasses import dataclass

import games
from engines import GameState
from lessons import DONE, Course, Judgement, Lesson, Place, Step, course_at
from sessions.refusal import UserError
from sessions.table import Table
from storage.database import LessonRepository


@dataclass(frozen=True)
class LessonPage:
    """One page of a course as a member sees it: a step (with its position), or the end of the course."""

    game: str
    course: Course
    place: Place
    completed: bool  # the member has finished the course at least once

    @property
    def done(self) -> bool:
        return self.place.done

    @property
    def number(self) -> int:
        """The lesson's number from 1 (the count of lessons past the end)."""
        return len(self.course.lessons) if self.done else self.course.index(self.place.lesson) + 1

    @property
    def lesson(self) -> Lesson:
        return self.course.lesson(self.place.lesson)

    @property
    def step(self) -> Step:
        return self.course.step(self.place)

    @property
    def state(self) -> GameState:
        return self.course.position(self.place)

    def choices(self) -> list[str]:
        return self.course.choices(self.place)

    def answer(self) -> str:
        """A right move, for a learner who asks to be shown."""
        return self.course.right_moves(self.place)[0]


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
