"""The words of a game's life, typed: its status, the kinds of log entries, reports and announcements, and the
endings the session decides. Each is a ``StrEnum`` (as the engines' ``Reason`` is), so it equals the string that
is stored: the database keeps its values, and a mapping keyed by a kind answers for the stored string too.
"""

from __future__ import annotations

from enum import StrEnum

from storage.rows import GameStatus


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


class AnnouncementKind(StrEnum):
    """What an announcement of the outbox tells."""

    START = "start"
    MOVE = "move"
    FINISH = "finish"
    TAKEBACK = "takeback"
    CLOSED = "closed"  # a challenge declined or withdrawn
    EXPIRY = "expiry"  # a challenge expired unanswered
    CANCELLED = "cancelled"  # an admin cancelled a game or a challenge (or forgot a member)
    ABORTED = "aborted"  # a player aborted a game that had barely begun (sessions/abort.py)
    REMINDER = "reminder"  # an idle player is reminded

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
    TIMEOUT = "timeout"


__all__ = ["FOLLOW_THE_GAME", "REPORTED", "AnnouncementKind", "Ending", "GameStatus", "MoveKind", "ReportKind"]
