"""Two bot processes, each running one of two shards, on one PostgreSQL: every server's work is done once.

Games are played in a server of each shard; both processes run their background sweeps (expiry, reminders,
the outbox) at short intervals on the shared database. Every reminder, expiry notice and announcement must be
posted exactly once, by the process that has the server, and every game must stay consistent.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import AsyncExitStack

import pytest

import games
from storage.database import Database
from tests.e2e.child import FAST, ChildBot
from tests.e2e.fake_discord import FakeDiscord, start_fake_discord
from tests.e2e.harness import FakeChannel, FakeGuild
from tests.fourth_game.entry import ENTRY

SHARDS = 2


@pytest.fixture
def tictactoe() -> AsyncIterator[None]:
    games.register(ENTRY)
    yield
    games.unregister(ENTRY.name)


async def eventually(check: Callable[[], Awaitable[bool]], what: str, timeout: float = 30) -> None:
    for _ in range(int(timeout / 0.05)):
        if await check():
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


def texts(fake: FakeDiscord, channel: FakeChannel, needle: str) -> list[str]:
    return [m.content for m in fake.channel_messages(channel) if needle in m.content and not m.ephemeral]


async def test_two_processes_with_a_shard_each_do_every_servers_work_exactly_once(
    postgres_url: str, tictactoe: None
) -> None:
    async with start_fake_discord(timeout=15.0, shard_count=SHARDS) as fake, AsyncExitStack() as stack:
        servers: list[FakeGuild] = [fake.add_guild(f"shard {n}", shard=(n, SHARDS)) for n in range(SHARDS)]
        for guild in servers:
            for user in (fake.alice, fake.bob):
                fake.add_member(user.id, guild=guild)
        settings = {
            **FAST,
            "DATABASE_URL": postgres_url,
            "SWEEP_SECONDS": "0.3",
            "REMINDER_HOURS": "0.0006",  # about two seconds
            "CHALLENGE_TTL_MINUTES": "0.03",  # about two seconds
        }
        children = [ChildBot(fake, settings, shard=(n, SHARDS)) for n in range(SHARDS)]
        for child in children:
            await child.start()
            stack.push_async_callback(child.stop)
        db = await Database.open(postgres_url)
        stack.push_async_callback(db.close)

        played: dict[int, tuple[FakeChannel, list[str]]] = {}
        unanswered: list[tuple[FakeChannel, int]] = []
        for guild in servers:
            channel = guild.text_channels[0]
            challenge = await (
                await fake.slash(
                    fake.alice, "tictactoe", "challenge", options={"opponent": fake.bob.id, "side": 0}, channel=channel
                )
            ).final()
            accept = next(cid for cid in challenge.custom_ids() if cid.startswith("challenge:accept:"))
            await (await fake.click(fake.bob, challenge, accept)).final()
            game_id = int(accept.rsplit(":", 1)[1])
            moves = ["b2", "a1"]  # then alice idles: a reminder is due
            for user, cell in zip((fake.alice, fake.bob), moves, strict=True):
                reply = await (
                    await fake.slash(user, "tictactoe", "move", options={"move": cell}, channel=channel)
                ).final()
                assert f"**{cell}**" in reply.content
            played[game_id] = (channel, moves)
            left_open = await (
                await fake.slash(
                    fake.bob, "tictactoe", "challenge", options={"opponent": fake.alice.id}, channel=channel
                )
            ).final()
            unanswered.append((channel, left_open.id))

        async def everything_delivered() -> bool:
            for game_id in played:
                if await db.outbox.pending_for_game(game_id):
                    return False
            reminded = all(texts(fake, channel, "waiting for your move") for channel, _ in played.values())
            expired = all("expired" in fake.messages[mid].content for _, mid in unanswered)
            return reminded and expired

        await eventually(everything_delivered, "the reminders, expiry notices and announcements")
        await asyncio.sleep(1.5)  # several more sweeps of both processes: nothing more may be posted

        for game_id, (channel, moves) in played.items():
            assert len(texts(fake, channel, "waiting for your move")) == 1
            for cell in moves:
                assert len(texts(fake, channel, f"**{cell}**")) == 1
            assert len(texts(fake, channel, "accepted")) == 1
            row = await db.games.game(game_id)
            assert row is not None and row.status == "active" and await db.games.moves(game_id) == moves
            assert row.guild_id == channel.guild_id
        for channel, message_id in unanswered:
            assert fake.messages[message_id].custom_ids() == []
            assert len([m for m in fake.channel_messages(channel) if "expired" in m.content]) == 1
