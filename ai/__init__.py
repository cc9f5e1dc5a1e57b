"""Computer players for every game, on the engine contract only (engine-api.md, "The AI's contract").

    ai.LEVELS                                   # (1, 2, 3, 4)
    ai.choose_move(state, level, seed=None)     # one of state.legal_moves(); state is never mutated
    ai.analyse_position(state, budget_s=1.6)    # (best move, value for the player to act in [-1, 1])
    ai.evaluate(state, player, budget_s=1.6)    # the same value seen from ``player``

Each game module provides a strategy that values root moves at a depth (ai/search.py runs the clock, the
iterative deepening and the softmax of the weaker levels). Values are +1 for a sure win of the player to act,
-1 for a sure loss; in Polygo, where dice decide, they are estimates of that.
"""

from __future__ import annotations

import random
from typing import Any

from ai import iago, isaac, polygo
from ai.search import LEVELS_CONFIG, GameAI

LEVELS: tuple[int, ...] = (1, 2, 3, 4)

# game name -> that game's AI module (ai.search.GameAI)
STRATEGIES: dict[str, GameAI] = {"iago": iago, "isaac": isaac, "polygo": polygo}  # type: ignore[dict-item]


def game_name(state: Any) -> str:
    """The registry key of a game state, from the engine module that defines its type."""
    name = type(state).__module__.rsplit(".", 1)[-1]
    if name not in STRATEGIES:
        raise ValueError(f"No AI for games of type {type(state).__name__}.")
    return name


def _check_actable(state: Any, level: int) -> None:
    if level not in LEVELS_CONFIG:
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
    game: str | None = None,
) -> str:
    """A move for the player to act at ``level`` (1 gentlest .. 4 strongest).

    ``budget_s`` and ``max_depth`` override the level's time and depth (tests, benchmarks). With the same seed
    the choice is the same whenever the search reaches the same depth, always so for levels 1 and 2 (depth
    bound) and for any level given a ``max_depth`` it can finish. ValueError at a chance move or game over.
    """
    _check_actable(state, level)
    module = STRATEGIES[game or game_name(state)]
    return module.choose_move(state.copy(), level, random.Random(seed), budget_s=budget_s, max_depth=max_depth)


def analyse_position(state: Any, *, budget_s: float = 1.6, game: str | None = None) -> tuple[str, float]:
    """The strongest search's best move and its value in [-1, 1] for the player to act."""
    _check_actable(state, 4)
    return STRATEGIES[game or game_name(state)].analyse_position(state.copy(), budget_s=budget_s)


def evaluate(state: Any, player: int, *, budget_s: float = 1.6, game: str | None = None) -> float:
    """The level-4 value of ``state`` for ``player`` in [-1, 1]; exact once the game is over.

    At a chance point the value is the average over the outcomes, each searched with an equal share of time,
    so a post-game analysis can walk the whole record.
    """
    if state.is_over:
        winner = state.result().winner
        return 0.0 if winner is None else (1.0 if winner == player else -1.0)
    if state.chance or state.turn is None:
        outcomes = state.legal_moves()
        total = 0.0
        for outcome in outcomes:
            after = state.copy()
            after.play(outcome)
            total += evaluate(after, player, budget_s=budget_s / len(outcomes), game=game)
        return total / len(outcomes)
    _, value = analyse_position(state, budget_s=budget_s, game=game)
    return value if state.turn == player else -value


__all__ = ["LEVELS", "STRATEGIES", "analyse_position", "choose_move", "evaluate", "game_name"]
