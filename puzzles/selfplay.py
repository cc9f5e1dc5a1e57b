"""The bot's self-play: games between its levels, seeded, as records to mine for puzzles.

The dice of a game with dice come from the same seeded generator as the players' seeds, so a seed names one
game (for levels that stop on the clock, one game per machine speed: the record is what is kept, not the seed).
"""

from __future__ import annotations

import random
from typing import Any

import ai
from engines import GameState


def self_play(
    new_game: Any, levels: tuple[int, int], seed: int, budget_s: float | None = None, game_ai: str | None = None
) -> GameState:
    """A finished game between ``levels`` (player 0's, player 1's); ``new_game()`` makes its start."""
    rng = random.Random(seed)
    state: GameState = new_game()
    while not state.is_over:
        if state.chance or state.turn is None:
            state.play(rng.choice(state.legal_moves()))
            continue
        level = levels[state.turn]
        state.play(ai.choose_move(state, level, seed=rng.randrange(2**32), budget_s=budget_s, game_ai=game_ai))
    return state
