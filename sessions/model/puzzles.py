"""A member's puzzle as they see it, what a move in it did, a streak, a daily puzzle's post to make, and the
puzzles' themes (their keys, and their names as catalogue msgids)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache

import games
from engines import GameState
from puzzles import oracle, shipped, themes
from storage.puzzles import AttemptRow, DailyRow, PuzzleRow, StreakRow
from storage.rows import AttemptStatus

DAY = 24 * 60 * 60
MAX_THEMES = 25  # Discord's choices per option


@cache
def theme_names(game: str) -> Mapping[str, str]:
    """Every theme key of a game's puzzles with its English name: its puzzle module's (the one its registry entry
    names) and the themes every game shares."""
    module = games.find(game).puzzles
    return themes.COMMON if module is None else themes.names(oracle.load(module))


def theme_name(game: str, key: str) -> str:
    """A theme's English name, a catalogue msgid (translated where it is read); an unknown key as it is."""
    return theme_names(game).get(key, key)


@cache
def themes_of(game: str) -> tuple[str, ...]:
    """The theme keys of a game's puzzles, as its shipped set has them (sorted by name): what a member may pick
    puzzles by."""
    found = {theme for puzzle in shipped.load(game) for theme in puzzle.themes}
    return tuple(sorted(found, key=lambda key: theme_name(game, key)))[:MAX_THEMES]


def day_of(moment: float) -> int:
    """The UTC day number of an epoch time (days since 1970-01-01)."""
    return int(moment // DAY)


def due_at(day: int, hour: int) -> float:
    """When a day's puzzle is due: its day at ``hour`` UTC."""
    return day * DAY + hour * 3600


@dataclass(frozen=True)
class DailyJob:
    """A post the caller must make: a day's puzzle (``post``), or the solution of an earlier day's (``reveal``)
    with who solved it; then :meth:`DailyPuzzles.done` (or ``failed``)."""

    kind: str
    daily: DailyRow
    puzzle: PuzzleRow
    channel_id: int  # a reveal goes where the puzzle was posted
    solvers: tuple[int, ...] = ()
    tried: int = 0

    @property
    def nonce(self) -> str:
        """Discord drops a second message with this nonce: a repost after a lost answer posts nothing."""
        return f"p{self.kind[0]}{self.daily.guild_id % 10**9}{self.daily.game[:2]}{self.daily.day}"[:25]


@dataclass(frozen=True)
class PuzzleView:
    """A member's attempt as it stands: the puzzle, the attempt, and the position now."""

    puzzle: PuzzleRow
    attempt: AttemptRow
    state: GameState
    streak: StreakRow | None = None  # the streak this puzzle is of, as it stands
    best: int | None = None  # the member's best streak of this game here, once this puzzle's streak has ended

    @property
    def finished(self) -> bool:
        return self.attempt.status != AttemptStatus.OPEN

    @property
    def expected(self) -> str | None:
        """The solution's next move for the member (None once the attempt is over)."""
        return None if self.finished else self.puzzle.solution[self.attempt.step]

    @property
    def moves_to_find(self) -> int:
        """How many moves of the member's the whole solution has."""
        return (len(self.puzzle.solution) + 1) // 2


@dataclass(frozen=True)
class Answer:
    """What a member's move in a puzzle did."""

    view: PuzzleView  # after it (a wrong move is not played: the position stays)
    move: str  # as the engine writes it
    correct: bool
    reply: str | None = None  # the bot's answer, played, when the line goes on
    value: float | None = None  # a wrong move: the solver's value after it (-1..+1) ...
    refutation: str | None = None  # ... and the opponent's best answer to it
    rating: tuple[int, int] | None = None  # shown puzzle rating before and after, when this move rated the attempt
