"""What actions announce, and this process's own replies (sessions/announcements.py)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from sessions.service import GameService, ReplyTo, UserError
from storage.database import Database
from tests.sessions.play import ALICE, BOB, CAROL, CHANNEL, GUILD, Clock, challenge, start


async def test_an_action_waits_for_the_last_moves_reply_then_says_it_is_still_being_announced(
    db: Database,
    service: GameService,
) -> None:
    game_id = await start(service)
    reply = ReplyTo(application_id=1, token="t", created_at=0.0)
    report = await service.play(game_id, ALICE, "D4", reply=reply)  # its reply never marks it delivered
    with pytest.raises(UserError, match="still being announced"):
        await service.play(game_id, BOB, "D6")
    assert await db.moves(game_id) == ["D4"]
    service.delivered(game_id, report.announcement_id or 0, 99)
    await service.play(game_id, BOB, "D6")  # once announced, the game goes on
    assert await db.moves(game_id) == ["D4", "D6"]
    await service.flush_deliveries()
    delivered = await db.announcement(report.announcement_id or 0)
    assert delivered is not None and delivered.message_id == 99 and delivered.delivered_at is not None


async def test_the_next_action_knows_the_last_reply_landed_without_asking_the_outbox(
    service: GameService, db: Database, clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    game_id = await start(service)
    reply = ReplyTo(application_id=1, token="t", created_at=0.0)
    found = (
        await service.find_game("iago", ALICE, GUILD, CHANNEL),
        await service.find_game("iago", BOB, GUILD, CHANNEL),
    )
    first = await service.play(game_id, ALICE, "D4", reply=reply, known=found[0])
    assert first.game.ply == 1
    asked: list[int] = []

    async def pending_for_game(game: int) -> list[Any]:
        asked.append(game)
        return []

    monkeypatch.setattr(db, "pending_for_game", pending_for_game)
    with pytest.raises(UserError, match="still being announced"):  # its reply is not out yet: this process knows
        await service.play(game_id, BOB, "D6", known=await service.find_game("iago", BOB, GUILD, CHANNEL))
    service.delivered(game_id, first.announcement_id or 0, 99)
    with pytest.raises(UserError, match="not your turn"):  # the row found before the move is stale: read again
        await service.play(game_id, ALICE, "E4", known=found[0])
    await service.play(game_id, BOB, "D6", known=await service.find_game("iago", BOB, GUILD, CHANNEL))
    assert asked == [] and await db.moves(game_id) == ["D4", "D6"]
    # A process that did not write the last action (a restart) asks the outbox, which still owes its reply.
    restarted = GameService(db, service.settings, clock=clock)
    second = await service.play(game_id, ALICE, "E4", reply=reply)
    monkeypatch.undo()
    with pytest.raises(UserError, match="still being announced"):
        await restarted.play(game_id, BOB, "F5")
    clock.now += service.settings.announce_grace + 1  # past the grace, the outbox worker owns it: go on
    await restarted.play(game_id, BOB, (await restarted.state(second.game)).legal_moves()[0])
    assert len(await db.moves(game_id)) == 4


async def test_marks_of_replies_sent_together_are_written_together(service: GameService, db: Database) -> None:
    ids = []
    for opponent in (BOB, CAROL, 104):
        row = await challenge(service, opponent_id=opponent)
        ids.append((await service.accept(row.id, opponent, guild_id=GUILD)).announcement_id or 0)
    calls: list[int] = []
    original = db.mark_all_delivered

    async def counted(deliveries: Any, now: float) -> None:
        calls.append(len(deliveries))
        await original(deliveries, now)

    db.mark_all_delivered = counted  # type: ignore[method-assign]
    for n, announcement_id in enumerate(ids):
        service.delivered(None, announcement_id, 1000 + n)
        if n == 0:
            await asyncio.sleep(0)  # its write begins
    await service.flush_deliveries()
    assert calls == [1, 2]  # the first at once; the two sent while it was being written, together
    for n, announcement_id in enumerate(ids):
        row = await db.announcement(announcement_id)
        assert row is not None and row.message_id == 1000 + n and row.delivered_at is not None


THREAD = 555_654_321_098_765_432


async def test_what_a_game_still_owes_follows_it_into_its_thread(service: GameService, db: Database) -> None:
    row = await challenge(service)
    reply = ReplyTo(application_id=1, token="t", created_at=0.0)
    started = await service.accept(row.id, BOB, guild_id=GUILD, reply=reply)  # its reply never came
    game = await service.follow_thread(row.id, THREAD)
    assert game.thread_id == THREAD and game.announce_channel_id == THREAD
    (owed,) = await db.pending_for_game(row.id)
    assert owed.id == started.announcement_id and owed.channel_id == THREAD
    assert owed.payload["reply"] is None  # the click now answers in the channel: the board is posted in the thread
    service.delivered(row.id, owed.id, 77)  # that post
    report = await service.play(row.id, ALICE, "D4")
    announced = await db.announcement(report.announcement_id or 0)
    assert announced is not None and announced.channel_id == THREAD
