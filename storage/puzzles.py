"""Queries for puzzles: the puzzles themselves, members' attempts and puzzle ratings. No policy here (which puzzle
suits whom, how a rating moves): that is the service's (sessions/puzzles/solving.py). Mining finished games for puzzles
is ``storage/puzzle_mining.py``'s, each server's daily puzzle ``storage/daily_puzzles.py``'s; the rows they all hand out
are here."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa

from storage.rows import AttemptStatus
from storage.schema import daily_puzzles, puzzle_attempts, puzzle_ratings, puzzles
from storage.store import Store, insert_for


@dataclass(frozen=True)
class PuzzleRow:
    id: int
    game: str
    guild_id: int | None
    source_game_id: int | None
    seed: int | None
    ply: int
    options: dict[str, Any]
    moves: list[str]
    solver: int
    solution: list[str]
    steps: list[list[Any]]
    margin: float
    mu: float
    sigma: float
    attempts: int
    solved: int

    @classmethod
    def from_sql(cls, row: sa.RowMapping) -> PuzzleRow:
        return cls(**{name: row[name] for name in cls.__dataclass_fields__})


@dataclass(frozen=True)
class AttemptRow:
    id: int
    guild_id: int
    user_id: int
    game: str
    puzzle_id: int
    step: int
    status: AttemptStatus
    mistakes: int
    rated: bool
    started_at: float
    finished_at: float | None

    @classmethod
    def from_sql(cls, row: sa.RowMapping) -> AttemptRow:
        values = {name: row[name] for name in cls.__dataclass_fields__}
        values["status"] = AttemptStatus(values["status"])
        return cls(**values)


@dataclass(frozen=True)
class DailyRow:
    guild_id: int
    game: str
    day: int
    puzzle_id: int
    channel_id: int
    posted_at: float | None
    message_id: int | None
    revealed_at: float | None

    @classmethod
    def from_sql(cls, row: sa.RowMapping) -> DailyRow:
        return cls(**{name: row[name] for name in cls.__dataclass_fields__})


@dataclass(frozen=True)
class PuzzleRating:
    mu: float
    sigma: float
    attempts: int
    solved: int


# The rating callback a finished attempt's transaction calls with what it read: (member's rating or None, the
# puzzle's (mu, sigma)) -> (member's new (mu, sigma), puzzle's new (mu, sigma)). Pure: it runs inside the write.
RatePuzzle = Callable[[PuzzleRating | None, tuple[float, float]], tuple[tuple[float, float], tuple[float, float]]]


@dataclass(frozen=True)
class AttemptChange:
    """What an attempt's step wrote: the attempt as it is now and, when this step rated it, the member's rating
    before (None: their first) and after."""

    attempt: AttemptRow
    before: PuzzleRating | None = None
    after: PuzzleRating | None = None


class StaleAttempt(Exception):
    """The attempt moved on (or ended) meanwhile: a double click, another process."""


def offered_in(guild_id: int, game: str) -> list[sa.ColumnElement[bool]]:
    """A server's puzzles of a game: the bot's self-play's and its own games'."""
    return [puzzles.c.game == game, sa.or_(puzzles.c.guild_id.is_(None), puzzles.c.guild_id == guild_id)]


class PuzzleRepository:
    """What the puzzles part reads and writes: a puzzle, the one to offer a member, their attempts and ratings."""

    def __init__(self, store: Store) -> None:
        self._store = store

    async def puzzle(self, puzzle_id: int) -> PuzzleRow | None:
        def body(connection: sa.Connection) -> PuzzleRow | None:
            row = connection.execute(sa.select(puzzles).where(puzzles.c.id == puzzle_id)).mappings().first()
            return None if row is None else PuzzleRow.from_sql(row)

        return await self._store.read(body)

    async def count_puzzles(self, guild_id: int, game: str) -> int:
        where = offered_in(guild_id, game)
        return await self._store.read(
            lambda connection: int(connection.execute(sa.select(sa.func.count()).where(*where)).scalar_one())
        )

    async def pick_puzzle(self, guild_id: int, user_id: int, game: str, near: float) -> PuzzleRow | None:
        """The puzzle of ``game`` whose rating is nearest ``near`` that the member never tried here and that is
        not an unrevealed daily puzzle of this server."""
        tried = sa.select(puzzle_attempts.c.puzzle_id).where(
            puzzle_attempts.c.guild_id == guild_id, puzzle_attempts.c.user_id == user_id
        )
        today = sa.select(daily_puzzles.c.puzzle_id).where(
            daily_puzzles.c.guild_id == guild_id, daily_puzzles.c.revealed_at.is_(None)
        )
        query = (
            sa.select(puzzles)
            .where(*offered_in(guild_id, game), puzzles.c.id.not_in(tried), puzzles.c.id.not_in(today))
            .order_by(sa.func.abs(puzzles.c.mu - near), puzzles.c.id)
            .limit(1)
        )

        def body(connection: sa.Connection) -> PuzzleRow | None:
            row = connection.execute(query).mappings().first()
            return None if row is None else PuzzleRow.from_sql(row)

        return await self._store.read(body)

    async def open_attempt(self, guild_id: int, user_id: int, game: str) -> AttemptRow | None:
        a = puzzle_attempts
        query = (
            sa.select(a)
            .where(a.c.guild_id == guild_id, a.c.user_id == user_id, a.c.game == game, a.c.status == AttemptStatus.OPEN)
            .order_by(a.c.id.desc())
            .limit(1)
        )

        def body(connection: sa.Connection) -> AttemptRow | None:
            row = connection.execute(query).mappings().first()
            return None if row is None else AttemptRow.from_sql(row)

        return await self._store.read(body)

    async def attempt_of(self, guild_id: int, user_id: int, puzzle_id: int) -> AttemptRow | None:
        a = puzzle_attempts
        query = sa.select(a).where(a.c.guild_id == guild_id, a.c.user_id == user_id, a.c.puzzle_id == puzzle_id)

        def body(connection: sa.Connection) -> AttemptRow | None:
            row = connection.execute(query).mappings().first()
            return None if row is None else AttemptRow.from_sql(row)

        return await self._store.read(body)

    async def attempt_by_id(self, attempt_id: int) -> AttemptRow | None:
        query = sa.select(puzzle_attempts).where(puzzle_attempts.c.id == attempt_id)

        def body(connection: sa.Connection) -> AttemptRow | None:
            row = connection.execute(query).mappings().first()
            return None if row is None else AttemptRow.from_sql(row)

        return await self._store.read(body)

    async def start_attempt(self, guild_id: int, user_id: int, game: str, puzzle_id: int, now: float) -> AttemptRow:
        """The member's attempt at a puzzle: their earlier one if they ever began it here, else a new one, open.
        Any other open attempt of theirs in this game is left: unrated when no move was tried, else failed (it
        was rated at its first mistake)."""
        a = puzzle_attempts

        def body(connection: sa.Connection) -> AttemptRow:
            existing = (
                connection.execute(
                    sa.select(a).where(a.c.guild_id == guild_id, a.c.user_id == user_id, a.c.puzzle_id == puzzle_id)
                )
                .mappings()
                .first()
            )
            others = (
                a.c.guild_id == guild_id,
                a.c.user_id == user_id,
                a.c.game == game,
                a.c.status == AttemptStatus.OPEN,
                a.c.puzzle_id != puzzle_id,
            )
            connection.execute(
                sa.update(a)
                .where(*others)
                .values(
                    status=sa.case((a.c.rated, AttemptStatus.FAILED.value), else_=AttemptStatus.LEFT.value),
                    finished_at=now,
                )
            )
            if existing is not None:
                return AttemptRow.from_sql(existing)
            row = (
                connection.execute(
                    sa.insert(a)
                    .values(
                        guild_id=guild_id,
                        user_id=user_id,
                        game=game,
                        puzzle_id=puzzle_id,
                        step=0,
                        status=AttemptStatus.OPEN,
                        mistakes=0,
                        rated=False,
                        started_at=now,
                    )
                    .returning(*a.c)
                )
                .mappings()
                .one()
            )
            return AttemptRow.from_sql(row)

        return await self._store.write(body)

    async def update_attempt(
        self,
        attempt_id: int,
        expected_step: int,
        now: float,
        *,
        step: int,
        status: str,
        mistake: bool,
        rate: tuple[RatePuzzle, bool] | None = None,
    ) -> AttemptChange:
        """Move an open attempt on from ``expected_step`` (else :class:`StaleAttempt`): its new step and status,
        one more mistake when ``mistake``; ``rate`` = (callback, solved) rates member and puzzle in the same
        transaction, once per attempt (a second call for a rated attempt rates nothing)."""
        a = puzzle_attempts

        def body(connection: sa.Connection) -> AttemptChange:
            locked = connection.execute(sa.select(a).where(a.c.id == attempt_id).with_for_update()).mappings().first()
            if locked is None or locked["status"] != AttemptStatus.OPEN or locked["step"] != expected_step:
                raise StaleAttempt(attempt_id)
            rating = rate is not None and not locked["rated"]
            values: dict[str, Any] = {"step": step, "status": status, "mistakes": a.c.mistakes + int(mistake)}
            if rating:
                values["rated"] = True
            if status != AttemptStatus.OPEN:
                values["finished_at"] = now
            row = connection.execute(sa.update(a).where(a.c.id == attempt_id).values(values).returning(*a.c))
            attempt = AttemptRow.from_sql(row.mappings().one())
            if not rating:
                return AttemptChange(attempt)
            assert rate is not None
            callback, solved = rate
            return AttemptChange(attempt, *_rate(connection, attempt, callback, solved))

        return await self._store.write(body)

    async def puzzle_rating(self, guild_id: int, game: str, user_id: int) -> PuzzleRating | None:
        r = puzzle_ratings
        query = sa.select(r).where(r.c.guild_id == guild_id, r.c.game == game, r.c.user_id == user_id)

        def body(connection: sa.Connection) -> PuzzleRating | None:
            row = connection.execute(query).mappings().first()
            return None if row is None else PuzzleRating(row["mu"], row["sigma"], row["attempts"], row["solved"])

        return await self._store.read(body)

    async def puzzle_ratings_of(self, guild_id: int, user_id: int) -> list[tuple[str, PuzzleRating]]:
        r = puzzle_ratings
        query = sa.select(r).where(r.c.guild_id == guild_id, r.c.user_id == user_id).order_by(r.c.game)
        return await self._store.read(
            lambda connection: [
                (row["game"], PuzzleRating(row["mu"], row["sigma"], row["attempts"], row["solved"]))
                for row in connection.execute(query).mappings()
            ]
        )


def _rate(
    connection: sa.Connection, attempt: AttemptRow, rate: RatePuzzle, solved: bool
) -> tuple[PuzzleRating | None, PuzzleRating]:
    """Inside an attempt's transaction: rate the member and the puzzle (both rows locked first)."""
    r = puzzle_ratings
    key = (r.c.guild_id == attempt.guild_id, r.c.game == attempt.game, r.c.user_id == attempt.user_id)
    found = connection.execute(sa.select(r).where(*key).with_for_update()).mappings().first()
    before = None if found is None else PuzzleRating(found["mu"], found["sigma"], found["attempts"], found["solved"])
    puzzle = (
        connection.execute(
            sa.select(puzzles.c.mu, puzzles.c.sigma).where(puzzles.c.id == attempt.puzzle_id).with_for_update()
        )
        .mappings()
        .one()
    )
    (mu, sigma), (puzzle_mu, puzzle_sigma) = rate(before, (puzzle["mu"], puzzle["sigma"]))
    after = PuzzleRating(
        mu, sigma, (before.attempts if before else 0) + 1, (before.solved if before else 0) + int(solved)
    )
    values = {"mu": mu, "sigma": sigma, "attempts": after.attempts, "solved": after.solved}
    connection.execute(
        insert_for(connection.dialect.name, r)
        .values(guild_id=attempt.guild_id, game=attempt.game, user_id=attempt.user_id, **values)
        .on_conflict_do_update(index_elements=[r.c.guild_id, r.c.game, r.c.user_id], set_=values)
    )
    connection.execute(
        sa.update(puzzles)
        .where(puzzles.c.id == attempt.puzzle_id)
        .values(
            mu=puzzle_mu, sigma=puzzle_sigma, attempts=puzzles.c.attempts + 1, solved=puzzles.c.solved + int(solved)
        )
    )
    return before, after


def forget_puzzles(connection: sa.Connection, guild_id: int, member_id: int, anonymous_id: int) -> None:
    """Inside a forget-member transaction: the member's puzzle ratings here go, their attempts stay anonymised
    (the puzzles' own ratings and a daily puzzle's count of tries keep adding up)."""
    connection.execute(
        sa.delete(puzzle_ratings).where(puzzle_ratings.c.guild_id == guild_id, puzzle_ratings.c.user_id == member_id)
    )
    connection.execute(
        sa.update(puzzle_attempts)
        .where(puzzle_attempts.c.guild_id == guild_id, puzzle_attempts.c.user_id == member_id)
        .values(user_id=anonymous_id)
    )
