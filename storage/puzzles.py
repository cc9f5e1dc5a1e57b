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
from storage.schema import daily_puzzles, puzzle_attempts, puzzle_ratings, puzzle_streaks, puzzles
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
    themes: tuple[str, ...] = ()  # theme keys (docs/puzzles.md); none known for a server's own puzzle

    @classmethod
    def from_sql(cls, row: sa.RowMapping) -> PuzzleRow:
        values = {name: row[name] for name in cls.__dataclass_fields__}
        values["themes"] = tuple(values["themes"] or ())
        return cls(**values)


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
    streak_id: int | None = None  # the streak whose puzzle it is

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
class StreakRow:
    """A member's streak: ``solved`` puzzles so far; its latest puzzle's attempt and that puzzle's rating when it
    was picked; open while ``ended_at`` is None."""

    id: int
    guild_id: int
    user_id: int
    game: str
    solved: int
    rating: float | None
    attempt_id: int | None
    started_at: float
    ended_at: float | None

    @classmethod
    def from_sql(cls, row: sa.RowMapping) -> StreakRow:
        return cls(**{name: row[name] for name in cls.__dataclass_fields__})

    @property
    def open(self) -> bool:
        return self.ended_at is None


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
    streak: StreakRow | None = None  # the attempt's streak as this step left it


class StaleAttempt(Exception):
    """The attempt moved on (or ended) meanwhile: a double click, another process."""


class StaleStreak(Exception):
    """The streak moved on (or ended) meanwhile: a double click, another process."""


# What an attempt's end does to its streak (``update_attempt``'s ``streak``): one more solved, or the streak's end.
STREAK_SOLVED = "solved"
STREAK_ENDED = "ended"


def offered_in(guild_id: int, game: str, theme: str | None = None) -> list[sa.ColumnElement[bool]]:
    """A server's puzzles of a game (of a theme, when given): the shipped set's, the bot's self-play's and its own
    games'."""
    where = [puzzles.c.game == game, sa.or_(puzzles.c.guild_id.is_(None), puzzles.c.guild_id == guild_id)]
    if theme is not None:
        where.append(has_theme(theme))
    return where


def has_theme(theme: str) -> sa.ColumnElement[bool]:
    """A puzzle with the theme key ``theme`` among its themes, on either database: the JSON list as text holds the
    key in quotes (keys are lower-case words and hyphens, so one key never matches inside another)."""
    return sa.cast(puzzles.c.themes, sa.Text).like(f'%"{theme}"%')


