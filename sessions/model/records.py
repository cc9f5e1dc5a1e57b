"""A game record as read from a file (docs/records.md): its log checked against the engine, and its positions."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import games
from engines import GameState
from locales import N_
from sessions.model.vocabulary import TAKEBACK

MAX_RECORD_BYTES = 256 * 1024  # a random 19x19 game of the longest bundled kind is under 10 KB
TOO_BIG = N_("That file is too big to be a game record ({size} KB; the limit is {limit} KB).")


@dataclass(frozen=True)
class Entry:
    """One entry of the log: a move, a die the bot drew (``chance``), a pass the rules forced, a takeback."""

    move: str
    side: int | None  # who made it (None: the dice)
    chance: bool = False


@dataclass(frozen=True)
class GameRecord:
    """A game as a record holds it, checked against the engine."""

    game: str
    options: dict[str, Any]
    log: list[Entry]
    names: tuple[str, str]
    tags: dict[str, Any] = field(default_factory=dict)
    result: dict[str, Any] | None = None
    member_side: int | None = None  # against the bot: the member's side, whose last move a takeback undoes

    def positions(self) -> list[GameState]:
        """Every position of the game, the start first: one more than the entries of the log."""
        entry = games.find(self.game)
        states = [entry.new_game(**self.options)]
        kept: list[tuple[str, int | None]] = []
        for item in self.log:
            if item.move == TAKEBACK:
                while kept and kept.pop()[1] != self.member_side:
                    pass
                state = entry.new_game(**self.options)
                for move, _ in kept:
                    state.play(move)
            else:
                state = states[-1].copy()
                kept.append((item.move, state.to_act))
                state.play(item.move)
            states.append(state)
        return states

    def position(self, ply: int) -> GameState:
        """The game after the first ``ply`` entries of its log (0: the start)."""
        return GameRecord(
            self.game, self.options, self.log[: max(0, ply)], self.names, member_side=self.member_side
        )._last()

    def _last(self) -> GameState:
        return self.positions()[-1]

    def moves_in_force(self) -> list[str]:
        """The moves of the game as it stands (takebacks undone), as an analysis reads them."""
        return self._last().moves

    def after_moves(self, count: int) -> GameState:
        """The position after the first ``count`` moves in force (an analysis names its plies so)."""
        state = games.find(self.game).new_game(**self.options)
        for move in self.moves_in_force()[:count]:
            state.play(move)
        return state
