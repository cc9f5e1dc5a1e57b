"""Queries for puzzles: storing mined puzzles, members' attempts and puzzle ratings, claiming finished games to
mine, and each server's daily puzzle. No policy here (thresholds, which puzzle suits whom, when a day begins):
that is the service's (sessions/puzzles.py). Every claim is one conditional write, as the outbox's are, so two
processes never mine one game nor post one day's puzzle twice."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import sqlalchemy as sa

from storage.engine import Body, T
from storage.rows import GameRow, GameStatus
from storage.schema import daily_puzzles, games, guild_settings, puzzle_attempts, puzzle_mining, puzzle_ratings, puzzles


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
    status: str
    mistakes: int
    rated: bool
    started_at: float
    finished_at: float | None

    @classmethod
    def from_sql(cls, row: sa.RowMapping) -> AttemptRow:
        return cls(**{name: row[name] for name in cls.__dataclass_fields__})


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


class _Storage(Protocol):
    dialect: str

    async def read(self, body: Body[T]) -> T: ...

    async def write(self, body: Body[T]) -> T: ...

    def _insert(self, table: sa.Table) -> Any: ...


def _seen_by(guild_id: int) -> sa.ColumnElement[bool]:
    """A puzzle this server has seen: any member tried it here, or it was a daily puzzle here."""
    tried = sa.select(puzzle_attempts.c.puzzle_id).where(puzzle_attempts.c.guild_id == guild_id)
    posted = sa.select(daily_puzzles.c.puzzle_id).where(daily_puzzles.c.guild_id == guild_id)
    return sa.or_(puzzles.c.id.in_(tried), puzzles.c.id.in_(posted))


def _offered_in(guild_id: int, game: str) -> list[sa.ColumnElement[bool]]:
    """A server's puzzles of a game: the bot's self-play's and its own games'."""
    return [puzzles.c.game == game, sa.or_(puzzles.c.guild_id.is_(None), puzzles.c.guild_id == guild_id)]


class PuzzleQueries:
    """The puzzles half of :class:`storage.database.Database`."""

    # --- puzzles ------------------------------------------------------------------------------------

    async def insert_puzzles(self: _Storage, rows: Sequence[dict[str, Any]], now: float) -> int:
        """Store new puzzles (columns of ``puzzles`` but the id and counters); a position stored already is
        skipped. Returns how many were new."""
        return await self.write(lambda connection: _insert_puzzles(self, connection, rows, now))

    async def puzzle(self: _Storage, puzzle_id: int) -> PuzzleRow | None:
        def body(connection: sa.Connection) -> PuzzleRow | None:
            row = connection.execute(sa.select(puzzles).where(puzzles.c.id == puzzle_id)).mappings().first()
            return None if row is None else PuzzleRow.from_sql(row)

        return await self.read(body)

    async def count_puzzles(self: _Storage, guild_id: int, game: str) -> int:
        where = _offered_in(guild_id, game)
        return await self.read(
            lambda connection: int(connection.execute(sa.select(sa.func.count()).where(*where)).scalar_one())
        )

    async def pick_puzzle(self: _Storage, guild_id: int, user_id: int, game: str, near: float) -> PuzzleRow | None:
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
            .where(*_offered_in(guild_id, game), puzzles.c.id.not_in(tried), puzzles.c.id.not_in(today))
            .order_by(sa.func.abs(puzzles.c.mu - near), puzzles.c.id)
            .limit(1)
        )

        def body(connection: sa.Connection) -> PuzzleRow | None:
            row = connection.execute(query).mappings().first()
            return None if row is None else PuzzleRow.from_sql(row)

        return await self.read(body)

    # --- attempts and ratings ------------------------------------------------------------------------

    async def open_attempt(self: _Storage, guild_id: int, user_id: int, game: str) -> AttemptRow | None:
        a = puzzle_attempts
        query = (
            sa.select(a)
            .where(a.c.guild_id == guild_id, a.c.user_id == user_id, a.c.game == game, a.c.status == "open")
            .order_by(a.c.id.desc())
            .limit(1)
        )

        def body(connection: sa.Connection) -> AttemptRow | None:
            row = connection.execute(query).mappings().first()
            return None if row is None else AttemptRow.from_sql(row)

        return await self.read(body)

    async def attempt_of(self: _Storage, guild_id: int, user_id: int, puzzle_id: int) -> AttemptRow | None:
        a = puzzle_attempts
        query = sa.select(a).where(a.c.guild_id == guild_id, a.c.user_id == user_id, a.c.puzzle_id == puzzle_id)

        def body(connection: sa.Connection) -> AttemptRow | None:
            row = connection.execute(query).mappings().first()
            return None if row is None else AttemptRow.from_sql(row)

        return await self.read(body)

    async def attempt_by_id(self: _Storage, attempt_id: int) -> AttemptRow | None:
        query = sa.select(puzzle_attempts).where(puzzle_attempts.c.id == attempt_id)

        def body(connection: sa.Connection) -> AttemptRow | None:
            row = connection.execute(query).mappings().first()
            return None if row is None else AttemptRow.from_sql(row)

        return await self.read(body)

    async def start_attempt(
        self: _Storage, guild_id: int, user_id: int, game: str, puzzle_id: int, now: float
    ) -> AttemptRow:
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
                a.c.status == "open",
                a.c.puzzle_id != puzzle_id,
            )
            connection.execute(
                sa.update(a).where(*others).values(status=sa.case((a.c.rated, "failed"), else_="left"), finished_at=now)
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
                        status="open",
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

        return await self.write(body)

    async def update_attempt(
        self: _Storage,
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
            if locked is None or locked["status"] != "open" or locked["step"] != expected_step:
                raise StaleAttempt(attempt_id)
            rating = rate is not None and not locked["rated"]
            values: dict[str, Any] = {"step": step, "status": status, "mistakes": a.c.mistakes + int(mistake)}
            if rating:
                values["rated"] = True
            if status != "open":
                values["finished_at"] = now
            row = connection.execute(sa.update(a).where(a.c.id == attempt_id).values(values).returning(*a.c))
            attempt = AttemptRow.from_sql(row.mappings().one())
            if not rating:
                return AttemptChange(attempt)
            assert rate is not None
            callback, solved = rate
            return AttemptChange(attempt, *_rate(self, connection, attempt, callback, solved))

        return await self.write(body)

    async def puzzle_rating(self: _Storage, guild_id: int, game: str, user_id: int) -> PuzzleRating | None:
        r = puzzle_ratings
        query = sa.select(r).where(r.c.guild_id == guild_id, r.c.game == game, r.c.user_id == user_id)

        def body(connection: sa.Connection) -> PuzzleRating | None:
            row = connection.execute(query).mappings().first()
            return None if row is None else PuzzleRating(row["mu"], row["sigma"], row["attempts"], row["solved"])

        return await self.read(body)

    async def puzzle_ratings_of(self: _Storage, guild_id: int, user_id: int) -> list[tuple[str, PuzzleRating]]:
        r = puzzle_ratings
        query = sa.select(r).where(r.c.guild_id == guild_id, r.c.user_id == user_id).order_by(r.c.game)
        return await self.read(
            lambda connection: [
                (row["game"], PuzzleRating(row["mu"], row["sigma"], row["attempts"], row["solved"]))
                for row in connection.execute(query).mappings()
            ]
        )

    # --- mining ---------------------------------------------------------------------------------------

    async def claim_game_to_mine(
        self: _Storage, worker: str, now: float, lease: float, min_ply: int, guild_ids: Sequence[int] | None = None
    ) -> GameRow | None:
        """A finished game of at least ``min_ply`` entries that nobody mined nor holds a live claim on, claimed
        by ``worker`` until ``now + lease``; None when there is none. Oldest first."""
        m = puzzle_mining
        free = sa.or_(
            m.c.game_id.is_(None),
            sa.and_(m.c.mined_at.is_(None), sa.or_(m.c.claimed_until.is_(None), m.c.claimed_until <= now)),
        )
        where = [games.c.status == GameStatus.FINISHED, games.c.ply >= min_ply, free]
        if guild_ids is not None:
            where.append(games.c.guild_id.in_(list(guild_ids)))
        candidates = (
            sa.select(games)
            .select_from(games.outerjoin(m, m.c.game_id == games.c.id))
            .where(*where)
            .order_by(games.c.id)
            .limit(5)
        )

        def body(connection: sa.Connection) -> GameRow | None:
            for found in connection.execute(candidates).mappings().all():
                claim = (
                    self._insert(m)
                    .values(game_id=found["id"], claimed_by=worker, claimed_until=now + lease)
                    .on_conflict_do_update(
                        index_elements=[m.c.game_id],
                        set_={"claimed_by": worker, "claimed_until": now + lease},
                        where=sa.and_(
                            m.c.mined_at.is_(None), sa.or_(m.c.claimed_until.is_(None), m.c.claimed_until <= now)
                        ),
                    )
                    .returning(m.c.game_id)
                )
                if connection.execute(claim).first() is not None:
                    return GameRow.from_sql(found)
            return None

        return await self.write(body)

    async def finish_mining(
        self: _Storage, game_id: int, worker: str, rows: Sequence[dict[str, Any]], now: float
    ) -> int | None:
        """Store a mined game's puzzles and mark it mined, if ``worker`` still holds its claim (else None: its
        lease lapsed and another took it). Returns how many puzzles were new."""
        m = puzzle_mining

        def body(connection: sa.Connection) -> int | None:
            done = connection.execute(
                sa.update(m)
                .where(m.c.game_id == game_id, m.c.claimed_by == worker, m.c.mined_at.is_(None))
                .values(mined_at=now, found=len(rows), claimed_until=None)
            )
            if done.rowcount != 1:
                return None
            return _insert_puzzles(self, connection, rows, now)

        return await self.write(body)

    # --- daily puzzles -------------------------------------------------------------------------------

    async def daily_settings(self: _Storage, guild_ids: Sequence[int]) -> dict[int, dict[str, Any]]:
        """The servers among ``guild_ids`` with a daily puzzle set: guild -> {game: [channel, hour]}."""
        g = guild_settings
        query = sa.select(g.c.guild_id, g.c.daily_puzzles).where(
            g.c.guild_id.in_(list(guild_ids)), g.c.daily_puzzles.is_not(None)
        )
        return await self.read(
            lambda connection: {
                row["guild_id"]: row["daily_puzzles"]
                for row in connection.execute(query).mappings()
                if row["daily_puzzles"]
            }
        )

    async def daily(self: _Storage, guild_id: int, game: str, day: int) -> DailyRow | None:
        d = daily_puzzles
        query = sa.select(d).where(d.c.guild_id == guild_id, d.c.game == game, d.c.day == day)

        def body(connection: sa.Connection) -> DailyRow | None:
            row = connection.execute(query).mappings().first()
            return None if row is None else DailyRow.from_sql(row)

        return await self.read(body)

    async def daily_by_puzzle(self: _Storage, guild_id: int, puzzle_id: int) -> DailyRow | None:
        d = daily_puzzles
        query = sa.select(d).where(d.c.guild_id == guild_id, d.c.puzzle_id == puzzle_id)

        def body(connection: sa.Connection) -> DailyRow | None:
            row = connection.execute(query).mappings().first()
            return None if row is None else DailyRow.from_sql(row)

        return await self.read(body)

    async def dailies_to_reveal(self: _Storage, guild_id: int, game: str, before_day: int) -> list[DailyRow]:
        """Posted daily puzzles of days before ``before_day`` whose solution was not posted yet."""
        d = daily_puzzles
        query = (
            sa.select(d)
            .where(
                d.c.guild_id == guild_id,
                d.c.game == game,
                d.c.day < before_day,
                d.c.posted_at.is_not(None),
                d.c.revealed_at.is_(None),
            )
            .order_by(d.c.day)
        )
        return await self.read(lambda connection: [DailyRow.from_sql(r) for r in connection.execute(query).mappings()])

    async def choose_daily(
        self: _Storage, guild_id: int, game: str, day: int, channel_id: int, near: float, now: float
    ) -> DailyRow | None:
        """The day's puzzle of a server and game: chosen once (the first caller's choice stands) from the puzzles
        the server has not seen, nearest the rating ``near``; None when none is left."""
        d = daily_puzzles

        def body(connection: sa.Connection) -> DailyRow | None:
            key = (d.c.guild_id == guild_id, d.c.game == game, d.c.day == day)
            found = connection.execute(sa.select(d).where(*key)).mappings().first()
            if found is None:
                puzzle_id = connection.execute(
                    sa.select(puzzles.c.id)
                    .where(*_offered_in(guild_id, game), sa.not_(_seen_by(guild_id)))
                    .order_by(sa.func.abs(puzzles.c.mu - near), puzzles.c.id)
                    .limit(1)
                ).scalar()
                if puzzle_id is None:
                    return None
                connection.execute(
                    self._insert(d)
                    .values(
                        guild_id=guild_id,
                        game=game,
                        day=day,
                        puzzle_id=puzzle_id,
                        channel_id=channel_id,
                        created_at=now,
                    )
                    .on_conflict_do_nothing()
                )
                found = connection.execute(sa.select(d).where(*key)).mappings().first()
            return None if found is None else DailyRow.from_sql(found)

        return await self.write(body)

    async def claim_daily(
        self: _Storage, guild_id: int, game: str, day: int, job: str, worker: str, now: float, lease: float
    ) -> DailyRow | None:
        """Take a day's ``job`` ("post" or "reveal") for ``worker`` until ``now + lease``: the row when it is not
        done and nobody else holds it, else None. A reveal needs the post done."""
        d = daily_puzzles
        claimed_by, claimed_until, done = (
            (d.c.post_claimed_by, d.c.post_claimed_until, d.c.posted_at)
            if job == "post"
            else (d.c.reveal_claimed_by, d.c.reveal_claimed_until, d.c.revealed_at)
        )
        where = [
            d.c.guild_id == guild_id,
            d.c.game == game,
            d.c.day == day,
            done.is_(None),
            sa.or_(claimed_until.is_(None), claimed_until <= now),
        ]
        if job != "post":
            where.append(d.c.posted_at.is_not(None))
        update = (
            sa.update(d).where(*where).values({claimed_by.key: worker, claimed_until.key: now + lease}).returning(*d.c)
        )

        def body(connection: sa.Connection) -> DailyRow | None:
            row = connection.execute(update).mappings().first()
            return None if row is None else DailyRow.from_sql(row)

        return await self.write(body)

    async def finish_daily(
        self: _Storage, guild_id: int, game: str, day: int, job: str, worker: str, now: float, message_id: int | None
    ) -> bool:
        """Mark a claimed job done (False if the claim was lost meanwhile: another worker did or does it)."""
        d = daily_puzzles
        key = (d.c.guild_id == guild_id, d.c.game == game, d.c.day == day)
        if job == "post":
            update = (
                sa.update(d)
                .where(*key, d.c.post_claimed_by == worker, d.c.posted_at.is_(None))
                .values(posted_at=now, message_id=message_id, post_claimed_until=None)
            )
        else:
            update = (
                sa.update(d)
                .where(*key, d.c.reveal_claimed_by == worker, d.c.revealed_at.is_(None))
                .values(revealed_at=now, reveal_claimed_until=None)
            )
        return await self.write(lambda connection: connection.execute(update).rowcount == 1)

    async def release_daily(self: _Storage, guild_id: int, game: str, day: int, job: str, worker: str) -> None:
        """Give back a claim whose job failed, so the next round (of any process) tries again at once."""
        d = daily_puzzles
        claimed_by, claimed_until = (
            (d.c.post_claimed_by, d.c.post_claimed_until)
            if job == "post"
            else (d.c.reveal_claimed_by, d.c.reveal_claimed_until)
        )
        update = (
            sa.update(d)
            .where(d.c.guild_id == guild_id, d.c.game == game, d.c.day == day, claimed_by == worker)
            .values({claimed_until.key: None})
        )
        await self.write(lambda connection: connection.execute(update))

    async def solvers(self: _Storage, guild_id: int, puzzle_id: int) -> tuple[list[int], int]:
        """Who solved a puzzle in this server without a mistake (first to solve first), and how many tried it."""
        a = puzzle_attempts
        where = (a.c.guild_id == guild_id, a.c.puzzle_id == puzzle_id, a.c.status != "left")

        def body(connection: sa.Connection) -> tuple[list[int], int]:
            solved = connection.execute(
                sa.select(a.c.user_id).where(*where, a.c.status == "solved").order_by(a.c.finished_at, a.c.id)
            ).scalars()
            tried = connection.execute(sa.select(sa.func.count()).where(*where)).scalar_one()
            return list(solved), int(tried)

        return await self.read(body)


def _insert_puzzles(storage: _Storage, connection: sa.Connection, rows: Sequence[dict[str, Any]], now: float) -> int:
    new = 0
    for row in rows:
        result = connection.execute(
            storage._insert(puzzles)
            .values(**row, attempts=0, solved=0, created_at=now)
            .on_conflict_do_nothing(index_elements=[puzzles.c.position_key])
        )
        new += result.rowcount
    return new


def _rate(
    storage: _Storage, connection: sa.Connection, attempt: AttemptRow, rate: RatePuzzle, solved: bool
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
        storage._insert(r)
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
