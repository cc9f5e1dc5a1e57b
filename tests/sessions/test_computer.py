"""The computer player (sessions/computer.py): the bot's own turns, committed and reported one action at a time,
found again after a restart; takebacks and hints. The searches run in the real worker pool, on a tiny budget."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator

import pytest

import games
from sessions.computer import BotCannotMove
from sessions.model import AnnouncementKind, MoveKind, ReportKind, UserError
from sessions.move_log import in_force
from sessions.pace import THINK_DEADLINE
from sessions.service import GameService, Settings
from sessions.thinking import ThinkingFailed
from storage.outbox import AnnouncementRow
from tests.sessions.play import ALICE, CHANNEL, GUILD, start

BOT = 999


@pytest.fixture
async def service(database_url: str) -> AsyncIterator[GameService]:
    """A service of its own, closed with its search workers."""
    service = await GameService.open(database_url, Settings(ai_move_seconds=0.05, analysis_seconds=0.01))
    yield service
    await service.close()


async def against_the_bot(service: GameService, level: int = 1) -> int:
    report = await service.challenges.challenge_computer(
        game="iago", guild_id=GUILD, channel_id=CHANNEL, member_id=ALICE, bot_id=BOT,
        options={"variant": "standard"}, side=0, level=level,
    )  # fmt: skip
    assert report.kind == ReportKind.START and report.game.against_bot and report.game.ai_level == level
    assert not report.game.rated and report.game.players == (ALICE, BOT)
    return report.game.id


async def test_the_bots_turn_is_committed_and_reported_action_by_action(service: GameService) -> None:
    game_id = await against_the_bot(service)
    assert await service.computer.games_to_move() == []  # the member moves first
    first = (await service.finder.state(await service.finder.game(game_id))).legal_moves()[0]
    members = await service.turns.play(game_id, ALICE, first)
    assert members.held  # the bot answers it: its reply announces both
    assert [game.id for game in await service.computer.games_to_move()] == [game_id]  # what a restart would find
    (report,) = await service.computer.play(game_id)
    mine, played = report.played  # one message a turn: the member's move and the bot's reply
    assert (mine.move, mine.player) == (first, 0) and not report.held
    assert played.kind == MoveKind.MOVE and played.player == 1 and report.by == ALICE and report.kind == ReportKind.MOVE
    assert report.state.moves == [first, played.move] and report.state.to_act == 0
    assert report.announcement_id is not None and report.game.ply == 2
    assert await service.computer.games_to_move() == [] and await service.computer.play(game_id) == []  # nothing owed


async def moves_owed(service: GameService, game_id: int) -> list[AnnouncementRow]:
    owed = await service._db.outbox.pending_for_game(game_id)
    return [row for row in owed if row.kind == AnnouncementKind.MOVE]


async def test_one_announcement_a_turn_holds_the_members_move_for_the_bots_reply(service: GameService) -> None:
    """The member's move is held in the outbox (not due, not waited for) until the bot's reply replaces it in the
    same transaction with one announcement of both, due at once; a held move is never lost: were the bot never
    to answer, a worker announces it alone once its hold is over."""
    game_id = await against_the_bot(service)
    db = service._db
    first = (await service.finder.state(await service.finder.game(game_id))).legal_moves()[0]
    members = await service.turns.play(game_id, ALICE, first)
    (held,) = await moves_owed(service, game_id)
    assert held.id == members.announcement_id and held.payload["held"]
    assert held.next_attempt_at >= service.clock() + 60  # no worker takes it while the bot thinks
    (report,) = await service.computer.play(game_id)
    (joined,) = await moves_owed(service, game_id)
    assert joined.id == report.announcement_id != held.id
    assert [move for move, _, _ in joined.payload["played"]] == [first, report.played[-1].move]
    assert not joined.payload.get("held") and joined.next_attempt_at <= service.clock()
    retired = await db.outbox.announcement(held.id)
    assert retired is not None and retired.delivered_at is not None and retired.message_id is None


async def test_a_held_move_whose_announcement_a_worker_took_is_not_told_twice(service: GameService) -> None:
    game_id = await against_the_bot(service)
    db = service._db
    first = (await service.finder.state(await service.finder.game(game_id))).legal_moves()[0]
    members = await service.turns.play(game_id, ALICE, first)
    later = service.clock() + 3600  # its hold is over: a worker claims it and is delivering it
    (claimed,) = await db.outbox.claim_pending("worker", later, 60, 10, ids=[members.announcement_id or 0])
    assert claimed.id == members.announcement_id
    (report,) = await service.computer.play(game_id)
    assert [p.player for p in report.played] == [1]  # the bot's reply alone: the worker tells the member's move
    assert (await db.outbox.announcement(members.announcement_id)).delivered_at is None  # type: ignore[union-attr]


async def test_a_takeback_undoes_the_members_move_and_the_bots_reply(service: GameService) -> None:
    game_id = await against_the_bot(service)
    with pytest.raises(UserError, match="no move of yours"):
        await service.computer.takeback(game_id, ALICE)
    first = (await service.finder.state(await service.finder.game(game_id))).legal_moves()[0]
    await service.turns.play(game_id, ALICE, first)
    await service.computer.play(game_id)
    taken = await service.computer.takeback(game_id, ALICE)
    assert taken.kind == ReportKind.TAKEBACK and taken.state.moves == [] and taken.state.to_act == 0
    assert await service.finder.moves(game_id) == [
        first,
        (await service.finder.moves(game_id))[1],
        "takeback",
    ]  # append-only


async def test_hints_and_takebacks_are_for_games_against_the_bot(service: GameService) -> None:
    between_members = await start(service)
    with pytest.raises(UserError, match="Hints are for games against the bot"):
        await service.computer.hint(between_members, ALICE)
    with pytest.raises(UserError, match="Takebacks are for games against the bot"):
        await service.computer.takeback(between_members, ALICE)
    game_id = await against_the_bot(service, level=2)
    found, position, move = await service.computer.hint(game_id, ALICE)
    assert found.id == game_id and position.moves == [] and move in position.legal_moves()
    assert await service.finder.moves(game_id) == []  # a hint plays nothing


async def test_the_hint_marks_its_move_on_the_members_position(service: GameService) -> None:
    game_id = await against_the_bot(service)
    first = (await service.finder.state(await service.finder.game(game_id))).legal_moves()[0]
    await service.turns.play(game_id, ALICE, first)
    await service.computer.play(game_id)
    _, position, move = await service.computer.hint(game_id, ALICE)
    assert (
        position.moves == await service.finder.moves(game_id) and position.to_act == 0
    )  # not played: still the member's
    assert move in position.legal_moves()


async def test_an_analysis_after_a_takeback_numbers_the_members_moves_as_the_log_does(service: GameService) -> None:
    """/analyse, /history and the replays name a move by its place in the log (a takeback is an entry of it), and
    the board of a reviewed move is the position before it; only the member's own moves are reviewed."""
    game_id = await against_the_bot(service)
    rng = random.Random(11)
    for turn in range(200):
        game = await service.finder.game(game_id)
        if game.status == "finished":
            break
        state = await service.finder.state(game)
        if state.to_act == 1:
            await service.computer.play(game_id)
        elif turn in (4, 9):
            await service.computer.takeback(game_id, ALICE)
        else:
            await service.turns.play(game_id, ALICE, rng.choice(state.legal_moves()))
    log = await service.finder.moves(game_id)
    assert log.count("takeback") == 2 and (await service.finder.game(game_id)).status == "finished"
    reviewed = await service.computer.analyse(game_id, ALICE, GUILD)
    assert reviewed, "random moves against the bot always leave something to learn"
    game = await service.finder.game(game_id)
    members = {number for number, _, side in in_force(games.find("iago"), game.options, log, 0) if side == 0}
    for number, played, better, _ in reviewed:
        assert log[number - 1] == played and number in members  # what /history shows as move {number}
        before = await service.finder.position(game, number - 1)
        assert before.to_act == 0 and played in before.legal_moves() and better in before.legal_moves()


