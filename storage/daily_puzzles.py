"""Queries for each server's daily puzzle: the servers that want one, the day's choice, and the claims of its two
jobs (post it, reveal its solution). Every claim is one conditional write with a lease, as the outbox's are, so two
processes never post one day's puzzle twice. No policy here (when a day begins, which puzzle suits the server):
that is the service's (sessions/puzzles/daily.py)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import sqlalchemy as sa

from storage.puzzles import DailyRow, offered_in
from storage.rows import AttemptStatus
from storage.schema import daily_puzzles, guild_settings, puzzle_attempts, puzzles
from storage.store import Store


class DailyPuzzleRepository:
    """What the daily puzzles part reads and writes: the day's puzzle of each server and game, its post and its
    reveal, and who solved it."""

    def __init__(self, store: Store) -> None:
        self._store = store

    async def daily_settings(self, guild_ids: Sequence[int]) -> dict[int, dict[str, Any]]:
        """The servers among ``guild_ids`` with a daily puzzle set: guild -> {game: [channel, hour]}."""
        g = guild_settings
        query = sa.select(g.c.guild_id, g.c.daily_puzzles).where(
            g.c.guild_id.in_(list(guild_ids)), g.c.daily_puzzles.is_not(None)
        )
        return await self._store.read(
            lambda connection: {
                row["guild_id"]: row["daily_puzzles"]
                for row in connection.execute(query).mappings()
                if row["daily_puzzles"]
            }
        )

    async def daily(self, guild_id: int, game: str, day: int) -> DailyRow | None:
        d = daily_puzzles
        query = sa.select(d).where(d.c.guild_id == guild_id, d.c.game == game, d.c.day == day)

        def body(connection: sa.Connection) -> DailyRow | None:
            row = connection.execute(query).mappings().first()
            return None if row is None else DailyRow.from_sql(row)

        return await self._store.read(body)

    async def daily_by_puzzle(self, guild_id: int, puzzle_id: int) -> DailyRow | None:
        """The latest day a puzzle was this server's daily puzzle."""
        d = daily_puzzles
        query = (
            sa.select(d).where(d.c.guild_id == guild_id, d.c.puzzle_id == puzzle_id).order_by(d.c.day.desc()).limit(1)
        )

        def body(connection: sa.Connection) -> DailyRow | None:
            row = connection.execute(query).mappings().first()
            return None if row is None else DailyRow.from_sql(row)

        return await self._store.read(body)

    async def dailies_to_reveal(self, guild_id: int, game: str, before_day: int) -> list[DailyRow]:
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
        return await self._store.read(
            lambda connection: [DailyRow.from_sql(r) for r in connection.execute(query).mappings()]
        )

    async def choose_daily(
        self, guild_id: int, game: str, day: int, channel_id: int, near: float, now: float, repeat_after: int
    ) -> DailyRow | None:
        """The day's puzzle of a server and game: chosen once (the first caller's choice stands) from the puzzles
        that were not its daily puzzle after day ``repeat_after`` (the caller's rule: never within a year); of
        those, one its members never tried first, then its own (mined from its games) before the shipped set's,
        then the rating nearest ``near``. None when none is left."""
        d = daily_puzzles

        def body(connection: sa.Connection) -> DailyRow | None:
            key = (d.c.guild_id == guild_id, d.c.game == game, d.c.day == day)
            found = connection.execute(sa.select(d).where(*key)).mappings().first()
            if found is None:
                lately = sa.select(d.c.puzzle_id).where(d.c.guild_id == guild_id, d.c.day > repeat_after)
                tried = sa.select(puzzle_attempts.c.puzzle_id).where(puzzle_attempts.c.guild_id == guild_id)
                puzzle_id = connection.execute(
                    sa.select(puzzles.c.id)
                    .where(*offered_in(guild_id, game), puzzles.c.id.not_in(lately))
                    .order_by(
                        sa.case((puzzles.c.id.in_(tried), 1), else_=0),
                        sa.case((puzzles.c.guild_id.is_(None), 1), else_=0),
                        sa.func.abs(puzzles.c.mu - near),
                        puzzles.c.id,
                    )
                    .limit(1)
                ).scalar()
                if puzzle_id is None:
                    return None
                connection.execute(
                    self._store.insert(d)
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

        return await self._store.write(body)

    async def claim_daily(
        self, guild_id: int, game: str, day: int, job: str, worker: str, now: float, lease: float
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

        return await self._store.write(body)

    async def finish_daily(
        self, guild_id: int, game: str, day: int, job: str, worker: str, now: float, message_id: int | None
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
        return await self._store.write(lambda connection: connection.execute(update).rowcount == 1)

    async def release_daily(self, guild_id: int, game: str, day: int, job: str, worker: str) -> None:
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
        await self._store.write(lambda connection: connection.execute(update))

    async def solvers(self, guild_id: int, puzzle_id: int) -> tuple[list[int], int]:
        """Who solved a puzzle in this server without a mistake (first to solve first), and how many tried it."""
        a = puzzle_attempts
        where = (a.c.guild_id == guild_id, a.c.puzzle_id == puzzle_id, a.c.status != AttemptStatus.LEFT)

        def body(connection: sa.Connection) -> tuple[list[int], int]:
            solved = connection.execute(
                sa.select(a.c.user_id)
                .where(*where, a.c.status == AttemptStatus.SOLVED)
                .order_by(a.c.finished_at, a.c.id)
            ).scalars()
            tried = connection.execute(sa.select(sa.func.count()).where(*where)).scalar_one()
            return list(solved), int(tried)

        return await self._store.read(body)
