"""A correspondence clock: a fixed time for each move, and a reminder before it runs out.

Inside a tournament the clock replaces the claim rule: a player whose time runs out loses on time, and nobody
needs to claim it. The reminder comes when a quarter of the time is left (at most twelve hours before the end),
so one day a move reminds six hours before the deadline, and a week a move twelve hours before it.
"""

from __future__ import annotations

REMINDER_SHARE = 0.25
LONGEST_WARNING = 12 * 3600.0


def deadline(last_move_at: float, move_seconds: float) -> float:
    """When the player to move loses on time."""
    return last_move_at + move_seconds


def reminder_at(last_move_at: float, move_seconds: float) -> float:
    """When the player to move is reminded that their time is running out."""
    return deadline(last_move_at, move_seconds) - min(move_seconds * REMINDER_SHARE, LONGEST_WARNING)


def flagged(last_move_at: float, move_seconds: float, now: float) -> bool:
    """Whether the time of the player to move has run out."""
    return now >= deadline(last_move_at, move_seconds)
