"""The transactional outbox: announcements written in the same transaction as the action they announce, then
claimed, delivered and, on failure, released for a later retry. See docs/storage.md for the protocol."""

from __future__ import annotations

import time
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import sqlalchemy as sa

from storage.schema import announcements, games
from storage.store import Store


@dataclass(frozen=True)
class Announce:
    """A message an action owes: written with the action, delivered later. ``ply`` defaults to the game's ply
    once the action is written."""

    kind: str  # 'move', 'finish', 'accept', 'reminder', 'expiry', ...
    payload: dict[str, Any] = field(default_factory=dict)
    ply: int | None = None
    delay: float = 0.0  # seconds before a worker may take it: the acting process's own reply goes first


AnnounceArg = Announce | Mapping[str, Any] | Sequence[Announce | Mapping[str, Any]] | None


@dataclass(frozen=True)
class Supersede:
    """An owed announcement that the action's own replaces, if nobody is delivering it: it is then marked
    delivered (with no message) and ``instead`` is written in place of the action's announcement, in the same
    transaction. A worker that claimed it first keeps it, and the action's own announcement is written."""

    announcement_id: int
    instead: Announce


def supersede(connection: sa.Connection, announcement_id: int, now: float) -> bool:
    """Inside the caller's transaction: retire an undelivered, unclaimed announcement; False if it was taken."""
    a = announcements
    retire = (
        sa.update(a)
        .where(
            a.c.id == announcement_id,
            a.c.delivered_at.is_(None),
            sa.or_(a.c.claimed_until.is_(None), a.c.claimed_until <= now),
        )
        .values(delivered_at=now, message_id=None, claimed_by=None, claimed_until=None)
    )
    return connection.execute(retire).rowcount == 1


def as_announcements(announce: AnnounceArg) -> list[Announce]:
    """One announcement, a list of them, or None; a mapping is ``{"kind": ..., "payload": ..., "ply": ...}``."""
    if announce is None:
        return []
    items = [announce] if isinstance(announce, Announce | Mapping) else list(announce)
    return [item if isinstance(item, Announce) else Announce(**item) for item in items]


@dataclass(frozen=True)
class AnnouncementRow:
    id: int
    game_id: int | None  # None: a server's announcement about no one game (a tournament's, a season's)
    guild_id: int
    channel_id: int
    kind: str
    ply: int | None
    payload: dict[str, Any]
    created_at: float
    delivered_at: float | None
    claimed_by: str | None
    claimed_until: float | None
    attempts: int
    next_attempt_at: float
    message_id: int | None
    last_error: str | None

    @classmethod
    def from_sql(cls, row: sa.RowMapping) -> AnnouncementRow:
        return cls(**{name: row[name] for name in cls.__dataclass_fields__})


def insert_announcements(
    connection: sa.Connection,
    *,
    game_id: int | None,
    guild_id: int,
    channel_id: int,
    ply: int | None,
    announce: AnnounceArg,
    now: float,
) -> tuple[int, ...]:
    """Write ``announce`` for a game (None: for the server) inside the caller's transaction; returns the new ids in
    order."""
    ids = []
    for item in as_announcements(announce):
        values = dict(
            game_id=game_id,
            guild_id=guild_id,
            channel_id=channel_id,
            kind=item.kind,
            ply=ply if item.ply is None else item.ply,
            payload=item.payload,
            created_at=now,
            next_attempt_at=now + item.delay,
        )
        ids.append(connection.execute(INSERT_ANNOUNCEMENT, values).scalar_one())
    return tuple(ids)


# Built once (see storage/games.py): the outbox's statements of every move.
INSERT_ANNOUNCEMENT = sa.insert(announcements).values(attempts=0).returning(announcements.c.id)
MARK_DELIVERED = (
    sa.update(announcements)
    .where(announcements.c.id == sa.bindparam("announcement_id"), announcements.c.delivered_at.is_(None))
    .values(delivered_at=sa.bindparam("at"), message_id=sa.bindparam("message"), claimed_by=None, claimed_until=None)
)


