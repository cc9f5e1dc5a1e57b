"""Tournaments through the bot, end to end: members sign up with the buttons, the bot pairs every round itself,
opens a thread per game, runs the clocks, and posts the standings, with a restart in the middle.

The games are the test-only tic-tac-toe (tests/fourth_game), decided by resignations, a few played to a draw, a
forfeit and a loss on time: real results through the bot, so the pairings after round 1 depend on them. Every
round's pairings and the final standings (points, Buchholz, Sonneborn-Berger) were worked out by hand from the
rules in docs/tournaments.md and are written out below.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from fractions import Fraction
from typing import Any

import discord
import pytest

import games
from bot import GameBot
from sessions.model import TournamentView
from storage.database import Database
from tests.e2e.driver import PNG_SIGNATURE
from tests.e2e.fake_discord import FakeDiscord, FakeUser, StoredMessage
from tests.e2e.harness import BOT_PERMISSIONS
from tests.fourth_game.entry import ENTRY

HOUR = 3600
DRAW = ["b2", "a1", "c1", "a3", "a2", "c2", "b1", "b3", "c3"]  # X, O, X, ...: a full board, no line


@pytest.fixture
def tictactoe() -> Iterator[None]:
    games.register(ENTRY)
    yield
    games.unregister(ENTRY.name)


class Clock:
    """The bots' clock, moved by the test (a restarted bot gets the same one)."""

    def __init__(self) -> None:
        self.offset = 0.0

    def __call__(self) -> float:
        return time.time() + self.offset


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def start_bot(fake: FakeDiscord, make_bot: Callable[..., GameBot], clock: Clock) -> Callable[[], Any]:
    """A bot with a thread per game, on the test's clock; each call is a fresh process's bot on the same database."""

    def start() -> Any:
        bot = make_bot(game_threads=True)
        context = fake.running_bot(bot)

        class Running:
            async def __aenter__(self) -> GameBot:
                await context.__aenter__()
                bot.service.clock = clock
                return bot

            async def __aexit__(self, *exc: object) -> None:
                await context.__aexit__(*exc)

        return Running()

    return start


def members(fake: FakeDiscord, names: list[str]) -> list[FakeUser]:
    known = {user.username: user for user in (fake.alice, fake.bob, fake.carol)}
    return [known[name] if name in known else fake.add_member(name=name).user for name in names]


async def create(fake: FakeDiscord, **options: Any) -> tuple[int, StoredMessage]:
    created = await fake.slash(fake.alice, "tournament", "create", options={"game": "tictactoe", **options})
    message = await created.final()
    assert not message.ephemeral
    join = next(cid for cid in message.custom_ids() if cid.startswith("tournament:join:"))
    return int(join.rsplit(":", 1)[1]), message


async def join(fake: FakeDiscord, message: StoredMessage, tournament_id: int, players: list[FakeUser]) -> None:
    for player in players:
        answer = await (await fake.click(player, message, f"tournament:join:{tournament_id}")).final()
        assert answer.id == message.id and player.mention in answer.content


async def view(bot: GameBot, tournament_id: int) -> TournamentView:
    return await bot.service.tournaments.view(tournament_id)


async def next_round(fake: FakeDiscord, bot: GameBot, tournament_id: int, number: int) -> TournamentView:
    """Wait for round ``number`` to be paired and announced (its games' first boards in their threads)."""

    async def started() -> TournamentView | None:
        seen = await view(bot, tournament_id)
        return seen if seen.tournament.round >= number else None

    seen = await fake.wait_until(started, what=f"round {number}")
    await fake.wait_until(
        lambda: any(f"round {number} of" in m.content for m in fake.channel_messages(fake.channel)),
        what=f"the announcement of round {number}",
    )
    return seen


def pairings(seen: TournamentView, number: int, names: dict[int, str]) -> list[tuple[str, str | None]]:
    return [
        (names[board.player0], names[board.player1] if board.player1 else None) for board in seen.round_boards(number)
    ]


async def thread_of(bot: GameBot, fake: FakeDiscord, game_id: int) -> int:
    async def opened() -> int | None:
        return (await bot.service.finder.game(game_id)).thread_id

    thread_id = await fake.wait_until(opened, what=f"the thread of game {game_id}")
    board = await fake.wait_for_message(thread_id, lambda m: bool(m.attachments))
    assert board.attachment().data.startswith(PNG_SIGNATURE)
    assert "begins" not in board.content or any(cid.startswith("tap:") for cid in board.custom_ids())  # tappable
    return thread_id


async def resign(fake: FakeDiscord, bot: GameBot, game_id: int, loser: FakeUser) -> None:
    thread_id = await thread_of(bot, fake, game_id)
    reply = await (await fake.slash(loser, "tictactoe", "resign", channel=thread_id)).final()
    assert "resigned" in reply.content, reply.content


