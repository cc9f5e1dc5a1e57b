"""Pure game rules behind one contract (see docs/architecture.md and engine-api.md).

Nothing in this package imports discord, Pillow or the database, and nothing draws random numbers:
whoever drives a game chooses its chance moves.
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import NamedTuple

NAMES: tuple[str, ...] = ("iago", "isaac", "polygo")


class IllegalMove(ValueError):
    """A move that is not legal here; ``str(e)`` is a sentence a player understands."""


class Result(NamedTuple):
    winner: int | None
    scores: tuple[int, int]
    reason: str


def get(name: str) -> ModuleType:
    """The engine module for a game name; KeyError for a name that is not in NAMES."""
    if name not in NAMES:
        raise KeyError(name)
    return importlib.import_module(f"engines.{name}")


__all__ = ["NAMES", "IllegalMove", "Result", "get"]
