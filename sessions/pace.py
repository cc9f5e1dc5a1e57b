"""How long a search may think when the worker pool is busy, so that the bot still answers in time.

The pool has one worker per core, so twenty members playing level 4 at once queue behind each other. ``Pace``
keeps a schedule of the searches it handed out: each worker's expected free time. A new search goes to the
worker free first. A search that finds a worker idle thinks its own time; one that has to wait gets what is left
of ``THINK_DEADLINE`` after the wait (never more than it would think anyway, never less than ``LEAST``). When a
search ends, its worker's schedule moves by how much earlier or later it ended than booked, so searches that
stop early (a forced move, a low level) give their time back.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

# From asking for the bot's move to having it: what is left of the 3 s goal (member's move -> bot's board) after
# the member's board is drawn and sent, and the bot's move is committed, drawn and sent. Measured by bench/busy.py
# (20 games against level 4 on 2 cores): 1.8 s gave a p95 of 2.69, 3.07 and 3.60 s in three runs, 1.2 s 2.12 and
# 2.26 s (drawing shares the two cores with the searches, so a busy pool slows the rest of the reply too).
THINK_DEADLINE = 1.2
LEAST = 0.05  # the shortest search: level 4 still looks one ply ahead with every move valued
OVERHEAD = 0.05  # a worker rebuilding the position from its moves and sending the answer back
USUAL = 1.6  # what a search that names no budget is booked for: level 4's time (lower levels give theirs back)


@dataclass(frozen=True)
class Booking:
    worker: int
    end: float  # when the search is expected to be over
    budget: float | None  # seconds the search may think, or None: its own time


class Pace:
    def __init__(self, workers: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.free_at = [0.0] * workers

    def book(self, usual: float | None, deadline: float | None = THINK_DEADLINE) -> Booking:
        """A place in the schedule for a search that thinks ``usual`` seconds (None: its own time, ``USUAL``)
        unless the wait for a worker leaves less of ``deadline`` (None: no deadline, as for an analysis)."""
        now = self.clock()
        worker = min(range(len(self.free_at)), key=self.free_at.__getitem__)
        start = max(now, self.free_at[worker])
        own = USUAL if usual is None else usual
        budget = usual
        if deadline is not None and start > now and start - now + own + OVERHEAD > deadline:
            budget = min(own, max(LEAST, deadline - (start - now) - OVERHEAD))
        end = start + (own if budget is None else budget) + OVERHEAD
        self.free_at[worker] = end
        return Booking(worker, end, budget)

    def done(self, booking: Booking) -> None:
        """The search is over: its worker's later bookings move by how much earlier (or later) it ended."""
        self.free_at[booking.worker] += self.clock() - booking.end

    def waiting(self) -> float:
        """Seconds until the first worker is free (0: one is idle)."""
        return max(0.0, min(self.free_at) - self.clock())
