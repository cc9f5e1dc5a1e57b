"""Boards drawn in worker processes: the same PNG as drawn in the bot's own thread, for every game (one that
only a test registers included), and a dead worker costs no board."""

from __future__ import annotations

import os
import random
import signal
from collections.abc import AsyncIterator

import pytest

import games
from engines import GameState
from sessions.drawing import Drawer
from tests.fourth_game.entry import ENTRY as FOURTH_GAME


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
    for entry in [*games.entries(), FOURTH_GAME]:  # the fourth game is not in the worker's registry
        state = middle_game(entry)
        png = await drawer.draw(entry, state, ("Alice", "Bob"))
        assert png == entry.render(state, ("Alice", "Bob")), entry.name


async def test_a_dead_worker_costs_no_board(drawer: Drawer) -> None:
    entry = games.find("iago")
    state = middle_game(entry)
    expected = entry.render(state, ("a", "b"))
    assert await drawer.draw(entry, state, ("a", "b")) == expected
    pool = drawer._executor()
    for process in list(pool._processes.values()):  # type: ignore[union-attr]
        os.kill(process.pid, signal.SIGKILL)
        process.join()
    assert await drawer.draw(entry, state, ("a", "b")) == expected  # drawn in a thread this time
    assert await drawer.draw(entry, state, ("a", "b")) == expected  # and by a new worker after it
    assert drawer._pool is not None and drawer._pool is not pool
