"""Solving puzzles: a member gets a puzzle near their puzzle rating that they never tried here, plays the
solution's moves one by one (the bot plays the opponent's replies), and each attempt rates member and puzzle.

A puzzle is mined by :mod:`puzzles.mining` and stored by :mod:`sessions.puzzles.mining`; an attempt is a row of
``puzzle_attempts`` whose ``step`` counts the solution's moves played so far, so a member resumes after a restart
and two clicks cannot play one step twice (the step is checked in the write). An attempt is rated once, as
lichess rates a puzzle: solved with no mistake is a win for the member, the first wrong move (or giving up) a
loss; the puzzle is the opponent, with a rating of its own on the same OpenSkill model as the games'.
"""

from __future__ import annotations

from typing import Any

import games
from engines import GameState, IllegalMove
from puzzles.mining import judge_move
from sessions.model import AttemptStatus, Rating, UserError
from sessions.model.puzzles import Answer, PuzzleView
from sessions.model.ratings import START_MU, START_SIGMA, rate_pair
from sessions.table import Table
from sessions.thinking import Thinker
from storage.database import PuzzleRepository
from storage.puzzles import AttemptRow, PuzzleRating, PuzzleRow, StaleAttempt

EXPLAIN_SECONDS = 0.5  # the search that says why a wrong move is wrong (in the thinking pool)
MAX_MOVE_TEXT = 100


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

    async def start(self, guild_id: int, user_id: int, game: str) -> PuzzleView:
        """The member's open puzzle of ``game`` here, else a new one near their puzzle rating."""
        entry = games.find(game)
        open_attempt = await self._puzzles.open_attempt(guild_id, user_id, game)
        if open_attempt is not None:
            return await self._view(open_attempt)
        return await self.next(guild_id, user_id, entry.name)

    async def next(self, guild_id: int, user_id: int, game: str) -> PuzzleView:
        """A puzzle the member never tried here, its rating nearest theirs (their open one is left)."""
        rating = await self._puzzles.puzzle_rating(guild_id, game, user_id)
        near = START_MU if rating is None else rating.mu
        puzzle = await self._puzzles.pick_puzzle(guild_id, user_id, game, near)
        if puzzle is None:
            raise UserError(
                "You have tried every {game} puzzle there is here. New ones are mined from the games this "
                "server finishes: play one and come back!",
                game=game,
            )
        return await self._begin(guild_id, user_id, puzzle)

    async def open_puzzle(self, guild_id: int, user_id: int, puzzle_id: int) -> PuzzleView:
        """A particular puzzle (the daily puzzle's button): the member's attempt at it, begun now or earlier."""
        puzzle = await self._puzzles.puzzle(puzzle_id)
        if puzzle is None or puzzle.guild_id not in (None, guild_id):
            raise UserError("That puzzle no longer exists.")
        return await self._begin(guild_id, user_id, puzzle)

    async def _begin(self, guild_id: int, user_id: int, puzzle: PuzzleRow) -> PuzzleView:
        attempt = await self._puzzles.start_attempt(guild_id, user_id, puzzle.game, puzzle.id, self._table.clock())
        return PuzzleView(puzzle, attempt, position_of(puzzle, attempt.step))

    async def current(self, guild_id: int, user_id: int, game: str) -> PuzzleView | None:
        """The member's open puzzle of ``game`` here, if any (the move autocomplete)."""
        attempt = await self._puzzles.open_attempt(guild_id, user_id, game)
        return None if attempt is None else await self._view(attempt)

    async def _view(self, attempt: AttemptRow) -> PuzzleView:
        puzzle = await self._puzzles.puzzle(attempt.puzzle_id)
        if puzzle is None:  # deleted meanwhile (cascade): cannot happen to an attempt we just read, but be plain
            raise UserError("That puzzle no longer exists.")
        return PuzzleView(puzzle, attempt, position_of(puzzle, attempt.step))

    # --- solving --------------------------------------------------------------------------------------

    async def play(self, guild_id: int, user_id: int, game: str, text: str) -> Answer:
        """The member's move in their open puzzle of ``game``: the solution's move goes on (the bot replies),
        any other is explained and not played; the first wrong move or the solution's last move rates it."""
        text = " ".join(text.split())
        if not text or len(text) > MAX_MOVE_TEXT:
            raise UserError("Type a move, for example one from the autocomplete list.")
        view = await self.current(guild_id, user_id, game)
        if view is None:
            raise UserError("You have no puzzle open in {game}: start one with /{game} puzzle.", game=game)
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
            change = await self._update(attempt, step + (0 if done else 1), status, False, rate)
            return Answer(await self._view(change.attempt), move, True, reply, rating=self._shown(change))
        value, refutation = await self._explain(entry, puzzle, tried)
        change = await self._update(attempt, attempt.step, AttemptStatus.OPEN, True, (rate_attempt(False), False))
        return Answer(
            await self._view(change.attempt),
            move,
            False,
            value=value,
            refutation=refutation,
            rating=self._shown(change),
        )

    async def give_up(self, guild_id: int, user_id: int, attempt_id: int) -> tuple[PuzzleView, tuple[int, int] | None]:
        """Show the solution: the attempt ends as failed (rated as a loss, if not rated yet)."""
        attempt = await self._attempt_of_member(guild_id, user_id, attempt_id)
        if attempt.status != AttemptStatus.OPEN:
            return await self._view(attempt), None
        change = await self._update(attempt, attempt.step, AttemptStatus.FAILED, False, (rate_attempt(False), False))
        return await self._view(change.attempt), self._shown(change)

    async def _attempt_of_member(self, guild_id: int, user_id: int, attempt_id: int) -> AttemptRow:
        attempt = await self._puzzles.attempt_by_id(attempt_id)
        if attempt is None or attempt.guild_id != guild_id or attempt.user_id != user_id:
            raise UserError("This is someone else's puzzle: start your own with the puzzle command.")
        return attempt

    async def _update(self, attempt: AttemptRow, step: int, status: AttemptStatus, mistake: bool, rate: Any) -> Any:
        try:
            return await self._puzzles.update_attempt(
                attempt.id, attempt.step, self._table.clock(), step=step, status=status, mistake=mistake, rate=rate
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

    async def count(self, guild_id: int, game: str) -> int:
        return await self._puzzles.count_puzzles(guild_id, game)


__all__ = ["Puzzles", "position_of"]
