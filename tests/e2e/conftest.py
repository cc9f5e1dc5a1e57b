"""Fixtures that run the real bot against the fake Discord server."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest

from bot import GameBot, Settings, create_bot
from storage.database import Database
from tests.e2e.alt_text_check import board_alt_text_problems
from tests.e2e.discord_shapes import check
from tests.e2e.fake_discord import FakeDiscord, start_fake_discord


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    # Each wait ends as soon as its condition holds: the timeout only bounds how long a failing wait takes. 30 s
    # leaves room for a heavy step (a hint's search, a pool of processes starting) on four workers sharing two
    # cores with other work.
    async with start_fake_discord(timeout=30.0) as server:
        yield server
    if server.check_alt_text:  # every board image of the run, whatever the test looked at (issue 22)
        problems = board_alt_text_problems(server)
        assert problems == [], "board images without proper alt text:\n" + "\n".join(problems[:20])
    if os.environ.get("DISCORD_SHAPES") == "all":  # every e2e test's traffic against Discord's description
        problems = check(server.request_log)
        assert problems == [], "differences from Discord's description:\n" + "\n".join(problems[:40])


@pytest.fixture
def make_bot(fake: FakeDiscord, tmp_path: Path) -> Callable[..., GameBot]:
    """A fresh bot on the same database each call, as after a crash and restart; keyword arguments override
    settings (e.g. a short ``announce_grace_seconds`` for the outbox tests).

    Games are played in their channel unless a test passes ``game_threads=True`` (the bot's default): the
    tests of moves, faults and crashes drive members typing in the channel, and tests/e2e/test_threads_e2e.py
    covers a thread per game (boards, header, replay, outbox, fallback)."""

    fake.check_alt_text = True  # the game bot's images must all carry alt text: checked at the end of the test

    def build(**overrides: Any) -> GameBot:
        overrides.setdefault("game_threads", False)
        overrides.setdefault("render_workers", 0)  # boards drawn in threads: no processes to start per bot
        overrides.setdefault("dev_guild_id", fake.guild.id)  # None: global commands (DMs, user installs)
        overrides.setdefault("shipped_puzzles", False)  # the puzzle tests store the shipped set when they use it
        settings = Settings(
            _env_file=None,
            discord_token="test-token",
            database_path=tmp_path / "games.sqlite3",
            sweep_seconds=3600,
            **overrides,
        )
        return create_bot(settings, guild_ready_timeout=0.05)

    return build


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    """The database the bots of :func:`make_bot` use, opened by the test itself: what it checks behind the
    bot's back (the service keeps its own connection to itself)."""
    database = await Database.open(tmp_path / "games.sqlite3")
    yield database
    await database.close()
