"""PostgreSQL stopped in the middle of a burst of members' actions (issue 31, point 7), through the real client.

Eighty members each send a challenge while the server is being stopped: the first ones are under way on the
server (their writes wait for a lock the test holds, so none can land before the stop), the later ones reach a
server that is going away or gone. Every member must read the honest answer, privately and in time ("my
database is not answering. Nothing was changed. Please try again in a moment."), never "Something went wrong";
nothing is written; the log holds the outage's two lines and no traceback. On house two or three members in a
hundred got "Something went wrong": asyncpg's "cannot switch to state 15; another operation (2) is in progress"
on a connection whose session the server had just ended (tests/test_postgres_outage_burst.py, docs/reliability.md).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

import asyncpg
import pytest
import sqlalchemy as sa

from bot import GameBot
from storage.database import Database
from tests.conftest import PostgresServer
from tests.e2e.fake_discord import FakeDiscord, FakeInteraction
from tests.e2e.log_records import tracebacks
from tests.e2e.test_database_faults_e2e import FAST_OUTBOX, assert_outage_logged_once, told_to_try_again

MEMBERS = 80
SPACING_S = 0.01  # between two members' challenges: the burst spans the stop
STOP_AFTER = 30  # challenges sent before the server is told to stop


async def waiting_for_the_lock(db: Database, count: int) -> None:
    """Wait until ``count`` sessions wait for the lock the test holds (a bounded poll of pg_stat_activity)."""
    probe = sa.text("SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'")
    for _ in range(500):
        if await db.read(lambda connection: connection.execute(probe).scalar()) >= count:
            return
        await asyncio.sleep(0.02)
    raise AssertionError(f"{count} sessions never waited for the lock")


@pytest.mark.parametrize("mode", ["fast", "immediate"])
async def test_postgresql_stopped_mid_burst_every_member_reads_the_honest_answer_and_nothing_changes(
    fake: FakeDiscord,
    make_bot: Callable[..., GameBot],
    postgres_url: str,
    postgres_server: PostgresServer,
    caplog: pytest.LogCaptureFixture,
    mode: str,
) -> None:
    caplog.set_level(logging.INFO)
    members = [fake.add_member(name=f"member{number}").user for number in range(MEMBERS)]
    db = await Database.open(postgres_url)
    # The lock's holder is a plain asyncpg connection: a Database of the test's own would log an outage of its own.
    holder = await asyncpg.connect(postgres_url.replace("postgresql+asyncpg://", "postgresql://"))
    try:
        async with fake.running_bot(make_bot(database_url=postgres_url, **FAST_OUTBOX)):
            before = await db.read(lambda connection: connection.exec_driver_sql("SELECT count(*) FROM games").scalar())
            sent: list[FakeInteraction] = []
            # Reads go on; every write of a game waits: no challenge can land before the stop.
            await holder.execute("BEGIN; LOCK TABLE games IN EXCLUSIVE MODE")
            stopped: asyncio.Future[None] | None = None
            for number, member in enumerate(members):
                opponent = members[(number + 1) % MEMBERS]
                sent.append(await fake.slash(member, "iago", "challenge", options={"opponent": opponent.id}))
                if number + 1 == STOP_AFTER:
                    await waiting_for_the_lock(db, 5)  # the first challenges are under way on the server
                    stopped = asyncio.ensure_future(asyncio.to_thread(postgres_server.stop, mode))
                await asyncio.sleep(SPACING_S)
            assert stopped is not None
            await stopped
            try:
                for interaction in sent:
                    await told_to_try_again(fake, interaction)
            finally:
                await asyncio.to_thread(postgres_server.start)
            # The outage ends once a read and a write of the bot succeed: the next challenge goes through.
            played = await (
                await fake.slash(fake.alice, "iago", "challenge", options={"opponent": fake.bob.id})
            ).final()
            assert not played.ephemeral and fake.bob.mention in played.content
        after = await db.read(lambda connection: connection.exec_driver_sql("SELECT count(*) FROM games").scalar())
        assert after == before + 1  # only the challenge sent after the start: the burst changed nothing
    finally:
        holder.terminate()  # its session ended with the server
        await db.close()
    assert not any("went wrong" in message.content for message in fake.messages.values())
    assert_outage_logged_once(caplog)
    assert tracebacks(caplog) == []
