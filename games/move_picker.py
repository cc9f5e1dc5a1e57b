"""Moves by taps: how a game's legal moves are offered as select menus under its board, in a few steps.

A :class:`Picker` turns a position and the choices a member made so far (the *path*, a tuple of option keys) into
the next :class:`Step` (up to :data:`MAX_MENUS` select menus of up to :data:`MAX_OPTIONS` options each) or, once
the path names a move, that move. The cogs draw the steps as Discord components and keep the path in their
``custom_id``, so any process can take the next tap; nothing here knows Discord.

The default picker lists the legal moves as they are (split over several menus, or in groups first when there are
too many); a game's entry names a picker of its own where its moves read better in steps (a piece, then a square).
Keys of steps that are not the last (what a path holds) are short and use neither ``:`` nor ``/``: the cogs join
them into a ``custom_id`` of at most 100 characters.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from engines import GameState, Phrase
from locales import N_

MAX_OPTIONS = 25  # Discord's options per select menu
MAX_MENUS = 4  # select menus per step: a message has five rows, and a board keeps one for its buttons
CAPACITY = MAX_OPTIONS * MAX_MENUS  # options one step can offer at once
MAX_STEPS = 3  # taps a move may take (docs/tapping.md)
RESERVED = (":", "/")  # a path's keys go into a custom_id, joined with these

Text = str | Phrase  # what an option or a menu says: notation as it is, or words translated for the reader

CHOOSE_MOVE = N_("Choose your move.")
RANGE = N_("{first} to {last}")


class Unavailable(ValueError):
    """The path names no choice of this position (a forged or outdated press)."""


@dataclass(frozen=True)
class Choice:
    key: str  # sent back when picked: a move (the last step) or a step's own key (at most 100 characters)
    label: Text  # what the option says
    description: Text | None = None  # a second line under it


@dataclass(frozen=True)
class Menu:
    placeholder: Text  # what the closed menu says
    choices: tuple[Choice, ...]  # at most MAX_OPTIONS


@dataclass(frozen=True)
class Step:
    prompt: Text  # the sentence over a step that is not the first
    menus: tuple[Menu, ...]  # at most MAX_MENUS
    highlight: tuple[str, ...] = ()  # what the board marks while this step is open (its renderer's highlight=)

    def choice(self, key: str) -> Choice:
        """The option ``key`` of this step; :class:`Unavailable` if it offers none."""
        for menu in self.menus:
            for choice in menu.choices:
                if choice.key == key:
                    return choice
        raise Unavailable(key)


def shown(choice: Choice) -> str:
    """A short form of an option, for the range a menu covers: its label when that is notation, else its key."""
    return choice.label if isinstance(choice.label, str) else choice.key


def menus(choices: Sequence[Choice], placeholder: Text | None = None) -> tuple[Menu, ...]:
    """``choices`` (at most :data:`CAPACITY`) in menus of :data:`MAX_OPTIONS`, in order; a menu's placeholder is
    ``placeholder`` when one menu holds them all, else the range it covers ("a1 to e3")."""
    if len(choices) > CAPACITY:
        raise ValueError(f"{len(choices)} choices do not fit in {MAX_MENUS} menus")
    chunks = [tuple(choices[start : start + MAX_OPTIONS]) for start in range(0, len(choices), MAX_OPTIONS)]
    if len(chunks) == 1 and placeholder is not None:
        return (Menu(placeholder, chunks[0]),)
    return tuple(Menu(Phrase(RANGE, first=shown(chunk[0]), last=shown(chunk[-1])), chunk) for chunk in chunks)


def packed(groups: Sequence[tuple[str, Sequence[Choice]]], name: Callable[[str, str], Text]) -> tuple[Menu, ...] | None:
    """Whole groups (the cells of a row, say) in order in as few menus as hold them, as evenly filled as can be,
    each menu's placeholder ``name(first group, last group)``; None when they need more than :data:`MAX_MENUS`
    menus."""
    sizes = [len(choices) for _, choices in groups]
    cuts = _even_cuts(sizes)
    if cuts is None:
        return None
    found = []
    for start, end in zip((0, *cuts), (*cuts, len(groups)), strict=True):
        part = groups[start:end]
        found.append(Menu(name(part[0][0], part[-1][0]), tuple(c for _, choices in part for c in choices)))
    return tuple(found)


def _even_cuts(sizes: list[int]) -> tuple[int, ...] | None:
    """Where to cut a row of group sizes into the fewest parts of at most :data:`MAX_OPTIONS` (at most
    :data:`MAX_MENUS` parts), the largest part as small as can be; None if no such cut exists."""
    total = sum(sizes)
    for parts in range(max(1, -(-total // MAX_OPTIONS)), MAX_MENUS + 1):
        best: tuple[int, tuple[int, ...]] | None = None
        for cuts in _cuts(len(sizes), parts):
            bounds = zip((0, *cuts), (*cuts, len(sizes)), strict=True)
            largest = max(sum(sizes[start:end]) for start, end in bounds)
            if largest <= MAX_OPTIONS and (best is None or largest < best[0]):
                best = (largest, cuts)
        if best is not None:
            return best[1]
    return None


def _cuts(count: int, parts: int, start: int = 1) -> Iterator[tuple[int, ...]]:
    """Every way to cut ``count`` items in order into ``parts`` non-empty parts, as the cut positions."""
    if parts == 1:
        yield ()
        return
    for cut in range(start, count - parts + 2):
        for rest in _cuts(count, parts - 1, cut + 1):
            yield (cut, *rest)


def choose(
    choices: Sequence[Choice],
    path: tuple[str, ...],
    prompt: Text,
    *,
    placeholder: Text | None = None,
    highlight: Callable[[Sequence[Choice]], tuple[str, ...]] = lambda _: (),
) -> Step | tuple[Choice, tuple[str, ...]]:
    """One choice among ``choices``, as many steps as they need: the step to show when ``path`` does not yet
    name one, else the chosen :class:`Choice` and what is left of the path. Up to :data:`CAPACITY` choices are one
    step; more are first offered in groups of :data:`MAX_OPTIONS` (a group's key is its number)."""
    if len(choices) <= CAPACITY:
        step = Step(prompt, menus(choices, placeholder), highlight(choices))
        return step if not path else (step.choice(path[0]), path[1:])
    groups = [choices[start : start + MAX_OPTIONS] for start in range(0, len(choices), MAX_OPTIONS)]
    if len(groups) > CAPACITY:
        raise ValueError(f"{len(choices)} choices do not fit in two steps")
    heads = [Choice(str(number), f"{shown(group[0])} – {shown(group[-1])}") for number, group in enumerate(groups)]
    if not path:
        return Step(prompt, menus(heads, placeholder), highlight(choices))
    group = groups[int(Step(prompt, menus(heads)).choice(path[0]).key)]
    step = Step(prompt, menus(group, placeholder), highlight(group))
    return step if len(path) == 1 else (step.choice(path[1]), path[2:])


def finished(picked: Step | tuple[Choice, tuple[str, ...]]) -> Step | str:
    """The step to show, or the picked choice's key when nothing is left of the path; :class:`Unavailable` when
    the path goes on past a move."""
    if isinstance(picked, Step):
        return picked
    choice, rest = picked
    if rest:
        raise Unavailable("/".join(rest))
    return choice.key


class Picker:
    """How a game's moves are picked by taps. This one offers the legal moves as they are: one step for up to
    :data:`CAPACITY` moves, else groups of moves first. Games whose moves read better in steps override
    :meth:`step` (and :meth:`messages` for the words they use that are not literals in their source)."""

    def messages(self) -> Iterator[str]:
        return iter(())

    def step(self, state: GameState, path: tuple[str, ...]) -> Step | str:
        """The next step after the choices ``path`` (a member to act in ``state``, which no chance move awaits),
        or the move they make; :class:`Unavailable` when the path is not one this position offers."""
        moves = [Choice(move, move) for move in state.legal_moves()]
        return finished(choose(moves, path, CHOOSE_MOVE, placeholder=CHOOSE_MOVE))


def first_keys(step: Step) -> Iterator[str]:
    """Every key a step offers, in order (for tests and checks)."""
    for menu in step.menus:
        for choice in menu.choices:
            yield choice.key
