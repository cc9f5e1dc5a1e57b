"""The computer player (sessions/computer.py): the bot's own turns, committed and reported one action at a time,
found again after a restart; takebacks and hints. The searches run in the real worker pool, on a tiny budget."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from sessions.service import GameService, Settings, UserError
from sessions.vocabulary import MoveKind, ReportKind
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
    await service.play(game_id, ALICE, first)
    assert [game.id for game in await service.bot_games_to_move()] == [game_id]  # what a restart would find
    (report,) = await service.play_for_bot(game_id)
    (played,) = report.played
    assert played.kind == MoveKind.MOVE and played.player == 1 and report.by == BOT and report.kind == ReportKind.MOVE
    assert report.state.moves == [first, played.move] and report.state.to_act == 0
    assert report.announcement_id is not None and report.game.ply == 2
    assert await service.bot_games_to_move() == [] and await service.play_for_bot(game_id) == []  # nothing owed


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


async def test_a_busy_pool_makes_the_bot_think_less_and_say_so(database_url: str) -> None:
    # Level 4 always thinks its whole budget, so a shorter one is really used up (sessions/pace.py).
    service = await GameService.open(database_url, Settings(ai_move_seconds=0.5))
    try:
        game_id = await against_the_bot(service, level=4)
        pace = service._computer.thinker.pace
        for turn in range(2):
            busy = turn == 0
            if busy:  # every worker is booked for 1.7 s more: a search now has 0.05 s of the 1.8 s left
                pace.free_at = [pace.clock() + 1.7] * len(pace.free_at)
            state = await service.state(await service.game(game_id))
            await service.play(game_id, ALICE, state.legal_moves()[0])
            (report,) = await service.play_for_bot(game_id)
            assert report.hurried is busy
            assert min(pace.free_at) <= pace.clock()  # the search ended: its worker is free again
    finally:
        await service.close()
