"""What storage hands out and takes in for play with the whole server: the rows of tournaments (players, rounds,
pairings) and seasons, and their errors. The queries are ``storage/tournaments.py``'s and ``storage/seasons.py``'s.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import sqlalchemy as sa

from storage.outbox import Announce
from storage.rows import MoveRow, TournamentFormat, TournamentStatus

# The statuses by the names the session layer imports them (sessions/tournaments.py).
SIGNUP, RUNNING, FINISHED, CANCELLED = (
    TournamentStatus.SIGNUP,
    TournamentStatus.RUNNING,
    TournamentStatus.FINISHED,
    TournamentStatus.CANCELLED,
)


@dataclass(frozen=True)
class TournamentRow:
    id: int
    guild_id: int
    channel_id: int
    name: str
    game: str
    options: dict[str, Any]
    format: TournamentFormat
    rounds: int
    legs: int
    move_seconds: float
    rated: bool
    signup_deadline: float
    max_players: int
    status: TournamentStatus
    round: int
    revision: int
    winner_role_id: int | None
    message_id: int | None
    created_by: int
    created_at: float
    started_at: float | None
    finished_at: float | None

    @classmethod
    def from_sql(cls, row: sa.RowMapping) -> TournamentRow:
        values = {name: row[name] for name in cls.__dataclass_fields__}
        values["rated"] = bool(values["rated"])
        values["format"] = TournamentFormat(values["format"])
        values["status"] = TournamentStatus(values["status"])
        return cls(**values)


@dataclass(frozen=True)
class EntrantRow:
    user_id: int
    joined_at: float
    seed: int | None
    rating: float | None
    removed_at: float | None


@dataclass(frozen=True)
class PairingRow:
    """A board of a round and how it stands: its game's status and result, or its points when it has no game."""

    round: int
    board: int
    player0_id: int
    player1_id: int | None
    game_id: int | None
    points0: int | None  # half points, for a board without a game
    points1: int | None
    game_status: str | None = None
    winner: int | None = None
    result_reason: str | None = None


@dataclass(frozen=True)
class NewBoard:
    """A board of a round about to start: a game (with its opening chance moves and first announcement), or a bye
    or a forfeit without a game (``points``: half points for player 0 and player 1)."""

    player0: int
    player1: int | None
    opening: list[MoveRow] = field(default_factory=list)
    announce: Announce | None = None
    points: tuple[int, int] | None = None


@dataclass(frozen=True)
class SeasonRow:
    guild_id: int
    number: int
    channel_id: int
    months: int
    starts_at: float
    ends_at: float
    closed_at: float | None


class DuplicateSeason(Exception):
    """The server already has a season running (the database refused a second)."""
