"""Computer players for every game, on the engine contract only (engine-api.md, "The AI's contract").

    ai.LEVELS                                   # (1, 2, 3, 4)
    ai.choose_move(state, level, seed=None)     # one of state.legal_moves(); state is never mutated
    ai.analyse_position(state, budget_s=1.6)    # (best move, value for the player to act in [-1, 1])
    ai.evaluate(state, player, budget_s=1.6)    # the same value seen from ``player``

Which AI plays a game is named by the game's registry entry (``GameEntry.ai``, an import path, like its
renderer): the state's engine module declares the game's name (``engines.name_of``) and the registry names the
module, an ``ai.search.GameAI``. A caller that holds the path already passes it as ``game_ai=``: a worker
process does, since a game registered at run time is in the bot's registry but not in a fresh worker's. This
module only checks, copies and dispatches; how a game's levels think is its own module's business. Values are
+1 for a sure win of the player to act, -1 for a sure loss; where dice decide, they are estimates of that.
"""

from __future__ import annotations

import importlib
import random
from functools import cache
from typing import Any

import engines
import games
from ai.search import GameAI

LEVELS: tuple[int, ...] = (1, 2, 3, 4)


@cache
def load(path: str) -> GameAI:
    """The AI module at an import path (``GameEntry.ai``)."""
    return importlib.import_module(path)  # type: ignore[return-value]


def player_of(state: Any) -> GameAI:
    """The AI of ``state``'s game, as the game's registry entry names it; ValueError for a game without one."""
    entry = games.find(engines.name_of(state))
    if entry.ai is None:
        raise ValueError(f"{entry.title} has no computer player.")
    return load(entry.ai)


def _player(state: Any, game_ai: str | GameAI | None) -> GameAI:
    if game_ai is None:
        return player_of(state)
    return load(game_ai) if isinstance(game_ai, str) else game_ai


def _check_actable(state: Any, level: int) -> None:
    if level not in LEVELS:
        raise ValueError(f"Unknown level {level!r}: choose one of {', '.join(map(str, LEVELS))}.")
    if state.is_over:
        raise ValueError("The game is over: there is no move to choose.")
    if state.chance or state.turn is None:
        raise ValueError("A chance move is due: the session draws it, not a player.")


def choose_move(
    state: Any,
    level: int,
    *,
    seed: int | None = None,
    budget_s: float | None = None,
    max_depth: int | None = None,
    game_ai: str | GameAI | None = None,
) -> str:
    """A move for the player to act at ``level`` (1 gentlest .. 4 strongest).

    ``budget_s`` and ``max_depth`` override the level's time and depth (tests, benchmarks). With the same seed
    the choice is the same whenever the search reaches the same depth, always so for levels 1 and 2 (depth
    bound) and for any level given a ``max_depth`` it can finish. ValueError at a chance move or game over.
    """
    _check_actable(state, level)
    player = _player(state, game_ai)
    return player.choose_move(state.copy(), level, random.Random(seed), budget_s=budget_s, max_depth=max_depth)


def analyse_position(state: Any, *, budget_s: float = 1.6, game_ai: str | GameAI | None = None) -> tuple[str, float]:
    """The strongest search's best move and its value in [-1, 1] for the player to act."""
    _check_actable(state, 4)
    return _player(state, game_ai).analyse_position(state.copy(), budget_s=budget_s)


def evaluate(state: Any, player: int, *, budget_s: float = 1.6, game_ai: str | GameAI | None = None) -> float:
    """The level-4 value of ``state`` for ``player`` in [-1, 1]; exact once the game is over.

    At a chance point the value is the game AI's ``chance_value`` (the value for the player about to roll, with
    no search) where it has one, else the average over the outcomes, each searched with an equal share of time,
    so a post-game analysis can walk the whole record.
    """
    if state.is_over:
        winner = state.result().winner
        return 0.0 if winner is None else (1.0 if winner == player else -1.0)
    if state.chance or state.turn is None:
        quick = getattr(_player(state, game_ai), "chance_value", None)
        value = None if quick is None or state.to_act is None else quick(state)
        if value is not None:
            return value if state.to_act == player else -value
        outcomes = state.legal_moves()
        total = 0.0
        for outcome in outcomes:
            after = state.copy()
            after.play(outcome)
            total += evaluate(after, player, budget_s=budget_s / len(outcomes), game_ai=game_ai)
        return total / len(outcomes)
    _, value = analyse_position(state, budget_s=budget_s, game_ai=game_ai)
    return value if state.turn == player else -value


__all__ = ["LEVELS", "analyse_position", "choose_move", "evaluate", "load", "player_of"]
