"""The bot as a separate process against a fake Discord server in the test process, for tests that kill it.

``python -m tests.e2e.bot_process`` reads ``FAKE_DISCORD_URL`` and the bot's usual settings from the
environment (``DATABASE_URL``, ``DEV_GUILD_ID``, ``ANNOUNCE_GRACE_SECONDS``, ...), registers the test-only
games named in ``TEST_GAMES`` (module paths with an ``ENTRY``), points discord.py at the fake and runs the bot
until it is stopped, or killed.
"""

from __future__ import annotations

import asyncio
import importlib
import logging
import os
import sys

import games
from bot import Settings, create_bot, run
from tests.e2e.fake_discord import point_discord_at


def main() -> None:
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr, format="child %(levelname)s %(name)s: %(message)s")
    point_discord_at(os.environ["FAKE_DISCORD_URL"])
    for path in filter(None, os.environ.get("TEST_GAMES", "").split(",")):  # games that live in tests/ only
        games.register(importlib.import_module(path).ENTRY)
    settings = Settings(_env_file=None, discord_token="test-token")
    asyncio.run(run(create_bot(settings, guild_ready_timeout=0.05), "test-token"))


if __name__ == "__main__":
    main()
