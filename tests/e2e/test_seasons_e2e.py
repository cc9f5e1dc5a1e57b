"""Seasons: an admin turns them on, the leaderboard ranks the running season, its end is announced with its best
players exactly once (also with two processes sweeping the same server), and earlier seasons stay readable."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Iterator
from contextlib import AsyncExitStack

import pytest
import sqlalchemy as sa

import games
from bot import GameBot
from storage.database import Database
from storage.schema import announcements, seasons
from tests.e2e.child import FAST, ChildBot
from tests.e2e.driver import challenge_and_accept, private_reply, public_reply
from tests.e2e.fake_discord import FakeDiscord, start_fake_discord
from tests.fourth_game.entry import ENTRY

DAY = 86400


@pytest.fixture
def tictactoe() -> Iterator[None]:
    games.register(ENTRY)
    yield
    games.unregister(ENTRY.name)


async def test_a_season_ranks_its_own_games_ends_with_its_best_players_and_stays_readable(
    db: Database, fake: FakeDiscord, make_bot: Callable[..., GameBot]
) -> None:
    async with fake.running_bot(make_bot()) as bot:
        refused = await private_reply(await fake.slash(fake.bob, "season", "start", options={"months": 3}, forged=True))
        assert "Manage Server" in refused.content
        await challenge_and_accept(fake, "iago")  # alice v bob, before seasons: counts all-time only
        await public_reply(await fake.slash(fake.bob, "iago", "resign"))

        started = await public_reply(await fake.slash(fake.alice, "season", "start", options={"months": 3}))
        assert "Season 1 has begun" in started.content
        again = await private_reply(await fake.slash(fake.alice, "season", "start", options={"months": 1}))
        assert "already running" in again.content
        board = await public_reply(await fake.slash(fake.carol, "leaderboard", options={"game": "iago"}))
        assert "season 1" in board.text() and "No rated games yet" in board.text()  # the season starts afresh

        await challenge_and_accept(fake, "iago")
        await public_reply(await fake.slash(fake.alice, "iago", "resign"))  # bob wins the season's only game
        board = await public_reply(await fake.slash(fake.carol, "leaderboard", options={"game": "iago"}))
        assert board.text().index(fake.bob.mention) < board.text().index(fake.alice.mention)
        all_time = await public_reply(
            await fake.slash(fake.carol, "leaderboard", options={"game": "iago", "season": 0})
        )
        assert "season" not in all_time.text() and fake.alice.mention in all_time.text()

        bot.service.clock = lambda: time.time() + 93 * DAY  # past three months
        housekeeping = bot.get_cog("HousekeepingCog")
        await housekeeping.sweep()
        ended = await fake.wait_for_message(fake.channel, lambda m: "Season 1 is over" in m.content)
        assert fake.bob.mention in ended.content and "Season 2 has begun" in ended.content
        await housekeeping.sweep()
        assert len([m for m in fake.channel_messages(fake.channel) if "Season 1 is over" in m.content]) == 1

        choices = await fake.autocomplete(
            fake.carol, "leaderboard", focused="season", value="", options={"game": "iago"}
        )
        assert [choice["value"] for choice in choices] == [0, 2, 1]
        old = await public_reply(await fake.slash(fake.carol, "leaderboard", options={"game": "iago", "season": 1}))
        assert "season 1" in old.text() and fake.bob.mention in old.text()
        new = await public_reply(await fake.slash(fake.carol, "leaderboard", options={"game": "iago"}))
        assert "season 2" in new.text() and "No rated games yet" in new.text()

        stopped = await private_reply(await fake.slash(fake.alice, "season", "stop"))
        assert "Season 2 has ended" in stopped.content
        await fake.wait_for_message(fake.channel, lambda m: "Seasons are now off" in m.content)
        board = await public_reply(await fake.slash(fake.carol, "leaderboard", options={"game": "iago"}))
        assert "season" not in board.text()  # all-time again


async def test_two_processes_serving_one_server_roll_a_season_over_exactly_once(
    postgres_url: str, tictactoe: None
) -> None:
    """Two bot processes both have the server (an overlap while one replaces the other, say) and both sweep it
    every 0.3 s on one PostgreSQL: the season ends once, one announcement, one next season."""
    async with start_fake_discord(timeout=15.0) as fake, AsyncExitStack() as stack:
        children = [ChildBot(fake, {**FAST, "DATABASE_URL": postgres_url, "SWEEP_SECONDS": "0.3"}) for _ in range(2)]
        for child in children:
            await child.start()
            stack.push_async_callback(child.stop)
        await fake.wait_until(lambda: len(fake.connected_shards) == 2, what="both processes")
        db = await Database.open(postgres_url)
        stack.push_async_callback(db.close)

        await public_reply(await fake.slash(fake.alice, "season", "start", options={"months": 1}))
        challenge = await public_reply(
            await fake.slash(fake.alice, "tictactoe", "challenge", options={"opponent": fake.bob.id, "side": 0})
        )
        accept = next(cid for cid in challenge.custom_ids() if cid.startswith("challenge:accept:"))
        await (await fake.click(fake.bob, challenge, accept)).final()
        turns = (fake.alice, fake.bob, fake.alice, fake.bob, fake.alice)
        for user, cell in zip(turns, ("a1", "b1", "a2", "b2", "a3"), strict=True):
            await public_reply(await fake.slash(user, "tictactoe", "move", options={"move": cell}))

        # The season's end comes now: both processes' next sweeps find it due.
        await db.write(lambda c: c.execute(sa.update(seasons).values(ends_at=time.time())))

        def over() -> list[str]:
            return [m.content for m in fake.channel_messages(fake.channel) if "Season 1 is over" in m.content]

        await fake.wait_until(over, timeout=30, what="the season's end")
        await asyncio.sleep(1.5)  # several more sweeps of both processes
        assert len(over()) == 1 and fake.alice.mention in over()[0]  # alice won the season's one game
        rows = await db.seasons.seasons_of(fake.guild.id)
        assert [(season.number, season.closed_at is None) for season in rows] == [(2, True), (1, False)]
        ends = await db.read(
            lambda c: c.execute(sa.select(sa.func.count()).where(announcements.c.kind == "season_end")).scalar_one()
        )
        assert ends == 1
