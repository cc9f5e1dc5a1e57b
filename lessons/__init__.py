"""Courses: a game taught by playing, one rule per lesson, each step a real position and a question about it.

A course is data (``lessons/<game>.py`` declares ``COURSE``, and the game's registry entry names that module, as it
names its renderer and AI). Every position is built by playing legal moves from the start of a game through the
engine contract, never by setting a board up, so every lesson shows a position that can happen; dice are moves of
the record like any other (``roll 4``). The engine judges each answer: a move it refuses is explained
with its own reason (and the course's words where they say more), a legal move that is not the answer is explained
specifically, and the right move moves the learner on.

Nothing here knows a game, Discord or the database: the session service stores where each member is, and the cog
draws the pages.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any, Protocol

from engines import GameState, Refusal
from locales import N_


class Engine(Protocol):
    def new_game(self, **options: Any) -> GameState: ...


# What a course says: a catalogue msgid and its parameters (values may be nested Phrases, translated too).
Said = tuple[str, Mapping[str, Any]]
# Whether a legal move answers a step: (the position before it, the canonical move).
Predicate = Callable[[GameState, str], bool]
# A course's specific words on a move that is not the answer: (the position, the move as typed or canonical,
# whether the engine accepted it) -> what to say, or None for nothing beyond the step's own words.
Explainer = Callable[[GameState, str, bool], "Said | None"]

NOT_THE_ANSWER = N_("**{move}** is a legal move, but not the one this step asks for. Read the question again.")
NOT_LEGAL = N_("**{move}** is not a legal move here: {reason}")
CHOICES_LIMIT = 25  # Discord's cap on a select's options


@dataclass(frozen=True)
class Step:
    """One question: the position reached by ``moves``, what to do there, and how answers are judged."""

    moves: tuple[str, ...]
    prompt: str  # msgid: the question, with what the learner needs to know
    right: str  # msgid: said after a right answer (why it is right)
    accept: tuple[str, ...] | Predicate  # the right moves (canonical), or a test of a legal move
    wrong: str = NOT_THE_ANSWER  # msgid, with {move}: said after a legal move that is not the answer
    params: Mapping[str, Any] = field(default_factory=dict)  # for prompt, right and wrong
    choices: tuple[str, ...] = ()  # the moves the menu offers (refused ones too, to teach); () picks some
    highlight: tuple[str, ...] = ()  # marked on the board (cells, squares, placements)
    options: Mapping[str, Any] | None = None  # game options of this position; None: the lesson's
    explain: Explainer | None = None  # this step's own words on a wrong move (before the course's)

    def accepts(self, state: GameState, move: str) -> bool:
        if callable(self.accept):
            return self.accept(state, move)
        return move in self.accept


@dataclass(frozen=True)
class Lesson:
    key: str  # stable: stored with a member's progress and written in buttons
    title: str  # msgid
    steps: tuple[Step, ...]
    options: Mapping[str, Any] = field(default_factory=dict)  # game options for its positions


@dataclass(frozen=True)
class Place:
    """Where a learner is: a lesson by its key and a step by its index; ``done`` past the last lesson."""

    lesson: str
    step: int = 0

    @property
    def done(self) -> bool:
        return self.lesson == DONE


DONE = "done"


@dataclass(frozen=True)
class Judgement:
    correct: bool
    move: str  # canonical when the engine understood it, else as typed
    said: tuple[Said, ...]  # what to tell the learner, in order


@dataclass(frozen=True, eq=False)  # compared and hashed by identity: positions are cached per course
class Course:
    engine: Engine
    lessons: tuple[Lesson, ...]
    welcome: str  # msgid: the course's first words (the goal of the game)
    farewell: str  # msgid: said when the last lesson is done
    explain: Explainer | None = None  # the game's words on wrong moves, for every step

    def __post_init__(self) -> None:
        keys = [lesson.key for lesson in self.lessons]
        if len(set(keys)) != len(keys) or DONE in keys or not all(lesson.steps for lesson in self.lessons):
            raise ValueError("A course's lessons need distinct keys (not 'done') and at least one step each.")

    # --- finding places -----------------------------------------------------------------------------

    def index(self, key: str) -> int:
        """The lesson's number from 0; KeyError for a key this course does not have (an old button)."""
        for number, lesson in enumerate(self.lessons):
            if lesson.key == key:
                return number
        raise KeyError(key)

    def lesson(self, key: str) -> Lesson:
        return self.lessons[self.index(key)]

    def start(self) -> Place:
        return Place(self.lessons[0].key)

    def valid(self, place: Place) -> Place:
        """``place`` if this course has it, else the start of its lesson, else the course's start (content may
        change between a stored progress and now)."""
        if place.done:
            return place
        try:
            lesson = self.lesson(place.lesson)
        except KeyError:
            return self.start()
        return place if 0 <= place.step < len(lesson.steps) else Place(lesson.key)

    def after(self, place: Place) -> Place:
        """The step that follows ``place``: the next of its lesson, the next lesson's first, or done."""
        number = self.index(place.lesson)
        if place.step + 1 < len(self.lessons[number].steps):
            return Place(place.lesson, place.step + 1)
        if number + 1 < len(self.lessons):
            return Place(self.lessons[number + 1].key)
        return Place(DONE)

    def step(self, place: Place) -> Step:
        return self.lesson(place.lesson).steps[place.step]

    # --- positions and answers ----------------------------------------------------------------------

    def position(self, place: Place) -> GameState:
        """The position of a step: its moves played from the start (a fresh copy each call)."""
        return _position(self, place.lesson, place.step).copy()

    def options(self, place: Place) -> Mapping[str, Any]:
        step = self.step(place)
        return self.lesson(place.lesson).options if step.options is None else step.options

    def right_moves(self, place: Place) -> list[str]:
        """Every legal move that answers the step, in the engine's order."""
        state = self.position(place)
        step = self.step(place)
        return [move for move in state.legal_moves() if step.accepts(state, move)]

    def choices(self, place: Place) -> list[str]:
        """The moves the menu offers: the step's own list, or some right moves with other legal ones."""
        step = self.step(place)
        if step.choices:
            return list(step.choices)[:CHOICES_LIMIT]
        state = self.position(place)
        legal = state.legal_moves()
        right = [move for move in legal if step.accepts(state, move)]
        others = [move for move in legal if move not in right]
        picked = right[:5]
        room = CHOICES_LIMIT - len(picked)
        if others and room > 0:
            stride = max(1, len(others) // room)
            picked += others[::stride][:room]
        return sorted(picked, key=legal.index)

    def judge(self, place: Place, text: str) -> Judgement:
        """The engine's verdict on ``text`` as the answer to a step, and what to say about it."""
        state = self.position(place)
        step = self.step(place)
        after = state.copy()
        try:
            after.play(text)
        except Refusal as refusal:
            typed = " ".join(str(text).split())[:60]
            said: list[Said] = [(NOT_LEGAL, {"move": typed, "reason": refusal.phrase})]
            said += self._explained(step, state, typed, legal=False)
            return Judgement(False, typed, tuple(said))
        move = after.moves[-1]
        explained = self._explained(step, state, move, legal=True)  # the facts of the move, right or wrong
        if step.accepts(state, move):
            return Judgement(True, move, ((step.right, {"move": move, **step.params}), *explained))
        return Judgement(False, move, (*explained, (step.wrong, {"move": move, **step.params})))

    def _explained(self, step: Step, state: GameState, move: str, *, legal: bool) -> list[Said]:
        for explain in (step.explain, self.explain):
            if explain is not None and (said := explain(state, move, legal)) is not None:
                return [said]
        return []

    # --- the catalogue --------------------------------------------------------------------------------

    def messages(self) -> Iterator[str]:
        """Every msgid the course declares, for the translation checks."""
        yield self.welcome
        yield self.farewell
        for lesson in self.lessons:
            yield lesson.title
            for step in lesson.steps:
                yield step.prompt
                yield step.right
                yield step.wrong


@cache
def _position(course: Course, lesson: str, step: int) -> GameState:
    place = Place(lesson, step)
    state = course.engine.new_game(**course.options(place))
    for move in course.step(place).moves:
        state.play(move)
    return state


@cache
def course_at(path: str) -> Course:
    """The ``COURSE`` of the module at ``path`` (a registry entry's ``course``)."""
    course = importlib.import_module(path).COURSE
    if not isinstance(course, Course):
        raise TypeError(f"{path}.COURSE is not a Course.")
    return course


__all__ = ["Course", "Judgement", "Lesson", "Place", "Said", "Step", "course_at"]
