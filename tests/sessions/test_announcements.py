"""What actions announce, and this process's own replies (sessions/announcements.py)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from sessions.model import DatabaseUnavailable, ReplyTo
from sessions.service import GameService
from storage.database import Database
from tests.sessions.play import ALICE, BOB, CAROL, CHANNEL, GUILD, Clock, challenge, start


async def still_waiting(task: asyncio.Task[Any]) -> bool:
    """Whether ``task`` is still waiting after a moment (a bound on the look, not a timing assertion)."""
    await asyncio.sleep(0.2)
    return not task.done()


async def test_an_action_waits_for_the_last_moves_reply_to_be_on_its_way_then_goes_on(
    db: Database,
    service: GameService,
) -> None:
    """The order of announcements: the next action waits while the last move's own reply is not yet sent. It is
    never refused for it (issue 23: a slow Discord confirms late): once sent, or after a moment in any case, it
    goes on, and a reply that truly failed is the outbox's."""
    game_id = await start(service)
    reply = ReplyTo(application_id=1, token="t", created_at=0.0)
    report = await service.turns.play(game_id, ALICE, "D4", reply=reply)
    answering = asyncio.create_task(service.turns.play(game_id, BOB, "D6"))
    assert await still_waiting(answering)  # the reply to D4 is not on its way yet
    service.announcements.sending(game_id, report.announcement_id or 0)  # now it is: Discord takes it in the order sent
    await answering
    assert await db.games.moves(game_id) == ["D4", "D6"]
    # A reply that never even goes out: the next action waits a moment, then is played all the same.
    second = await service.turns.play(game_id, ALICE, "E4", reply=reply)
    await service.turns.play(game_id, BOB, (await service.finder.state(second.game)).legal_moves()[0])
    assert len(await db.games.moves(game_id)) == 4
    owed = [pending.id for pending in await db.outbox.pending_for_game(game_id)]
    assert report.announcement_id in owed and second.announcement_id in owed  # the outbox's to deliver


