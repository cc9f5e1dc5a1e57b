"""Regenerate the README's board pictures: `python docs/make_images.py`.

Each is a mid-game position of a seeded random game, drawn by the same renderers the bot uses; the `-ja` pictures
show the same positions as a Japanese server sees them.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import games

HERE = Path(__file__).resolve().parent / "images"
SETUPS = {"iago": ({}, 36, 4), "isaac": ({}, 27, 2), "polygo": ({"size": 13}, 60, 1)}
JAPANESE = ("polygo",)  # games also drawn in Japanese, with Japanese names
JAPANESE_NAMES = ("山田 たろう", "ミナ")


def main() -> None:
    HERE.mkdir(exist_ok=True)
    for game, (options, plies, seed) in SETUPS.items():
        rng = random.Random(seed)
        entry = games.find(game)
        state = entry.new_game(**options)
        while len(state.moves) < plies and not state.is_over:
            state.play(rng.choice(state.legal_moves()))
        pictures = {game: entry.render(state, ("Alice", "Bob"))}
        if game in JAPANESE:
            pictures[f"{game}-ja"] = entry.render(state, JAPANESE_NAMES, "ja")
        for name, png in pictures.items():
            (HERE / f"{name}.png").write_bytes(png)
            print(f"docs/images/{name}.png: {len(png) / 1024:.1f} KB after {len(state.moves)} moves")


if __name__ == "__main__":
    main()
