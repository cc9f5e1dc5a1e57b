"""Fixed, seeded positions whose board images are kept in tests/render_reference/.

The references were drawn by the renderers before they were optimised, so comparing against them shows that a
faster renderer still draws the same picture. Regenerate them (only when a picture is meant to change) with
`python -m tests.render_cases`.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

from engines import iago, isaac, polygo
from render import iago as iago_view
from render import isaac as isaac_view
from render import polygo as polygo_view
from tests.test_polygo_engine import BLACK_FINISHES

REFERENCE_DIR = Path(__file__).parent / "render_reference"
NAMES = ("Alice", "Bob")


def random_game(new: Callable[[], object], seed: int, plies: int | None = None) -> object:
    """A seeded random game, stopped after `plies` moves or at its end."""
    rng = random.Random(seed)
    game = new()
    while not game.is_over and (plies is None or len(game.moves) < plies):  # type: ignore[attr-defined]
        game.play(rng.choice(game.legal_moves()))  # type: ignore[attr-defined]
    return game


def iago_game(plies: int | None, seed: int = 2) -> iago.IagoGame:
    return random_game(iago.new_game, seed, plies)  # type: ignore[return-value]


def isaac_game(plies: int | None, seed: int = 5) -> isaac.IsaacGame:
    return random_game(isaac.new_game, seed, plies)  # type: ignore[return-value]


def polygo_game(size: int, plies: int | None, seed: int) -> polygo.PolygoGame:
    return random_game(lambda: polygo.new_game(size=size), seed, plies)  # type: ignore[return-value]


def polygo_black_finished() -> polygo.PolygoGame:
    game = polygo.new_game(size=9)
    for move in BLACK_FINISHES:
        game.play(move)
    return game


# name -> (renderer, position); positions are built on demand because the games are mutable
CASES: dict[str, tuple[Callable[[object, tuple[str, str]], bytes], Callable[[], object]]] = {
    "iago_start": (iago_view.render, lambda: iago.new_game()),
    "iago_middle": (iago_view.render, lambda: iago_game(24)),
    "iago_end_captives": (iago_view.render, lambda: iago_game(None, seed=0)),
    "iago_penalty_middle": (iago_view.render, lambda: random_game(lambda: iago.new_game(variant="penalty"), 4, 30)),
    "isaac_start": (isaac_view.render, lambda: isaac.new_game()),
    "isaac_middle": (isaac_view.render, lambda: isaac_game(20)),
    "isaac_end": (isaac_view.render, lambda: isaac_game(None)),
    "polygo_9_start": (polygo_view.render, lambda: polygo_game(9, 1, seed=1)),
    "polygo_9_finished": (polygo_view.render, lambda: polygo_black_finished()),
    "polygo_13_middle": (polygo_view.render, lambda: polygo_game(13, 30, seed=39)),
    "polygo_13_both_polygons": (polygo_view.render, lambda: polygo_game(13, None, seed=39)),
    "polygo_19_middle": (polygo_view.render, lambda: polygo_game(19, 70, seed=10)),
    "polygo_19_end": (polygo_view.render, lambda: polygo_game(19, None, seed=1)),
}


def reference_path(name: str) -> Path:
    return REFERENCE_DIR / f"{name}.png"


def main() -> None:
    REFERENCE_DIR.mkdir(exist_ok=True)
    for name, (draw, position) in CASES.items():
        reference_path(name).write_bytes(draw(position(), NAMES))
        print(name, reference_path(name).stat().st_size)


if __name__ == "__main__":
    main()