async def test_the_next_action_knows_the_last_reply_landed_without_asking_the_outbox(
    service: GameService, db: Database, clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    game_id = await start(service)
    reply = ReplyTo(application_id=1, token="t", created_at=0.0)
    found = (
        await service.finder.find_game("iago", ALICE, GUILD, CHANNEL),
        await service.finder.find_game("iago", BOB, GUILD, CHANNEL),
    )
    first = await service.turns.play(game_id, ALICE, "D4", reply=reply, known=found[0])
    assert first.game.ply == 1
    asked: list[int] = []

    async def pending_for_game(game: int) -> list[Any]:
        asked.append(game)
        return []

    monkeypatch.setattr(db.outbox, "pending_for_game", pending_for_game)
    known = await service.finder.find_game("iago", BOB, GUILD, CHANNEL)
    answering = asyncio.create_task(service.turns.play(game_id, BOB, "D6", known=known))
    assert await still_waiting(answering)  # its reply is not out yet: this process knows
    service.announcements.delivered(game_id, first.announcement_id or 0, 99)
    await answering
    service.announcements.delivered(
        game_id, (await service.turns.play(game_id, ALICE, "E4", known=found[0])).announcement_id or 0, 98
    )
    # the row found before D4 was stale: it was read again (else the commit's ply check would have refused E4)
    assert asked == [] and await db.games.moves(game_id) == ["D4", "D6", "E4"]
    # A process that did not write the last action (a restart) asks the outbox, which still owes its reply.
    restarted = GameService(db, service.settings, clock=clock)
    state = await service.finder.state(await service.finder.game(game_id))
    second = await service.turns.play(game_id, BOB, state.legal_moves()[0], reply=reply)
    monkeypatch.undo()
    move = (await restarted.finder.state(second.game)).legal_moves()[0]
    answering = asyncio.create_task(restarted.turns.play(game_id, ALICE, move))
    assert await still_waiting(answering)
    clock.now += service.settings.announce_grace + 1  # past the grace, the outbox worker owns it: go on
    await answering
    assert len(await db.games.moves(game_id)) == 5 and asked == []


async def test_marks_that_meet_an_unavailable_database_are_written_later_never_dropped(
    service: GameService, db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    game_id = await start(service)
    reply = ReplyTo(application_id=1, token="t", created_at=0.0)
    report = await service.turns.play(game_id, ALICE, "D4", reply=reply)
    attempts: list[int] = []
    original = db.outbox.mark_all_delivered

    async def failing_twice(deliveries: Any, now: float) -> None:
        attempts.append(len(deliveries))
        if len(attempts) <= 2:
            raise DatabaseUnavailable("locked", "database is locked")
        await original(deliveries, now)

    monkeypatch.setattr(db.outbox, "mark_all_delivered", failing_twice)
    monkeypatch.setattr("sessions.announcements.MARK_RETRY_FIRST", 0.01)
    service.announcements.delivered(game_id, report.announcement_id or 0, 99)
    await service.announcements.flush()
    assert attempts == [1, 1, 1]  # the same batch, again until written
    row = await db.outbox.announcement(report.announcement_id or 0)
    assert row is not None and row.message_id == 99 and row.delivered_at is not None


async def test_closing_waits_for_unwritten_marks_only_so_long(
    service: GameService, db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With the database down at shutdown the marks are left to the outbox worker (it finds each reply through
    its interaction): closing does not hang."""
    game_id = await start(service)
    report = await service.turns.play(game_id, ALICE, "D4", reply=ReplyTo(application_id=1, token="t", created_at=0.0))

    async def down(deliveries: Any, now: float) -> None:
        raise DatabaseUnavailable("down", "connection refused")

    monkeypatch.setattr(db.outbox, "mark_all_delivered", down)
    service.announcements.delivered(game_id, report.announcement_id or 0, 99)
    await service.announcements.flush(0.3)
    monkeypatch.undo()
    assert report.announcement_id in [row.id for row in await db.outbox.pending_for_game(game_id)]


async def test_marks_of_replies_sent_together_are_written_together(service: GameService, db: Database) -> None:
    ids = []
    for opponent in (BOB, CAROL, 104):
        row = await challenge(service, opponent_id=opponent)
        ids.append((await service.open_challenges.accept(row.id, opponent, guild_id=GUILD)).announcement_id or 0)
    calls: list[int] = []
    original = db.outbox.mark_all_delivered

    async def counted(deliveries: Any, now: float) -> None:
        calls.append(len(deliveries))
        await original(deliveries, now)

    db.outbox.mark_all_delivered = counted  # type: ignore[method-assign]
    for n, announcement_id in enumerate(ids):
        service.announcements.delivered(None, announcement_id, 1000 + n)
        if n == 0:
            await asyncio.sleep(0)  # its write begins
    await service.announcements.flush()
    assert calls == [1, 2]  # the first at once; the two sent while it was being written, together
    for n, announcement_id in enumerate(ids):
        row = await db.outbox.announcement(announcement_id)
        assert row is not None and row.message_id == 1000 + n and row.delivered_at is not None


THREAD = 555_654_321_098_765_432


async def test_what_a_game_still_owes_follows_it_into_its_thread(service: GameService, db: Database) -> None:
    row = await challenge(service)
    reply = ReplyTo(application_id=1, token="t", created_at=0.0)
    started = await service.open_challenges.accept(row.id, BOB, guild_id=GUILD, reply=reply)  # its reply never came
    game = await service.announcements.follow_thread(row.id, THREAD)
    assert game.thread_id == THREAD and game.announce_channel_id == THREAD
    (owed,) = await db.outbox.pending_for_game(row.id)
    assert owed.id == started.announcement_id and owed.channel_id == THREAD
    assert owed.payload["reply"] is None  # the click now answers in the channel: the board is posted in the thread
    service.announcements.delivered(row.id, owed.id, 77)  # that post
    report = await service.turns.play(row.id, ALICE, "D4")
    announced = await db.outbox.announcement(report.announcement_id or 0)
    assert announced is not None and announced.channel_id == THREAD
