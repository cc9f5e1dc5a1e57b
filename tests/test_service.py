"""The session service over a real database (SQLite and PostgreSQL): challenges, turns, dice, results, ratings,
restarts."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator
from typing import Any

import pytest

import engines
from locales import tr
from sessions.service import Game, GameService, ReplyTo, Settings, UserError
from storage.database import Database, StalePly

GUILD, CHANNEL = 1, 2
ALICE, BOB, CAROL = 101, 102, 103


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
async def db(database_url: str) -> AsyncIterator[Database]:
    database = await Database.open(database_url)
    yield database
    await database.close()


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def service(db: Database, clock: Clock) -> GameService:
    return GameService(db, Settings(challenge_ttl=900, reminder_after=3600), clock=clock)


async def challenge(service: GameService, game: str = "iago", **overrides: Any) -> Game:
    """alice challenges bob as side 0, unless ``overrides`` say otherwise."""
    arguments: dict[str, Any] = dict(
        game=game,
        guild_id=GUILD,
        channel_id=CHANNEL,
        challenger_id=ALICE,
        opponent_id=BOB,
        opponent_is_bot=False,
        options={"variant": "standard"} if game == "iago" else {},
        side=0,
        rated=True,
    )
    return await service.challenge(**{**arguments, **overrides})


async def start(service: GameService, game: str = "iago", options: dict | None = None, rated: bool = True) -> int:
    row = await challenge(service, game, rated=rated, **({} if options is None else {"options": options}))
    await service.accept(row.id, BOB, guild_id=GUILD)
    return row.id


async def play_to_end(service: GameService, game_id: int, seed: int = 7) -> None:
    rng = random.Random(seed)
    for _ in range(2000):
        row = await service.game(game_id)
        if row.status == "finished":
            return
        state = await service.state(row)
        if state.chance:
            await service.roll(game_id, row.players[state.to_roll])
            continue
        await service.play(game_id, row.players[state.turn], rng.choice(state.legal_moves()))
    raise AssertionError("game did not finish")


async def test_challenge_refuses_self_bots_and_a_second_open_challenge(service: GameService) -> None:
    base = dict(game="iago", guild_id=GUILD, channel_id=CHANNEL, options={}, side=None, rated=True)
    with pytest.raises(UserError, match="yourself"):
        await service.challenge(challenger_id=ALICE, opponent_id=ALICE, opponent_is_bot=False, **base)
    with pytest.raises(UserError, match="Bots"):
        await service.challenge(challenger_id=ALICE, opponent_id=BOB, opponent_is_bot=True, **base)
    await service.challenge(challenger_id=ALICE, opponent_id=BOB, opponent_is_bot=False, **base)
    with pytest.raises(UserError, match="already an open challenge"):
        await service.challenge(challenger_id=BOB, opponent_id=ALICE, opponent_is_bot=False, **base)


async def test_bad_options_are_refused_with_the_allowed_values(service: GameService) -> None:
    with pytest.raises(UserError) as caught:
        await challenge(service, options={"variant": "wild"})
    reason = caught.value.params["reason"]
    assert "standard" in str(reason)
    assert "ヴァリアント" in tr("ja", caught.value.message, reason=reason)  # the reason is translated too


async def test_only_the_opponent_accepts_and_only_the_challenger_cancels(service: GameService) -> None:
    row = await challenge(service, side=1)
    assert row.players == (BOB, ALICE)  # the challenger asked for side 1
    for stranger_action in (service.accept, service.decline, service.cancel):
        with pytest.raises(UserError):
            await stranger_action(row.id, CAROL, guild_id=GUILD)
    with pytest.raises(UserError, match="own challenge"):
        await service.accept(row.id, ALICE, guild_id=GUILD)
    with pytest.raises(UserError, match="Only the challenger"):
        await service.cancel(row.id, BOB, guild_id=GUILD)
    assert (await service.game(row.id)).status == "challenge"
    cancelled, _ = await service.cancel(row.id, ALICE, guild_id=GUILD)
    assert cancelled.status == "cancelled"
    with pytest.raises(UserError, match="no longer open"):
        await service.accept(row.id, BOB, guild_id=GUILD)


async def test_a_challenge_is_answered_only_in_its_server_and_from_its_own_message(
    service: GameService, db: Database
) -> None:
    row = await challenge(service)
    await db.set_message(row.id, "challenge_message_id", 555)
    with pytest.raises(UserError, match="cannot find game"):
        await service.accept(row.id, BOB, guild_id=GUILD + 1, message_id=555)
    with pytest.raises(UserError, match="does not belong"):
        await service.accept(row.id, BOB, guild_id=GUILD, message_id=556)  # a button copied onto another message
    assert (await service.game(row.id)).status == "challenge"
    await service.accept(row.id, BOB, guild_id=GUILD, message_id=555)
    assert (await service.game(row.id)).status == "active"


async def test_games_are_found_only_in_their_own_server(service: GameService) -> None:
    game_id = await start(service)
    found = await service.find_game("iago", ALICE, GUILD, CHANNEL, game_id)
    assert found.id == game_id
    for guild in (GUILD + 1, 0):
        with pytest.raises(UserError, match="cannot find game"):
            await service.find_game("iago", CAROL, guild, 99, game_id, spectate=True)
    for impossible in (0, -1, 2**63, 2**70):
        with pytest.raises(UserError, match="cannot find game"):
            await service.find_game("iago", ALICE, GUILD, CHANNEL, impossible)


async def test_a_member_holds_at_most_five_open_challenges(service: GameService) -> None:
    for opponent in range(200, 205):
        await challenge(service, opponent_id=opponent)
    with pytest.raises(UserError, match="open challenges") as refused:
        await challenge(service, opponent_id=300)
    assert refused.value.params == {"count": 5}
    other_server = await challenge(service, opponent_id=300, guild_id=GUILD + 1)  # the cap is per server
    assert other_server.status == "challenge"


async def test_challenge_expires_after_its_time(service: GameService, clock: Clock) -> None:
    row = await challenge(service, side=0)
    clock.now += 901
    expired = await service.expire_challenges()
    assert [r.id for r in expired] == [row.id]
    with pytest.raises(UserError, match="no longer open"):
        await service.accept(row.id, BOB, guild_id=GUILD)


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


async def test_moves_out_of_turn_illegal_or_by_strangers_change_nothing(db: Database, service: GameService) -> None:
    game_id = await start(service)
    with pytest.raises(UserError, match="not your turn"):
        await service.play(game_id, BOB, "E4")
    with pytest.raises(UserError, match="not playing"):
        await service.play(game_id, CAROL, "E4")
    with pytest.raises(UserError, match="not legal"):
        await service.play(game_id, ALICE, "E5")  # the centre needs a release
    for garbage in ("", "   ", "x" * 500, "ＥＦ", "roll 6", "open 1 2", "💥"):
        with pytest.raises(UserError):
            await service.play(game_id, ALICE, garbage)
    row = await service.game(game_id)
    assert row.ply == 0 and await db.moves(game_id) == []
    report = await service.play(game_id, ALICE, " e4 ")
    assert [p.move for p in report.played] == ["E4"] and report.game.ply == 1


async def test_a_double_click_applies_the_move_once(db: Database, service: GameService) -> None:
    game_id = await start(service)
    results = await asyncio.gather(
        service.play(game_id, ALICE, "E4"), service.play(game_id, ALICE, "E4"), return_exceptions=True
    )
    assert sum(not isinstance(r, Exception) for r in results) == 1
    assert any(isinstance(r, UserError) for r in results)
    assert await db.moves(game_id) == ["E4"]


async def test_the_ply_check_refuses_a_write_from_a_stale_reader(service: GameService, db: Database) -> None:
    game_id = await start(service)
    await db.append_moves(game_id, 0, [("E4", 0, ALICE)], now=1.0)
    with pytest.raises(StalePly):
        await db.append_moves(game_id, 0, [("E6", 0, ALICE)], now=2.0)
    assert await db.moves(game_id) == ["E4"]


async def test_a_second_process_sees_the_first_ones_moves(service: GameService, database_url: str) -> None:
    game_id = await start(service)
    other = GameService(await Database.open(database_url))
    try:
        await service.play(game_id, ALICE, "E4")
        with pytest.raises(UserError, match="not your turn"):
            await other.play(game_id, ALICE, "E6")
        state = await other.state(await other.game(game_id))
        assert state.moves == ["E4"]
    finally:
        await other.close()


async def test_a_full_rated_game_updates_records_and_the_leaderboard(service: GameService) -> None:
    game_id = await start(service)
    await play_to_end(service, game_id)
    row = await service.game(game_id)
    state = await service.state(row)
    result = state.result()
    assert row.status == "finished" and row.winner == result.winner and row.scores == tuple(result.scores)
    board = await service.leaderboard(GUILD, "iago")
    assert {user for user, _ in board} == {ALICE, BOB}
    winner = row.players[result.winner]
    assert board[0][0] == winner and board[0][1].rated_games == 1 and board[0][1].provisional
    stats = dict((g, (w, lo, d)) for g, w, lo, d, _ in await service.stats(GUILD, winner))
    assert stats["iago"] == (1, 0, 0)
    with pytest.raises(UserError, match="already over"):
        await service.play(game_id, ALICE, "E4")


async def test_resigning_gives_the_win_and_an_unrated_game_keeps_ratings(service: GameService) -> None:
    game_id = await start(service, rated=False)
    report = await service.resign(game_id, BOB)  # resigning is allowed out of turn
    assert report.finish is not None and report.finish.winner == 0 and report.finish.reason == "resign"
    assert report.finish.rating_changes == {}
    assert await service.leaderboard(GUILD, "iago") == []
    assert [(g, w, lo) for g, w, lo, _, _ in await service.stats(GUILD, ALICE)] == [("iago", 1, 0)]


async def test_claiming_needs_twice_the_reminder_time(service: GameService, clock: Clock) -> None:
    game_id = await start(service)
    with pytest.raises(UserError, match="your turn"):
        await service.claim(game_id, ALICE)
    with pytest.raises(UserError, match="claim the win"):
        await service.claim(game_id, BOB)
    clock.now += 3600
    due = await service.due_reminders()
    assert [(row.id, user) for row, user in due] == [(game_id, ALICE)]
    assert await service.due_reminders() == []  # reminded once
    clock.now += 3600
    report = await service.claim(game_id, BOB)
    assert report.finish is not None and report.finish.winner == 1 and report.finish.reason == "timeout"


async def test_a_restart_replays_the_log_into_the_same_state(service: GameService, db: Database) -> None:
    game_id = await start(service)
    for move in ("E4", None, None):
        row = await service.game(game_id)
        state = await service.state(row)
        await service.play(game_id, row.players[state.turn], move or state.legal_moves()[0])
    before = (await service.state(await service.game(game_id))).to_dict()
    fresh = GameService(db)
    assert (await fresh.state(await fresh.game(game_id))).to_dict() == before


async def test_polygo_dice_are_drawn_by_the_session_and_logged(db: Database, clock: Clock) -> None:
    faces = iter(["open 2 5", "roll 1"])
    service = GameService(db, clock=clock, draw=lambda outcomes: next(faces))
    game_id = await start(service, "polygo", {"size": 9})
    moves = await db.moves(game_id)
    assert moves == ["open 2 5"]  # rolled at acceptance; the lower die (Black's 2) starts
    state = await service.state(await service.game(game_id))
    assert state.turn == 0
    with pytest.raises(UserError, match="Dice are rolled by the bot"):
        await service.play(game_id, ALICE, "roll 6")
    with pytest.raises(UserError, match="already rolled"):
        await service.roll(game_id, ALICE)
    await service.play(game_id, ALICE, state.legal_moves()[0])
    state = await service.state(await service.game(game_id))
    assert state.turn == 1 and not state.chance  # White places next, with White's own opening die
    with pytest.raises(UserError, match="not your turn"):
        await service.play(game_id, ALICE, state.legal_moves()[0])
    await service.play(game_id, BOB, state.legal_moves()[0])
    state = await service.state(await service.game(game_id))
    assert state.chance and state.to_roll == 0
    with pytest.raises(UserError, match="not your turn"):
        await service.roll(game_id, BOB)
    with pytest.raises(UserError, match="Roll the die first"):
        await service.play(game_id, ALICE, "A1 A2")
    report = await service.roll(game_id, ALICE)
    assert report.played[0].move == "roll 1" and report.played[0].kind == "chance"
    assert (await db.moves(game_id))[-1] == "roll 1"


async def test_a_polygo_game_plays_to_a_result_with_secret_dice(db: Database, service: GameService) -> None:
    game_id = await start(service, "polygo", {"size": 9})
    await play_to_end(service, game_id, seed=3)
    row = await service.game(game_id)
    replay = engines.get("polygo").new_game(size=9)
    for move in await db.moves(game_id):
        replay.play(move)
    assert replay.is_over and replay.result().scores == row.scores


async def test_isaac_plays_to_a_result_with_forced_passes_played_by_the_bot(db: Database, service: GameService) -> None:
    game_id = await start(service, "isaac")
    await play_to_end(service, game_id, seed=5)
    moves = await db.moves(game_id)
    assert "pass" in moves  # the placement phase always ends with passes
    assert (await service.game(game_id)).status == "finished"


async def test_racing_challenges_between_two_members_leave_one_open(
    db: Database, service: GameService, database_url: str, clock: Clock
) -> None:
    other = GameService(await Database.open(database_url), service.settings, clock=clock)  # a second process
    try:
        results = await asyncio.gather(
            challenge(service), challenge(other, challenger_id=BOB, opponent_id=ALICE), return_exceptions=True
        )
    finally:
        await other.close()
    assert sum(isinstance(r, Game) for r in results) == 1
    assert all(isinstance(r, Game) or "already an open challenge" in str(r) for r in results)
    assert len(await db.games_with_status("challenge")) == 1


async def test_a_finish_reports_the_ratings_it_wrote(service: GameService) -> None:
    first = await start(service)
    await service.resign(first, BOB)
    second = await start(service)
    report = await service.resign(second, BOB)
    assert report.finish is not None
    alice = await service.rating(GUILD, "iago", ALICE)
    before, after = report.finish.rating_changes[ALICE]
    assert after == alice.shown and before < after and alice.rated_games == 2
