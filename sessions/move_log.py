"""A game's move log, replayed: engine moves, plus the takebacks a member asks for against the bot.

The log is append-only, so a takeback is itself an entry: it undoes the member's last move and whatever
followed it (the bot's reply). Everything that rebuilds a game from its log goes through :func:`replay`.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from engines import GameState
from games import GameEntry
from sessions.model.vocabulary import TAKEBACK


def replay(entry: GameEntry, options: dict[str, Any], log: Iterable[str], member_side: int | None = None) -> GameState:
    """The game after ``log``; a takeback removes moves back to, and including, ``member_side``'s last one."""
    return _replayed(entry, options, log, member_side)[0]


def in_force(
    entry: GameEntry, options: dict[str, Any], log: Iterable[str], member_side: int | None = None
) -> list[tuple[int, str, int | None]]:
    """The moves in force after ``log`` (what :func:`replay` plays), each as (its number in the log, counted from 1
    as ``/history`` numbers it, the move, the side that acted): a move's number stays the same after a takeback."""
    return _replayed(entry, options, log, member_side)[1]


def _replayed(
    entry: GameEntry, options: dict[str, Any], log: Iterable[str], member_side: int | None
) -> tuple[GameState, list[tuple[int, str, int | None]]]:
    state = entry.new_game(**options)
    kept: list[tuple[int, str, int | None]] = []  # the moves in force: log number, move, the side that made it
    for number, item in enumerate(log, start=1):
        if item != TAKEBACK:
            kept.append((number, item, state.to_act))
            state.play(item)
            continue
        while kept and kept.pop()[2] != member_side:
            pass
        state = entry.new_game(**options)
        for _, move, _ in kept:
            state.play(move)
    return state, kept