async def play(
    fake: FakeDiscord, bot: GameBot, game_id: int, players: tuple[FakeUser, FakeUser], moves: list[str]
) -> None:
    thread_id = await thread_of(bot, fake, game_id)
    for ply, move in enumerate(moves):
        reply = await (
            await fake.slash(players[ply % 2], "tictactoe", "move", options={"move": move}, channel=thread_id)
        ).final()
        assert f"**{move}**" in reply.content, reply.content


def game_of(seen: TournamentView, number: int, player: int) -> int:
    board = next(b for b in seen.round_boards(number) if player in (b.player0, b.player1))
    assert board.game_id is not None
    return board.game_id


def table(seen: TournamentView, names: dict[int, str]) -> list[tuple[str, Fraction, Fraction, Fraction]]:
    return [(names[row.player], row.points, row.buchholz, row.sonneborn_berger) for row in seen.standings]


async def test_an_eight_player_swiss_of_three_rounds_plays_to_the_end_through_a_restart(
    fake: FakeDiscord, start_bot: Callable[[], Any], clock: Clock, db: Database, tictactoe: None
) -> None:
    players = members(fake, ["alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi"])
    p1, p2, p3, p4, p5, p6, p7, p8 = players
    names = {user.id: f"P{index}" for index, user in enumerate(players, start=1)}
    role = fake.add_role("Champion")
    manage_roles = discord.Permissions(manage_roles=True).value
    fake.set_bot_permissions(BOT_PERMISSIONS | manage_roles)

    async with start_bot() as bot:
        tournament_id, signup = await create(
            fake,
            name="Spring Swiss",
            format="swiss",
            rounds=3,
            time=HOUR,
            winner_role=role,
        )
        assert "Spring Swiss" in signup.content and "3 rounds" in signup.content
        await join(fake, signup, tournament_id, players)  # P1..P8: seeds in the order they joined (all 1500)
        twice = await (await fake.click(p1, signup, f"tournament:join:{tournament_id}")).final()
        assert twice.ephemeral and "already signed up" in twice.content
        # A member who is no organiser cannot start it.
        refused = await (await fake.slash(p2, "tournament", "start", options={"tournament": tournament_id})).final()
        assert refused.ephemeral and "organisers" in refused.content
        await (await fake.slash(fake.alice, "tournament", "start", options={"tournament": tournament_id})).final()

        # Round 1, Dutch: 1 v 5, 2 v 6, 3 v 7, 4 v 8, the higher seed with side 0 on boards 1 and 3.
        seen = await next_round(fake, bot, tournament_id, 1)
        assert fake.messages[signup.id].custom_ids() == []  # the sign-up is closed
        assert pairings(seen, 1, names) == [("P1", "P5"), ("P6", "P2"), ("P3", "P7"), ("P8", "P4")]
        for loser in (p5, p6, p7, p8):
            await resign(fake, bot, game_of(seen, 1, loser.id), loser)
        # A finished game's header gets its result and still says which tournament and round it belongs to.
        header_id = (await bot.service.finder.game(game_of(seen, 1, p5.id))).challenge_message_id
        assert header_id is not None
        await fake.wait_until(lambda: "resigned" in fake.messages[header_id].content.lower(), what="the result")
        assert "**Spring Swiss**, round 1" in fake.messages[header_id].content
        seen = await next_round(fake, bot, tournament_id, 2)

    async with start_bot() as bot:  # a restart between the rounds: the new process carries on
        # Round 2: the winners P1, P2, P3, P4 and the losers P5..P8 stay in their score groups; within each, the
        # halves cross where the sides allow (P1 and P3 both had side 0: P1 meets P4, P3 meets P2).
        seen = await view(bot, tournament_id)
        assert pairings(seen, 2, names) == [("P4", "P1"), ("P2", "P3"), ("P5", "P8"), ("P7", "P6")]
        await resign(fake, bot, game_of(seen, 2, p1.id), p1)
        await play(fake, bot, game_of(seen, 2, p2.id), (p2, p3), DRAW)
        await play(fake, bot, game_of(seen, 2, p7.id), (p7, p6), ["b2"])  # then P6 lets the clock run
        # An organiser removes P8: the game P8 is playing is forfeited to P5.
        removed = await (
            await fake.slash(fake.alice, "tournament", "remove", options={"tournament": tournament_id, "member": p8.id})
        ).final()
        assert "removed" in removed.content and p8.mention in removed.content
        forfeited = await db.games.game(game_of(seen, 2, p5.id))
        assert forfeited is not None and forfeited.result_reason == "forfeit" and forfeited.winner == 0

        housekeeping = bot.get_cog("HousekeepingCog")
        clock.offset = 50 * 60  # a quarter of P6's hour is left: the reminder
        await housekeeping.sweep()
        thread = await thread_of(bot, fake, game_of(seen, 2, p6.id))
        reminder = await fake.wait_for_message(thread, lambda m: "time runs out" in m.content)
        assert p6.mention in reminder.content
        claim = await (await fake.slash(p7, "tictactoe", "claim", channel=thread)).final()
        assert claim.ephemeral and "clock" in claim.content  # no claims in a game with a clock
        clock.offset = 61 * 60
        await housekeeping.sweep()
        lost = await fake.wait_for_message(thread, lambda m: "ran out of time" in m.content)
        assert p6.mention in lost.content
        await housekeeping.sweep()  # a second sweep changes nothing
        assert len([m for m in fake.channel_messages(thread) if "ran out of time" in m.content]) == 1

        # Round 3: seven players, so a bye, for P6 (the lowest score). P4 (2 points) floats down to the top of
        # the 1½ group (P2); P3 floats to the 1-point group and meets P5 (P1 would repeat its side); P1 v P7.
        seen = await next_round(fake, bot, tournament_id, 3)
        assert pairings(seen, 3, names) == [("P4", "P2"), ("P3", "P5"), ("P1", "P7"), ("P6", None)]
        for loser in (p2, p3, p7):
            await resign(fake, bot, game_of(seen, 3, loser.id), loser)

        async def over() -> bool:
            return (await view(bot, tournament_id)).tournament.status == "finished"

        await fake.wait_until(over, what="the end of the tournament")
        final = await fake.wait_until(
            lambda: next((m for m in fake.channel_messages(fake.channel) if "Final standings" in m.content), None),
            what="the final standings",
        )
        seen = await view(bot, tournament_id)

    # Worked by hand (docs/tournaments.md): P4 won all three; P1 and P5 have 2 points, Buchholz 6 (P5 2, P4 3,
    # P7 1) against 3½ (P1 2, P8 0, P3 1½); P2 and P3 have 1½, Buchholz 5½ against 4½; P7 and P6 have 1, Buchholz
    # 4½ against 2½ (P6's bye has no opponent); P8, removed, has none.
    half, quarter = Fraction(1, 2), Fraction(1, 4)
    assert table(seen, names) == [
        ("P4", 3, 3 + half, 3 + half),
        ("P1", 2, 6, 3),
        ("P5", 2, 3 + half, 1 + half),
        ("P2", 1 + half, 5 + half, 1 + 3 * quarter),
        ("P3", 1 + half, 4 + half, 1 + 3 * quarter),
        ("P7", 1, 4 + half, 1),
        ("P6", 1, 2 + half, 0),
        ("P8", 0, 5, 0),
    ]
    assert [row.withdrawn for row in seen.standings] == [False] * 7 + [True]
    assert final.attachment().data.startswith(PNG_SIGNATURE)  # the standings as a picture
    assert p4.mention in final.content and "1. <@" in final.content
    assert role in fake.guild.members[p4.id].roles  # the winner's role
    assert all(board.points is not None for board in seen.boards)
    meetings = [frozenset({b.player0, b.player1}) for b in seen.boards if b.player1 is not None]
    assert len(meetings) == len(set(meetings)) == 11  # no pairing repeats
    for user in players:  # every player's sides are within one of each other
        played = [b for b in seen.boards if b.game_id is not None and user.id in (b.player0, b.player1)]
        sides = [0 if b.player0 == user.id else 1 for b in played]
        assert abs(sides.count(0) - sides.count(1)) <= 1, (names[user.id], sides)


