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
from typing import Any

from engines import iago, isaac, polygo
from render import iago as iago_view
from render import isaac as isaac_view
from render import polygo as polygo_view
from tests.test_polygo_engine import BLACK_FINISHES

NO_OPTIONS: Callable[[Any], dict[str, Any]] = lambda game: {}  # noqa: E731

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


def polygo_rolled(size: int, face: int, seed: int, after: int = 20) -> polygo.PolygoGame:
    """A seeded random Polygo game played on past ``after`` moves to the first roll of ``face``, placement due."""
    rng = random.Random(seed)
    game = polygo.new_game(size=size)
    while not (game.die == face and len(game.moves) > after):
        game.play(rng.choice(game.legal_moves()))
    return game


def isaac_scoring(seed: int = 5) -> isaac.IsaacGame:
    """A seeded random ISAAC game two removals into its scoring phase."""
    rng = random.Random(seed)
    game = isaac.new_game()
    while game.phase == isaac.PLACEMENT or len(game.removed(0)) + len(game.removed(1)) < 2:
        game.play(rng.choice(game.legal_moves()))
    return game


def analysis(game: Any) -> dict[str, Any]:
    """An analysis board: the first legal move as the one played, the last as the better one."""
    legal = game.legal_moves()
    return {"played": legal[0], "suggestion": legal[-1]}


def isaac_choosing(game: isaac.IsaacGame) -> dict[str, Any]:
    """A member who chose the longest piece in hand: where it can start, and a suggestion."""
    length = max(length for length, count in game.in_hand(game.turn or 0).items() if count)
    return {
        "layout": "portrait",
        "highlight": list(game.placement_starts(length)),
        "suggestion": game.legal_moves()[-1],
    }


def polygo_choosing(game: polygo.PolygoGame) -> dict[str, Any]:
    """Where the rolled block fits (every placement), and a suggestion."""
    legal = game.legal_moves()
    return {"layout": "portrait", "highlight": legal, "suggestion": legal[len(legal) // 2]}


# name -> (renderer, position, options): positions are built on demand because the games are mutable; options are
# the renderer's keyword arguments for that position (layout, marks).
CASES: dict[str, tuple[Callable[..., bytes], Callable[[], Any], Callable[[Any], dict[str, Any]]]] = {
    "iago_start": (iago_view.render, lambda: iago.new_game(), NO_OPTIONS),
    "iago_middle": (iago_view.render, lambda: iago_game(24), NO_OPTIONS),
    "iago_end_captives": (iago_view.render, lambda: iago_game(None, seed=0), NO_OPTIONS),
    "iago_penalty_middle": (
        iago_view.render,
        lambda: random_game(lambda: iago.new_game(variant="penalty"), 4, 30),
        NO_OPTIONS,
    ),
    "isaac_start": (isaac_view.render, lambda: isaac.new_game(), NO_OPTIONS),
    "isaac_middle": (isaac_view.render, lambda: isaac_game(20), NO_OPTIONS),
    "isaac_end": (isaac_view.render, lambda: isaac_game(None), NO_OPTIONS),
    "polygo_9_start": (polygo_view.render, lambda: polygo_game(9, 1, seed=1), NO_OPTIONS),
    "polygo_9_finished": (polygo_view.render, lambda: polygo_black_finished(), NO_OPTIONS),
    "polygo_13_middle": (polygo_view.render, lambda: polygo_game(13, 30, seed=39), NO_OPTIONS),
    "polygo_13_both_polygons": (polygo_view.render, lambda: polygo_game(13, None, seed=39), NO_OPTIONS),
    "polygo_19_middle": (polygo_view.render, lambda: polygo_game(19, 70, seed=10), NO_OPTIONS),
    "polygo_19_end": (polygo_view.render, lambda: polygo_game(19, None, seed=1), NO_OPTIONS),
    # A case ending in _ja is drawn in Japanese, with Japanese names: the words and the bundled font's kana/kanji.
    "iago_penalty_middle_ja": (
        iago_view.render,
        lambda: random_game(lambda: iago.new_game(variant="penalty"), 4, 30),
        NO_OPTIONS,
    ),
    "isaac_end_ja": (isaac_view.render, lambda: isaac_game(None), NO_OPTIONS),
    "polygo_9_finished_ja": (polygo_view.render, lambda: polygo_black_finished(), NO_OPTIONS),
    "polygo_19_middle_ja": (polygo_view.render, lambda: polygo_game(19, 70, seed=10), NO_OPTIONS),
    # Boards for a phone (issue 24) and the marks a caller asks for: where a piece or block can go, a hint's
    # suggestion, an analysis's played and better moves; the Polygo analysis has a roll of two S/Z blocks.
    "iago_middle_hint": (iago_view.render, lambda: iago_game(24), lambda game: {"suggestion": game.legal_moves()[0]}),
    "isaac_middle_portrait": (isaac_view.render, lambda: isaac_game(8), isaac_choosing),
    "isaac_scoring_analysis": (isaac_view.render, lambda: isaac_scoring(), analysis),
    "polygo_19_middle_portrait": (polygo_view.render, lambda: polygo_rolled(19, 5, seed=10, after=70), polygo_choosing),
    "polygo_13_analysis": (polygo_view.render, lambda: polygo_rolled(13, 6, seed=1), analysis),
    "isaac_end_portrait_ja": (isaac_view.render, lambda: isaac_game(None), lambda game: {"layout": "portrait"}),
    "polygo_9_finished_portrait_ja": (polygo_view.render, polygo_black_finished, lambda game: {"layout": "portrait"}),
}


def names_and_language(name: str) -> tuple[tuple[str, str], str]:
    """The players' names and the language a reference case is drawn with."""
    return (JAPANESE_NAMES, "ja") if name.endswith("_ja") else (NAMES, "en")


def draw_case(name: str, game: object | None = None) -> bytes:
    """The PNG of a reference case (of ``game`` instead of its position, when given)."""
    draw, position, options = CASES[name]
    names, language = names_and_language(name)
    shown = position() if game is None else game
    return draw(shown, names, language, **options(position()))


def reference_path(name: str) -> Path:
    return REFERENCE_DIR / f"{name}.png"


def main() -> None:
    REFERENCE_DIR.mkdir(exist_ok=True)
    for name in CASES:
        reference_path(name).write_bytes(draw_case(name))
        print(name, reference_path(name).stat().st_size)


if __name__ == "__main__":
    main()
