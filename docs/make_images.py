"""Regenerate the README's board pictures: `python docs/make_images.py`.

Each is a mid-game position of a seeded random game, drawn by the same renderers the bot uses; the `-ja` pictures
show the same positions as a Japanese server sees them. The `-phone` pictures are the portrait layout with a hint's
suggestion and where the rolled block or a chosen piece can go, shrunk to 400 px wide: what a phone shows. The
`tapping` picture is a move played by taps (docs/tapping.md): a board with its components, then the private step a
pick opens, their menus and buttons drawn from the same picker the bot uses (the Discord client draws them so). The
`isaac-board-400` and `isaac-step-400` pictures are that ISAAC board and its private step alone, 400 px wide.
"""

from __future__ import annotations

import io
import random
import sys
from pathlib import Path
from typing import Any

from PIL import Image, ImageDraw

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import games
from engines import GameState
from games.move_picker import Step
from locales import tr, words
from render.base import font
from sessions.aborts import abortable

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


TAPPING = ("isaac", {}, 8, 5)  # a board of ISAAC early on: a piece, then where it starts, then the way
DISCORD = (49, 51, 56)  # the Discord client's dark background, its menus and buttons
MENU, MENU_EDGE, BUTTON, TEXT, FAINT = (30, 31, 34), (20, 20, 22), (78, 80, 88), (242, 243, 245), (181, 186, 193)


def components(step: Step | None, buttons: list[str], width: int) -> Image.Image:
    """A step's menus and buttons as the Discord client draws them: a menu a row, its placeholder, a caret; the
    buttons side by side."""
    rows = (len(step.menus) if step else 0) + (1 if buttons else 0)
    image = Image.new("RGB", (width, 12 + 52 * rows), DISCORD)
    draw = ImageDraw.Draw(image)
    text = font(17)
    y = 8
    for menu in step.menus if step else ():
        draw.rounded_rectangle((8, y, width - 8, y + 42), 6, fill=MENU, outline=MENU_EDGE)
        draw.text((20, y + 10), str(words("en", menu.placeholder)), font=text, fill=FAINT)
        draw.line([(width - 36, y + 17), (width - 29, y + 25), (width - 22, y + 17)], fill=TEXT, width=2)  # caret
        y += 52
    x = 8
    for label in buttons:
        length = draw.textlength(tr("en", label), font=text)
        draw.rounded_rectangle((x, y, x + length + 32, y + 40), 4, fill=BUTTON)
        draw.text((x + 16, y + 9), tr("en", label), font=text, fill=TEXT)
        x += length + 44
    return image


def message(board: bytes, lines: list[str], below: Image.Image, width: int) -> Image.Image:
    """A message: its lines of text, the board shrunk to ``width``, its components under it."""
    picture = Image.open(io.BytesIO(board)).convert("RGB")
    picture = picture.resize((width, round(picture.height * width / picture.width)), Image.Resampling.LANCZOS)
    top = 12 + 24 * len(lines)
    page = Image.new("RGB", (width + 16, top + picture.height + below.height), DISCORD)
    draw = ImageDraw.Draw(page)
    for number, line in enumerate(lines):
        draw.text((8, 6 + 24 * number), line, font=font(17), fill=FAINT if line.startswith("(") else TEXT)
    page.paste(picture, (8, top))
    page.paste(below, (8, top + picture.height))
    return page


def tapping() -> bytes:
    """The board of a game in play with its components, and beside it the private step a pick opens."""
    game, options, plies, seed = TAPPING
    entry = games.find(game)
    state = played(game, options, plies, seed)
    first = entry.picker.step(state, ())
    length = max(choice.key for menu in first.menus for choice in menu.choices)  # type: ignore[union-attr]
    second = entry.picker.step(state, (length,))
    assert isinstance(first, Step) and isinstance(second, Step)
    names = ("Alice", "Bob")
    public = message(
        entry.render(state, names, layout="portrait"),
        [f"Bob played {state.moves[-1]}.", "Alice, it is your move."],
        components(first, ["Resign", *(["Abort"] if abortable(entry, options, state) else [])], PHONE_WIDTH),
        PHONE_WIDTH,
    )
    private = message(
        entry.render(state, names, layout="portrait", highlight=second.highlight),
        ["(Only you can see this.)", f"Where does the {length}-square piece start?"],
        components(second, [], PHONE_WIDTH),
        PHONE_WIDTH,
    )
    page = Image.new("RGB", (public.width + private.width + 16, max(public.height, private.height)), DISCORD)
    page.paste(public, (0, 0))
    page.paste(private, (public.width + 16, 0))
    buffer = io.BytesIO()
    page.quantize(colors=128, method=Image.Quantize.FASTOCTREE).save(buffer, format="PNG", optimize=True)
    return buffer.getvalue()


def isaac_on_a_phone() -> dict[str, bytes]:
    """An ISAAC board in play and the private step a pick of its longest piece opens (where that piece can start),
    as the bot draws them (portrait) and a phone shows them: 400 px wide."""
    game, options, plies, seed = TAPPING
    entry = games.find(game)
    state = played(game, options, plies, seed)
    first = entry.picker.step(state, ())
    assert isinstance(first, Step)
    length = max(choice.key for menu in first.menus for choice in menu.choices)
    second = entry.picker.step(state, (length,))
    assert isinstance(second, Step)
    names = ("Alice", "Bob")
    return {
        "isaac-board-400": shrunk(entry.render(state, names, layout="portrait"), PHONE_WIDTH),
        "isaac-step-400": shrunk(
            entry.render(state, names, layout="portrait", highlight=second.highlight), PHONE_WIDTH
        ),
    }


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
    png = tapping()
    (HERE / "tapping.png").write_bytes(png)
    print(f"docs/images/tapping.png: {len(png) / 1024:.1f} KB")
    for name, png in isaac_on_a_phone().items():
        (HERE / f"{name}.png").write_bytes(png)
        print(f"docs/images/{name}.png: {len(png) / 1024:.1f} KB, {PHONE_WIDTH} px wide")


if __name__ == "__main__":
    main()
