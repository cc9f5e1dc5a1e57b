"""The bot in its own process, against the fake Discord server of the test process: for tests that kill it
with SIGKILL or run several processes (shards) on one database."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from pathlib import Path

from tests.e2e.fake_discord import FakeDiscord

ROOT = Path(__file__).resolve().parents[2]
# Short outbox and sweep timings, so that what a dead process left is picked up within the test.
FAST = {"ANNOUNCE_GRACE_SECONDS": "0.3", "ANNOUNCE_SECONDS": "0.2", "SWEEP_SECONDS": "3600"}


class ChildBot:
    """The bot in its own process, on the test's database and fake Discord server."""

    def __init__(self, fake: FakeDiscord, settings: dict[str, str], shard: tuple[int, int] | None = None) -> None:
        self.fake = fake
        self.shard = shard
        self.env = {
            **os.environ,
            "FAKE_DISCORD_URL": fake.base_url,
            "TEST_GAMES": "tests.fourth_game.entry",
            "GAME_THREADS": "false",  # as in conftest.make_bot: these tests drive members typing in the channel
            "RENDER_WORKERS": "0",
            **settings,
        }
        if shard is not None:
            self.env |= {"SHARD_IDS": str(shard[0]), "SHARD_COUNT": str(shard[1])}
        self.process: asyncio.subprocess.Process | None = None

    def _connected(self) -> bool:
        shards = self.fake.connected_shards
        return (self.shard in shards) if self.shard is not None else bool(shards)

    async def start(self) -> None:
        """Start the process; returns once its bot is ready (commands synced, connected, its guilds received)."""
        syncs = self.fake.sync_count
        # The child says "ready" on a pipe from discord.py's on_ready: the guilds have reached its client by then,
        # which the fake cannot see (it only knows what it sent).
        ready_read, ready_write = os.pipe()
        try:
            self.process = await asyncio.create_subprocess_exec(
                sys.executable,
                "-m",
                "tests.e2e.bot_process",
                cwd=ROOT,
                env={**self.env, "READY_FD": str(ready_write)},
                pass_fds=(ready_write,),
            )
        except BaseException:
            os.close(ready_read)
            raise
        finally:
            os.close(ready_write)  # the child has its own copy: its death closes the pipe
        said: list[bytes] = []
        loop = asyncio.get_running_loop()

        def read() -> None:
            said.append(os.read(ready_read, 64))  # b"ready\n", or b"" when the child died first
            loop.remove_reader(ready_read)

        loop.add_reader(ready_read, read)
        try:
            await self.fake.wait_until(lambda: said, timeout=30, what="the child bot to be ready")
        finally:
            loop.remove_reader(ready_read)
            os.close(ready_read)
        if said != [b"ready\n"]:
            raise AssertionError(f"the child bot died before it was ready (exit status {await self.process.wait()})")
        await self.fake.wait_until(
            lambda: self.fake.sync_count > syncs and self._connected(), timeout=30, what="the child bot's gateway"
        )

    async def kill(self) -> None:
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        await self.process.wait()
        await self.fake.wait_until(lambda: not self._connected(), timeout=10, what="the gateway to close")

    async def stop(self) -> None:
        if self.process is not None and self.process.returncode is None:
            self.process.terminate()
            await self.process.wait()
