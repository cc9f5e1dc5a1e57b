"""What follows a commit (sessions/events.py): each part publishes what it committed, and the parts that follow
subscribe in the session layer, so nothing in the Discord layer decides that the bot moves next, that a round is
paired or that what was written is delivered now. The Discord layer only hands the service its delivery."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from sessions.events import BotToMove, EventBus, GameFinished, MoveMade, Owed
from sessions.model import AnnouncementKind, Bulletin, GameStatus, Notice, ReplyTo, ReportKind
from sessions.service import GameService, Settings
from sessions.thinking import ThinkingFailed
from tests.sessions.play import ALICE, BOB, CAROL, CHANNEL, GUILD, Clock, start

BOT = 999


class Courier:
    """The Discord layer's delivery as the service sees it: every notice handed over, a message id back."""

    def __init__(self) -> None:
        self.delivered: list[Notice | Bulletin] = []

    async def __call__(self, notice: Notice | Bulletin) -> int:
        self.delivered.append(notice)
        return 5000 + len(self.delivered)

    def kinds(self) -> list[str]:
        return [str(notice.kind) for notice in self.delivered]


@pytest.fixture
async def following(database_url: str) -> AsyncIterator[tuple[GameService, Courier]]:
    """A started service: it follows its commits and delivers with the courier, in the tests' server."""
    service = await GameService.open(database_url, Settings(ai_move_seconds=0.05, announce_grace=0.5))
    courier = Courier()
    service.start(courier, lambda: [GUILD])
    yield service, courier
    await service.close()


async def settled(service: GameService) -> None:
    await service._table.events.settled()


# --- the bus ------------------------------------------------------------------------------------------------------


async def test_the_bus_hands_events_out_only_while_it_runs_and_a_failing_follower_is_logged_not_raised(
    caplog: pytest.LogCaptureFixture,
) -> None:
    bus, seen = EventBus(), []

    async def follow(event: Owed) -> None:
        seen.append(event)

    async def broken(event: Owed) -> None:
        raise RuntimeError("a bug in a follower")

    bus.subscribe(Owed, follow)
    bus.subscribe(Owed, broken)
    bus.publish(Owed((1,)))  # not started: the tests of one part drive what follows by hand
    await bus.settled()
    assert seen == []
    bus.start()
    bus.publish(Owed((2,)))  # never raises into the action that published it
    bus.publish(MoveMade(report=None))  # type: ignore[arg-type]  # nobody follows it: nothing happens
    await bus.settled()
    assert seen == [Owed((2,))]
    assert any("Following Owed failed" in record.message for record in caplog.records)
    await bus.stop()
    bus.publish(Owed((3,)))
    await bus.settled()
    assert seen == [Owed((2,))] and not bus.running


async def test_stopping_the_bus_cancels_what_still_runs_after_its_grace() -> None:
    bus, started, finished = EventBus(), asyncio.Event(), []

    async def slow(event: Owed) -> None:
        started.set()
        await asyncio.sleep(30)
        finished.append(event)

    bus.subscribe(Owed, slow)
    bus.start()
    bus.publish(Owed((1,)))
    await started.wait()
    await bus.stop(limit=0.05)
    assert finished == []


async def test_a_part_publishes_only_once_its_transaction_has_committed(database_url: str) -> None:
    """The move is in the database when its followers run: they read what the action wrote."""
    service = await GameService.open(database_url, Settings())
    seen: list[tuple[int, list[str]]] = []

    async def follow(event: MoveMade) -> None:
        seen.append((event.report.game.ply, await service.finder.moves(event.report.game.id)))

    try:
        service._table.events.subscribe(MoveMade, follow)
        service._table.events.start()
        game_id = await start(service)
        await settled(service)
        await service.turns.play(game_id, ALICE, "D4")
        await settled(service)
        assert seen == [(0, []), (1, ["D4"])]  # the start, then the move, each read back as committed
    finally:
        await service.close()


# --- what follows ------------------------------------------------------------------------------------------------


async def test_the_bot_answers_a_members_move_by_itself_in_one_message(following: tuple[GameService, Courier]) -> None:
    """No caller starts the bot's turn: the move's commit publishes that the bot is to move, the computer player
    takes its turn once the member's reply holds its place, and delivery announces both moves in one message."""
    service, courier = following
    report = await service.challenges.challenge_computer(
        game="iago", guild_id=GUILD, channel_id=CHANNEL, member_id=ALICE, bot_id=BOT,
        options={"variant": "standard"}, side=0, level=1,
    )  # fmt: skip
    game_id = report.game.id
    first = (await service.finder.state(report.game)).legal_moves()[0]
    members = await service.turns.play(game_id, ALICE, first, reply=ReplyTo(1, "token", time.time()))
    assert members.held
    await asyncio.sleep(0.2)
    assert courier.delivered == []  # the bot waits for the member's reply to hold its place ...
    service.announcements.sending(game_id, members.announcement_id or 0)  # ... which the reply says here
    await settled(service)
    (notice,) = courier.delivered
    assert isinstance(notice, Notice) and notice.kind == AnnouncementKind.MOVE and notice.report is not None
    mine, bots = notice.report.played
    assert (mine.move, mine.player, bots.player) == (first, 0, 1)
    game = await service.finder.game(game_id)
    assert game.ply == 2 and (await service.finder.state(game)).to_act == 0
    # the moves were delivered and marked; the start is the member's own reply's, which this test does not send
    assert [row.kind for row in await service._db.outbox.pending_for_game(game_id)] == ["start"]