async def test_a_search_that_fails_every_attempt_says_so_once_per_spell(
    service: GameService, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 23: when the search cannot be run (its workers keep dying) the turn raises BotCannotMove, first=True
    only the first time in a row, so the game is told once and not at every retry; a move ends the spell."""
    game_id = await against_the_bot(service)
    await service.turns.play(
        game_id, ALICE, (await service.finder.state(await service.finder.game(game_id))).legal_moves()[0]
    )
    thinker = service.computer.thinker
    search = thinker.think

    async def broken(*args: object) -> str:
        raise ThinkingFailed("the search lost its worker 3 times")

    monkeypatch.setattr(thinker, "think", broken)
    firsts = []
    for _ in range(2):
        with pytest.raises(BotCannotMove) as stuck:
            await service.computer.play(game_id)
        assert stuck.value.game.id == game_id and stuck.value.reports == []
        firsts.append(stuck.value.first)
    assert firsts == [True, False]
    assert [game.id for game in await service.computer.games_to_move()] == [game_id]  # the sweep still finds it
    monkeypatch.setattr(thinker, "think", search)
    (report,) = await service.computer.play(game_id)
    assert report.game.ply == 2
    await service.turns.play(game_id, ALICE, report.state.legal_moves()[0])
    monkeypatch.setattr(thinker, "think", broken)
    with pytest.raises(BotCannotMove) as again:
        await service.computer.play(game_id)
    assert again.value.first  # a new spell


async def test_a_hint_whose_search_fails_is_a_polite_refusal(
    service: GameService, monkeypatch: pytest.MonkeyPatch
) -> None:
    game_id = await against_the_bot(service)

    async def broken(*args: object, **options: object) -> str:
        raise ThinkingFailed("the search lost its worker 3 times")

    monkeypatch.setattr(service.computer.thinker, "move", broken)
    with pytest.raises(UserError, match="try again in a moment"):
        await service.computer.hint(game_id, ALICE)


async def test_a_busy_pool_makes_the_bot_think_less_and_say_so(database_url: str) -> None:
    # Level 4 always thinks its whole budget, so a shorter one is really used up (sessions/pace.py).
    service = await GameService.open(database_url, Settings(ai_move_seconds=0.5))
    try:
        game_id = await against_the_bot(service, level=4)
        pace = service.computer.thinker.pace
        for turn in range(2):
            busy = turn == 0
            if busy:  # every worker is booked past the deadline: a search now has the least time (LEAST)
                pace.free_at = [pace.clock() + THINK_DEADLINE] * len(pace.free_at)
            state = await service.finder.state(await service.finder.game(game_id))
            await service.turns.play(game_id, ALICE, state.legal_moves()[0])
            (report,) = await service.computer.play(game_id)
            assert report.hurried is busy
            assert min(pace.free_at) <= pace.clock()  # the search ended: its worker is free again
    finally:
        await service.close()
