"""The computer player (sessions/computer.py): the bot's own turns, committed and reported one action at a time,
found again after a restart; takebacks and hints. The searches run in the real worker pool, on a tiny budget."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from sessions.service import GameService, Settings, UserError
from sessions.vocabulary import AnnouncementKind, MoveKind, ReportKind
from storage.outbox import AnnouncementRow
from tests.sessions.play import ALICE, CHANNEL, GUILD, start

BOT = 999


@pytest.fixture
async def service(database_url: str) -> AsyncIterator[GameService]:
    """A service of its own, closed with its search workers."""
    service = await GameService.open(database_url, Settings(ai_move_seconds=0.05))
    yield service
    await service.close()


async def against_the_bot(service: GameService, level: int = 1) -> int:
    report = await service.challenge_computer(
        game="iago", guild_id=GUILD, channel_id=CHANNEL, member_id=ALICE, bot_id=BOT,
        options={"variant": "standard"}, side=0, level=level,
    )  # fmt: skip
    assert report.kind == ReportKind.START and report.game.against_bot and report.game.ai_level == level
    assert not report.game.rated and report.game.players == (ALICE, BOT)
    return report.game.id


async def test_the_bots_turn_is_committed_and_reported_action_by_action(service: GameService) -> None:
    game_id = await against_the_bot(service)
    assert await service.bot_games_to_move() == []  # the member moves first
    first = (await service.state(await service.game(game_id))).legal_moves()[0]
    members = await service.play(game_id, ALICE, first)
    assert members.held  # the bot answers it: its reply announces both
    assert [game.id for game in await service.bot_games_to_move()] == [game_id]  # what a restart would find
    (report,) = await service.play_for_bot(game_id)
    mine, played = report.played  # one message a turn: the member's move and the bot's reply
    assert (mine.move, mine.player) == (first, 0) and not report.held
    assert played.kind == MoveKind.MOVE and played.player == 1 and report.by == ALICE and report.kind == ReportKind.MOVE
    assert report.state.moves == [first, played.move] and report.state.to_act == 0
    assert report.announcement_id is not None and report.game.ply == 2
    assert await service.bot_games_to_move() == [] and await service.play_for_bot(game_id) == []  # nothing owed


async def moves_owed(service: GameService, game_id: int) -> list[AnnouncementRow]:
    owed = await service._table.db.pending_for_game(game_id)
    return [row for row in owed if row.kind == AnnouncementKind.MOVE]


async def test_one_announcement_a_turn_holds_the_members_move_for_the_bots_reply(service: GameService) -> None:
    """The member's move is held in the outbox (not due, not waited for) until the bot's reply replaces it in the
    same transaction with one announcement of both, due at once; a held move is never lost: were the bot never
    to answer, a worker announces it alone once its hold is over."""
    game_id = await against_the_bot(service)
    db = service._table.db
    first = (await service.state(await service.game(game_id))).legal_moves()[0]
    members = await service.play(game_id, ALICE, first)
    (held,) = await moves_owed(service, game_id)
    assert held.id == members.announcement_id and held.payload["held"]
    assert held.next_attempt_at >= service.clock() + 60  # no worker takes it while the bot thinks
    (report,) = await service.play_for_bot(game_id)
    (joined,) = await moves_owed(service, game_id)
    assert joined.id == report.announcement_id != held.id
    assert [move for move, _, _ in joined.payload["played"]] == [first, report.played[-1].move]
    assert not joined.payload.get("held") and joined.next_attempt_at <= service.clock()
    retired = await db.announcement(held.id)
    assert retired is not None and retired.delivered_at is not None and retired.message_id is None


async def test_a_held_move_whose_announcement_a_worker_took_is_not_told_twice(service: GameService) -> None:
    game_id = await against_the_bot(service)
    db = service._table.db
    first = (await service.state(await service.game(game_id))).legal_moves()[0]
    members = await service.play(game_id, ALICE, first)
    later = service.clock() + 3600  # its hold is over: a worker claims it and is delivering it
    (claimed,) = await db.claim_pending("worker", later, 60, 10, ids=[members.announcement_id or 0])
    assert claimed.id == members.announcement_id
    (report,) = await service.play_for_bot(game_id)
    assert [p.player for p in report.played] == [1]  # the bot's reply alone: the worker tells the member's move
    assert (await db.announcement(members.announcement_id)).delivered_at is None  # type: ignore[union-attr]


async def test_a_takeback_undoes_the_members_move_and_the_bots_reply(service: GameService) -> None:
    game_id = await against_the_bot(service)
    with pytest.raises(UserError, match="no move of yours"):
        await service.takeback(game_id, ALICE)
    first = (await service.state(await service.game(game_id))).legal_moves()[0]
    await service.play(game_id, ALICE, first)
    await service.play_for_bot(game_id)
    taken = await service.takeback(game_id, ALICE)
    assert taken.kind == ReportKind.TAKEBACK and taken.state.moves == [] and taken.state.to_act == 0
    assert await service.moves(game_id) == [first, (await service.moves(game_id))[1], "takeback"]  # append-only


async def test_hints_and_takebacks_are_for_games_against_the_bot(service: GameService) -> None:
    between_members = await start(service)
    with pytest.raises(UserError, match="Hints are for games against the bot"):
        await service.hint(between_members, ALICE)
    with pytest.raises(UserError, match="Takebacks are for games against the bot"):
        await service.takeback(between_members, ALICE)
    game_id = await against_the_bot(service, level=2)
    found, after, move = await service.hint(game_id, ALICE)
    assert found.id == game_id and after.moves == [move]
    assert await service.moves(game_id) == []  # a hint plays nothing