async def test_a_bot_that_cannot_think_says_so_once_through_the_outbox_and_tries_again_when_asked(
    following: tuple[GameService, Courier], monkeypatch: pytest.MonkeyPatch
) -> None:
    service, courier = following

    async def broken(*args: object, **kwargs: object) -> None:
        raise ThinkingFailed("the workers died")

    monkeypatch.setattr(service.computer.thinker, "think", broken)
    report = await service.challenges.challenge_computer(
        game="iago", guild_id=GUILD, channel_id=CHANNEL, member_id=ALICE, bot_id=BOT,
        options={"variant": "standard"}, side=1, level=1,
    )  # fmt: skip
    assert report.held  # the bot begins: its first move was to announce the start
    service.announcements.sending(report.game.id, report.announcement_id or 0)
    await settled(service)
    assert courier.kinds() == ["start", "stuck"]  # the start on its own, then the apology, each once
    stuck = courier.delivered[1]
    assert isinstance(stuck, Notice) and stuck.channel_id == CHANNEL
    await service.computer.try_again(report.game.id, GUILD, ALICE)  # failing again: not said twice
    await settled(service)
    assert courier.kinds() == ["start", "stuck"]
    with pytest.raises(Exception, match="Only the player"):
        await service.computer.try_again(report.game.id, GUILD, BOB)
    monkeypatch.undo()
    await service.computer.try_again(report.game.id, GUILD, ALICE)
    await settled(service)
    assert courier.kinds() == ["start", "stuck", "move"] and (await service.finder.game(report.game.id)).ply == 1


async def test_a_tournament_round_follows_its_last_game_without_a_sweep(
    following: tuple[GameService, Courier], database_url: str
) -> None:
    service, courier = following
    clock = Clock()
    service.clock = clock
    tournament = await service.tournaments.create(
        guild_id=GUILD, channel_id=CHANNEL, creator_id=ALICE, name="Cup", game="iago",
        options={"variant": "standard"}, format="round_robin", rounds=1, move_seconds=86400, rated=True,
        signup_minutes=1, max_players=8,
    )  # fmt: skip
    for player in (ALICE, BOB):
        await service.tournaments.join(tournament.id, player, GUILD)
    assert await service.tournaments.start_now(tournament.id, GUILD)
    await settled(service)
    assert "paired" in courier.kinds()  # the round's boards were delivered at once, without a sweep
    view = await service.tournaments.view(tournament.id, GUILD)
    (board,) = view.round_boards(1)
    assert board.game_id is not None
    await service.turns.resign(board.game_id, ALICE)
    await settled(service)
    ended = await service.tournaments.tournament(tournament.id, GUILD)
    assert ended.status == "finished"  # the last game of the last round ended it, no sweep needed
    assert courier.kinds()[-1] == "tournament_end"


async def test_what_an_admin_or_the_sweep_writes_is_delivered_at_once(following: tuple[GameService, Courier]) -> None:
    service, courier = following
    game_id = await start(service)
    await service.admin.cancel(game_id, GUILD, CAROL)
    await settled(service)
    assert "cancelled" in courier.kinds()
    assert (await service.finder.game(game_id)).status == GameStatus.CANCELLED
    row = await service.challenges.challenge(
        game="iago", guild_id=GUILD, channel_id=CHANNEL, challenger_id=ALICE, opponent_id=BOB,
        opponent_is_bot=False, options={"variant": "standard"}, side=0, rated=True,
    )  # fmt: skip
    service.clock = lambda: row.created_at + 3600  # past its expiry
    await service.housekeeping.sweep([GUILD])
    await settled(service)
    assert courier.kinds()[-1] == "expiry"


async def test_a_finished_game_is_published_with_its_result(database_url: str) -> None:
    service = await GameService.open(database_url, Settings())
    finished: list[GameFinished] = []
    bot_turns: list[BotToMove] = []

    async def follow(event: GameFinished) -> None:
        finished.append(event)

    async def bot(event: BotToMove) -> None:
        bot_turns.append(event)

    try:
        service._table.events.subscribe(GameFinished, follow)
        service._table.events.subscribe(BotToMove, bot)
        service._table.events.start()
        game_id = await start(service)
        report = await service.turns.resign(game_id, BOB)
        await settled(service)
        (event,) = finished
        assert event.report.kind == ReportKind.FINISH and event.report.finish is not None
        assert event.report.finish.winner == 0 and bot_turns == []  # between members, no bot turn is published
    finally:
        await service.close()
    assert report.game.status == GameStatus.FINISHED


def test_no_cog_decides_what_follows_a_commit() -> None:
    """The Discord layer starts no bot turn, pairs no round and rolls no season: it has no call to the parts'
    own followers (they are the session's subscribers)."""
    followers = ("computer.play(", "take_turn", "games_to_move", "tournaments.sweep", "seasons.roll", "computer.resume")
    cogs = Path(__file__).resolve().parents[2] / "cogs"
    found = [
        (path.name, follower) for path in cogs.rglob("*.py") for follower in followers if follower in path.read_text()
    ]
    assert found == []
