"""Fixed, seeded positions whose board images are kept in tests/render_reference/.

The references were first drawn by the renderers before they were optimised, and drawn again (looked at, in
English and in Japanese) when the boards moved to the bundled font: comparing against them shows that a faster
renderer still draws the same picture. Regenerate them (only when a picture is meant to change) with
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
JAPANESE_NAMES = ("山田 たろう", "ミナ")  # kanji, hiragana and katakana


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
CASES: dict[str, tuple[Callable[..., bytes], Callable[[], object]]] = {
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
    # A case ending in _ja is drawn in Japanese, with Japanese names: the words and the bundled font's kana/kanji.
    "iago_penalty_middle_ja": (iago_view.render, lambda: random_game(lambda: iago.new_game(variant="penalty"), 4, 30)),
    "isaac_end_ja": (isaac_view.render, lambda: isaac_game(None)),
    "polygo_9_finished_ja": (polygo_view.render, lambda: polygo_black_finished()),
    "polygo_19_middle_ja": (polygo_view.render, lambda: polygo_game(19, 70, seed=10)),
}


def names_and_language(name: str) -> tuple[tuple[str, str], str]:
    """The players' names and the language a reference case is drawn with."""
    return (JAPANESE_NAMES, "ja") if name.endswith("_ja") else (NAMES, "en")


def draw_case(name: str, game: object | None = None) -> bytes:
    """The PNG of a reference case (of ``game`` instead of its position, when given)."""
    draw, position = CASES[name]
    names, language = names_and_language(name)
    return draw(position() if game is None else game, names, language)  # type: ignore[call-arg]


def reference_path(name: str) -> Path:
    return REFERENCE_DIR / f"{name}.png"


def main() -> None:
    REFERENCE_DIR.mkdir(exist_ok=True)
    for name in CASES:
        reference_path(name).write_bytes(draw_case(name))
        print(name, reference_path(name).stat().st_size)


if __name__ == "__main__":
    main()
