"""Tic-tac-toe's registry entry: all a game needs beside its engine, renderer and computer player.

It lives in tests/ only and is registered by the tests that play it, so nothing outside tests/ knows it.
"""

from __future__ import annotations

from games import GameEntry
from tests.fourth_game import engine

ENTRY = GameEntry(
    name=engine.NAME,
    title="Tic-tac-toe",
    description="Play tic-tac-toe: three in a row wins.",
    challenge_description="Challenge a member of this server to tic-tac-toe.",
    sides=("X", "O"),
    side_description="Your mark: X moves first (default: random).",
    rules=("**Tic-tac-toe**: take turns marking a cell (a1..c3); three in a row wins.",),
    reasons={engine.Reason.LINE: "{winner} made three in a row."},
    draw_reasons={engine.Reason.FULL: "The board is full: a draw."},
    engine=engine,
    renderer="tests.fourth_game.render",
    ai="tests.fourth_game.ai",
)
