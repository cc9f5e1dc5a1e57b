"""ISAAC's boards are quantized only where a render changed the empty board or a piece drawn before
(render/isaac.py, ``_encoded``): the PNG is byte for byte the one quantizing the whole picture gives, whatever the
position, layout, marks or language, and whatever boards were drawn before it."""

from __future__ import annotations

import random

import pytest

from engines import isaac
from render import isaac as isaac_view
from render.base import to_png
from render.marks import Marks


def positions(seed: int) -> list[isaac.IsaacGame]:
    """Every position of a seeded random game: placements, then removals, to its end."""
    rng = random.Random(seed)
    game = isaac.new_game()
    seen = [game.copy()]
    while not game.is_over:
        game.play(rng.choice(game.legal_moves()))
        seen.append(game.copy())
    return seen


@pytest.mark.parametrize("layout", ["landscape", "portrait"])
def test_a_render_is_the_whole_picture_quantized(layout: str) -> None:
    rng = random.Random(layout)
    shape = isaac_view.layout_of(layout)
    isaac_view._TILES.clear()
    checked = 0
    for seed in (1, 2, 3):
        games = positions(seed)
        for game in rng.sample(games, 12) + games[-3:]:  # out of order: tiles drawn in other positions are reused
            moves = game.legal_moves() if not game.is_over else []
            some = rng.sample(moves, min(3, len(moves)))
            for mark in [Marks.of((), None, None), *([Marks.of(some, some[0], some[-1])] if some else [])]:
                language = rng.choice(["en", "ja"])
                names = ("Alice", "山田 たろう")
                whole = to_png(isaac_view.drawn(game, names, language, shape, mark), isaac_view.PALETTE)
                options = {"highlight": mark.highlight, "suggestion": mark.suggestion, "played": mark.played}
                assert isaac_view.render(game, names, language, layout=layout, **options) == whole, game.moves
                checked += 1
    assert checked >= 60 and isaac_view._TILES  # pieces were taken from tiles
