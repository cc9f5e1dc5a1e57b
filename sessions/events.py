"""What happened, published once its transaction has committed, and the parts that follow it.

A part that commits an action publishes what it did (a move made, the bot to move, a game finished, a round
complete, a season over, announcements owed); the parts that follow an action subscribe to it (the computer player
to the bot's turn, tournaments to a finished game, delivery to what is owed). So what follows a move is decided
here, in the session layer, as lila's ``Finisher`` publishes a finish and the tournament module listens; the
Discord layer only delivers what the outbox holds and answers interactions.

Handlers run in the background, after the commit and beside the member's reply, each in a task of its own: the
action is committed whatever becomes of them, and a failed handler is logged, never raised into the action. An
event published before the service is started (:meth:`EventBus.start`, by the bot once it can deliver) or after it
stopped has no effect: the tests of one part drive the parts that follow by hand, and the housekeeping sweep takes
over whatever a stopped process left (a bot's turn, a round, what is owed).
"""

from __future__ import annotations

import asyncio
import logging
from collections import defaultdict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from sessions.model import DatabaseUnavailable, Game, Report

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class MoveMade:
    """An action on a game was committed: a move, a roll, a takeback, a start (its report says which)."""

    report: Report


@dataclass(frozen=True)
class BotToMove:
    """A game against the bot now waits for the bot: a roll or a move of its own."""

    game: Game


@dataclass(frozen=True)
class BotMoved:
    """The bot took its turn: the reports of what it committed, to announce in one message with the member's
    action before it."""

    game: Game
    reports: tuple[Report, ...]
    owed: bool = False  # it could not go on: what waited for its reply, and its apology, are due now


@dataclass(frozen=True)
class GameFinished:
    """A game ended: by a move, a resignation, a claim, a loss on time, a forfeit."""

    report: Report


@dataclass(frozen=True)
class RoundComplete:
    """A tournament's round was written: its last game ended and the next round was paired (or the tournament
    ended)."""

    guild_id: int
    tournament_id: int


@dataclass(frozen=True)
class SeasonOver:
    """A server's season ended (its time came, or its admins stopped seasons)."""

    guild_id: int
    number: int


@dataclass(frozen=True)
class Owed:
    """Announcements were written that no member's reply carries (an expiry, a reminder, an admin's cancel, the
    bot's own message): deliver them now rather than at the next round of the outbox worker."""

    guild_ids: tuple[int, ...]


Event = MoveMade | BotToMove | BotMoved | GameFinished | RoundComplete | SeasonOver | Owed
E = TypeVar("E", bound=Event)
Handler = Callable[[Any], Awaitable[Any]]


class EventBus:
    def __init__(self) -> None:
        self._handlers: dict[type[Any], list[Handler]] = defaultdict(list)
        self._tasks: set[asyncio.Task[None]] = set()  # held so that a running handler is not garbage-collected
        self._running = False

    def subscribe(self, kind: type[E], handler: Callable[[E], Awaitable[Any]]) -> None:
        """Call ``handler`` with every event of ``kind`` published from now on (while the bus runs)."""
        self._handlers[kind].append(handler)

    def start(self) -> None:
        """Deliver what is published from now on."""
        self._running = True

    @property
    def running(self) -> bool:
        return self._running

    def publish(self, event: Event) -> None:
        """Hand ``event`` to its subscribers, each in a task of its own; call it once the transaction that did
        what it tells has committed. Never raises, never waits."""
        if not self._running:
            return
        for handler in self._handlers.get(type(event), ()):
            task = asyncio.get_running_loop().create_task(self._run(handler, event), name=type(event).__name__)
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _run(self, handler: Handler, event: Event) -> None:
        try:
            await handler(event)
        except DatabaseUnavailable:
            pass  # the sweep takes it over; the database's tracker has logged the outage once
        except Exception:  # the action is committed: what follows it is retried by the sweep, never lost
            log.exception("Following %s failed", type(event).__name__)

    async def settled(self, limit: float = 30.0) -> None:
        """Wait until every handler started so far (and those they started) has finished, for at most ``limit``
        seconds."""
        deadline = asyncio.get_running_loop().time() + limit
        while self._tasks:
            left = deadline - asyncio.get_running_loop().time()
            if left <= 0:
                return
            await asyncio.wait(set(self._tasks), timeout=left)

    async def stop(self, limit: float = 5.0) -> None:
        """Publish nothing more, and let the running handlers finish for at most ``limit`` seconds; cancel the
        rest (the sweep of the next process takes their work over)."""
        self._running = False
        await self.settled(limit)
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
