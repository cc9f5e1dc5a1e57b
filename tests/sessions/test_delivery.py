"""The outbox worker's policy (sessions/delivery.py): claim, deliver through the cog's callback, mark; retry with a
backoff; give up; and the bot's own moves delivered from the reports they produced."""

from __future__ import annotations

import os
import socket
import subprocess
import sys

import pytest

from sessions.delivery import FIRST_RETRY, LEASE, MAX_ATTEMPTS
from sessions.model import AnnouncementKind, DatabaseUnavailable, GameStatus, Notice
from sessions.service import GameService
from storage.database import Database
from tests.sessions.play import ALICE, BOB, GUILD, Clock, challenge, start


class Courier:
    """A delivery callback that keeps what it was handed: the cog's would post it on Discord."""

    def __init__(self, fail: bool = False) -> None:
        self.notices: list[Notice] = []
        self.fail = fail

    async def __call__(self, notice: Notice) -> int | None:
        self.notices.append(notice)
        if self.fail:
            raise OSError("Discord is down")
        return 10_000 + notice.id


async def test_what_is_due_is_claimed_handed_over_and_marked_once(service: GameService, db: Database) -> None:
    game_id = await start(service)  # accepted without a reply to carry it: the outbox's at once
    courier = Courier()
    assert await service.delivery.deliver_due([GUILD + 1], courier) == 0  # another process's server
    assert await service.delivery.deliver_due([GUILD], courier) == 1
    (notice,) = courier.notices
    assert notice.kind == AnnouncementKind.START and notice.game.id == game_id and notice.report is not None
    assert notice.report.state.moves == [] and notice.report.by == BOB
    assert await db.outbox.pending_for_game(game_id) == []
    stored = await db.outbox.announcement(notice.id)
    assert stored is not None and stored.message_id == 10_000 + notice.id
    assert await service.delivery.deliver_due([GUILD], courier) == 0 and len(courier.notices) == 1  # once


async def test_a_failed_delivery_is_retried_later_and_at_last_given_up(
    service: GameService, db: Database, clock: Clock
) -> None:
    game_id = await start(service)
    failing = Courier(fail=True)
    await service.delivery.deliver_due([GUILD], failing)
    (pending,) = await db.outbox.pending_for_game(game_id)
    assert pending.attempts == 1 and pending.next_attempt_at == clock.now + FIRST_RETRY
    assert await service.delivery.deliver_due([GUILD], failing) == 0 and len(failing.notices) == 1  # not due yet
    clock.now += FIRST_RETRY
    await service.delivery.deliver_due([GUILD], failing)
    (pending,) = await db.outbox.pending_for_game(game_id)
    assert pending.attempts == 2 and pending.next_attempt_at == clock.now + 2 * FIRST_RETRY  # the backoff doubles
    while len(failing.notices) < MAX_ATTEMPTS:
        clock.now += 3600
        await service.delivery.deliver_due([GUILD], failing)
    assert await db.outbox.pending_for_game(game_id) == []  # given up: the channel is gone, say
    given_up = await db.outbox.announcement(failing.notices[0].id)
    assert given_up is not None and given_up.message_id is None and given_up.delivered_at is not None
    assert given_up.last_error == repr(OSError("Discord is down"))


