"""Solving puzzles: a member gets a puzzle near their puzzle rating that they never tried here, plays the
solution's moves one by one (the bot plays the opponent's replies), and each attempt rates member and puzzle.

A puzzle is mined by :mod:`puzzles.mining` and stored by :mod:`sessions.puzzles.mining`; an attempt is a row of
``puzzle_attempts`` whose ``step`` counts the solution's moves played so far, so a member resumes after a restart
and two clicks cannot play one step twice (the step is checked in the write). An attempt is rated once, as
lichess rates a puzzle: solved with no mistake is a win for the member, the first wrong move (or giving up) a
loss; the puzzle is the opponent, with a rating of its own on the same OpenSkill model as the games'.

A member may pick puzzles by theme, and play a **streak**: puzzles of rising difficulty (each rated above the last)
until the first miss. A streak's puzzle is an attempt like any other with its streak's id; the attempt's write that
solves it counts it in the streak, and the one that misses it (a wrong move, giving up) ends the streak, in the same
transaction, so a streak counts each puzzle once and ends once whatever the clicks.
"""

from __future__ import annotations

from typing import Any

import games
from engines import GameState, IllegalMove, Phrase
from locales import N_
from puzzles.mining import judge_move
from sessions.model import NO_PUZZLE_OPEN, STALE_PUZZLE, AttemptStatus, Rating, UserError, title_of
from sessions.model.puzzles import Answer, PuzzleView, theme_name, themes_of
from sessions.model.ratings import START_MU, START_SIGMA, rate_pair
from sessions.table import Table
from sessions.thinking import Thinker
from storage.database import PuzzleRepository
from storage.puzzles import (
    STREAK_ENDED,
    STREAK_SOLVED,
    AttemptRow,
    PuzzleRating,
    PuzzleRow,
    StaleAttempt,
    StaleStreak,
    StreakRow,
)

EXPLAIN_SECONDS = 0.5  # the search that says why a wrong move is wrong (in the thinking pool)
MAX_MOVE_TEXT = 100
STREAK_START = 800.0  # a streak's first puzzle: the one rated nearest this (the easiest, as a rule)
STREAK_STEP = 60.0  # each next puzzle of a streak is rated above the last, nearest this much higher
BOARD_SIZE = 10  # members on a server's board of streaks

NO_PUZZLES = N_(
    "There are no {title} puzzles here yet. New ones are mined from the games this server finishes: play one and "
    "come back!"
)
NO_THEME_PUZZLES = N_("There are no {title} puzzles with the theme {theme} here yet. Pick another theme, or none.")
TRIED_EVERY = N_(
    "You have tried every {title} puzzle there is here. New ones are mined from the games this server finishes: "
    "play one and come back!"
)
TRIED_EVERY_THEME = N_("You have tried every {title} puzzle with the theme {theme} here. Pick another theme, or none.")
UNKNOWN_THEME = N_("{title} puzzles have no such theme: pick one from the list.")
STREAK_AND_THEME = N_("A streak takes puzzles of every theme: leave the theme out to start one.")
NOTHING_HARDER = N_(
    "You have solved every {title} puzzle here rated above the last one: your streak ends at {count}. Well done!"
)


def rate_attempt(solved: bool) -> Any:
    """The storage's rating callback: member against puzzle, the member winning when ``solved``."""

    def rate(
        member: PuzzleRating | None, puzzle: tuple[float, float]
    ) -> tuple[tuple[float, float], tuple[float, float]]:
        mine = (START_MU, START_SIGMA) if member is None else (member.mu, member.sigma)
        return rate_pair(mine, puzzle, 0 if solved else 1)

    return rate


def shown(rating: PuzzleRating | None) -> int:
    return Rating().shown if rating is None else Rating(rating.mu).shown


def position_of(puzzle: PuzzleRow, step: int) -> GameState:
    """The puzzle's position after ``step`` moves of its solution."""
    state = games.find(puzzle.game).new_game(**puzzle.options)
    for move in [*puzzle.moves, *puzzle.solution[:step]]:
        state.play(move)
    return state


