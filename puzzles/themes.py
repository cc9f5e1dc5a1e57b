"""A puzzle's themes: what a member recognises in it, computed from the position and the solution alone.

Pure code on the engines' public calls (no search): the miner stores the themes in the shipped record, and a test
computes them again. Each game's own themes are its oracle's (``Oracle.themes``, in the game's puzzle module); the
themes every game shares are here. A theme is stored by its key; ``names(oracle)`` gives each key its English name,
a catalogue msgid (``locales.N_``), so the bot shows it in the reader's language and a member can pick puzzles by
it.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from locales import N_
from puzzles.mining import WINNING
from puzzles.oracle import Oracle

COMMON: dict[str, str] = {
    "one-move": N_("One move"),
    "long-line": N_("Long line"),
    "defence": N_("Defence"),
    "quiet": N_("Quiet move"),
}


def names(oracle: Oracle) -> dict[str, str]:
    """Every theme key a puzzle of ``oracle``'s game may have, with its English name (a catalogue msgid)."""
    return {**COMMON, **oracle.theme_names}


def themes(
    oracle: Oracle, options: dict[str, Any], moves: Iterable[str], solution: list[str], value: float
) -> list[str]:
    """The theme keys of a puzzle (sorted): the game's own, then the line's length; ``quiet`` when the first move
    has none of its game's tactical themes. ``value`` is the first step's proven value (below ``WINNING``, the
    move saves the game rather than winning it: a defence)."""
    state = oracle.position(options, list(moves))
    found = set(oracle.themes(state, solution))
    if not found:
        found.add("quiet")
    solver_moves = (len(solution) + 1) // 2
    found.add("one-move" if solver_moves == 1 else "long-line")
    if value < WINNING:
        found.add("defence")
    return sorted(found)
