"""Regenerate the README's board pictures: `python docs/make_images.py`.

Each is a mid-game position of a seeded random game, drawn by the same renderers the bot uses; the `-ja` pictures
show the same positions as a Japanese server sees them. The `-phone` pictures are the portrait layout with a hint's
suggestion and where the rolled block or a chosen piece can go, shrunk to 400 px wide: what a phone shows.
"""

from __future__ import annotations

import io
import random
import sys
from pathlib import Path
from typing import Any

from PIL import Image

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import games
from engines import GameState

HERE = Path(__file__).resolve().parent / "images"
SETUPS = {"iago": ({}, 36, 4), "isaac": ({}, 27, 2), "polygo": ({"size": 13}, 60, 1)}
JAPANESE = ("polygo",)  # games also drawn in Japanese, with Japanese names
JAPANESE_NAMES = ("山田 たろう", "ミナ")
PHONE = {"iago": ({}, 24, 2), "isaac": ({}, 8, 5), "polygo": ({"size": 19}, 71, 10)}
PHONE_WIDTH = 400


def played(game: str, options: dict[str, Any], plies: int, seed: int, to_place: bool = False) -> GameState:
    """A seeded random game after ``plies`` moves (and, ``to_place``, on to Polygo's next die to place)."""
    rng = random.Random(seed)
    state = games.find(game).new_game(**options)
    while len(state.moves) < plies and not state.is_over:
        state.play(rng.choice(state.legal_moves()))
    while to_place and getattr(state, "die", 0) is None and not state.is_over:
        state.play(rng.choice(state.legal_moves()))
    return state


def phone_marks(game: str, state: GameState) -> dict[str, Any]:
    """A hint on a phone: the suggestion, and where the piece or block can go."""
    legal = state.legal_moves()
    if game == "isaac":
        length = max(length for length, count in state.in_hand(state.turn or 0).items() if count)  # type: ignore[attr-defined]
        starts = state.placement_starts(length)  # type: ignore[attr-defined]
        return {"layout": "portrait", "highlight": list(starts), "suggestion": next(iter(starts.values()))}
    return {"layout": "portrait", "highlight": legal if game == "polygo" else [], "suggestion": legal[0]}


def shrunk(png: bytes, width: int) -> bytes:
    image = Image.open(io.BytesIO(png)).convert("RGB")
    small = image.resize((width, round(image.height * width / image.width)), Image.Resampling.LANCZOS)
    buffer = io.BytesIO()
    small.quantize(colors=128, method=Image.Quantize.FASTOCTREE).save(buffer, format="PNG", optimize=True)
    return buffer.getvalue()


def main() -> None:
    HERE.mkdir(exist_ok=True)
    for game, (options, plies, seed) in SETUPS.items():
        entry = games.find(game)
        state = played(game, options, plies, seed)
        pictures = {game: entry.render(state, ("Alice", "Bob"))}
        if game in JAPANESE:
            pictures[f"{game}-ja"] = entry.render(state, JAPANESE_NAMES, "ja")
        for name, png in pictures.items():
            (HERE / f"{name}.png").write_bytes(png)
            print(f"docs/images/{name}.png: {len(png) / 1024:.1f} KB after {len(state.moves)} moves")
    for game, (options, plies, seed) in PHONE.items():
        state = played(game, options, plies, seed, to_place=True)
        renderer = __import__(games.find(game).renderer, fromlist=["render"])
        png = shrunk(renderer.render(state, ("Alice", "Bob"), **phone_marks(game, state)), PHONE_WIDTH)
        (HERE / f"{game}-phone.png").write_bytes(png)
        print(f"docs/images/{game}-phone.png: {len(png) / 1024:.1f} KB, {PHONE_WIDTH} px wide")


if __name__ == "__main__":
    main()