async def test_reports_in_hand_are_delivered_as_they_are_without_replaying_the_log(
    service: GameService, db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    game_id = await start(service)
    await service.delivery.deliver_due([GUILD], Courier())
    report = await service.turns.play(game_id, ALICE, "D4")  # no reply: as the bot's own moves are written

    async def no_log(game: int) -> list[str]:
        raise AssertionError("the log was read to rebuild a report that was in hand")

    monkeypatch.setattr(db.games, "moves", no_log)
    courier = Courier()
    assert await service.delivery.deliver_reports([report], courier) == 1
    (notice,) = courier.notices
    assert notice.report is report and notice.kind == AnnouncementKind.MOVE
    assert await db.outbox.pending_for_game(game_id) == []


async def test_a_report_another_worker_claimed_is_delivered_by_that_worker_only(
    service: GameService, db: Database, clock: Clock
) -> None:
    game_id = await start(service)
    await service.delivery.deliver_due([GUILD], Courier())
    report = await service.turns.play(game_id, ALICE, "D4")
    other, mine = Courier(), Courier()
    other_process = GameService(db, service.settings, clock=clock)
    assert await other_process.delivery.deliver_due([GUILD], other) == 1  # its round came first
    assert await service.delivery.deliver_reports([report], mine) == 0 and mine.notices == []
    assert [notice.id for notice in other.notices] == [report.announcement_id]


async def test_each_kind_of_notice_carries_what_its_message_needs(
    service: GameService, db: Database, clock: Clock
) -> None:
    declined = await challenge(service, opponent_id=201)
    await service.challenges.decline(declined.id, 201, guild_id=GUILD)
    expired = await challenge(service, opponent_id=202)
    clock.now += 901
    await service.challenges.expire_challenges()
    playing = await start(service)
    clock.now += 3600
    await service.turns.due_reminders()
    cancelled = await start(service, rated=False)  # alice and bob again: the first game is theirs too
    await service.admin.cancel(cancelled, GUILD, 999)
    courier = Courier()
    while await service.delivery.deliver_due([GUILD], courier):
        pass
    told = {(notice.kind, notice.game.id): notice for notice in courier.notices}
    closed = told[AnnouncementKind.CLOSED, declined.id]
    assert closed.by == 201 and closed.game.status == GameStatus.DECLINED
    assert told[AnnouncementKind.EXPIRY, expired.id].game.status == GameStatus.EXPIRED
    reminder = told[AnnouncementKind.REMINDER, playing]
    assert reminder.remind == ALICE and reminder.claim_at == reminder.game.last_move_at + 2 * 3600  # type: ignore[operator]
    assert told[AnnouncementKind.CANCELLED, cancelled].was == GameStatus.ACTIVE
    assert all(notice.report is None for notice in courier.notices if not notice.kind.reports)


async def three_due(service: GameService) -> list[int]:
    """Three accepted games whose first boards no reply carried: three announcements due, oldest first."""
    ids = []
    for opponent in (BOB, 201, 202):
        row = await challenge(service, opponent_id=opponent)
        ids.append((await service.open_challenges.accept(row.id, opponent, guild_id=GUILD)).announcement_id or 0)
    return ids


async def test_a_mark_that_fails_never_stops_the_round_and_is_written_first_next_round(
    service: GameService, db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 23: one failed mark aborted the whole round, leaving the rows it had claimed to wait out their lease.
    Now the round goes on, and the delivered row is marked later, never delivered (posted) again."""
    first, second, third = await three_due(service)
    original = db.outbox.mark_delivered

    async def first_mark_fails(announcement_id: int, message_id: int | None, now: float | None = None) -> bool:
        if announcement_id == first:
            raise DatabaseUnavailable("read-only", "attempt to write a readonly database")
        return await original(announcement_id, message_id, now)

    monkeypatch.setattr(db.outbox, "mark_delivered", first_mark_fails)
    courier = Courier()
    assert await service.delivery.deliver_due([GUILD], courier) == 3
    assert [notice.id for notice in courier.notices] == [first, second, third]  # the round went on
    assert [row.id for row in await db.outbox.pending_for_game(1)] == [first]  # delivered, its mark owed
    monkeypatch.undo()
    assert await service.delivery.deliver_due([GUILD], courier) == 0
    assert len(courier.notices) == 3  # not delivered again
    marked = await db.outbox.announcement(first)
    assert marked is not None and marked.delivered_at is not None and marked.message_id == 10_000 + first


async def test_a_round_the_database_fails_under_gives_back_what_it_did_not_try(
    service: GameService, db: Database, clock: Clock
) -> None:
    """Rows a round did not try are released at once, without counting an attempt: another worker takes them
    now, not after the lease."""
    _, second, third = await three_due(service)

    class FailsOnTheSecond(Courier):
        async def __call__(self, notice: Notice) -> int | None:
            if notice.id == second:  # building its message read the database, which is gone
                self.notices.append(notice)
                raise DatabaseUnavailable("down", "connection refused")
            return await super().__call__(notice)

    assert await service.delivery.deliver_due([GUILD], FailsOnTheSecond()) == 1
    untried = [row for row in await db.outbox.pending_for_game(2) + await db.outbox.pending_for_game(3)]
    assert [(row.id, row.attempts, row.claimed_by) for row in untried] == [(second, 0, None), (third, 0, None)]
    other = Courier()
    assert await GameService(db, service.settings, clock=clock).delivery.deliver_due([GUILD], other) == 2  # at once
    assert [notice.id for notice in other.notices] == [second, third]


async def test_a_failed_delivery_whose_release_fails_lets_its_lease_lapse_and_the_round_go_on(
    service: GameService, db: Database, clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    first, second, third = await three_due(service)

    async def release(announcement_id: int, error: str, retry_at: float) -> bool:
        raise DatabaseUnavailable("locked", "database is locked")

    monkeypatch.setattr(db.outbox, "release", release)

    class FailsOnTheFirst(Courier):
        async def __call__(self, notice: Notice) -> int | None:
            self.notices.append(notice)
            if notice.id == first:
                raise OSError("Discord is down")
            return 10_000 + notice.id

    courier = FailsOnTheFirst()
    assert await service.delivery.deliver_due([GUILD], courier) == 2
    assert [notice.id for notice in courier.notices] == [first, second, third]
    monkeypatch.undo()
    assert await service.delivery.deliver_due([GUILD], Courier()) == 0  # still under its lease
    clock.now += LEASE
    retried = Courier()
    assert await service.delivery.deliver_due([GUILD], retried) == 1 and [n.id for n in retried.notices] == [first]


async def test_a_round_whose_owed_marks_cannot_be_written_claims_nothing(
    service: GameService, db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    first, _, _ = await three_due(service)
    calls: list[str] = []
    original = db.outbox.mark_delivered

    async def fails(announcement_id: int, message_id: int | None, now: float | None = None) -> bool:
        if announcement_id == first:
            raise DatabaseUnavailable("full", "database or disk is full")
        return await original(announcement_id, message_id, now)

    monkeypatch.setattr(db.outbox, "mark_delivered", fails)
    await service.delivery.deliver_due([GUILD], Courier())

    async def still_full(deliveries: object, now: float) -> None:
        calls.append("mark")
        raise DatabaseUnavailable("full", "database or disk is full")

    monkeypatch.setattr(db.outbox, "mark_all_delivered", still_full)
    with pytest.raises(DatabaseUnavailable):  # the Announcer's loop tries again next round, quietly
        await service.delivery.deliver_due([GUILD], Courier())
    assert calls == ["mark"]


async def test_claims_of_a_dead_process_of_this_host_are_given_back_at_start_up(
    service: GameService, db: Database, clock: Clock
) -> None:
    """A bot killed during a round left its claims; the restarted bot delivers them at once instead of after the
    lease. A live worker's claims (another process running now) are left alone."""
    first, second, third = await three_due(service)
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    host = socket.gethostname()
    assert [a.id for a in await db.outbox.claim_pending(f"{host}:{dead.pid}:dead0001", clock.now, LEASE, 2)] == [
        first,
        second,
    ]
    alive = f"{host}:{os.getpid()}:alive001"  # this very process: running
    assert [a.id for a in await db.outbox.claim_pending(alive, clock.now, LEASE, 1)] == [third]
    restarted = Courier()
    assert await GameService(db, service.settings, clock=clock).delivery.deliver_due([GUILD], restarted) == 2
    assert [notice.id for notice in restarted.notices] == [first, second]
    assert await db.outbox.claiming_workers(clock.now) == [alive]
