"""What playing by taps costs a board, in CPU time: `python bench/move_picker.py [positions]`.

For positions along a seeded random game of every registered game (its default options): the components under a
board (the picker's first step, whether the game may still be aborted, the view discord.py sends), and the board
drawn in the portrait layout those boards use against the landscape one (docs/tapping.md). Process CPU time, so
another process on the machine does not count; the renderers' cached layers are built first.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import games
from cogs.presentation.board_controls import plan, step_view
from sessions.aborts import Aborts
from sessions.model import GameStatus


class Service:
    """What :func:`cogs.presentation.board_controls.plan` asks of the service: its aborts part."""

    class aborts:  # the part, as the service names it
        can_abort = staticmethod(Aborts.can_abort)


class Game:
    """What :func:`cogs.presentation.board_controls.plan` reads of a stored game."""

    id = 1
    status = GameStatus.ACTIVE
    ai_side = None
    tournament_id = None

    def __init__(self, name: str, options: dict[str, Any]) -> None:
        self.name, self.options = name, options
        self.entry = games.find(name)


def cpu_ms(work: Callable[[], object], times: int) -> float:
    start = time.process_time()
    for _ in range(times):
        work()
    return (time.process_time() - start) / times * 1000


def components(game: Game, board: Any) -> None:
    planned = plan(Service(), game, board)  # type: ignore[arg-type]
    assert planned is not None
    step_view(1, len(board.moves), (), planned.step, planned.buttons, "en")


def measure(entry: games.GameEntry, positions: int) -> tuple[list[float], list[float], list[float]]:
    """CPU ms per board along a seeded game: (components, landscape, portrait)."""
    options = {option.name: option.default for option in entry.options}
    state, rng, game = entry.new_game(**options), random.Random(2), Game(entry.name, options)
    names = ("Alice", "Bob")
    for layout in ("landscape", "portrait"):  # cached layers built before timing
        entry.render(state, names, layout=layout)
    found: tuple[list[float], list[float], list[float]] = ([], [], [])
    while not state.is_over and len(found[0]) < positions:
        if not state.chance and state.legal_moves() != ["pass"]:
            board = state.copy()
            found[0].append(cpu_ms(partial(components, game, board), 3))
            found[1].append(cpu_ms(partial(entry.render, board, names), 2))
            found[2].append(cpu_ms(partial(entry.render, board, names, layout="portrait"), 2))
        for _ in range(4):
            if not state.is_over:
                state.play(rng.choice(state.legal_moves()))
    return found


def main(positions: int) -> None:
    print(f"{'game':<10}{'positions':>10}{'components ms':>15}{'max':>7}{'landscape ms':>14}{'portrait ms':>13}")
    for entry in games.entries():
        built, landscape, portrait = measure(entry, positions)
        print(
            f"{entry.name:<10}{len(built):>10}{statistics.median(built):>15.1f}{max(built):>7.1f}"
            f"{statistics.median(landscape):>14.1f}{statistics.median(portrait):>13.1f}"
        )


if __name__ == "__main__":
    numbers = [arg for arg in sys.argv[1:] if arg.isdigit()]
    main(int(numbers[0]) if numbers else 15)
