"""Worker processes the event loop talks to over pipes, with no thread in between: the drawing workers.

``ProcessPoolExecutor`` hands a job from the event loop to its manager thread, which hands it to a feeder thread,
which writes it to a worker; the answer comes back through the manager thread, which wakes the loop. Three threads
of the bot's process take the GIL for every board, each waiting for the event loop to let go of it (up to
``sys.getswitchinterval()``, 5 ms) when the bot is busy: at the ceiling of ``bench/load.py`` that was the board's
longest wait and a tenth of the bot's CPU (docs/performance.md). Here the loop writes a job to an idle worker's pipe
(a few hundred bytes: the pipe is empty, so the write never blocks) and reads the answer when its selector says it
has come.

A worker runs one job at a time. One that dies (killed, out of memory) fails its job, and every later one, with
:class:`WorkerDied`: the owner starts new workers (``sessions/drawing.py``). Workers leave when the bot does: its end
of their job pipe closes, and :func:`sessions.workers.follow_parent` (the initializer's) sees a kill -9.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import multiprocessing.connection
import os
import pickle
import signal
import struct
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from sessions.workers import fork_server

READY = b"ready"
START_TIMEOUT = 60.0  # seconds for a worker to start and run its initializer (the fork server imports the bot's code)
HEADER = struct.Struct("!i")  # multiprocessing.Connection's framing: a signed length, then -1 and a long length
LONG_HEADER = struct.Struct("!Q")


class WorkerDied(RuntimeError):
    """A worker process ended (killed, out of memory) before it answered."""


def serve(
    jobs: multiprocessing.connection.Connection,
    answers: multiprocessing.connection.Connection,
    initializer: Callable[[], None],
) -> None:
    """A worker's life: the initializer, then jobs (a pickled function and its arguments) until the bot's end of
    the job pipe closes. An interrupt at the terminal is the bot's to handle: the worker leaves when the bot does."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    initializer()
    answers.send_bytes(READY)
    while True:
        try:
            job = jobs.recv_bytes()
        except EOFError:
            return
        try:  # a job that cannot be read here (a function no module of the worker's has) fails alone
            function, args = pickle.loads(job)
            answer: tuple[bool, Any] = (True, function(*args))
        except Exception as error:
            answer = (False, error)
        try:
            message = pickle.dumps(answer, protocol=pickle.HIGHEST_PROTOCOL)
        except Exception as error:  # an answer that cannot travel: say so rather than die
            message = pickle.dumps((False, RuntimeError(f"unpicklable answer: {error!r}")))
        try:
            answers.send_bytes(message)
        except OSError:  # the bot closed its end (it is closing, or gone): nobody waits for this answer
            return


@dataclass(eq=False)
class Worker:
    """The bot's side of one worker: its process, its pipes, and the job it is doing."""

    process: multiprocessing.process.BaseProcess
    jobs: multiprocessing.connection.Connection
    answers: multiprocessing.connection.Connection
    transport: asyncio.ReadTransport | None = None
    pending: asyncio.Future[Any] | None = None
    alive: bool = True


@dataclass(eq=False)
class Answers(asyncio.Protocol):
    """Reads a worker's answers, in multiprocessing's framing, as the event loop receives them."""

    worker: Worker
    on_answer: Callable[[Worker, bytes], None]
    on_death: Callable[[Worker], None]
    buffer: bytearray = field(default_factory=bytearray)

    def data_received(self, data: bytes) -> None:
        self.buffer += data
        while len(self.buffer) >= HEADER.size:
            (size,) = HEADER.unpack_from(self.buffer)
            start = HEADER.size
            if size == -1:
                if len(self.buffer) < HEADER.size + LONG_HEADER.size:
                    return
                (size,) = LONG_HEADER.unpack_from(self.buffer, HEADER.size)
                start += LONG_HEADER.size
            if len(self.buffer) < start + size:
                return
            message = bytes(self.buffer[start : start + size])
            del self.buffer[: start + size]
            self.on_answer(self.worker, message)

    def connection_lost(self, exc: Exception | None) -> None:
        self.on_death(self.worker)


