"""What handing a job to a worker process costs the bot's process: `python bench/worker_pipes.py [jobs]`.

The same jobs (each answers 50 KB, about a board's PNG) through ``ProcessPoolExecutor`` (what the drawing workers
used before issue 31) and through :class:`sessions.worker_pipes.PipeWorkers` (what they use now), two workers each,
two jobs at a time, as two cores draw. Prints, per job, the wall time and this process's CPU (all its threads:
the executor's manager and feeder threads count): the drawing itself is the workers' and is left out.
"""

from __future__ import annotations

import asyncio
import importlib
import multiprocessing
import sys
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sessions.worker_pipes import PipeWorkers
from sessions.workers import follow_parent

ANSWER = bytes(range(256)) * 200  # 51,200 bytes


def answer(size: int) -> bytes:
    return ANSWER[:size]


def job() -> Callable[[int], bytes]:
    """:func:`answer` as the workers find it: by this module's name, not ``__main__`` (which they never import)."""
    return importlib.import_module("bench.worker_pipes").answer  # type: ignore[no-any-return]


async def timed(label: str, run: Callable[[int], Awaitable[bytes]], jobs: int) -> None:
    await asyncio.gather(*(run(10) for _ in range(8)))  # the workers are up and warm
    slots = asyncio.Semaphore(2)

    async def one() -> None:
        async with slots:
            assert len(await run(len(ANSWER))) == len(ANSWER)

    wall, cpu = time.perf_counter(), time.process_time()
    await asyncio.gather(*(one() for _ in range(jobs)))
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    print(f"{label:<20}{jobs:>6} jobs {1000 * wall / jobs:8.3f} ms wall {1000 * cpu / jobs:8.3f} ms CPU here, per job")


async def main(jobs: int) -> None:
    loop = asyncio.get_running_loop()
    executor = ProcessPoolExecutor(2, mp_context=multiprocessing.get_context("forkserver"), initializer=follow_parent)
    pipes = PipeWorkers(2, follow_parent)
    await asyncio.to_thread(pipes.start)
    await pipes.attach()
    try:
        for _ in range(2):  # interleaved, twice
            await timed("ProcessPoolExecutor", lambda size: loop.run_in_executor(executor, job(), size), jobs)
            await timed("PipeWorkers", lambda size: pipes.run(job(), size), jobs)
    finally:
        executor.shutdown()
        pipes.close()


if __name__ == "__main__":
    numbers = [arg for arg in sys.argv[1:] if arg.isdigit()]
    asyncio.run(main(int(numbers[0]) if numbers else 3000))