class PuzzleRepository:
    """What the puzzles part reads and writes: a puzzle, the one to offer a member, their attempts and ratings."""

    def __init__(self, store: Store) -> None:
        self._store = store

    async def puzzle(self, puzzle_id: int) -> PuzzleRow | None:
        def body(connection: sa.Connection) -> PuzzleRow | None:
            row = connection.execute(sa.select(puzzles).where(puzzles.c.id == puzzle_id)).mappings().first()
            return None if row is None else PuzzleRow.from_sql(row)

        return await self._store.read(body)

    async def count_puzzles(self, guild_id: int, game: str, theme: str | None = None) -> int:
        where = offered_in(guild_id, game, theme)
        return await self._store.read(
            lambda connection: int(
                connection.execute(sa.select(sa.func.count()).select_from(puzzles).where(*where)).scalar_one()
            )
        )

    async def pick_puzzle(
        self,
        guild_id: int,
        user_id: int,
        game: str,
        near: float,
        *,
        theme: str | None = None,
        above: float | None = None,
    ) -> PuzzleRow | None:
        """The puzzle of ``game`` (of ``theme``, rated above ``above``, when given) whose rating is nearest ``near``
        that the member never tried here and that is not an unrevealed daily puzzle of this server."""
        tried = sa.select(puzzle_attempts.c.puzzle_id).where(
            puzzle_attempts.c.guild_id == guild_id, puzzle_attempts.c.user_id == user_id
        )
        today = sa.select(daily_puzzles.c.puzzle_id).where(
            daily_puzzles.c.guild_id == guild_id, daily_puzzles.c.revealed_at.is_(None)
        )
        where = [*offered_in(guild_id, game, theme), puzzles.c.id.not_in(tried), puzzles.c.id.not_in(today)]
        if above is not None:
            where.append(puzzles.c.mu > above)
        query = sa.select(puzzles).where(*where).order_by(sa.func.abs(puzzles.c.mu - near), puzzles.c.id).limit(1)

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
        Any other open attempt of theirs in this game is left (:func:`_leave_others`)."""
        a = puzzle_attempts

        def body(connection: sa.Connection) -> AttemptRow:
            existing = (
                connection.execute(
                    sa.select(a).where(a.c.guild_id == guild_id, a.c.user_id == user_id, a.c.puzzle_id == puzzle_id)
                )
                .mappings()
                .first()
            )
            _leave_others(connection, guild_id, user_id, game, puzzle_id, now)
            if existing is not None:
                return AttemptRow.from_sql(existing)
            return _new_attempt(connection, guild_id, user_id, game, puzzle_id, now, None)

        return await self._store.write(body)

    # --- streaks --------------------------------------------------------------------------------------------

    async def open_streak(self, guild_id: int, user_id: int, game: str) -> StreakRow | None:
        s = puzzle_streaks
        query = sa.select(s).where(s.c.guild_id == guild_id, s.c.user_id == user_id, s.c.game == game, _open())

        def body(connection: sa.Connection) -> StreakRow | None:
            row = connection.execute(query).mappings().first()
            return None if row is None else StreakRow.from_sql(row)

        return await self._store.read(body)

    async def streak(self, streak_id: int) -> StreakRow | None:
        def body(connection: sa.Connection) -> StreakRow | None:
            row = connection.execute(sa.select(puzzle_streaks).where(puzzle_streaks.c.id == streak_id)).mappings()
            found = row.first()
            return None if found is None else StreakRow.from_sql(found)

        return await self._store.read(body)

    async def streak_puzzle(
        self,
        guild_id: int,
        user_id: int,
        game: str,
        streak_id: int | None,
        after_attempt: int | None,
        puzzle_id: int,
        rating: float,
        now: float,
    ) -> tuple[StreakRow, AttemptRow]:
        """A streak's next puzzle: a new streak when ``streak_id`` is None (else :class:`StaleStreak` if the member
        has one open meanwhile), or the next puzzle of streak ``streak_id`` if it is still open at attempt
        ``after_attempt`` (else :class:`StaleStreak`: a second click took it on). Its attempt begins, the streak
        remembers it and the puzzle's ``rating``; any other open attempt of the member's in this game is left."""
        s = puzzle_streaks

        def body(connection: sa.Connection) -> tuple[StreakRow, AttemptRow]:
            if streak_id is None:
                made = connection.execute(
                    insert_for(connection.dialect.name, s)
                    .values(guild_id=guild_id, user_id=user_id, game=game, solved=0, started_at=now)
                    .on_conflict_do_nothing(index_elements=[s.c.guild_id, s.c.user_id, s.c.game], index_where=_open())
                    .returning(s.c.id)
                ).first()
                if made is None:
                    raise StaleStreak(None)
                number = int(made[0])
            else:
                locked = connection.execute(sa.select(s).where(s.c.id == streak_id).with_for_update()).mappings()
                found = locked.first()
                if found is None or found["ended_at"] is not None or found["attempt_id"] != after_attempt:
                    raise StaleStreak(streak_id)
                number = streak_id
            _leave_others(connection, guild_id, user_id, game, puzzle_id, now)
            attempt = _new_attempt(connection, guild_id, user_id, game, puzzle_id, now, number)
            row = connection.execute(
                sa.update(s).where(s.c.id == number).values(attempt_id=attempt.id, rating=rating).returning(*s.c)
            )
            return StreakRow.from_sql(row.mappings().one()), attempt

        return await self._store.write(body)

    async def end_streak(self, streak_id: int, now: float) -> StreakRow | None:
        """End an open streak (nothing harder is left to offer); None if it had ended already."""
        s = puzzle_streaks
        update = sa.update(s).where(s.c.id == streak_id, _open()).values(ended_at=now).returning(*s.c)

        def body(connection: sa.Connection) -> StreakRow | None:
            row = connection.execute(update).mappings().first()
            return None if row is None else StreakRow.from_sql(row)

        return await self._store.write(body)

    async def best_streaks(self, guild_id: int, user_id: int) -> list[tuple[str, int]]:
        """A member's best streak here per game (games with a streak of at least one puzzle), by game."""
        s = puzzle_streaks
        query = (
            sa.select(s.c.game, sa.func.max(s.c.solved))
            .where(s.c.guild_id == guild_id, s.c.user_id == user_id, s.c.solved > 0)
            .group_by(s.c.game)
            .order_by(s.c.game)
        )
        return await self._store.read(lambda connection: [(row[0], int(row[1])) for row in connection.execute(query)])

    async def streak_board(self, guild_id: int, game: str, limit: int) -> list[tuple[int, int]]:
        """The server's best streaks of ``game``: (member, their best), best first (at a tie, who began it first)."""
        s = puzzle_streaks
        best = sa.func.max(s.c.solved)
        query = (
            sa.select(s.c.user_id, best)
            .where(s.c.guild_id == guild_id, s.c.game == game, s.c.solved > 0)
            .group_by(s.c.user_id)
            .order_by(best.desc(), sa.func.min(s.c.started_at), s.c.user_id)
            .limit(limit)
        )
        return await self._store.read(
            lambda connection: [(int(row[0]), int(row[1])) for row in connection.execute(query)]
        )

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
        streak: str | None = None,
    ) -> AttemptChange:
        """Move an open attempt on from ``expected_step`` (else :class:`StaleAttempt`): its new step and status,
        one more mistake when ``mistake``; ``rate`` = (callback, solved) rates member and puzzle in the same
        transaction, once per attempt (a second call for a rated attempt rates nothing). ``streak``
        (:data:`STREAK_SOLVED` or :data:`STREAK_ENDED`) moves the attempt's open streak on in the same transaction,
        so a streak counts each of its puzzles once and ends once."""
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
            moved = None if streak is None else _move_streak(connection, attempt, streak, now)
            if not rating:
                return AttemptChange(attempt, streak=moved)
            assert rate is not None
            callback, solved = rate
            return AttemptChange(attempt, *_rate(connection, attempt, callback, solved), streak=moved)

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


