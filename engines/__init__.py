"""Pure game rules behind one contract (see docs/architecture.md and engine-api.md).

Nothing in this package imports discord, Pillow or the database, and nothing draws random numbers:
whoever drives a game chooses its chance moves.
"""

from __future__ import annotations

import importlib
import pkgutil
import sys
from collections.abc import Mapping
from functools import cache
from types import ModuleType
from typing import Any, NamedTuple, Protocol, Self


class Phrase:
    """Words a player reads, kept translatable: an English message (the catalogue's msgid) with ``{named}``
    placeholders, and their values. A value may itself be a Phrase (a side name, a block name, a clause), so
    the reader's language decides every word; ``str()`` is the English text."""

    __slots__ = ("params", "template")

    def __init__(self, template: str, /, **params: Any) -> None:
        self.template = template
        self.params = params

    def __str__(self) -> str:
        return self.template.format(**self.params) if self.params else self.template

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Phrase) and (self.template, self.params) == (other.template, other.params)

    __hash__ = None  # type: ignore[assignment]  # params may be mutable

    def __repr__(self) -> str:
        return f"Phrase({self.template!r}, **{self.params!r})"


class Refusal(ValueError):
    """Something a player asked of a game that it refuses (a move, an option). ``template`` and ``params`` are
    the reason as a :class:`Phrase`, for the bot to translate; ``str(e)`` is the English sentence."""

    def __init__(self, template: str, /, **params: Any) -> None:
        self.phrase = Phrase(template, **params)
        super().__init__(str(self.phrase))

    @property
    def template(self) -> str:
        return self.phrase.template

    @property
    def params(self) -> dict[str, Any]:
        return self.phrase.params

    @classmethod
    def because(cls, phrase: Phrase) -> Self:
        """The refusal whose reason is ``phrase`` (built by a helper that explains)."""
        return cls(phrase.template, **phrase.params)


class IllegalMove(Refusal):
    """A move that is not legal here; ``str(e)`` is a sentence a player understands, ``e.template`` and
    ``e.params`` the same sentence for the catalogue: ``IllegalMove("There is no piece on {square}.",
    square="c3")``. A template without placeholders is simply its own message."""


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


@cache
def _engines() -> dict[str, ModuleType]:
    """Every engine module of this package, by the name it declares (``NAME = "..."``): nothing lists them."""
    found: dict[str, ModuleType] = {}
    for info in pkgutil.iter_modules(__path__):
        module = importlib.import_module(f"{__name__}.{info.name}")
        name = getattr(module, "NAME", None)
        if isinstance(name, str):
            found[name] = module
    return dict(sorted(found.items()))


def __getattr__(attribute: str) -> Any:
    # NAMES is found on first use: the engine modules import this package, so it cannot import them at its top.
    if attribute == "NAMES":
        return tuple(_engines())
    raise AttributeError(f"module {__name__!r} has no attribute {attribute!r}")


def get(name: str) -> ModuleType:
    """The engine module for a game name; KeyError for a name that is not in NAMES."""
    return _engines()[name]


def name_of(state: GameState) -> str:
    """The name the engine module that defines ``state``'s type declares (``NAME``): how a game is known
    everywhere (the registry, the stored games), wherever the module lives."""
    module = sys.modules[type(state).__module__]
    name = getattr(module, "NAME", None)
    if not isinstance(name, str):
        raise ValueError(f"{type(state).__name__} is not a game of an engine module that declares its NAME.")
    return name


__all__ = ["NAMES", "Engine", "GameState", "IllegalMove", "Phrase", "Refusal", "Result", "get", "name_of"]
