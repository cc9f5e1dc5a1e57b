"""The bot's own turn when its search workers die (issue 23): a worker killed twice in one turn costs only the
retries, not a wait for the next sweep; a search that fails every attempt is told publicly in the game, once,
with a Try again button, and the game goes on once the bot can think again.

The workers are killed for real (SIGKILL to the pool's processes right after the search was handed to them).
The sweep runs once an hour in these tests, so a move that comes is never the sweep's.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import pytest

from bot import GameBot
from sessions.thinking import SEARCH_ATTEMPTS
from storage.database import Database
from tests.e2e.driver import PNG_SIGNATURE, private_reply, public_reply
from tests.e2e.fake_discord import FakeDiscord, StoredMessage
from tests.e2e.log_records import project_lines, tracebacks
from tests.e2e.test_computer_e2e import QUICK_AI, start_against_bot

THINKING = {**QUICK_AI, "ai_move_seconds": 0.5}  # long enough for the kill to land while it searches


class WorkerKiller:
    """Stands in for the Thinker's submit: hands the search to the pool, then kills every worker of the pool,
    ``left`` more times."""

    def __init__(self, left: int) -> None:
        self.left = left
        self.kills = 0

    async def submit(self, pool: ProcessPoolExecutor, job: Callable[..., Any], *args: Any) -> Any:
        future = await asyncio.to_thread(pool.submit, job, *args)
        if self.left > 0:
            self.left -= 1
            self.kills += 1
            for process in list(pool._processes.values()):  # type: ignore[attr-defined]
                process.kill()
        return await asyncio.wrap_future(future)


def stuck_notices(fake: FakeDiscord) -> list[StoredMessage]:
    return [m for m in fake.channel_messages(fake.channel) if any(c.startswith("bot-turn:") for c in m.custom_ids())]


async def test_a_search_worker_killed_twice_in_one_bot_turn_is_retried_at_once(
    db: Database, fake: FakeDiscord, make_bot: Callable[..., GameBot], caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    async with fake.running_bot(make_bot(**THINKING)) as bot:
        row = await start_against_bot(fake, db, fake.alice, "iago", level=1)
        killer = WorkerKiller(2)
        bot.service.computer.thinker._submit = killer.submit  # type: ignore[attr-defined]
        mine = await public_reply(await fake.slash(fake.alice, "iago", "move", options={"move": "D4"}))
        assert len(await db.games.moves(row.id)) == 2 and killer.kills == 2
        bot_move = (await db.games.moves(row.id))[1]  # in the member's own message: one message a turn (issue 24)
        assert f"**{bot_move}**" in mine.content and mine.attachment().data.startswith(PNG_SIGNATURE)
    assert stuck_notices(fake) == []
    died = [line for line in project_lines(caplog) if "search worker died" in line]
    assert len(died) == 2 and tracebacks(caplog) == []


async def test_a_bot_that_cannot_think_says_so_once_and_moves_when_asked_again(
    db: Database, fake: FakeDiscord, make_bot: Callable[..., GameBot], caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    async with fake.running_bot(make_bot(**THINKING)) as bot:
        row = await start_against_bot(fake, db, fake.alice, "iago", level=1)
        killer = WorkerKiller(SEARCH_ATTEMPTS)
        bot.service.computer.thinker._submit = killer.submit  # type: ignore[attr-defined]
        mine = await public_reply(await fake.slash(fake.alice, "iago", "move", options={"move": "D4"}))
        assert "**D4**" in mine.content  # the bot cannot answer: the move is announced on its own at once
        notice = await fake.wait_for_message(predicate=lambda m: any(c.startswith("bot-turn:") for c in m.custom_ids()))
        assert not notice.ephemeral and fake.alice.mention in notice.content
        assert f"#{row.id}" in notice.content and "/iago resign" in notice.content and "Try again" in notice.content
        assert len(await db.games.moves(row.id)) == 1
        # Still failing: the member asked again, and is answered; the game is not told a second time.
        killer.left = SEARCH_ATTEMPTS
        button = notice.custom_ids()[0]
        assert "Trying again" in (await private_reply(await fake.click(fake.alice, notice, button))).content
        await fake.wait_until(lambda: killer.left == 0, what="the second turn's attempts")
        await asyncio.sleep(0.5)
        assert len(stuck_notices(fake)) == 1
        # A stranger may not ask; the player may, and now the bot moves.
        refused = await private_reply(await fake.click(fake.carol, notice, button))
        assert "Only the player" in refused.content
        await private_reply(await fake.click(fake.alice, notice, button))
        moved = await fake.wait_for_message(predicate=lambda m: m.attachments and m.id > notice.id)
        assert moved.attachment().data.startswith(PNG_SIGNATURE)
        assert len(await db.games.moves(row.id)) == 2
        # The game no longer waits for the bot: the button says so.
        late = await private_reply(await fake.click(fake.alice, notice, button))
        assert "not waiting for my move" in late.content
    assert killer.kills == 2 * SEARCH_ATTEMPTS
    assert tracebacks(caplog) == []
