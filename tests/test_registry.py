"""The game registry: lookups, registration, and the promise that shared code names no game."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import engines
import games
from tests.fourth_game.entry import ENTRY as FOURTH_GAME

ROOT = Path(__file__).resolve().parent.parent
# The cogs a registry entry names for its own commands; every other cog is shared.
GAME_COGS = {entry.cog.partition(":")[0].rsplit(".", 1)[-1] for entry in games.entries() if entry.cog}
# The puzzle modules a registry entry names for its game's puzzles; every other module of puzzles/ is shared.
GAME_PUZZLES = {entry.puzzles for entry in games.entries() if entry.puzzles}
# Modules every game shares (the AI's dispatch and the engines' discovery among them): they may learn about games
# only through the registry.
SHARED = [
    "bot.py",
    "ai/__init__.py",
    "ai/search.py",
    "engines/__init__.py",
    "games/__init__.py",
    "games/move_picker.py",
    "lessons/__init__.py",
    "sessions",
    *(
        str(path.relative_to(ROOT))
        for path in sorted((ROOT / "puzzles").rglob("*.py"))
        if ".".join(path.relative_to(ROOT).with_suffix("").parts) not in GAME_PUZZLES
    ),
    "storage",
    "locales",
    "render/base.py",
    "render/animation.py",
    "render/marks.py",
    "render/text_fitting.py",
    *(str(path.relative_to(ROOT)) for path in sorted((ROOT / "cogs").rglob("*.py")) if path.stem not in GAME_COGS),
    "bench/interaction.py",
    "bench/load.py",
    "bench/memory.py",
    "bench/render.py",
    "bench/uct.py",
    "bench/uct_rate.py",
    "bench/players.py",
]


def test_find_names_the_known_games_for_an_unknown_name() -> None:
    with pytest.raises(KeyError, match="the games are"):
        games.find("chess")
    assert games.names() == tuple(sorted(games.names()))
    assert all(games.find(name).name == name for name in games.names())


def test_a_registered_game_is_listed_until_unregistered_and_names_are_unique() -> None:
    games.register(FOURTH_GAME)
    try:
        assert FOURTH_GAME in games.entries() and games.find("tictactoe") is FOURTH_GAME
        with pytest.raises(ValueError, match="already registered"):
            games.register(games.find(games.names()[0]).__class__(**{**vars(FOURTH_GAME), "title": "Other"}))
    finally:
        games.unregister(FOURTH_GAME.name)
    assert FOURTH_GAME not in games.entries()


def test_shared_modules_name_no_game() -> None:
    pattern = re.compile("|".join(re.escape(name) for name in games.names()), re.IGNORECASE)
    # ordinary words that contain a game's name (Pillow's ``polygon`` is not the game Polygo), removed first
    ordinary = re.compile(r"polygons?", re.IGNORECASE)
    offenders = []
    for item in SHARED:
        path = ROOT / item
        for file in [path] if path.is_file() else sorted(path.rglob("*.py")):
            for number, line in enumerate(file.read_text(encoding="utf-8").splitlines(), start=1):
                if pattern.search(ordinary.sub("", line)):
                    offenders.append(f"{file.relative_to(ROOT)}:{number}: {line.strip()}")
    assert offenders == []


def files_a_game_needs() -> list[tuple[str, str]]:
    """The table of docs/adding-a-game.md: (the file a game needs, its counterpart in tests/fourth_game/)."""
    text = (ROOT / "docs" / "adding-a-game.md").read_text(encoding="utf-8")
    table = text.split("<!-- files-a-game-needs", 1)[1].split("\n\n", 1)[0]
    cells = [line.split("|")[1:3] for line in table.splitlines() if line.startswith("| `")]
    return [(needed.strip(), example.strip().strip("`")) for needed, example in cells]


def test_the_files_adding_a_game_md_lists_are_the_files_a_game_has() -> None:
    rows = files_a_game_needs()
    # The test-only game is exactly what the table says a game brings, and nothing more.
    fourth = {path.name for path in (ROOT / "tests" / "fourth_game").glob("*.py")} - {"__init__.py"}
    assert {example for _, example in rows if example != "—"} == fourth
    # Every shipped game has each file the table requires, and an optional one exactly when its entry names it.
    for entry in games.entries():
        for needed, _ in rows:
            path = needed.split("`")[1].replace("<name>", entry.name)
            if not path.endswith(".py") or path.startswith("tests/"):
                continue
            # a module, or a package of that name (engine-api.md allows engines/<name>/; the AIs are packages)
            package = ROOT / path[: -len(".py")] / "__init__.py"
            module, exists = path[: -len(".py")].replace("/", "."), (ROOT / path).exists() or package.exists()
            if "computer player" in needed:
                assert exists == (entry.ai == module), path
            elif "for a course" in needed:
                assert exists == (entry.course == module), path
            elif "for puzzles" in needed:
                assert exists == (entry.puzzles == module), path
            elif "special commands" in needed:
                assert exists == (entry.cog is not None and entry.cog.startswith(f"{module}:")), path
            else:
                assert exists, path
    assert {needed.split("`")[1] for needed, _ in rows} >= {"engines/<name>.py", "render/<name>.py", "games/<name>.py"}


def test_the_registry_follows_the_engines_one_discovery_of_games() -> None:
    """One discovery of games (issue 28): the engines package finds the games (``engines.NAMES``, the engine
    contract's names), and the registry holds an entry for each of them and ships no other."""
    shipped = [entry.name for entry in games.entries() if entry.name in engines.NAMES]
    assert tuple(shipped) == engines.NAMES
    for name in engines.NAMES:
        assert games.find(name).engine is engines.get(name)
