"""The oracle protocol: what the shared puzzle code needs of a game, and the searches every game's oracle builds on.

A game's puzzle knowledge lives in its own module, named by its registry entry by import path (``GameEntry.puzzles``,
as ``GameEntry.ai`` names its computer player): the module declares ``ORACLE``, an :class:`Oracle` saying which
positions are worth proving, how a move is valued, which positions one erring move away are candidates too, the
game's themes and how its self-play is played. The shared modules (``prove``, ``miner``, ``themes``, ``rating``,
``shipped``) name no game: they are given the module's path (``load``) or the loaded oracle, never the registry.

Every search is fixed work, never a clock (``budget_s=math.inf`` is the AI's "no clock" mode: an exact endgame
solver runs to its end, a tree search stops at a fixed number of iterations from a fixed seed, a width-bounded
search runs to its full width), so a seed mines the same puzzles on any machine and a test can search again and get
the same values. Values are the AI's: -1..+1 for the player named (docs/puzzles.md, "What sound means").
"""

from __future__ import annotations

import importlib
import json
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any

import ai
from engines import Engine, GameState
from puzzles.mining import Step

FULL = math.inf  # the AI's "no clock" budget: a fixed amount of work, the same on every machine
GLANCE = 0.0  # the least search (its first depth always completes): fixed work too, for ordering moves only

Ordered = list[tuple[str, float | None]]  # moves, likeliest rivals first, each with its shallow value (if any)
Survey = tuple[str, float, Ordered]  # the search's best move, its value there, and every move ordered (best first)


@dataclass(frozen=True)
class Oracle:
    """One game's puzzles: its searches, its themes and how its self-play is mined.

    The searches: ``gate`` says whether a position is worth proving; ``survey`` is the full search at the position
    (its move and value) with the moves ordered likeliest rivals first (the prover stops at the first rival that
    also keeps the win, so most positions cost a few searches); ``deep_value`` is the proving value of a move for
    the player who plays it; with ``contenders``, only that many moves get it and the rest keep the shallow value
    the survey gave them. ``signature`` is the position itself (two records reaching it are one puzzle);
    ``deviations`` are the moves (or die faces) whose positions are candidates too, up to ``deviation_plies`` of
    them in a row (a second erring move after the first, where proofs are cheap). A game whose searches can
    settle every move at once (an exact solver) gives ``step``, its own proof of one step (the only move and its
    closest rival, or None), which the miner uses instead of ``survey`` and ``deep_value``; the generic pair then
    proves a sample again independently (tests/test_shipped_puzzles.py).

    The themes: ``themes(state, solution)`` gives the game's own theme keys of a puzzle at ``state`` (no search);
    ``theme_names`` maps each of them to its English name, a catalogue msgid.

    The self-play: ``opening`` random moves before the levels play; ``level_work`` bounds the work of the levels
    whose only bound is their clock (``max_depth`` by level); ``ship_per_game`` caps, by theme, the puzzles shipped
    from one self-play game (the easy, look-alike ones); ``game_cpu_s`` is the CPU a self-play game may take."""

    game: str  # the engine's NAME, stored in every puzzle
    engine: Engine
    game_ai: str  # import path of the AI whose searches prove the puzzles (the game's ``GameEntry.ai``)
    search: str  # names the proving search in the shipped record
    gate: Callable[[GameState], bool]
    survey: Callable[[GameState, str], Survey]
    deep_value: Callable[[GameState, str, int, str], float]
    signature: Callable[[GameState], Any]
    deviations: Callable[[GameState], list[str]]
    themes: Callable[[GameState, list[str]], set[str]]
    theme_names: Mapping[str, str]
    contenders: int | None = None
    step: Callable[[GameState], Step | None] | None = None
    deviation_plies: int = 1
    opening: int = 0
    level_work: Mapping[int, int] = field(default_factory=dict)
    ship_per_game: Mapping[str, int] = field(default_factory=dict)
    game_cpu_s: float = 120.0

    def best(self, state: GameState) -> tuple[str, float]:
        """The full search's best move at ``state`` and its value for the player to act."""
        return ai.analyse_position(state, budget_s=FULL, game_ai=self.game_ai)

    def key(self, state: GameState) -> str:
        """The position itself, whatever record led to it: two puzzles with one key are one puzzle."""
        return json.dumps([self.game, self.signature(state)], sort_keys=True, separators=(",", ":"))

    def position(self, options: Mapping[str, Any], record: list[str] | tuple[str, ...]) -> GameState:
        """The game with ``options`` after the moves of ``record``."""
        state = self.engine.new_game(**options)
        for move in record:
            state.play(move)
        return state


class TooLong(Exception):
    """A search ran past its allowance of work (a fixed number of nodes, or the miner's CPU seconds)."""


@cache
def load(path: str) -> Oracle:
    """The oracle of the puzzle module at an import path (``GameEntry.puzzles``): its ``ORACLE``."""
    oracle = getattr(importlib.import_module(path), "ORACLE", None)
    if not isinstance(oracle, Oracle):
        raise LookupError(f"{path} must declare ORACLE, a puzzles.oracle.Oracle")
    return oracle


def after(state: GameState, move: str) -> GameState:
    """A copy of ``state`` with ``move`` played."""
    copy = state.copy()
    copy.play(move)
    return copy


def value(state: GameState, player: int, game_ai: str, budget: float = FULL) -> float:
    """``state``'s value for ``player``: exact once over, a forced move (a pass) played rather than searched."""
    if state.is_over:
        winner = state.result().winner
        return 0.0 if winner is None else (1.0 if winner == player else -1.0)
    legal = state.legal_moves()
    if not state.chance and state.turn is not None and len(legal) == 1:
        return value(after(state, legal[0]), player, game_ai, budget)
    return ai.evaluate(state, player, budget_s=budget, game_ai=game_ai)


def value_after(state: GameState, move: str, player: int, game_ai: str) -> float:
    """The full search's value, for ``player``, of the position ``move`` leaves."""
    return value(after(state, move), player, game_ai)


def by_glance(state: GameState, game_ai: str) -> Survey:
    """The full search's move first, then the others by the least search of each (the likeliest rivals first)."""
    player = state.turn
    assert player is not None
    best, estimate = ai.analyse_position(state, budget_s=FULL, game_ai=game_ai)
    others = [m for m in state.legal_moves() if m != best]
    glanced = {m: value(after(state, m), player, game_ai, GLANCE) for m in others}
    return best, estimate, [(best, None), *((m, None) for m in sorted(others, key=lambda m: (-glanced[m], m)))]


def every_move(state: GameState) -> list[str]:
    """Every move of the player to act (none at a chance move): each one's position is a candidate."""
    return [] if state.chance or state.turn is None else state.legal_moves()


def dict_signature(state: GameState) -> Any:
    """The position as the engine writes it, without the record and the last move's marks."""
    data = state.to_dict()
    for key in ("moves", "last_cell", "last_flips"):
        data.pop(key, None)
    return data
