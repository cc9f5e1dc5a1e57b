"""A game's move log, replayed: engine moves, plus the takebacks a member asks for against the bot.

The log is append-only, so a takeback is itself an entry: it undoes the member's last move and whatever
followed it (the bot's reply). Everything that rebuilds a game from its log goes through :func:`replay`.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from engines import GameState
from games import GameEntry

TAKEBACK = "takeback"


def replay(entry: GameEntry, options: dict[str, Any], log: Iterable[str], member_side: int | None = None) -> GameState:
    """The game after ``log``; a takeback removes moves back to, and including, ``member_side``'s last one."""
    state = entry.new_game(**options)
    kept: list[tuple[str, int | None]] = []  # the moves in force, each with the side that made it
    for item in log:
        if item != TAKEBACK:
            kept.append((item, state.to_act))
            state.play(item)
            continue
        while kept and kept.pop()[1] != member_side:
            pass
        state = entry.new_game(**options)
        for move, _ in kept:
            state.play(move)
    return state
