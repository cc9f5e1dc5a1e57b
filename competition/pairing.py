"""What a round is made of: who plays whom, and with which side."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Pairing:
    """One board of a round: ``player0`` plays side 0 (the side that starts), ``player1`` side 1; ``player1`` None
    is a bye for ``player0``."""

    player0: int
    player1: int | None

    @property
    def is_bye(self) -> bool:
        return self.player1 is None

    @property
    def players(self) -> tuple[int, ...]:
        return (self.player0,) if self.player1 is None else (self.player0, self.player1)
