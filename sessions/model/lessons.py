"""A page of a game's course as a member sees it."""

from __future__ import annotations

from dataclasses import dataclass

from engines import GameState
from lessons import Course, Lesson, Place, Step


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
