"""How a game's end reads: the pass that ends ISAAC's scoring phase, and result lines that put the winner's score
first (issue 24: "White wins 18-33"), in English and Japanese."""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from typing import Any

import pytest

import games
from cogs.presentation import game_text as present
from engines import GameState, Result, iago, isaac, polygo
from games import Say
from locales import tr
from render import iago as iago_render
from render import iago_text, isaac_text, polygo_text
from render import isaac as isaac_render
from render import polygo as polygo_render
from sessions.model import Game, GameStatus, MoveKind, PlayedMove, Report

TWO_NUMBERS = re.compile(r"(\d+)\s*(?:–|to|対)\s*(\d+)")


def say(language: str) -> Say:
    return Say(translate=lambda m, **p: tr(language, m, **p), player=lambda side: f"P{side}", side=lambda side: "S")


def random_game(new_game: Callable[[], GameState], seed: int) -> tuple[GameState, list[tuple[int, Any]]]:
    """A finished random game, and each pass of its log with the phase it was played in (ISAAC)."""
    rng = random.Random(seed)
    state, passes = new_game(), []
    while not state.is_over:
        move = rng.choice(state.legal_moves())
        if move == "pass":
            passes.append((len(state.moves), getattr(state, "phase", None)))
        state.play(move)
    return state, passes


def test_isaac_names_each_forced_pass_by_the_phase_it_was_played_in_even_after_the_game_ended() -> None:
    """Rules: placement ends at its second pass (each player passes once, then is skipped); the passes after it
    are the scoring phase's, the game's last one included. The narrator reads the phase of the pass, not the
    phase the game is in once the report's moves are played ("over" after the last pass)."""
    narrator = games.find("isaac").narrator
    seen = set()
    for seed in range(40):
        final, passes = random_game(isaac.new_game, seed)
        for ply, phase in passes:
            words = narrator.forced_pass(say("en"), final, 0, ply)
            expected = "no piece left to remove" if phase == isaac.SCORING else "cannot place any piece"
            assert expected in words, (seed, ply, phase, words)
            seen.add(phase)
    assert seen == {isaac.PLACEMENT, isaac.SCORING}


@pytest.mark.parametrize("language", ["en", "ja"])
def test_a_report_of_the_games_last_pass_says_no_piece_is_left_to_remove(language: str) -> None:
    for seed in range(100):
        final, passes = random_game(isaac.new_game, seed)
        if final.moves[-1] == "pass" and passes[-1][1] == isaac.SCORING:
            break
    else:
        pytest.fail("no random game ended on a scoring pass")
    assert isinstance(final, isaac.IsaacGame) and final.phase == isaac.OVER
    played = [PlayedMove("pass", 1, MoveKind.FORCED_PASS)]
    text = present.report_text(language, Report(finished_game(final), final, played, None))
    assert tr(language, "{player} has no piece left to remove, so the bot passed for them.", player="<@12>") in text
    assert tr(language, "{player} cannot place any piece, so the bot passed for them.", player="<@12>") not in text


def finished_game(state: GameState) -> Game:
    values: dict[str, Any] = dict.fromkeys(Game.__dataclass_fields__)
    values.update(
        id=1, guild_id=1, channel_id=1, entry=games.find("isaac"), options={}, players=(11, 12), challenger_id=11,
        rated=False, status=GameStatus.FINISHED, ply=len(state.moves), created_at=0.0,
    )  # fmt: skip
    return Game(**values)


def won_by_side_1(new_game: Callable[[], GameState]) -> tuple[GameState, Result]:
    for seed in range(300):
        state, _ = random_game(new_game, seed)
        result = state.result()
        if result.winner == 1 and result.scores[0] != result.scores[1]:
            return state, result
    pytest.fail("no random game won by side 1 on unequal scores")


def numbers(text: str) -> tuple[int, int]:
    found = TWO_NUMBERS.search(text)
    assert found, text
    return int(found[1]), int(found[2])


@pytest.mark.parametrize("language", ["en", "ja"])
def test_result_lines_put_the_winners_score_first(language: str) -> None:
    """Side 1 won: its score comes first on every result line that names the winner, in both languages."""
    names = ("Ann", "Ben")
    state, result = won_by_side_1(isaac.new_game)
    winner_first = (result.scores[1], result.scores[0])
    assert numbers(isaac_render.status(state, language)) == winner_first
    assert numbers(isaac_text._turn(state, names, language)) == winner_first

    state, result = won_by_side_1(iago.new_game)
    winner_first = (result.scores[1], result.scores[0])
    assert numbers(iago_render.status(state, language)) == winner_first
    assert numbers(iago_text._turn(state, names, language)) == winner_first

    state, result = won_by_side_1(lambda: polygo.new_game(size=9))
    assert result.reason == "both-finished" or result.scores[0] != result.scores[1]
    winner_first = (result.scores[1], result.scores[0])
    assert isinstance(state, polygo.PolygoGame)
    assert numbers(polygo_text._turn(state, names, language)) == winner_first
    if result.reason == "both-finished":
        assert numbers(polygo_render.result_lines(state, names, language)[1]) == winner_first
