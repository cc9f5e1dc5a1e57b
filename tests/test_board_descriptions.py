"""Boards in words for every registered game (sessions/board_descriptions.py): the renderer's own words where it
has them, a generic description where it has none (the test-only tic-tac-toe), always within Discord's limits."""

from __future__ import annotations

import random

import pytest

import games
from games import GameEntry
from render.text_fitting import ALT_TEXT_LIMIT, MESSAGE_LIMIT
from sessions.board_descriptions import alt_text, animation_alt_text, generic_alt_text, text_board
from tests.fourth_game.entry import ENTRY as TICTACTOE


@pytest.mark.parametrize("entry", [*games.entries(), TICTACTOE], ids=lambda e: e.name)
@pytest.mark.parametrize("language", ["en", "ja"])
def test_every_game_has_words_within_discords_limits(entry: GameEntry, language: str) -> None:
    state = entry.new_game()
    rng = random.Random(7)
    for _ in range(400):
        described, written = (
            alt_text(entry, state, ("Ann", "Bob"), language),
            text_board(entry, state, ("Ann", "Bob"), language),
        )
        assert 0 < len(described) <= ALT_TEXT_LIMIT and 0 < len(written) <= MESSAGE_LIMIT
        if state.is_over:
            break
        state.play(rng.choice(state.legal_moves()))
    assert state.is_over


def test_a_game_without_words_gets_the_title_whose_turn_and_the_score() -> None:
    state = TICTACTOE.new_game()
    assert TICTACTOE.alt_text(state, ("Ann", "Bob")) is None  # its renderer has none
    assert alt_text(TICTACTOE, state, ("Ann", "Bob"), "en") == (
        "Tic-tac-toe board. X (Ann) to move. Score: X (Ann) 0, O (Bob) 0. No move yet."
    )
    for move in ("a1", "b1", "a2", "b2", "a3"):
        state.play(move)
    said = alt_text(TICTACTOE, state, ("Ann", "Bob"), "en")
    assert "Game over: X (Ann) wins." in said and "Last move: a3." in said
    board = text_board(TICTACTOE, TICTACTOE.new_game(), ("Ann", "Bob"), "en")
    assert "Legal moves (9): a1, a2, a3, b1, b2, b3, c1, c2, c3" in board
    japanese = generic_alt_text(TICTACTOE, TICTACTOE.new_game(), ("Ann", "Bob"), "ja")
    assert "の手番" in japanese


def test_an_animation_says_what_it_is_then_its_last_position() -> None:
    entry = games.find("iago")
    said = animation_alt_text(entry, 12, 5, entry.new_game(), ("Ann", "Bob"), "en")
    assert said.startswith("An animation of game #12 in 5 frames") and "Iago" in said
    assert len(animation_alt_text(entry, 12, 5, entry.new_game(), ("A" * 900, "B"), "en")) <= ALT_TEXT_LIMIT