async def test_a_five_player_round_robin_gives_everyone_a_bye_and_sonneborn_berger_splits_the_leaders(
    fake: FakeDiscord, start_bot: Callable[[], Any], tictactoe: None
) -> None:
    players = members(fake, ["alice", "bob", "carol", "dave", "erin"])
    q5 = players[4]
    names = {user.id: f"Q{index}" for index, user in enumerate(players, start=1)}
    role = fake.add_role("Champion")  # the bot has no Manage Roles here: it says so, once

    # The circle method for five: each round a bye (1 point) and two games, as docs/tournaments.md draws it.
    schedule = [
        [("Q5", "Q2"), ("Q4", "Q3"), ("Q1", None)],
        [("Q2", "Q1"), ("Q5", "Q4"), ("Q3", None)],
        [("Q1", "Q3"), ("Q2", "Q4"), ("Q5", None)],
        [("Q4", "Q1"), ("Q3", "Q5"), ("Q2", None)],
        [("Q1", "Q5"), ("Q3", "Q2"), ("Q4", None)],
    ]
    # Who loses each game (None: played to a draw).
    losers: list[dict[tuple[str, str], str | None]] = [
        {("Q5", "Q2"): "Q2", ("Q4", "Q3"): "Q4"},
        {("Q2", "Q1"): "Q2", ("Q5", "Q4"): None},
        {("Q1", "Q3"): "Q1", ("Q2", "Q4"): "Q2"},
        {("Q4", "Q1"): "Q4", ("Q3", "Q5"): "Q3"},
        {("Q1", "Q5"): None, ("Q3", "Q2"): "Q2"},
    ]
    users = {f"Q{index}": user for index, user in enumerate(players, start=1)}

    async def play_round(bot: GameBot, tournament_id: int, number: int) -> None:
        seen = await next_round(fake, bot, tournament_id, number)
        assert pairings(seen, number, names) == schedule[number - 1]
        for (first, second), loser in losers[number - 1].items():
            game_id = game_of(seen, number, users[first].id)
            if loser is None:
                await play(fake, bot, game_id, (users[first], users[second]), DRAW)
            else:
                await resign(fake, bot, game_id, users[loser])

    async with start_bot() as bot:
        tournament_id, signup = await create(
            fake, name="Autumn Round", format="round_robin", rounds=1, time=HOUR, max_players=5, winner_role=role
        )
        await join(fake, signup, tournament_id, players)
        late = fake.add_member(name="late").user
        full = await (await fake.click(late, signup, f"tournament:join:{tournament_id}")).final()
        assert full.ephemeral and "is full" in full.content
        left = await (await fake.click(q5, signup, f"tournament:leave:{tournament_id}")).final()
        assert q5.mention not in left.content
        await join(fake, signup, tournament_id, [q5])
        # Removed by the organiser before the start: the sign-up message stops listing them and stays open.
        removed = await (
            await fake.slash(fake.alice, "tournament", "remove", options={"tournament": tournament_id, "member": q5.id})
        ).final()
        assert q5.mention in removed.content
        await fake.wait_until(lambda: q5.mention not in fake.messages[signup.id].content, what="the sign-up updated")
        assert f"tournament:join:{tournament_id}" in fake.messages[signup.id].custom_ids()
        await join(fake, signup, tournament_id, [q5])
        bot.service.clock = lambda: time.time() + 25 * HOUR  # past the day of sign-up: the sweep starts it
        await bot.get_cog("HousekeepingCog").sweep()
        for number in (1, 2):
            await play_round(bot, tournament_id, number)
        await next_round(fake, bot, tournament_id, 3)
        # Anyone may read the standings and the round's boards, privately, in their own language.
        standings = await (
            await fake.slash(q5, "tournament", "standings", options={"tournament": tournament_id}, locale="ja")
        ).final()
        assert standings.ephemeral and "順位" in standings.content and "Autumn Round" in standings.content
        picture = standings.attachment()
        assert picture.data.startswith(PNG_SIGNATURE) and picture.description and "順位" in picture.description
        listed = await (await fake.slash(q5, "tournament", "list")).final()
        assert listed.ephemeral and "Autumn Round" in listed.content and "round 3 of 5" in listed.content

    async with start_bot() as bot:  # a restart in the middle
        bot.service.clock = lambda: time.time() + 25 * HOUR
        for number in (3, 4, 5):
            await play_round(bot, tournament_id, number)
        final = await fake.wait_until(
            lambda: next((m for m in fake.channel_messages(fake.channel) if "Final standings" in m.content), None),
            what="the final standings",
        )
        seen = await view(bot, tournament_id)

    # Worked by hand: Q3 and Q5 have 4 points; in a round robin Buchholz is everyone else's points (11 each), so
    # Sonneborn-Berger decides: Q5 beat Q2 (1) and Q3 (4), drew Q4 (2½ / 2) and Q1 (3½ / 2) = 8; Q3 beat Q4
    # (2½), Q1 (3½) and Q2 (1) = 7. Then Q1 3½, Q4 2½, Q2 1.
    half = Fraction(1, 2)
    assert table(seen, names) == [
        ("Q5", 4, 11, 8),
        ("Q3", 4, 11, 7),
        ("Q1", 3 + half, 11 + half, 5 + half),
        ("Q4", 2 + half, 12 + half, 3),
        ("Q2", 1, 14, 0),
    ]
    assert [row.byes for row in seen.standings] == [1] * 5
    assert q5.mention in final.content and "Manage Roles" in final.content
    assert role not in fake.guild.members[q5.id].roles
    assert len([m for m in fake.channel_messages(fake.channel) if "Manage Roles" in m.content]) == 1
