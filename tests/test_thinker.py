"""The bot's search workers end with the bot, even when it is killed without a chance to shut its pool down."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import pytest

import games
from sessions.thinking import SEARCH_ATTEMPTS, Thinker, ThinkingFailed

ROOT = Path(__file__).resolve().parent.parent

# A bot stand-in: a Thinker that has searched once (so its fork server and worker exist), printing their pids.
CHILD = """
import asyncio, multiprocessing.forkserver
import games
from sessions.thinking import Thinker

async def main():
    thinker = Thinker(workers=1, budget=0.05)
    move = await thinker.move(games.find("iago"), {}, [], 1, 0)
    assert move
    pids = [process.pid for process in thinker._pool._processes.values()]
    pids.append(multiprocessing.forkserver._forkserver._forkserver_pid)
    print(" ".join(map(str, pids)), flush=True)
    await asyncio.sleep(120)

asyncio.run(main())
"""


def _running(pid: int) -> bool:
    """Alive and not a zombie waiting to be reaped."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return False
    return state != "Z"


def test_workers_and_fork_server_exit_when_the_bot_is_killed() -> None:
    bot = subprocess.Popen([sys.executable, "-c", CHILD], cwd=ROOT, stdout=subprocess.PIPE, text=True)
    try:
        assert bot.stdout is not None
        pids = [int(pid) for pid in bot.stdout.readline().split()]
        assert len(pids) == 2 and all(_running(pid) for pid in pids)
        os.kill(bot.pid, signal.SIGKILL)
        bot.wait()
        deadline = time.monotonic() + 30  # a bound on the wait, not a timing assertion: they go in milliseconds
        while any(_running(pid) for pid in pids) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert [pid for pid in pids if _running(pid)] == []
    finally:
        if bot.poll() is None:
            bot.kill()


async def test_a_killed_worker_costs_no_move() -> None:
    thinker = Thinker(workers=1, budget=0.05)
    try:
        first = await thinker.move(games.find("iago"), {}, [], 1, 0)
        assert thinker._pool is not None
        for process in list(thinker._pool._processes.values()):
            os.kill(process.pid, signal.SIGKILL)
        # The pool notices the death only when asked: this move finds it broken, gets new workers and is played.
        second = await thinker.move(games.find("iago"), {}, [first], 1, 0)
        assert second in _legal_after(first)
    finally:
        thinker.close()


def _legal_after(move: str) -> list[str]:
    state = games.find("iago").new_game()
    state.play(move)
    return state.legal_moves()


async def test_a_search_whose_workers_die_every_time_is_tried_a_bounded_number_of_times() -> None:
    """Issue 23: retried at once on new workers, SEARCH_ATTEMPTS times in all, then ThinkingFailed (the bot's
    turn then says it cannot move); the pool works again afterwards."""
    thinker = Thinker(workers=1, budget=0.5)
    attempts = []

    async def killing(pool: ProcessPoolExecutor, job: Callable[..., Any], *args: Any) -> Any:
        future = await asyncio.to_thread(pool.submit, job, *args)
        attempts.append(len(pool._processes))  # type: ignore[attr-defined]
        for process in list(pool._processes.values()):  # type: ignore[attr-defined]
            process.kill()
        return await asyncio.wrap_future(future)

    try:
        thinker._submit = killing  # type: ignore[method-assign]
        with pytest.raises(ThinkingFailed):
            await thinker.move(games.find("iago"), {}, [], 1, 0)
        assert len(attempts) == SEARCH_ATTEMPTS and all(attempts)
        del thinker._submit
        assert await thinker.move(games.find("iago"), {}, [], 1, 0) in games.find("iago").new_game().legal_moves()
    finally:
        thinker.close()
