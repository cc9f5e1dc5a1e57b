"""The computer player (sessions/computer.py): the bot's own turns, committed and reported one action at a time,
found again after a restart; takebacks and hints. The searches run in the real worker pool, on a tiny budget."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from sessions.service import BotCannotMove, GameService, Settings, UserError
from sessions.thinking import ThinkingFailed
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


async def test_a_search_that_fails_every_attempt_says_so_once_per_spell(
    service: GameService, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 23: when the search cannot be run (its workers keep dying) the turn raises BotCannotMove, first=True
    only the first time in a row, so the game is told once and not at every retry; a move ends the spell."""
    game_id = await against_the_bot(service)
    await service.play(game_id, ALICE, (await service.state(await service.game(game_id))).legal_moves()[0])
    thinker = service._computer.thinker
    search = thinker.move

    async def broken(*args: object) -> str:
        raise ThinkingFailed("the search lost its worker 3 times")

    monkeypatch.setattr(thinker, "move", broken)
    firsts = []
    for _ in range(2):
        with pytest.raises(BotCannotMove) as stuck:
            await service.play_for_bot(game_id)
        assert stuck.value.game.id == game_id and stuck.value.reports == []
        firsts.append(stuck.value.first)
    assert firsts == [True, False]
    assert [game.id for game in await service.bot_games_to_move()] == [game_id]  # the sweep still finds it
    monkeypatch.setattr(thinker, "move", search)
    (report,) = await service.play_for_bot(game_id)
    assert report.game.ply == 2
    await service.play(game_id, ALICE, report.state.legal_moves()[0])
    monkeypatch.setattr(thinker, "move", broken)
    with pytest.raises(BotCannotMove) as again:
        await service.play_for_bot(game_id)
    assert again.value.first  # a new spell


async def test_a_hint_whose_search_fails_is_a_polite_refusal(
    service: GameService, monkeypatch: pytest.MonkeyPatch
) -> None:
    game_id = await against_the_bot(service)

    async def broken(*args: object) -> str:
        raise ThinkingFailed("the search lost its worker 3 times")

    monkeypatch.setattr(service._computer.thinker, "move", broken)
    with pytest.raises(UserError, match="try again in a moment"):
        await service.hint(game_id, ALICE)
