"""The game registry: one entry per game, and everything that lists games is derived from it.

In the spirit of python-chess's ``chess.variant.VARIANTS`` / ``find_variant``: each game's facts (its title, sides,
options, result reasons, rules summary, narration, and the engine, renderer, computer player, puzzles and cog it
uses) live in one :class:`GameEntry`, declared in ``games/<name>.py`` next to nothing else, for each game whose
engine the engines package discovers (``engines.NAMES``: one discovery of games, which the registry follows). Shared
code (the bot, the session service, the shared cogs, the locale checks, the benches, the conformance tests) asks
this module and never names a game. A test can :func:`register` a game of its own and play it through the bot.

Nothing here imports discord, Pillow or the database: renderers, computer players, puzzle modules and cogs are named
by import path and loaded only by the layers that use them (a worker process gets the path, so a game registered at
run time draws and thinks there too).
"""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any

import engines
from engines import Engine, GameState
from games.move_picker import Picker
from locales import N_


@dataclass(frozen=True)
class Option:
    """A game option: the slash-command option and the engine keyword share ``name``."""

    name: str
    description: str  # catalogue msgid
    choices: tuple[tuple[str, str | int], ...]  # (label msgid, value), in the order players see them
    default: str | int

    @property
    def values(self) -> tuple[str | int, ...]:
        return tuple(value for _, value in self.choices)


@dataclass(frozen=True)
class Say:
    """What narration may use to speak to players: ``say(msgid, **params)`` translates for the reader,
    ``player(side)`` mentions that side's member and ``side(side)`` names the side in the reader's language."""

    translate: Callable[..., str]
    player: Callable[[int], str]
    side: Callable[[int], str]

    def __call__(self, message: str, **params: Any) -> str:
        return self.translate(message, **params)


class Narrator:
    """How a game's moves read in the bot's messages. Games override what they tell differently."""

    def messages(self) -> Iterator[str]:
        """Catalogue msgids the narration uses that are not literals in its source (data of the engine)."""
        return iter(())

    def move(self, say: Say, state: GameState, move: str, player: int) -> str:
        """A member's move, just played (``state`` is after it, possibly after later moves too)."""
        return say(N_("{player} played **{move}**."), player=say.player(player), move=move)

    def chance(self, say: Say, state: GameState, move: str) -> str:
        """A chance outcome the bot drew."""
        return say(N_("The bot drew **{move}**."), move=move)

    def forced_pass(self, say: Say, state: GameState, player: int, ply: int | None = None) -> str:
        """A pass the rules forced, played by the bot for ``player``; ``ply`` is its index in ``state.moves``
        when known (``state`` may be after later moves, the game's end included)."""
        return say(N_("{player} cannot place any piece, so the bot passed for them."), player=say.player(player))


@dataclass(frozen=True)
class GameEntry:
    """Everything the bot needs to know about one game."""

    name: str  # the slash-command group and the key stored with every game
    title: str  # shown to players; proper names are the same in every language
    description: str  # the command group's description (msgid)
    challenge_description: str  # msgid
    sides: tuple[str, str]  # side names (msgids), player 0 first
    side_description: str  # what the challenge's ``side`` option says (msgid)
    rules: tuple[str, ...]  # the /<game> rules summary, one msgid per line
    reasons: Mapping[str, str]  # each ``Result.reason`` with a winner -> message with {winner} / {loser}
    engine: Engine
    renderer: str  # import path of a module with ``render(state, names, language="en") -> bytes``
    # import path of the game's computer player (``ai.search.GameAI``: choose_move and analyse_position); None:
    # members cannot challenge the bot to this game, and its challenge offers no level
    ai: str | None = None
    # import path of the game's course (``lessons.Course`` as ``COURSE``: /<game> learn); None: no lessons
    course: str | None = None
    # import path of the game's puzzle module (``puzzles.oracle.Oracle`` as ``ORACLE``: which positions are proven
    # and how, the game's themes, how its self-play is mined for the shipped set); None: no shipped puzzles
    puzzles: str | None = None
    draw_reasons: Mapping[str, str] = field(default_factory=dict)  # each ``Result.reason`` of a draw -> message
    options: tuple[Option, ...] = ()
    # "module:function" building the mixin of the game's own commands (function(entry) -> class), mixed into the
    # cog every game has; None: the shared commands only
    cog: str | None = None
    chance_words: tuple[str, ...] = ()  # how chance moves begin: members may never type these
    narrator: Narrator = field(default_factory=Narrator)
    picker: Picker = field(
        default_factory=Picker
    )  # how its moves are picked by taps under a board (games/move_picker.py)
    # what its own commands (``cog``) need of it beyond the engine contract: the choices they offer and the moves
    # they write from their options (a piece, a square and a direction, say), so they import no engine; None: no such
    # commands
    spelling: Any = None

    def new_game(self, **options: Any) -> GameState:
        return self.engine.new_game(**options)

    def render(self, state: GameState, names: tuple[str, str], language: str = "en", **marks: Any) -> bytes:
        """The board image, its words in ``language`` (a supported language, see ``locales.language_of``).
        ``marks`` are the renderer's keyword options (``layout``, ``highlight``, ...: docs/boards.md); one the
        renderer does not take is left out, so a game whose renderer draws one picture still draws it."""
        return render_with(self.renderer, state, names, language, **marks)

    def alt_text(
        self, state: GameState, names: tuple[str, str], language: str = "en", last_move: str | None = None
    ) -> str | None:
        """The board image's description for a screen reader (at most 1,024 characters), or None when the
        renderer has no words (a game registered without them: the caller falls back to a generic description)."""
        return describe_with(self.renderer, state, names, language, last_move)

    def text_board(self, state: GameState, names: tuple[str, str], language: str = "en") -> str | None:
        """The position as one message (at most 2,000 characters), or None when the renderer has no words."""
        write = getattr(_module(self.renderer), "text_board", None)
        return None if write is None else write(state, names, language)

    def messages(self) -> Iterator[str]:
        """Every catalogue msgid this entry declares, for the translation checks."""
        yield self.description
        yield self.challenge_description
        yield self.side_description
        yield from self.sides
        yield from self.rules
        yield from self.reasons.values()
        yield from self.draw_reasons.values()
        for option in self.options:
            yield option.description
            yield from (label for label, _ in option.choices)
        yield from self.narrator.messages()
        yield from self.picker.messages()


