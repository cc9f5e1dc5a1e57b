"""The bot as a separate process against a fake Discord server in the test process, for tests that kill it.

``python -m tests.e2e.bot_process`` reads ``FAKE_DISCORD_URL`` and the bot's usual settings from the
environment (``DATABASE_URL``, ``DEV_GUILD_ID``, ``ANNOUNCE_GRACE_SECONDS``, ...), registers the test-only
games named in ``TEST_GAMES`` (module paths with an ``ENTRY``), points discord.py at the fake and runs the bot
until it is stopped, or killed. ``READY_FD`` names a pipe it writes a line to once the bot is ready.

For the benches: ``LAG_REPORT=file`` measures the event loop's lag and the garbage collections (per phase, a
SIGUSR1 closing each) and writes them there on SIGTERM; ``LAG_STACKS=file`` appends every thread's stack whenever
the loop has not ticked for 40 ms; with ``LAG_REPORT``, ``PROFILE=file`` runs cProfile on the event loop's thread
from the start of phase ``PROFILE_PHASE`` (the number of SIGUSR1s before it; 0, the default: from the start) to
SIGTERM and writes its statistics there (``pstats``; ``bench/load.py --profile``) (docs/performance.md).
"""

from __future__ import annotations

import asyncio
import contextlib
import cProfile
import gc
import importlib
import json
import logging
import os
import signal
import sys
import threading
import time
import traceback
from pathlib import Path

import games
from bot import GameBot, Settings, create_bot, run
from tests.e2e.fake_discord import point_discord_at


def main() -> None:
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr, format="child %(levelname)s %(name)s: %(message)s")
    point_discord_at(os.environ["FAKE_DISCORD_URL"])
    for path in filter(None, os.environ.get("TEST_GAMES", "").split(",")):  # games that live in tests/ only
        games.register(importlib.import_module(path).ENTRY)
    settings = Settings(_env_file=None, discord_token="test-token")
    bot = create_bot(settings, guild_ready_timeout=0.05)
    if os.environ.get("CLOCK_FILE"):
        follow_clock_file(bot, Path(os.environ["CLOCK_FILE"]))
    if os.environ.get("READY_FD"):
        say_when_ready(bot, int(os.environ["READY_FD"]))
    asyncio.run(serve(bot, os.environ.get("LAG_REPORT")))


def follow_clock_file(bot: GameBot, path: Path) -> None:
    """``CLOCK_FILE=file``: the service's clock is the real one moved by the seconds the file holds, which the test
    may change while the bot runs (the daily puzzle's days, in several processes at once)."""
    set_up = bot.setup_hook

    def clock() -> float:
        try:
            return time.time() + float(path.read_text() or 0)
        except (OSError, ValueError):
            return time.time()

    async def setup_hook() -> None:
        await set_up()
        bot.service.clock = clock

    bot.setup_hook = setup_hook  # type: ignore[method-assign]


def say_when_ready(bot: GameBot, fd: int) -> None:
    """``READY_FD=n``: write one line to the pipe ``n`` once the bot is ready (discord.py's ``on_ready``: logged in,
    commands synced, the guilds received), then close it; the test that started this process waits for it."""

    async def on_ready() -> None:
        # Once: on_ready comes again after a new session, when the number may belong to another file.
        bot.remove_listener(on_ready, "on_ready")
        with contextlib.suppress(OSError):  # the test gave up waiting and closed its end
            os.write(fd, b"ready\n")
        os.close(fd)

    bot.add_listener(on_ready, "on_ready")


async def serve(bot: GameBot, lag_report: str | None) -> None:
    """Run the bot; with ``lag_report``, also measure its event loop's lag and write it there on SIGTERM. Each
    SIGUSR1 closes a phase (start-up, a benchmark's stages): the report gives max and p99 per phase."""
    if lag_report is None:
        await run(bot, "test-token")
        return
    lags: list[float] = []
    phases: list[dict[str, float]] = []
    closing: list[asyncio.Future[None]] = []

    async def tick() -> None:
        while True:
            started = time.perf_counter()
            await asyncio.sleep(0.01)
            lags.append(max(0.0, time.perf_counter() - started - 0.01))

    collections: dict[int, list[float]] = {0: [], 1: [], 2: []}  # pause of each garbage collection, per generation
    started: list[float] = [0.0]

    def on_gc(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            started[0] = time.perf_counter()
        else:
            collections[info["generation"]].append(time.perf_counter() - started[0])

    gc.callbacks.append(on_gc)

    profile = Path(os.environ["PROFILE"]) if os.environ.get("PROFILE") else None
    profiler, profile_from = cProfile.Profile(), int(os.environ.get("PROFILE_PHASE") or 0)
    if profile is not None and profile_from == 0:
        profiler.enable()

    def close_phase() -> None:
        if profile is not None and len(phases) + 1 == profile_from:  # the profiled phase begins
            profiler.enable()
        ordered = sorted(lags) or [0.0]
        phases.append(
            {
                "max_ms": 1000 * ordered[-1],
                "p99_ms": 1000 * ordered[int(0.99 * (len(ordered) - 1))],
                "gc": {gen: (len(pauses), 1000 * max(pauses, default=0.0)) for gen, pauses in collections.items()},
            }
        )
        lags.clear()
        for pauses in collections.values():
            pauses.clear()

    def report() -> None:
        if profile is not None:
            profiler.disable()
            profiler.dump_stats(profile)
        close_phase()
        Path(lag_report).write_text(json.dumps(phases))
        closing.append(asyncio.ensure_future(bot.close()))

    ticker = asyncio.create_task(tick())
    if os.environ.get("LAG_STACKS"):
        _watch_stalls(lags, Path(os.environ["LAG_STACKS"]))
    loop = asyncio.get_running_loop()
    loop.add_signal_handler(signal.SIGTERM, report)
    loop.add_signal_handler(signal.SIGUSR1, close_phase)
    try:
        await run(bot, "test-token")
    finally:
        ticker.cancel()


def _watch_stalls(lags: list[float], out: Path, stall: float = 0.04) -> None:
    """A thread that writes what the event loop's thread (and every other) was doing whenever the loop has not
    ticked for ``stall`` seconds: where a long lag comes from."""
    main = threading.get_ident()

    def watch() -> None:
        seen, since = len(lags), time.perf_counter()
        reported = False
        while True:
            time.sleep(0.005)
            if len(lags) != seen:
                seen, since, reported = len(lags), time.perf_counter(), False
                continue
            if not reported and time.perf_counter() - since > stall:
                reported = True
                frames = sys._current_frames()
                with out.open("a") as file:
                    file.write(f"=== stall > {1000 * stall:.0f} ms at {time.time():.3f}\n")
                    for ident, frame in frames.items():
                        name = "LOOP" if ident == main else f"thread {ident}"
                        stack = "".join(traceback.format_stack(frame, limit=12))
                        file.write(f"--- {name}\n{stack}")

    threading.Thread(target=watch, daemon=True, name="stall watcher").start()


if __name__ == "__main__":
    main()
