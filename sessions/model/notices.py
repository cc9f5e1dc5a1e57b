"""What the outbox owes, as the Discord layer delivers it: a :class:`Notice` about one game, a :class:`Bulletin`
about no one game, and the shape of the function that delivers them (:data:`Deliver`)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from sessions.model.games import Game, ReplyTo, Report
from sessions.model.vocabulary import AnnouncementKind


@dataclass(frozen=True)
class Notice:
    """An announcement owed, as the cog delivers it: what happened, in which game, and where to say it."""

    id: int
    kind: AnnouncementKind
    game: Game
    channel_id: int  # where it is said: the game's thread once it has one, else its channel
    report: Report | None = None  # the board and the moves, for the kinds that report an action
    reply: ReplyTo | None = None  # the member's interaction that was to carry it
    by: int | None = None  # who acted: declined, withdrew, cancelled
    was: str | None = None  # a cancellation: what the game was (its status, or "forgotten")
    remind: int | None = None  # a reminder: the member reminded ...
    claim_at: float | None = None  # ... and when the opponent may claim the win ...
    deadline: float | None = None  # ... or, in a game with a clock, when their time runs out


@dataclass(frozen=True)
class Bulletin:
    """An announcement owed to a server about no one game: a tournament's round or end, a season's end. Its
    payload names what it is about; the cog reads the rest from the service when it delivers it."""

    id: int
    kind: AnnouncementKind
    guild_id: int
    channel_id: int
    payload: dict[str, Any]


# The cog's delivery: the Discord requests for one notice; returns the message that carries it (None: nothing to
# show). Raising means "not now": the notice is retried later.
Deliver = Callable[[Notice | Bulletin], Awaitable[int | None]]
