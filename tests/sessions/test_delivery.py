"""The outbox worker's policy (sessions/delivery.py): claim, deliver through the cog's callback, mark; retry with a
backoff; give up; and the bot's own moves delivered from the reports they produced."""

from __future__ import annotations

import pytest

from sessions.delivery import FIRST_RETRY, MAX_ATTEMPTS, Notice
from sessions.service import GameService
from sessions.vocabulary import AnnouncementKind, GameStatus
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
    assert await service.deliver_due([GUILD + 1], courier) == 0  # another process's server
    assert await service.deliver_due([GUILD], courier) == 1
    (notice,) = courier.notices
    assert notice.kind == AnnouncementKind.START and notice.game.id == game_id and notice.report is not None
    assert notice.report.state.moves == [] and notice.report.by == BOB
    assert await db.pending_for_game(game_id) == []
    stored = await db.announcement(notice.id)
    assert stored is not None and stored.message_id == 10_000 + notice.id
    assert await service.deliver_due([GUILD], courier) == 0 and len(courier.notices) == 1  # once


async def test_a_failed_delivery_is_retried_later_and_at_last_given_up(
    service: GameService, db: Database, clock: Clock
) -> None:
    game_id = await start(service)
    failing = Courier(fail=True)
    await service.deliver_due([GUILD], failing)
    (pending,) = await db.pending_for_game(game_id)
    assert pending.attempts == 1 and pending.next_attempt_at == clock.now + FIRST_RETRY
    assert await service.deliver_due([GUILD], failing) == 0 and len(failing.notices) == 1  # not due yet
    clock.now += FIRST_RETRY
    await service.deliver_due([GUILD], failing)
    (pending,) = await db.pending_for_game(game_id)
    assert pending.attempts == 2 and pending.next_attempt_at == clock.now + 2 * FIRST_RETRY  # the backoff doubles
    while len(failing.notices) < MAX_ATTEMPTS:
        clock.now += 3600
        await service.deliver_due([GUILD], failing)
    assert await db.pending_for_game(game_id) == []  # given up: the channel is gone, say
    given_up = await db.announcement(failing.notices[0].id)
    assert given_up is not None and given_up.message_id is None and given_up.delivered_at is not None
    assert given_up.last_error == repr(OSError("Discord is down"))


async def test_reports_in_hand_are_delivered_as_they_are_without_replaying_the_log(
    service: GameService, db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    game_id = await start(service)
    await service.deliver_due([GUILD], Courier())
    report = await service.play(game_id, ALICE, "D4")  # no reply: as the bot's own moves are written

    async def no_log(game: int) -> list[str]:
        raise AssertionError("the log was read to rebuild a report that was in hand")

    monkeypatch.setattr(db, "moves", no_log)
    courier = Courier()
    assert await service.deliver_reports([report], courier) == 1
    (notice,) = courier.notices
    assert notice.report is report and notice.kind == AnnouncementKind.MOVE
    assert await db.pending_for_game(game_id) == []


async def test_a_report_another_worker_claimed_is_delivered_by_that_worker_only(
    service: GameService, db: Database, clock: Clock
) -> None:
    game_id = await start(service)
    await service.deliver_due([GUILD], Courier())
    report = await service.play(game_id, ALICE, "D4")
    other, mine = Courier(), Courier()
    other_process = GameService(db, service.settings, clock=clock)
    assert await other_process.deliver_due([GUILD], other) == 1  # its round came first
    assert await service.deliver_reports([report], mine) == 0 and mine.notices == []
    assert [notice.id for notice in other.notices] == [report.announcement_id]


async def test_each_kind_of_notice_carries_what_its_message_needs(
    service: GameService, db: Database, clock: Clock
) -> None:
    declined = await challenge(service, opponent_id=201)
    await service.decline(declined.id, 201, guild_id=GUILD)
    expired = await challenge(service, opponent_id=202)
    clock.now += 901
    await service.expire_challenges()
    playing = await start(service)
    clock.now += 3600
    await service.due_reminders()
    cancelled = await start(service, rated=False)  # alice and bob again: the first game is theirs too
    await service.admin.cancel(cancelled, GUILD, 999)
    courier = Courier()
    while await service.deliver_due([GUILD], courier):
        pass
    told = {(notice.kind, notice.game.id): notice for notice in courier.notices}
    closed = told[AnnouncementKind.CLOSED, declined.id]
    assert closed.by == 201 and closed.game.status == GameStatus.DECLINED
    assert told[AnnouncementKind.EXPIRY, expired.id].game.status == GameStatus.EXPIRED
    reminder = told[AnnouncementKind.REMINDER, playing]
    assert reminder.remind == ALICE and reminder.claim_at == reminder.game.last_move_at + 2 * 3600  # type: ignore[operator]
    assert told[AnnouncementKind.CANCELLED, cancelled].was == GameStatus.ACTIVE
    assert all(notice.report is None for notice in courier.notices if not notice.kind.reports)
