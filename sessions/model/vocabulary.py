"""The words of a game's life, typed: its status, the kinds of log entries, reports and announcements, and the
endings the session decides. Each is a ``StrEnum`` (as the engines' ``Reason`` is), so it equals the string that
is stored: the database keeps its values, and a mapping keyed by a kind answers for the stored string too.
"""

from __future__ import annotations

from enum import StrEnum

from storage.rows import GameStatus

# The log entry of a takeback: the member's last move and the bot's reply are undone (sessions/move_log.py replays it).
TAKEBACK = "takeback"


class MoveKind(StrEnum):
    """Who made an entry of a game's log."""

    MOVE = "move"  # a player's move (a member's, or the bot's own)
    CHANCE = "chance"  # a die the session drew
    FORCED_PASS = "forced_pass"  # a pass the rules forced, played by the session
    TAKEBACK = "takeback"  # a member took back their last move and the bot's reply


class ReportKind(StrEnum):
    """What the report of an action tells; the announcement written with it has the same kind."""

    START = "start"  # a challenge accepted: the first board
    MOVE = "move"  # moves (a member's, the dice and passes that followed)
    FINISH = "finish"  # a game ended without a move: a resignation, a claimed timeout
    TAKEBACK = "takeback"
    PAIRED = "paired"  # a tournament paired two members: the first board, in the game's own thread


class AnnouncementKind(StrEnum):
    """What an announcement of the outbox tells."""

    START = "start"
    MOVE = "move"
    FINISH = "finish"
    TAKEBACK = "takeback"
    CLOSED = "closed"  # a challenge declined or withdrawn
    EXPIRY = "expiry"  # a challenge expired unanswered
    CANCELLED = "cancelled"  # an admin cancelled a game or a challenge (or forgot a member)
    ABORTED = "aborted"  # a player aborted a game that had barely begun (sessions/aborts.py)
    REMINDER = "reminder"  # an idle player is reminded (in a game with a clock: before the time runs out)
    PAIRED = "paired"
    STUCK = "stuck"  # the bot cannot take its turn now (its search failed): said once, with a Try again button
    # A server's announcements about no one game (no game id): a tournament's round with its pairings and
    # standings, its end (final standings, the winner's role, or a cancellation), a season's end.
    ROUND = "round"
    TOURNAMENT_END = "tournament_end"
    SEASON_END = "season_end"

    @property
    def reports(self) -> bool:
        """It tells an action's report: a board with the moves it announces."""
        return self in REPORTED


REPORTED = frozenset(AnnouncementKind(kind) for kind in ReportKind)
# What follows a game into its own thread once it has one: what is said in the game, not on its challenge message.
FOLLOW_THE_GAME = frozenset(
    {AnnouncementKind.START, AnnouncementKind.MOVE, AnnouncementKind.FINISH, AnnouncementKind.REMINDER}
)


class Ending(StrEnum):
    """Ways a game ends that the session decides, beside the engines' own result reasons."""

    RESIGN = "resign"
    TIMEOUT = "timeout"  # claimed by the opponent after the reminder time (games without a clock)
    TIME = "time"  # the clock ran out (a tournament's game)
    FORFEIT = "forfeit"  # the player was removed from the tournament


__all__ = [
    "FOLLOW_THE_GAME",
    "REPORTED",
    "TAKEBACK",
    "AnnouncementKind",
    "Ending",
    "GameStatus",
    "MoveKind",
    "ReportKind",
]
