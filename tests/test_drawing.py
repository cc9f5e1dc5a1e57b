"""Boards drawn in worker processes: the same PNG as drawn in the bot's own thread, for every game (one that
only a test registers included), and a dead worker costs no board."""

from __future__ import annotations

import asyncio
import os
import random
import signal
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

import games
from engines import GameState
from sessions.board_descriptions import alt_text
from sessions.drawing import Drawer
from tests.fourth_game.entry import ENTRY as FOURTH_GAME

ROOT = Path(__file__).resolve().parents[1]


def middle_game(entry: games.GameEntry, seed: int = 3) -> GameState:
    state = entry.new_game(**{option.name: option.default for option in entry.options})
    rng = random.Random(seed)
    for _ in range(12):
        if state.is_over:
            break
        state.play(rng.choice(state.legal_moves()))
    return state


@pytest.fixture
async def drawer() -> AsyncIterator[Drawer]:
    pool = Drawer(1)
    yield pool
    pool.close()


async def test_a_worker_draws_what_the_thread_draws(drawer: Drawer) -> None:
    await drawer.warm_up()
    assert drawer._pool is not None  # the boards below are drawn by the worker
    for entry in [*games.entries(), FOURTH_GAME]:  # the fourth game is not in the worker's registry
        state = middle_game(entry)
        for language in ("en", "ja"):
            png = await drawer.draw(entry, state, ("Alice", "Bob"), language)
            assert png == entry.render(state, ("Alice", "Bob"), language), (entry.name, language)


async def test_a_worker_describes_the_board_it_draws_as_the_thread_does(drawer: Drawer) -> None:
    """One job draws a board and writes its words for a screen reader, in the reader's language; a game whose
    renderer has no words (the fourth game) gets the generic description."""
    await drawer.warm_up()
    assert drawer._pool is not None
    for entry in [*games.entries(), FOURTH_GAME]:
        state = middle_game(entry)
        for language, reader in (("en", "en"), ("ja", "en"), ("en", "ja")):
            png, described = await drawer.picture(
                entry, state, ("Alice", "Bob"), language, {"layout": "portrait"}, reader
            )
            assert png == entry.render(state, ("Alice", "Bob"), language, layout="portrait"), (entry.name, language)
            assert described == alt_text(entry, state, ("Alice", "Bob"), reader), (entry.name, reader)


async def test_a_dead_worker_costs_no_board(drawer: Drawer) -> None:
    entry = games.find("iago")
    state = middle_game(entry)
    expected = entry.render(state, ("a", "b"))
    await drawer.warm_up()
    assert await drawer.draw(entry, state, ("a", "b")) == expected
    pool = drawer._pool
    assert pool is not None
    for process in pool.processes:
        os.kill(process.pid, signal.SIGKILL)
        process.join()
    assert await drawer.draw(entry, state, ("a", "b")) == expected  # drawn in a thread this time
    await drawer.warm_up()  # new workers were started meanwhile
    assert drawer._pool is not None and drawer._pool is not pool
    assert await drawer.draw(entry, state, ("a", "b")) == expected


WORKERS_OF_A_BOT = """
import asyncio, sys, time
from sessions.board_descriptions import alt_text
from sessions.drawing import Drawer

async def main():
    drawer = Drawer(2)
    await drawer.warm_up()
    print(" ".join(str(process.pid) for process in drawer._pool.processes), flush=True)
    time.sleep(600)

asyncio.run(main())
"""


async def test_the_workers_leave_when_the_bot_is_killed() -> None:
    bot = await asyncio.create_subprocess_exec(
        sys.executable, "-c", WORKERS_OF_A_BOT, stdout=asyncio.subprocess.PIPE, cwd=ROOT
    )
    assert bot.stdout is not None
    workers = [int(pid) for pid in (await asyncio.wait_for(bot.stdout.readline(), 60)).split()]
    assert len(workers) == 2 and all(alive(pid) for pid in workers)
    bot.kill()
    await bot.wait()
    for _ in range(200):  # kill -9 runs no clean-up: the workers notice on their own
        if not any(alive(pid) for pid in workers):
            break
        await asyncio.sleep(0.05)
    assert not any(alive(pid) for pid in workers)


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    status = Path(f"/proc/{pid}/status")
    return not (status.exists() and "zombie" in status.read_text())
