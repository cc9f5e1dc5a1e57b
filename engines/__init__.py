"""Pure game rules behind one contract (see docs/architecture.md and engine-api.md).

Nothing in this package imports discord, Pillow or the database, and nothing draws random numbers:
whoever drives a game chooses its chance moves.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from types import ModuleType
from typing import Any, NamedTuple, Protocol

NAMES: tuple[str, ...] = ("iago", "isaac", "polygo")


class IllegalMove(ValueError):
    """A move that is not legal here; ``str(e)`` is a sentence a player understands."""


class Result(NamedTuple):
    winner: int | None
    scores: tuple[int, int]
    reason: str


class GameState(Protocol):
    """What the service, cogs, renderers, the AI and the tests may use of any game (engine-api.md)."""

    @property
    def turn(self) -> int | None: ...
    @property
    def to_act(self) -> int | None: ...
    @property
    def chance(self) -> bool: ...
    @property
    def is_over(self) -> bool: ...
    @property
    def moves(self) -> list[str]: ...

    def legal_moves(self) -> list[str]: ...
    def play(self, move: str) -> None: ...
    def result(self) -> Result: ...
    def scores(self) -> tuple[int, int]: ...
    def to_dict(self) -> dict[str, Any]: ...
    def copy(self) -> GameState: ...


class Engine(Protocol):
    """A game's rules module: builds games from options or from their ``to_dict`` form."""

    def new_game(self, **options: Any) -> GameState: ...
    def from_dict(self, d: Mapping[str, Any]) -> GameState: ...


def get(name: str) -> ModuleType:
    """The engine module for a game name; KeyError for a name that is not in NAMES."""
    if name not in NAMES:
        raise KeyError(name)
    return importlib.import_module(f"engines.{name}")


__all__ = ["NAMES", "Engine", "GameState", "IllegalMove", "Result", "get"]