class OutboxRepository:
    """The announcements still owed and their delivery: what the announcements, delivery and admin parts read and
    write of the outbox (the announcements themselves are written by the actions' own transactions)."""

    def __init__(self, store: Store) -> None:
        self._store = store

    async def announcement(self, announcement_id: int) -> AnnouncementRow | None:
        rows = await self._store.rows(sa.select(announcements).where(announcements.c.id == announcement_id))
        return AnnouncementRow.from_sql(rows[0]) if rows else None

    async def announce(
        self, game_id: int, guild_id: int, channel_id: int, ply: int, announce: Announce, now: float
    ) -> int:
        """An announcement about a game that no action of it writes (the bot's apology that it cannot move now),
        in a transaction of its own; returns its id."""

        def body(connection: sa.Connection) -> int:
            ids = insert_announcements(
                connection, game_id=game_id, guild_id=guild_id, channel_id=channel_id, ply=ply, announce=announce,
                now=now,
            )  # fmt: skip
            return ids[0]

        return await self._store.write(body)

    async def pending_for_game(self, game_id: int) -> list[AnnouncementRow]:
        """A game's undelivered announcements, oldest first."""
        rows = await self._store.rows(
            sa.select(announcements)
            .where(announcements.c.game_id == game_id, announcements.c.delivered_at.is_(None))
            .order_by(announcements.c.id)
        )
        return [AnnouncementRow.from_sql(row) for row in rows]

    async def claim_pending(
        self,
        worker_id: str,
        now: float,
        lease_s: float,
        limit: int,
        guild_filter: Iterable[int] | None = None,
        ids: Iterable[int] | None = None,
    ) -> list[AnnouncementRow]:
        """Claim up to ``limit`` undelivered announcements that are due (``next_attempt_at <= now``) and not
        claimed by anyone else, or whose claim has lapsed: they are the caller's until ``now + lease_s``. Oldest
        first; of these servers, or only these announcements, when given. Two workers never get the same row:
        PostgreSQL skips rows another claim has locked (``SKIP LOCKED``); SQLite runs the claim under its write
        lock."""
        a = announcements
        due = (
            sa.select(a.c.id)
            .where(
                a.c.delivered_at.is_(None),
                a.c.next_attempt_at <= now,
                sa.or_(a.c.claimed_until.is_(None), a.c.claimed_until <= now),
            )
            .order_by(a.c.id)
            .limit(limit)
            .with_for_update(skip_locked=True)
        )
        if guild_filter is not None:
            due = due.where(a.c.guild_id.in_(list(guild_filter)))
        if ids is not None:
            due = due.where(a.c.id.in_(list(ids)))
        claim = (
            sa.update(a)
            .where(a.c.id.in_(due.scalar_subquery()))
            .values(claimed_by=worker_id, claimed_until=now + lease_s)
            .returning(*a.c)
        )
        rows = await self._store.write(
            lambda connection: [AnnouncementRow.from_sql(row) for row in connection.execute(claim).mappings()]
        )
        return sorted(rows, key=lambda row: row.id)  # RETURNING promises no order

    async def mark_delivered(self, announcement_id: int, message_id: int | None, now: float | None = None) -> bool:
        """Record a delivery. False if it was already delivered (by a worker whose lease had lapsed, say): the
        caller may then delete its duplicate message."""
        params = {"announcement_id": announcement_id, "message": message_id, "at": time.time() if now is None else now}
        return await self._store.write(lambda connection: connection.execute(MARK_DELIVERED, params).rowcount == 1)

    async def mark_all_delivered(self, deliveries: Sequence[tuple[int, int | None]], now: float) -> None:
        """Record several deliveries (announcement id, message id) in one transaction: the replies that went out
        while the previous batch was being written."""
        params = [{"announcement_id": ident, "message": message, "at": now} for ident, message in deliveries]
        if params:
            await self._store.write(lambda connection: connection.execute(MARK_DELIVERED, params))

    async def release(self, announcement_id: int, error: str, retry_at: float) -> bool:
        """A failed delivery: count the attempt, keep the error, give up the claim and try again at ``retry_at``
        (the caller computes its backoff). False if it was delivered meanwhile."""
        update = (
            sa.update(announcements)
            .where(announcements.c.id == announcement_id, announcements.c.delivered_at.is_(None))
            .values(
                attempts=announcements.c.attempts + 1,
                last_error=error[:2000],
                next_attempt_at=retry_at,
                claimed_by=None,
                claimed_until=None,
            )
        )
        return await self._store.write(lambda connection: connection.execute(update).rowcount == 1)

    async def claiming_workers(self, now: float) -> list[str]:
        """The workers that hold a claim on an undelivered announcement now (their lease not lapsed)."""
        a = announcements
        rows = await self._store.rows(
            sa.select(a.c.claimed_by)
            .where(a.c.delivered_at.is_(None), a.c.claimed_by.is_not(None), a.c.claimed_until > now)
            .distinct()
        )
        return sorted(row["claimed_by"] for row in rows)

    async def make_due(self, announcement_ids: Iterable[int], now: float) -> int:
        """Make these undelivered, unclaimed announcements due now (one held for a reply that will not come)."""
        ids = list(announcement_ids)
        if not ids:
            return 0
        a = announcements
        update = (
            sa.update(a)
            .where(
                a.c.id.in_(ids),
                a.c.delivered_at.is_(None),
                sa.or_(a.c.claimed_until.is_(None), a.c.claimed_until <= now),
            )
            .values(next_attempt_at=now)
        )
        return await self._store.write(lambda connection: connection.execute(update).rowcount)

    async def release_claims(self, worker_id: str, announcement_ids: Iterable[int] | None = None) -> int:
        """Give back ``worker_id``'s claims on undelivered announcements (those of ``announcement_ids``, or all of
        them) without counting an attempt: they are due again at once, for any worker. For a round that stops
        before trying them (the database failed mid-round, the process is shutting down), so they need not wait
        out the lease. Rows delivered meanwhile, or claimed since by another worker, are left alone. Returns how
        many were released."""
        a = announcements
        where = [a.c.claimed_by == worker_id, a.c.delivered_at.is_(None)]
        if announcement_ids is not None:
            ids = list(announcement_ids)
            if not ids:
                return 0
            where.append(a.c.id.in_(ids))
        update = sa.update(a).where(*where).values(claimed_by=None, claimed_until=None)
        return await self._store.write(lambda connection: connection.execute(update).rowcount)

    async def set_thread(self, game_id: int, thread_id: int, follow: Collection[str]) -> None:
        """The game is played in its own thread from now on: its announcements still owed of the kinds in
        ``follow`` (the service's rule) go there too (the accepted game's first board was written to the outbox
        before the thread existed). They lose the interaction they were to be delivered by: that reply now
        answers in the channel, not with the board, so a worker must post the board in the thread rather than
        find that reply and take it for the board."""
        owed = (
            announcements.c.game_id == game_id,
            announcements.c.delivered_at.is_(None),
            announcements.c.kind.in_(list(follow)),
        )

        def body(connection: sa.Connection) -> None:
            connection.execute(sa.update(games).where(games.c.id == game_id).values(thread_id=thread_id))
            found = connection.execute(sa.select(announcements.c.id, announcements.c.payload).where(*owed))
            for announcement_id, payload in found.all():
                connection.execute(
                    sa.update(announcements)
                    .where(announcements.c.id == announcement_id)
                    .values(channel_id=thread_id, payload={**payload, "reply": None})
                )

        await self._store.write(body)
