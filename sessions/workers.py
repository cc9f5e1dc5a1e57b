"""Worker processes that end with the bot: the AI's search pool and the drawing pool both start them here.

Workers come from a fork server, not forked from the bot itself: a forked worker would inherit the bot's sockets
(the gateway connection among them) and hold them open after the bot died.

They import only the project's own modules, never the script that launched the bot. By default multiprocessing
imports the launching script (``__main__``) in the fork server, and again in each worker it starts: a launcher
without an ``if __name__ == "__main__":`` guard (``from bot import main; main()``) would start a second bot there.
``set_forkserver_preload`` keeps the fork server from importing it, but each worker would still import it while
unpickling its start-up data (``multiprocessing.spawn.prepare``); so the fork server, when it imports this
module, turns that step off for the workers it forks. Nothing the workers run lives in ``__main__``.
"""

from __future__ import annotations

import multiprocessing
import multiprocessing.connection
import multiprocessing.forkserver
import multiprocessing.spawn
import os
import sys
import threading
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor

# What the fork server imports once, so that every worker starts with it: the workers' own code and what it
# draws and searches with (a worker forks from the fork server with these already imported).
PRELOAD = ("sessions.workers", "sessions.drawing", "sessions.computer", "ai", "render.base")


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
    return ProcessPoolExecutor(max_workers=workers, mp_context=fork_server(), initializer=initializer)


def fork_server() -> multiprocessing.context.ForkServerContext:
    """The context every worker starts from: the fork server, with the project's modules preloaded."""
    context = multiprocessing.get_context("forkserver")
    # Read when the fork server starts (the first worker of the first pool); it serves every pool after that.
    context.set_forkserver_preload(list(PRELOAD))
    return context


def _in_fork_server() -> bool:
    """Whether this module is being imported by the fork server's preloading (``multiprocessing.forkserver.main``)."""
    frame = sys._getframe(1)
    while frame is not None:
        if frame.f_code is multiprocessing.forkserver.main.__code__:
            return True
        frame = frame.f_back
    return False


def _skip_main(*_: object) -> None:
    """In place of multiprocessing's re-import of the launching script in a new worker."""


if _in_fork_server():
    # Only in the fork server, and so in the workers it forks: spawn.prepare() would import the launching script
    # (by path, or by module name for ``python -m``) in every worker.
    multiprocessing.spawn._fixup_main_from_path = _skip_main  # type: ignore[attr-defined]
    multiprocessing.spawn._fixup_main_from_name = _skip_main  # type: ignore[attr-defined]
