"""What storage hands out and takes in: typed rows, write results and errors (no queries here)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, NamedTuple

import sqlalchemy as sa


class GameStatus(StrEnum):
    """Where a game is in its life: ``challenge`` -> ``active`` -> ``finished``, or ``declined``, ``cancelled`` or
    ``expired``. Stored as its string (the column's CHECK lists these)."""

    CHALLENGE = "challenge"
    ACTIVE = "active"
    FINISHED = "finished"
    DECLINED = "declined"
    CANCELLED = "cancelled"
    EXPIRED = "expired"


class TournamentFormat(StrEnum):
    """How a tournament pairs its players. Stored as its string (the column's CHECK lists these)."""

    SWISS = "swiss"
    ROUND_ROBIN = "round_robin"


class TournamentStatus(StrEnum):
    """Where a tournament is in its life: ``signup`` -> ``running`` -> ``finished``, or ``cancelled``. Stored as its
    string (the column's CHECK lists these)."""

    SIGNUP = "signup"
    RUNNING = "running"
    FINISHED = "finished"
    CANCELLED = "cancelled"


class AttemptStatus(StrEnum):
    """A member's go at a puzzle: ``open``, then ``solved`` (no mistake), ``failed`` (a mistake, or given up) or
    ``left`` (another puzzle started before any move: unrated). Stored as its string (the column's CHECK lists
    these)."""

    OPEN = "open"
    SOLVED = "solved"
    FAILED = "failed"
    LEFT = "left"


OPEN = (GameStatus.CHALLENGE, GameStatus.ACTIVE)  # what an admin may still cancel
# The player id of an open challenge's seat that no member has taken yet (Discord ids are positive, the ids of
# forgotten members negative).
OPEN_SEAT = 0


# (winner side or None for a draw, reason, (score0, score1))
Result = tuple[int | None, str, tuple[int, int]]
# (move text, side or None, user id or None)
MoveRow = tuple[str, int | None, int | None]


@dataclass(frozen=True)
class GameRow:
    id: int
    guild_id: int
    channel_id: int
    game: str
    options: dict[str, Any]
    players: tuple[int, int]
    challenger_id: int
    rated: bool
    status: GameStatus
    ply: int
    winner: int | None
    result_reason: str | None
    scores: tuple[int, int] | None
    challenge_message_id: int | None
    created_at: float
    expires_at: float | None
    started_at: float | None
    last_move_at: float | None
    reminded_at: float | None
    finished_at: float | None
    thread_id: int | None = None
    rematch_of: int | None = None

    @property
    def announce_channel_id(self) -> int:
        """Where the game is announced and played: its own thread when it has one, else its channel."""
        return self.thread_id or self.channel_id

    ai_side: int | None = None  # the side the bot itself plays, in a game against it
    ai_level: int | None = None
    tournament_id: int | None = None
    move_seconds: float | None = None  # a correspondence clock: the time for each move
    rating_min: int | None = None  # an open challenge: the ratings a member must have to take it
    rating_max: int | None = None

    @property
    def against_bot(self) -> bool:
        return self.ai_side is not None

    @property
    def opponent_id(self) -> int:
        """The challenged member: whichever player did not issue the challenge."""
        return self.players[1] if self.players[0] == self.challenger_id else self.players[0]

    def side_of(self, user_id: int) -> int | None:
        return self.players.index(user_id) if user_id in self.players else None

    @classmethod
    def from_sql(cls, row: sa.RowMapping) -> GameRow:
        score0, score1 = row["score0"], row["score1"]
        return cls(
            id=row["id"],
            guild_id=row["guild_id"],
            channel_id=row["channel_id"],
            game=row["game"],
            options=row["options"],
            players=(row["player0_id"], row["player1_id"]),
            challenger_id=row["challenger_id"],
            rated=bool(row["rated"]),
            status=GameStatus(row["status"]),
            ply=row["ply"],
            winner=row["winner"],
            result_reason=row["result_reason"],
            scores=None if score0 is None else (score0, score1),
            challenge_message_id=row["challenge_message_id"],
            created_at=row["created_at"],
            expires_at=row["expires_at"],
            started_at=row["started_at"],
            last_move_at=row["last_move_at"],
            reminded_at=row["reminded_at"],
            finished_at=row["finished_at"],
            thread_id=row["thread_id"],
            rematch_of=row["rematch_of"],
            ai_side=row["ai_side"],
            ai_level=row["ai_level"],
            tournament_id=row["tournament_id"],
            move_seconds=row["move_seconds"],
            rating_min=row["rating_min"],
            rating_max=row["rating_max"],
        )


@dataclass(frozen=True)
class RatingRow:
    user_id: int
    mu: float
    sigma: float
    rated_games: int


@dataclass(frozen=True)
class RecordRow:
    game: str
    wins: int
    losses: int
    draws: int


class NewRating(NamedTuple):
    """What a settle callback returns per player: the new mu and sigma, and the rating shown before."""

    mu: float
    sigma: float
    before: float


# Given the finished game and both players' ratings as read (and locked) in the finishing transaction (None: no
# rated game yet), return each player's new rating. Pure: it may run while rows are locked.
Settle = Callable[[GameRow, dict[int, RatingRow | None]], Mapping[int, tuple[float, float, float]]]


@dataclass(frozen=True)
class Settlement:
    """What finishing a game wrote besides the game row."""

    outcome: tuple[str, str]  # each player's 'wins' / 'losses' / 'draws', in player order
    ratings: dict[int, tuple[RatingRow | None, RatingRow]]  # user -> (before, after); empty when not rated


@dataclass(frozen=True)
class Written:
    """The result of a write that can end a game: the game row as committed, the settlement if it ended, and the
    ids of the announcements written with it."""

    row: GameRow
    settlement: Settlement | None = None
    announcement_ids: tuple[int, ...] = ()
    superseded: bool = False  # the owed announcement named by ``supersede`` was replaced by this write's


class StalePly(Exception):
    """The game moved on (or ended) between reading it and writing a move: the write was refused."""


class DuplicateRematch(Exception):
    """That finished game already has its rematch (the database refused a second)."""


class DuplicateChallenge(Exception):
    """There is already an open challenge between these two members in this server (the database refused it)."""


OUTCOMES: dict[int | None, tuple[str, str]] = {None: ("draws", "draws"), 0: ("wins", "losses"), 1: ("losses", "wins")}
