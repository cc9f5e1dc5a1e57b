"""Queries for mining puzzles from finished games: claiming a game to mine and storing what it gave. Every claim is
one conditional write with a lease, as the outbox's are, so two processes never mine one game; a worker that dies
lets its lease lapse. No policy here (which games are worth mining, the searches): that is the service's
(sessions/puzzles/mining.py)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import sqlalchemy as sa

from storage.rows import GameRow, GameStatus
from storage.schema import games, puzzle_mining, puzzles
from storage.store import Store, insert_for

CHUNK = 500  # positions looked up per statement (SQLite's bound parameters)


class PuzzleMiningRepository:
    """What puzzle mining reads and writes: the finished games to mine, and the puzzles they gave."""

    def __init__(self, store: Store) -> None:
        self._store = store

    async def insert_puzzles(self, rows: Sequence[dict[str, Any]], now: float) -> int:
        """Store new puzzles (columns of ``puzzles`` but the id and counters); a position stored already is
        skipped. Returns how many were new."""
        return await self._store.write(lambda connection: _insert_puzzles(connection, rows, now))

    async def store_shipped(self, rows: Sequence[dict[str, Any]], now: float) -> tuple[int, int]:
        """Store the shipped set (rows as :meth:`insert_puzzles` takes them, ``themes`` included), in one
        transaction: the positions not stored yet are inserted; a stored one takes the row's themes, and its rating
        too while nobody has tried it (a re-mined set's rating; tries have moved it since otherwise). Returns how
        many were new and how many changed."""
        p = puzzles

        def body(connection: sa.Connection) -> tuple[int, int]:
            keys = [row["position_key"] for row in rows]
            stored: dict[str, sa.RowMapping] = {}
            for start in range(0, len(keys), CHUNK):
                query = sa.select(p.c.id, p.c.position_key, p.c.themes, p.c.mu, p.c.attempts).where(
                    p.c.position_key.in_(keys[start : start + CHUNK])
                )
                stored.update((found["position_key"], found) for found in connection.execute(query).mappings())
            fresh = [
                {**row, "attempts": 0, "solved": 0, "created_at": now}
                for row in rows
                if row["position_key"] not in stored
            ]
            new = 0
            if fresh:  # one statement for all (batched by SQLAlchemy): a first start stores a thousand at once
                statement = (
                    insert_for(connection.dialect.name, p)
                    .on_conflict_do_nothing(index_elements=[p.c.position_key])
                    .returning(p.c.id)
                )
                new = len(connection.execute(statement, fresh).all())
            changed = 0
            for row in rows:
                found = stored.get(row["position_key"])
                if found is None:
                    continue
                values: dict[str, Any] = {}
                if list(found["themes"] or ()) != list(row["themes"]):
                    values["themes"] = row["themes"]
                if found["attempts"] == 0 and found["mu"] != row["mu"]:
                    values["mu"] = row["mu"]
                if values:
                    connection.execute(sa.update(p).where(p.c.id == found["id"]).values(values))
                    changed += 1
            return new, changed

        return await self._store.write(body)

    async def claim_game_to_mine(
        self, worker: str, now: float, lease: float, min_ply: int, guild_ids: Sequence[int] | None = None
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
                    self._store.insert(m)
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

        return await self._store.write(body)

    async def finish_mining(self, game_id: int, worker: str, rows: Sequence[dict[str, Any]], now: float) -> int | None:
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
            return _insert_puzzles(connection, rows, now)

        return await self._store.write(body)


def _insert_puzzles(connection: sa.Connection, rows: Sequence[dict[str, Any]], now: float) -> int:
    new = 0
    for row in rows:
        result = connection.execute(
            insert_for(connection.dialect.name, puzzles)
            .values(**row, attempts=0, solved=0, created_at=now)
            .on_conflict_do_nothing(index_elements=[puzzles.c.position_key])
        )
        new += result.rowcount
    return new