def _open() -> sa.ColumnElement[bool]:
    return puzzle_streaks.c.ended_at.is_(None)


def _new_attempt(
    connection: sa.Connection,
    guild_id: int,
    user_id: int,
    game: str,
    puzzle_id: int,
    now: float,
    streak_id: int | None,
) -> AttemptRow:
    row = connection.execute(
        sa.insert(puzzle_attempts)
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
            streak_id=streak_id,
        )
        .returning(*puzzle_attempts.c)
    )
    return AttemptRow.from_sql(row.mappings().one())


def _leave_others(
    connection: sa.Connection, guild_id: int, user_id: int, game: str, puzzle_id: int, now: float
) -> None:
    """Inside a transaction that starts a puzzle: the member's other open attempts in this game are left, unrated
    when no move was tried, else failed (rated at their first mistake); a streak whose open puzzle is left so ends."""
    a, s = puzzle_attempts, puzzle_streaks
    others = (
        a.c.guild_id == guild_id,
        a.c.user_id == user_id,
        a.c.game == game,
        a.c.status == AttemptStatus.OPEN,
        a.c.puzzle_id != puzzle_id,
    )
    left = [row[0] for row in connection.execute(sa.select(a.c.id).where(*others))]
    if not left:
        return
    connection.execute(
        sa.update(a)
        .where(a.c.id.in_(left))
        .values(
            status=sa.case((a.c.rated, AttemptStatus.FAILED.value), else_=AttemptStatus.LEFT.value), finished_at=now
        )
    )
    connection.execute(sa.update(s).where(s.c.attempt_id.in_(left), _open()).values(ended_at=now))


def _move_streak(connection: sa.Connection, attempt: AttemptRow, how: str, now: float) -> StreakRow | None:
    """Inside an attempt's transaction: its open streak counts it solved, or ends (only while the attempt is the
    streak's latest puzzle)."""
    s = puzzle_streaks
    if attempt.streak_id is None:
        return None
    values: dict[str, Any] = {"solved": s.c.solved + 1} if how == STREAK_SOLVED else {"ended_at": now}
    where = (s.c.id == attempt.streak_id, s.c.attempt_id == attempt.id, _open())
    row = connection.execute(sa.update(s).where(*where).values(values).returning(*s.c)).mappings().first()
    if row is None:
        row = connection.execute(sa.select(s).where(s.c.id == attempt.streak_id)).mappings().first()
    return None if row is None else StreakRow.from_sql(row)


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
    """Inside a forget-member transaction: the member's puzzle ratings and streaks here go, their attempts stay
    anonymised (the puzzles' own ratings and a daily puzzle's count of tries keep adding up)."""
    connection.execute(
        sa.delete(puzzle_ratings).where(puzzle_ratings.c.guild_id == guild_id, puzzle_ratings.c.user_id == member_id)
    )
    connection.execute(
        sa.update(puzzle_attempts)
        .where(puzzle_attempts.c.guild_id == guild_id, puzzle_attempts.c.user_id == member_id)
        .values(user_id=anonymous_id, streak_id=None)
    )
    connection.execute(
        sa.delete(puzzle_streaks).where(puzzle_streaks.c.guild_id == guild_id, puzzle_streaks.c.user_id == member_id)
    )
