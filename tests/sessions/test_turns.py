"""Turns (sessions/turns.py): moves, dice, forced passes, claims, the ply guard and restarts."""

from __future__ import annotations

import asyncio

import pytest

import engines
from sessions.model import UserError
from sessions.service import GameService
from storage.database import Database, StalePly
from tests.sessions.play import ALICE, BOB, CAROL, Clock, play_to_end, start


async def test_moves_out_of_turn_illegal_or_by_strangers_change_nothing(db: Database, service: GameService) -> None:
    game_id = await start(service)
    with pytest.raises(UserError, match="not your turn"):
        await service.turns.play(game_id, BOB, "E4")
    with pytest.raises(UserError, match="not playing"):
        await service.turns.play(game_id, CAROL, "E4")
    with pytest.raises(UserError, match="not legal"):
        await service.turns.play(game_id, ALICE, "E5")  # the centre needs a release
    for garbage in ("", "   ", "x" * 500, "ＥＦ", "roll 6", "open 1 2", "💥"):
        with pytest.raises(UserError):
            await service.turns.play(game_id, ALICE, garbage)
    row = await service.finder.game(game_id)
    assert row.ply == 0 and await db.games.moves(game_id) == []
    report = await service.turns.play(game_id, ALICE, " e4 ")
    assert [p.move for p in report.played] == ["E4"] and report.game.ply == 1


async def test_a_double_click_applies_the_move_once(db: Database, service: GameService) -> None:
    game_id = await start(service)
    results = await asyncio.gather(
        service.turns.play(game_id, ALICE, "E4"), service.turns.play(game_id, ALICE, "E4"), return_exceptions=True
    )
    assert sum(not isinstance(r, Exception) for r in results) == 1
    assert any(isinstance(r, UserError) for r in results)
    assert await db.games.moves(game_id) == ["E4"]


async def test_the_ply_check_refuses_a_write_from_a_stale_reader(service: GameService, db: Database) -> None:
    game_id = await start(service)
    await db.games.append_moves(game_id, 0, [("E4", 0, ALICE)], now=1.0)
    with pytest.raises(StalePly):
        await db.games.append_moves(game_id, 0, [("E6", 0, ALICE)], now=2.0)
    assert await db.games.moves(game_id) == ["E4"]


async def test_a_second_process_sees_the_first_ones_moves(service: GameService, database_url: str) -> None:
    game_id = await start(service)
    other = GameService(await Database.open(database_url))
    try:
        await service.turns.play(game_id, ALICE, "E4")
        with pytest.raises(UserError, match="not your turn"):
            await other.turns.play(game_id, ALICE, "E6")
        state = await other.finder.state(await other.finder.game(game_id))
        assert state.moves == ["E4"]
    finally:
        await other.close()


async def test_claiming_needs_twice_the_reminder_time(service: GameService, clock: Clock) -> None:
    game_id = await start(service)
    with pytest.raises(UserError, match="your turn"):
        await service.turns.claim(game_id, ALICE)
    with pytest.raises(UserError, match="claim the win"):
        await service.turns.claim(game_id, BOB)
    clock.now += 3600
    due = await service.turns.due_reminders()
    assert [(row.id, user) for row, user in due] == [(game_id, ALICE)]
    assert await service.turns.due_reminders() == []  # reminded once
    clock.now += 3600
    report = await service.turns.claim(game_id, BOB)
    assert report.finish is not None and report.finish.winner == 1 and report.finish.reason == "timeout"


async def test_a_restart_replays_the_log_into_the_same_state(service: GameService, db: Database) -> None:
    game_id = await start(service)
    for move in ("E4", None, None):
        row = await service.finder.game(game_id)
        state = await service.finder.state(row)
        await service.turns.play(game_id, row.players[state.turn], move or state.legal_moves()[0])
    before = (await service.finder.state(await service.finder.game(game_id))).to_dict()
    fresh = GameService(db)
    assert (await fresh.finder.state(await fresh.finder.game(game_id))).to_dict() == before


async def test_polygo_dice_are_drawn_by_the_session_and_logged(db: Database, clock: Clock) -> None:
    faces = iter(["open 2 5", "roll 1"])
    service = GameService(db, clock=clock, draw=lambda outcomes: next(faces))
    game_id = await start(service, "polygo", {"size": 9})
    moves = await db.games.moves(game_id)
    assert moves == ["open 2 5"]  # rolled at acceptance; the lower die (Black's 2) starts
    state = await service.finder.state(await service.finder.game(game_id))
    assert state.turn == 0
    with pytest.raises(UserError, match="Dice are rolled by the bot"):
        await service.turns.play(game_id, ALICE, "roll 6")
    with pytest.raises(UserError, match="already rolled"):
        await service.turns.roll(game_id, ALICE)
    await service.turns.play(game_id, ALICE, state.legal_moves()[0])
    state = await service.finder.state(await service.finder.game(game_id))
    assert state.turn == 1 and not state.chance  # White places next, with White's own opening die
    with pytest.raises(UserError, match="not your turn"):
        await service.turns.play(game_id, ALICE, state.legal_moves()[0])
    await service.turns.play(game_id, BOB, state.legal_moves()[0])
    state = await service.finder.state(await service.finder.game(game_id))
    assert state.chance and state.to_roll == 0
    with pytest.raises(UserError, match="not your turn"):
        await service.turns.roll(game_id, BOB)
    with pytest.raises(UserError, match="Roll the die first"):
        await service.turns.play(game_id, ALICE, "A1 A2")
    report = await service.turns.roll(game_id, ALICE)
    assert report.played[0].move == "roll 1" and report.played[0].kind == "chance"
    assert (await db.games.moves(game_id))[-1] == "roll 1"


async def test_a_polygo_game_plays_to_a_result_with_secret_dice(db: Database, service: GameService) -> None:
    game_id = await start(service, "polygo", {"size": 9})
    await play_to_end(service, game_id, seed=3)
    row = await service.finder.game(game_id)
    replay = engines.get("polygo").new_game(size=9)
    for move in await db.games.moves(game_id):
        replay.play(move)
    assert replay.is_over and replay.result().scores == row.scores


async def test_isaac_plays_to_a_result_with_forced_passes_played_by_the_bot(db: Database, service: GameService) -> None:
    game_id = await start(service, "isaac")
    await play_to_end(service, game_id, seed=5)
    moves = await db.games.moves(game_id)
    assert "pass" in moves  # the placement phase always ends with passes
    assert (await service.finder.game(game_id)).status == "finished"
