"""Worker processes the event loop talks to over pipes (sessions/worker_pipes.py): answers of any size come back
whole and in order, a job's error is its caller's, a caller that gives up leaves the worker usable, and a dead
worker fails its job and the later ones with WorkerDied, never a hang."""

from __future__ import annotations

import asyncio
import os
import signal
import time
from collections.abc import AsyncIterator

import pytest

from sessions.worker_pipes import PipeWorkers, WorkerDied
from sessions.workers import follow_parent


def echo(value: bytes, repeat: int) -> bytes:
    return value * repeat


def fail(message: str) -> None:
    raise ValueError(message)


def nap(seconds: float) -> int:
    time.sleep(seconds)
    return os.getpid()


@pytest.fixture
async def workers() -> AsyncIterator[PipeWorkers]:
    pool = PipeWorkers(2, follow_parent)
    await asyncio.to_thread(pool.start)
    await pool.attach()
    yield pool
    pool.close()


async def test_answers_of_any_size_come_back_whole(workers: PipeWorkers) -> None:
    sizes = [0, 1, 4096, 65_536, 3_000_000]  # a pipe holds 64 KB: the large ones arrive in many reads
    answers = await asyncio.gather(*(workers.run(echo, b"ab", size // 2) for size in sizes))
    assert [len(answer) for answer in answers] == [size - size % 2 for size in sizes]
    assert all(answer == b"ab" * (len(answer) // 2) for answer in answers)


async def test_a_jobs_error_is_raised_to_its_caller_and_the_worker_goes_on(workers: PipeWorkers) -> None:
    with pytest.raises(ValueError, match="no such board"):
        await workers.run(fail, "no such board")
    assert await workers.run(echo, b"x", 3) == b"xxx"


async def test_a_caller_that_gives_up_leaves_the_worker_usable(workers: PipeWorkers) -> None:
    with pytest.raises(TimeoutError):
        await asyncio.wait_for(workers.run(nap, 0.5), 0.05)
    pids = set(await asyncio.gather(*(workers.run(nap, 0.01) for _ in range(6))))
    assert pids <= {process.pid for process in workers.processes} and len(pids) >= 1


async def test_a_killed_worker_fails_its_job_and_the_later_ones_with_worker_died(workers: PipeWorkers) -> None:
    busy = asyncio.ensure_future(workers.run(nap, 5))
    await asyncio.sleep(0.2)
    for process in workers.processes:
        os.kill(process.pid, signal.SIGKILL)
    with pytest.raises(WorkerDied):
        await asyncio.wait_for(busy, 5)
    with pytest.raises(WorkerDied):
        await asyncio.wait_for(workers.run(echo, b"x", 1), 5)
    assert workers.broken


async def test_a_job_the_worker_cannot_read_fails_alone(workers: PipeWorkers) -> None:
    """A job whose function the worker cannot import fails alone; the worker answers the next one."""
    with pytest.raises(Exception, match="local"):
        await workers.run(Unreadable(), 1)
    assert await workers.run(echo, b"y", 2) == b"yy" and not workers.broken


class Unreadable:
    """Pickles fine here, fails to unpickle in the worker."""

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return (fail_to_import, ("local",))

    def __call__(self, *args: object) -> None:
        return None


def fail_to_import(name: str) -> None:
    raise ImportError(f"no module has {name}")
