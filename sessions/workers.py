"""Worker processes that end with the bot: the AI's search pool and the drawing pool both start them here.

Workers come from a fork server, not forked from the bot itself: a forked worker would inherit the bot's sockets
(the gateway connection among them) and hold them open after the bot died.
"""

from __future__ import annotations

import multiprocessing
import multiprocessing.connection
import os
import threading
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor


def follow_parent() -> None:
    """In a worker: leave as soon as the bot process is gone, however it died.

    A pool's worker holds both ends of its task pipe, so it never sees the bot die (a kill -9, the OOM killer, a
    supervisor without process groups) and would wait for work forever; and the fork server lives as long as any
    worker does. So a thread waits for the bot's end of the spawning pipe to close."""
    parent = multiprocessing.parent_process()
    if parent is not None:
        threading.Thread(target=_exit_with, args=(parent.sentinel,), daemon=True, name="follow the bot").start()


def _exit_with(sentinel: int) -> None:
    multiprocessing.connection.wait([sentinel])
    os._exit(0)


def worker_pool(workers: int, initializer: Callable[[], None] = follow_parent) -> ProcessPoolExecutor:
    """A pool of ``workers`` processes from the fork server; ``initializer`` must call :func:`follow_parent`."""
    return ProcessPoolExecutor(
        max_workers=workers, mp_context=multiprocessing.get_context("forkserver"), initializer=initializer
    )
