"""What the service answers when a member asks for something the rules or the bot do not allow.

A refusal is an English catalogue msgid and its parameters, translated by the cog for each reader. A parameter
that names a member or a channel is a :class:`Mention` or a :class:`ChannelLink`: the cogs present them in
Discord's markup, so the service writes none.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from locales import N_

# A press on a board (or a move at a board's ply) that the game has moved past: the service refuses the move, and the
# Discord layer a press it checks first.
STALE_BOARD = N_("This board is out of date: the game has moved on. Use the buttons under its latest board.")
# The same for a puzzle's board (a tap on a board the member's puzzle has moved past), and a move with none open.
STALE_PUZZLE = N_("This puzzle board is out of date: your puzzle has moved on. Use its latest board.")
NO_PUZZLE_OPEN = N_("You have no {title} puzzle open: start one with /{game} puzzle.")


@dataclass(frozen=True)
class Mention:
    """A member named in a message."""

    user_id: int


@dataclass(frozen=True)
class ChannelLink:
    """A channel named in a message."""

    channel_id: int


class UserError(Exception):
    """Something a member did that the rules or the bot do not allow. ``message`` is an English
    catalogue msgid, translated by the cog; ``params`` fill its placeholders."""

    def __init__(self, message: str, **params: Any) -> None:
        super().__init__(message)
        self.message = message
        self.params = params
