"""A game and what an action on it did: the types every layer above storage shares.

The cogs read these and nothing of storage: a :class:`Game` is made from the stored row by the service's own parts,
and carries its registry entry, so nobody looks its game up by name again.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import games
from engines import GameState, Phrase
from sessions.model.vocabulary import GameStatus, MoveKind, ReportKind
from storage.rows import OPEN_SEAT, GameRow


def entry_of(game: str) -> games.GameEntry:
    """A game's registry entry by its stored name; KeyError for a game no longer registered (its records, ratings
    and puzzles outlive it)."""
    return games.find(game)


def title_of(game: str) -> Phrase:
    """A game's title as each reader says it (translated where it is read); ``game`` is its registry name."""
    return Phrase(entry_of(game).title)


@dataclass(frozen=True, slots=True)
class Game:
    """A challenge or a game: who plays whom, what, where, and how it stands (``ply`` entries of its log)."""

    id: int
    guild_id: int
    channel_id: int  # where it was challenged
    entry: games.GameEntry  # what it is: the registry's entry of its game
    options: dict[str, Any]
    players: tuple[int, int]  # player 0 first
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
    thread_id: int | None  # its own thread, where it is played once it has one
    rematch_of: int | None
    ai_side: int | None  # the side the bot itself plays, in a game against it
    ai_level: int | None
    tournament_id: int | None = None  # a tournament's game
    move_seconds: float | None = None  # its correspondence clock: the time for each move (no claims then)
    rating_min: int | None = None  # an open challenge: the ratings a member needs to take it
    rating_max: int | None = None

    @classmethod
    def of(cls, row: GameRow) -> Game:
        """The game a stored row holds."""
        return cls(
            id=row.id,
            guild_id=row.guild_id,
            channel_id=row.channel_id,
            entry=games.find(row.game),
            options=row.options,
            players=row.players,
            challenger_id=row.challenger_id,
            rated=row.rated,
            status=GameStatus(row.status),
            ply=row.ply,
            winner=row.winner,
            result_reason=row.result_reason,
            scores=row.scores,
            challenge_message_id=row.challenge_message_id,
            created_at=row.created_at,
            expires_at=row.expires_at,
            started_at=row.started_at,
            last_move_at=row.last_move_at,
            reminded_at=row.reminded_at,
            finished_at=row.finished_at,
            thread_id=row.thread_id,
            rematch_of=row.rematch_of,
            ai_side=row.ai_side,
            ai_level=row.ai_level,
            tournament_id=row.tournament_id,
            move_seconds=row.move_seconds,
            rating_min=row.rating_min,
            rating_max=row.rating_max,
        )

    @property
    def name(self) -> str:
        """The game's registry name (what is stored)."""
        return self.entry.name

    @property
    def announce_channel_id(self) -> int:
        """Where the game is announced and played: its own thread when it has one, else its channel."""
        return self.thread_id or self.channel_id

    @property
    def against_bot(self) -> bool:
        return self.ai_side is not None

    @property
    def open_seat(self) -> int | None:
        """An open challenge's side that anyone may take (its player is still ``OPEN_SEAT``); None otherwise."""
        if self.status != GameStatus.CHALLENGE or OPEN_SEAT not in self.players:
            return None
        return self.players.index(OPEN_SEAT)

    @property
    def opponent_id(self) -> int:
        """The challenged member: whichever player did not issue the challenge."""
        return self.players[1] if self.players[0] == self.challenger_id else self.players[0]

    def side_of(self, user_id: int) -> int | None:
        return self.players.index(user_id) if user_id in self.players else None

    def player_to_act(self, state: GameState) -> int:
        """The member (or the bot) ``state`` waits for; player 0 when it waits for nobody."""
        side = state.to_act
        return self.players[side] if side is not None else self.players[0]


@dataclass(frozen=True)
class ReplyTo:
    """The interaction whose reply announces an action: a later delivery asks Discord whether it arrived."""

    application_id: int
    token: str
    created_at: float


@dataclass(frozen=True)
class PlayedMove:
    move: str
    player: int | None
    kind: MoveKind


@dataclass(frozen=True)
class Finish:
    winner: int | None
    reason: str  # the engine's Reason, or the session's Ending
    scores: tuple[int, int]
    rating_changes: dict[int, tuple[int, int]] = field(default_factory=dict)  # user -> (shown before, after)


@dataclass(frozen=True)
class Report:
    """What a service call did, for the cog to announce."""

    game: Game
    state: GameState
    played: list[PlayedMove]
    finish: Finish | None = None
    announcement_id: int | None = None
    kind: ReportKind = ReportKind.MOVE
    by: int | None = None  # the member whose action this reports
    hurried: bool = False  # the bot's move, searched for less time than usual because many games wait for it
    ply: int | None = None  # the log's length at ``state`` (a late delivery: behind the game's); None: the game's
    # In a game against the bot, an action after which the bot acts: its announcement waits for the bot's reply,
    # which announces both in one message (sessions/announcements.py); the member's reply only holds the place.
    held: bool = False