class PipeWorkers:
    """``processes`` worker processes from the fork server, each running ``initializer`` first (it must call
    :func:`sessions.workers.follow_parent`). :meth:`start` blocks (run it in a thread), :meth:`attach` on the event
    loop, then :meth:`run` as often as wanted."""

    def __init__(self, processes: int, initializer: Callable[[], None]) -> None:
        self.count = processes
        self.initializer = initializer
        self.workers: list[Worker] = []
        self.broken = False
        self._idle: asyncio.Queue[Worker] | None = None

    @property
    def processes(self) -> list[multiprocessing.process.BaseProcess]:
        return [worker.process for worker in self.workers]

    def start(self) -> None:
        """Start the workers and wait until each has run its initializer (blocking: in a thread). WorkerDied if
        one could not start."""
        context = fork_server()
        for _ in range(self.count):
            jobs_out, jobs_in = context.Pipe(duplex=False)
            answers_out, answers_in = context.Pipe(duplex=False)
            process = context.Process(target=serve, args=(jobs_out, answers_in, self.initializer), daemon=True)
            process.start()
            jobs_out.close()
            answers_in.close()
            self.workers.append(Worker(process, jobs_in, answers_out))
        for worker in self.workers:
            try:
                ready = worker.answers.poll(START_TIMEOUT) and worker.answers.recv_bytes() == READY
            except (EOFError, OSError):
                ready = False
            if not ready:
                self.close()
                raise WorkerDied("a worker did not start")

    async def attach(self) -> None:
        """On the event loop that will run the jobs: it reads the answers from now on."""
        loop = asyncio.get_running_loop()
        self._idle = asyncio.Queue()
        for worker in self.workers:
            pipe = os.fdopen(worker.answers.fileno(), "rb", buffering=0, closefd=False)
            worker.transport, _ = await loop.connect_read_pipe(
                lambda worker=worker: Answers(worker, self._answered, self._died), pipe
            )
            self._idle.put_nowait(worker)

    async def run(self, function: Callable[..., Any], *args: Any) -> Any:
        """``function(*args)`` in the next idle worker (``function`` must be a module's top-level function)."""
        assert self._idle is not None, "attach() first"
        worker = await self._idle.get()
        if not worker.alive or self.broken:
            self._idle.put_nowait(worker)  # for the next caller, who learns the same
            raise WorkerDied("a drawing worker died")
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        worker.pending = future
        try:
            worker.jobs.send_bytes(pickle.dumps((function, args), protocol=pickle.HIGHEST_PROTOCOL))
        except OSError as error:  # its pipe is closed: the worker is gone
            self._died(worker)
            raise WorkerDied("a drawing worker died") from error
        return await future

    def _answered(self, worker: Worker, message: bytes) -> None:
        future, worker.pending = worker.pending, None
        assert self._idle is not None
        self._idle.put_nowait(worker)
        if future is None or future.done():  # its caller gave up: the worker is free all the same
            return
        try:
            ok, value = pickle.loads(message)
        except Exception as error:
            future.set_exception(error)
            return
        if ok:
            future.set_result(value)
        else:
            future.set_exception(value)

    def _died(self, worker: Worker) -> None:
        if not worker.alive:
            return
        worker.alive = False
        self.broken = True
        if worker.pending is not None and not worker.pending.done():
            worker.pending.set_exception(WorkerDied("a drawing worker died"))
        worker.pending = None
        if self._idle is not None:
            self._idle.put_nowait(worker)  # a caller waiting for a worker learns of it

    def close(self) -> None:
        """Close the pipes: each worker leaves once its job (if any) is done; none is waited for."""
        for worker in self.workers:
            worker.alive = False
            if worker.transport is not None:
                worker.transport.close()
            worker.jobs.close()
            worker.answers.close()