class Puzzles:
    def __init__(self, table: Table, puzzles: PuzzleRepository, thinker: Thinker) -> None:
        self._table = table
        self._puzzles = puzzles
        self._thinker = thinker

    # --- getting a puzzle ---------------------------------------------------------------------------

    async def start(
        self, guild_id: int, user_id: int, game: str, *, theme: str | None = None, streak: bool = False
    ) -> PuzzleView:
        """The member's open puzzle of ``game`` here (one of ``theme``, when given), else a new one near their
        puzzle rating; with ``streak``, their streak's puzzle (a new streak if none is open)."""
        entry = games.find(game)
        self._check_theme(entry.name, theme)
        if streak:
            if theme is not None:
                raise UserError(STREAK_AND_THEME)
            return await self.streak(guild_id, user_id, entry.name)
        open_attempt = await self._puzzles.open_attempt(guild_id, user_id, game)
        if open_attempt is not None:
            view = await self._view(open_attempt)
            if theme is None or theme in view.puzzle.themes:
                return view
        return await self.next(guild_id, user_id, entry.name, theme=theme)

    async def next(self, guild_id: int, user_id: int, game: str, *, theme: str | None = None) -> PuzzleView:
        """A puzzle the member never tried here (of ``theme``, when given), its rating nearest theirs (their open
        one is left)."""
        self._check_theme(game, theme)
        rating = await self._puzzles.puzzle_rating(guild_id, game, user_id)
        near = START_MU if rating is None else rating.mu
        puzzle = await self._puzzles.pick_puzzle(guild_id, user_id, game, near, theme=theme)
        if puzzle is None:
            raise await self._none_left(guild_id, game, theme)
        return await self._begin(guild_id, user_id, puzzle)

    @staticmethod
    def _check_theme(game: str, theme: str | None) -> None:
        if theme is not None and theme not in themes_of(game):
            raise UserError(UNKNOWN_THEME, title=title_of(game))

    async def _none_left(self, guild_id: int, game: str, theme: str | None) -> UserError:
        """Why no puzzle is offered: there are none (of the theme) here yet, or the member tried them all."""
        known = await self._puzzles.count_puzzles(guild_id, game, theme)
        named = {"title": title_of(game)}
        if theme is not None:
            named["theme"] = Phrase(theme_name(game, theme))
            return UserError(TRIED_EVERY_THEME if known else NO_THEME_PUZZLES, **named)
        return UserError(TRIED_EVERY if known else NO_PUZZLES, **named)

    async def open_puzzle(self, guild_id: int, user_id: int, puzzle_id: int) -> PuzzleView:
        """A particular puzzle (the daily puzzle's button): the member's attempt at it, begun now or earlier."""
        puzzle = await self._puzzles.puzzle(puzzle_id)
        if puzzle is None or puzzle.guild_id not in (None, guild_id):
            raise UserError("That puzzle no longer exists.")
        return await self._begin(guild_id, user_id, puzzle)

    # --- streaks --------------------------------------------------------------------------------------

    async def streak(self, guild_id: int, user_id: int, game: str) -> PuzzleView:
        """The member's streak of ``game`` goes on: its open puzzle, else (its last one solved) the next one,
        rated higher; a new streak when none is open. A streak with nothing harder left ends (and says so)."""
        games.find(game)
        for _ in range(3):  # a second click that took the streak on meanwhile: then its puzzle is the answer
            current = await self._puzzles.open_streak(guild_id, user_id, game)
            last = None
            if current is not None and current.attempt_id is not None:
                last = await self._puzzles.attempt_by_id(current.attempt_id)
                if last is not None and last.status == AttemptStatus.OPEN:
                    return await self._view(last)
            try:
                return await self._streak_next(guild_id, user_id, game, current, last)
            except StaleStreak:
                continue
        raise UserError("That puzzle moved on meanwhile (a second click?). Look at it again.")

    async def _streak_next(
        self, guild_id: int, user_id: int, game: str, current: StreakRow | None, last: AttemptRow | None
    ) -> PuzzleView:
        above = None if current is None or current.rating is None else current.rating
        near = STREAK_START if above is None else above + STREAK_STEP
        puzzle = await self._puzzles.pick_puzzle(guild_id, user_id, game, near, above=above)
        if puzzle is None:
            if current is None:
                raise await self._none_left(guild_id, game, None)
            ended = await self._puzzles.end_streak(current.id, self._table.clock())
            solved = current.solved if ended is None else ended.solved
            raise UserError(NOTHING_HARDER, title=title_of(game), count=solved)
        _, attempt = await self._puzzles.streak_puzzle(
            guild_id,
            user_id,
            game,
            None if current is None else current.id,
            None if last is None else last.id,
            puzzle.id,
            puzzle.mu,
            self._table.clock(),
        )
        return await self._view(attempt)

    async def best_streaks(self, guild_id: int, user_id: int) -> list[tuple[str, int]]:
        """A member's best streak here per game they have one in (/stats)."""
        return await self._puzzles.best_streaks(guild_id, user_id)

    async def streak_board(self, guild_id: int, game: str) -> list[tuple[int, int]]:
        """The server's board of streaks in ``game``: (member, best streak), best first."""
        games.find(game)
        return await self._puzzles.streak_board(guild_id, game, BOARD_SIZE)

    async def _begin(self, guild_id: int, user_id: int, puzzle: PuzzleRow) -> PuzzleView:
        attempt = await self._puzzles.start_attempt(guild_id, user_id, puzzle.game, puzzle.id, self._table.clock())
        return PuzzleView(puzzle, attempt, position_of(puzzle, attempt.step))

    async def current(self, guild_id: int, user_id: int, game: str) -> PuzzleView | None:
        """The member's open puzzle of ``game`` here, if any (the move autocomplete)."""
        attempt = await self._puzzles.open_attempt(guild_id, user_id, game)
        return None if attempt is None else await self._view(attempt)

    async def attempt(self, guild_id: int, user_id: int, attempt_id: int) -> PuzzleView:
        """A member's attempt as it stands (a press on its board): theirs only."""
        return await self._view(await self._attempt_of_member(guild_id, user_id, attempt_id))

    async def _view(self, attempt: AttemptRow, streak: StreakRow | None = None) -> PuzzleView:
        puzzle = await self._puzzles.puzzle(attempt.puzzle_id)
        if puzzle is None:  # deleted meanwhile (cascade): cannot happen to an attempt we just read, but be plain
            raise UserError("That puzzle no longer exists.")
        if streak is None and attempt.streak_id is not None:
            streak = await self._puzzles.streak(attempt.streak_id)
        best = None
        if streak is not None and not streak.open:
            best = max(
                (
                    n
                    for game, n in await self._puzzles.best_streaks(attempt.guild_id, attempt.user_id)
                    if game == attempt.game
                ),
                default=0,
            )
        return PuzzleView(puzzle, attempt, position_of(puzzle, attempt.step), streak, best)

    # --- solving --------------------------------------------------------------------------------------

    async def play(
        self, guild_id: int, user_id: int, game: str, text: str, *, at: tuple[int, int] | None = None
    ) -> Answer:
        """The member's move in their open puzzle of ``game``: the solution's move goes on (the bot replies),
        any other is explained and not played; the first wrong move or the solution's last move rates it. A
        streak's puzzle ends at a wrong move, and its streak with it. ``at`` (attempt id, step): the board the move
        was picked on, which must be the open puzzle as it stands (a tap)."""
        text = " ".join(text.split())
        if not text or len(text) > MAX_MOVE_TEXT:
            raise UserError("Type a move, for example one from the autocomplete list.")
        view = await self.current(guild_id, user_id, game)
        if at is not None and (view is None or (view.attempt.id, view.attempt.step) != at):
            raise UserError(STALE_PUZZLE)
        if view is None:
            raise UserError(NO_PUZZLE_OPEN, title=title_of(game), game=game)
        entry = games.find(game)
        if entry.chance_words and text.lower().startswith(entry.chance_words):
            raise UserError("The die of a puzzle is already rolled: play your move.")
        tried = view.state.copy()
        try:
            tried.play(text)
        except IllegalMove as error:
            raise UserError("That move is not legal: {reason}", reason=error) from error
        move = tried.moves[len(view.state.moves)]
        attempt, puzzle = view.attempt, view.puzzle
        in_streak = attempt.streak_id is not None
        if move == view.expected:
            step = attempt.step + 1
            reply = puzzle.solution[step] if step < len(puzzle.solution) else None
            done = reply is None
            status = (
                (AttemptStatus.SOLVED if attempt.mistakes == 0 else AttemptStatus.FAILED)
                if done
                else AttemptStatus.OPEN
            )
            rate = (rate_attempt(attempt.mistakes == 0), attempt.mistakes == 0) if done else None
            streak = (STREAK_SOLVED if status == AttemptStatus.SOLVED else STREAK_ENDED) if done and in_streak else None
            change = await self._update(attempt, step + (0 if done else 1), status, False, rate, streak)
            return Answer(
                await self._view(change.attempt, change.streak), move, True, reply, rating=self._shown(change)
            )
        value, refutation = await self._explain(entry, puzzle, tried)
        status = AttemptStatus.FAILED if in_streak else AttemptStatus.OPEN  # a streak ends at its first miss
        change = await self._update(
            attempt, attempt.step, status, True, (rate_attempt(False), False), STREAK_ENDED if in_streak else None
        )
        return Answer(
            await self._view(change.attempt, change.streak),
            move,
            False,
            value=value,
            refutation=refutation,
            rating=self._shown(change),
        )

    async def give_up(self, guild_id: int, user_id: int, attempt_id: int) -> tuple[PuzzleView, tuple[int, int] | None]:
        """Show the solution: the attempt ends as failed (rated as a loss, if not rated yet), and its streak too."""
        attempt = await self._attempt_of_member(guild_id, user_id, attempt_id)
        if attempt.status != AttemptStatus.OPEN:
            return await self._view(attempt), None
        streak = STREAK_ENDED if attempt.streak_id is not None else None
        change = await self._update(
            attempt, attempt.step, AttemptStatus.FAILED, False, (rate_attempt(False), False), streak
        )
        return await self._view(change.attempt, change.streak), self._shown(change)

    async def _attempt_of_member(self, guild_id: int, user_id: int, attempt_id: int) -> AttemptRow:
        attempt = await self._puzzles.attempt_by_id(attempt_id)
        if attempt is None or attempt.guild_id != guild_id or attempt.user_id != user_id:
            raise UserError("This is someone else's puzzle: start your own with the puzzle command.")
        return attempt

    async def _update(
        self, attempt: AttemptRow, step: int, status: AttemptStatus, mistake: bool, rate: Any, streak: str | None = None
    ) -> Any:
        try:
            return await self._puzzles.update_attempt(
                attempt.id,
                attempt.step,
                self._table.clock(),
                step=step,
                status=status,
                mistake=mistake,
                rate=rate,
                streak=streak,
            )
        except StaleAttempt:
            raise UserError("That puzzle moved on meanwhile (a second click?). Look at it again.") from None

    @staticmethod
    def _shown(change: Any) -> tuple[int, int] | None:
        if change.after is None:
            return None
        return shown(change.before), shown(change.after)

    async def _explain(self, entry: games.GameEntry, puzzle: PuzzleRow, tried: GameState) -> tuple[float, str | None]:
        """How good the wrong move is for the solver, and the opponent's best answer to it (a search in the
        thinking pool)."""
        if entry.ai is None:
            return -1.0, None
        engine = entry.engine.__name__  # type: ignore[attr-defined]
        return await self._thinker.run(
            judge_move, engine, entry.ai, puzzle.options, tried.moves, puzzle.solver, EXPLAIN_SECONDS
        )

    async def rating(self, guild_id: int, game: str, user_id: int) -> PuzzleRating | None:
        return await self._puzzles.puzzle_rating(guild_id, game, user_id)

    async def ratings_of(self, guild_id: int, user_id: int) -> list[tuple[str, Rating, int, int]]:
        """A member's puzzle ratings here: (game, rating, attempts, solved) per game tried."""
        return [
            (game, Rating(r.mu, r.sigma, r.attempts), r.attempts, r.solved)
            for game, r in await self._puzzles.puzzle_ratings_of(guild_id, user_id)
        ]

    async def count(self, guild_id: int, game: str, theme: str | None = None) -> int:
        return await self._puzzles.count_puzzles(guild_id, game, theme)


__all__ = ["Puzzles", "position_of"]
