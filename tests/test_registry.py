"""The game registry: lookups, registration, and the promise that shared code names no game."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import games
from tests.fourth_game.entry import ENTRY as FOURTH_GAME

ROOT = Path(__file__).resolve().parent.parent
# Modules every game shares: they may learn about games only through the registry.
SHARED = [
    "bot.py",
    "sessions",
    "storage",
    "locales",
    "cogs/common.py",
    "cogs/present.py",
    "cogs/leaderboard.py",
    "cogs/housekeeping.py",
    "games/__init__.py",
    "render/base.py",
    "bench/interaction.py",
    "bench/uct.py",
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
    offenders = []
    for item in SHARED:
        path = ROOT / item
        for file in [path] if path.is_file() else sorted(path.rglob("*.py")):
            for number, line in enumerate(file.read_text(encoding="utf-8").splitlines(), start=1):
                if pattern.search(line):
                    offenders.append(f"{file.relative_to(ROOT)}:{number}: {line.strip()}")
    assert offenders == []