@cache
def _module(path: str) -> Any:
    return importlib.import_module(path)


@cache
def _keywords(path: str) -> frozenset[str] | None:
    """The keyword options the renderer at ``path`` takes; None when it takes any (``**kwargs``)."""
    parameters = inspect.signature(_module(path).render).parameters.values()
    if any(parameter.kind is inspect.Parameter.VAR_KEYWORD for parameter in parameters):
        return None
    return frozenset(parameter.name for parameter in parameters if parameter.kind is inspect.Parameter.KEYWORD_ONLY)


def render_with(renderer: str, state: GameState, names: tuple[str, str], language: str, **marks: Any) -> bytes:
    """``render(state, names, language, **marks)`` of the renderer module at ``renderer``, without the marks it
    does not take (a game registered without them still draws its one picture)."""
    taken = _keywords(renderer)
    if taken is not None:
        marks = {key: value for key, value in marks.items() if key in taken}
    return _module(renderer).render(state, names, language, **marks)  # type: ignore[no-any-return]


def describe_with(
    renderer: str, state: GameState, names: tuple[str, str], language: str, last_move: str | None = None
) -> str | None:
    """``alt_text(state, names, language, last_move)`` of the renderer module at ``renderer``; None when it has
    none (a game registered without words)."""
    describe = getattr(_module(renderer), "alt_text", None)
    return None if describe is None else describe(state, names, language, last_move)


_REGISTRY: dict[str, GameEntry] = {}


def _discover() -> None:
    """Load the entries that ship with the bot. There is one discovery of games, the engines' (``engines.NAMES``:
    every engine module that declares its ``NAME``); each of those games has its entry in ``games/<name>.py``."""
    for name in engines.NAMES:
        try:
            module = importlib.import_module(f"{__name__}.{name}")
        except ModuleNotFoundError as error:
            if error.name != f"{__name__}.{name}":
                raise
            raise LookupError(f"The engine of {name!r} has no registry entry: add games/{name}.py") from None
        entry = getattr(module, "ENTRY", None)
        if not isinstance(entry, GameEntry) or entry.name != name:
            raise LookupError(f"games/{name}.py must declare ENTRY, the GameEntry named {name!r}")
        _REGISTRY.setdefault(entry.name, entry)


def register(entry: GameEntry) -> GameEntry:
    """Add a game (a test's own game, a plug-in); its name must be new."""
    _discover_once()
    if entry.name in _REGISTRY and _REGISTRY[entry.name] is not entry:
        raise ValueError(f"A game named {entry.name!r} is already registered.")
    _REGISTRY[entry.name] = entry
    return entry


def unregister(name: str) -> None:
    _REGISTRY.pop(name, None)


@cache
def _discover_once() -> None:
    _discover()


def entries() -> tuple[GameEntry, ...]:
    """Every registered game, in name order."""
    _discover_once()
    return tuple(sorted(_REGISTRY.values(), key=lambda entry: entry.name))


def names() -> tuple[str, ...]:
    return tuple(entry.name for entry in entries())


def find(name: str) -> GameEntry:
    """The entry of a game; KeyError naming the known games for an unknown name."""
    _discover_once()
    try:
        return _REGISTRY[name]
    except KeyError:
        raise KeyError(f"Unknown game {name!r}; the games are {', '.join(names())}.") from None


__all__ = [
    "GameEntry",
    "Narrator",
    "Option",
    "Picker",
    "Say",
    "entries",
    "find",
    "names",
    "register",
    "render_with",
    "unregister",
]
