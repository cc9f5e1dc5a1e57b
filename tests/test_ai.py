"""The computer players (ai/): the contract of engine-api.md "The AI's contract", then one constructed position
per game where the strongest level must find the move a rule makes best. Budgets are tiny and depths capped,
so these tests never depend on the machine's speed and never assert wall-clock time."""

from __future__ import annotations

import math
import random
import subprocess
import sys
from typing import Any

import pytest

import ai
import engines
import games
from engines import isaac as S
from engines import polygo as P
from engines.iago import CELLS

# Levels 3 and 4 are time-bound; a depth cap with no time limit makes them deterministic and fast here.
FAST: dict[str, Any] = {"budget_s": math.inf, "max_depth": 2}


def fast(level: int) -> dict[str, Any]:
    # levels 1 and 2 are depth-bound, with a time cap only as a safety net that a slow machine must not trip
    return FAST if level >= 3 else {"budget_s": math.inf}


def random_position(game: str, seed: int, plies: int, **options: Any) -> Any:
    """A seeded random game after ``plies`` moves (chance moves included), stopped where a player acts."""
    rng = random.Random(seed)
    state = engines.get(game).new_game(**options)
    while not state.is_over and (len(state.moves) < plies or state.chance):
        state.play(rng.choice(state.legal_moves()))
    assert not state.is_over
    return state


def isaac_scoring(seed: int) -> Any:
    rng = random.Random(seed)
    state = S.new_game()
    while state.phase == S.PLACEMENT:
        state.play(rng.choice(state.legal_moves()))
    assert state.turn is not None
    return state


POSITIONS: dict[str, Any] = {
    "iago-start": lambda: engines.get("iago").new_game(),
    "iago-middle": lambda: random_position("iago", 1, 20),
    "iago-late": lambda: random_position("iago", 2, 44),
    "iago-loose": lambda: random_position("iago", 3, 16, variant="loose"),
    "iago-penalty": lambda: random_position("iago", 4, 16, variant="penalty"),
    "iago-simple": lambda: random_position("iago", 5, 16, variant="simple"),
    "isaac-start": lambda: S.new_game(),
    "isaac-middle": lambda: random_position("isaac", 1, 12),
    "isaac-scoring": lambda: isaac_scoring(2),
    "polygo-opening": lambda: random_position("polygo", 1, 1),
    "polygo-after-roll": lambda: random_position("polygo", 2, 15),
    "polygo-9x9-late": lambda: random_position("polygo", 3, 21, size=9),
}


@pytest.mark.parametrize("level", ai.LEVELS)
@pytest.mark.parametrize("name", sorted(POSITIONS))
def test_move_is_legal_state_untouched_and_seeded(name: str, level: int) -> None:
    state = POSITIONS[name]()
    before = (state.to_dict(), list(state.moves), state.legal_moves())
    move = ai.choose_move(state, level, seed=7, **fast(level))
    assert move in state.legal_moves()
    assert (state.to_dict(), list(state.moves), state.legal_moves()) == before
    assert ai.choose_move(state, level, seed=7, **fast(level)) == move


def test_levels_are_1_to_4_and_unknown_level_is_refused() -> None:
    assert ai.LEVELS == (1, 2, 3, 4)
    with pytest.raises(ValueError, match="level"):
        ai.choose_move(engines.get("iago").new_game(), 5)


def test_chance_point_is_refused_polygo_opening_and_roll() -> None:
    state = P.new_game(size=9)
    with pytest.raises(ValueError, match="chance"):
        ai.choose_move(state, 1)
    state.play("open 1 2")
    state.play("D4 E4")
    state.play("A1 B1 C1")
    assert state.chance
    with pytest.raises(ValueError, match="chance"):
        ai.choose_move(state, 4, **FAST)


@pytest.mark.parametrize("game", engines.NAMES)
def test_game_over_is_refused(game: str) -> None:
    rng = random.Random(0)
    state = engines.get(game).new_game()
    while not state.is_over:
        state.play(rng.choice(state.legal_moves()))
    with pytest.raises(ValueError, match="over"):
        ai.choose_move(state, 1)


def test_a_games_ai_is_the_one_its_registry_entry_names_or_the_one_passed() -> None:
    state = S.new_game()
    assert engines.name_of(state) == "isaac"  # the engine module declares it; nothing guesses from file names
    assert ai.player_of(state) is ai.load(games.find("isaac").ai or "")
    assert ai.choose_move(state, 1, seed=1, game_ai="ai.isaac") in state.legal_moves()
    with pytest.raises(ValueError):
        ai.player_of(object())


# --- one constructed position per game: the rule that makes one move best -----------------------------------

# A seeded random Iago game with six empty inner cells left: solved exhaustively through the engine, only C1 wins
# for Dark (every other move loses), by the product score at the end (rules: "End and score").
IAGO_ENDGAME = (
    "G6 F5 E4 C6 D5 H5 F7 B2 D6 E6 G4 C4 I6 G8 E7 E8 F6 H6 C5 D2 C3 D4 C7 F4 E5 H4 D3 H7 D1 C2 B1 G7 B3 F3 B4 E3 G3 F2"
)


def test_iago_endgame_solver_finds_the_only_winning_move() -> None:
    state = engines.get("iago").new_game()
    for move in IAGO_ENDGAME.split():
        state.play(move)
    move = ai.choose_move(state, 4, seed=1, budget_s=math.inf, max_depth=12)
    assert move == "C1"
    best, value = ai.analyse_position(state, budget_s=math.inf)
    assert best == "C1" and value > 0.9  # solved exactly: a sure win


def test_isaac_takes_the_removal_that_reaches_100() -> None:
    # Rule "A score of 100 or more ends the game at once": Black at 90 removes the 7 (value 6) on rank 4, which
    # two White pieces cross (2 x 6 = 12 points, no counter on the rank), and wins at 102; every other removal
    # leaves the game open.
    state = S.IsaacGame.from_position(
        [("a4-g4", 0), ("h3-h5", 1), ("j2-j6", 1), ("b6-b8", 0), ("c6-e6", 1), ("c8-e8", 1)],
        turn=0,
        scores=(90, 40),
    )
    finishing = [m for m in state.legal_moves() if m.startswith("x a4-g4") and int(m.split()[-1]) >= 100]
    assert finishing
    move = ai.choose_move(state, 4, seed=1, **FAST)
    assert move.startswith("x a4-g4") and int(move.split()[-1]) >= 100


def test_polygo_closes_the_polygon_when_it_can() -> None:
    # Rule "Finishing": closing a loop first finishes; here Black's 3x4 ring on 9x9 lacks D7 and E7.
    moves = "open 1 2|D4 E4|A1 B1 C1|roll 1|F4 F5|roll 1|E5 E6|roll 1|D5 D6|roll 1|A3 B3|roll 1|F6 F7|roll 1"
    state = P.new_game(size=9)
    for move in [*moves.split("|"), "A5 B5", "roll 1"]:
        state.play(move)
    assert state.turn == 0
    move = ai.choose_move(state, 4, seed=1, **FAST)
    after = state.copy()
    after.play(move)
    assert after.finished[0]


# --- whole games and the analysis API ---------------------------------------------------------------------


@pytest.mark.parametrize("game", engines.NAMES)
def test_ai_against_ai_plays_legal_moves_to_the_end(game: str) -> None:
    rng = random.Random(3)
    options = {"size": 9} if game == "polygo" else {}
    state = engines.get(game).new_game(**options)
    levels = (1, 4) if game != "isaac" else (2, 3)
    while not state.is_over:
        if state.chance:
            state.play(rng.choice(state.legal_moves()))
            continue
        level = levels[state.turn]
        move = ai.choose_move(state, level, seed=len(state.moves), budget_s=0.02)
        assert move in state.legal_moves()
        state.play(move)
    assert state.result().winner in (0, 1, None)


def test_evaluate_is_a_value_for_either_player_and_exact_at_the_end() -> None:
    state = random_position("iago", 6, 10)
    value = ai.evaluate(state, state.turn, budget_s=0.05)
    assert -1.0 <= value <= 1.0
    assert ai.evaluate(state, 1 - state.turn, budget_s=0.05) == pytest.approx(-value, abs=0.5)
    rng = random.Random(0)
    done = P.new_game(size=9)
    while not done.is_over:
        done.play(rng.choice(done.legal_moves()))
    winner = done.result().winner
    expected = {None: 0.0, 0: 1.0, 1: -1.0}[winner]
    assert ai.evaluate(done, 0) == expected


def test_evaluate_averages_over_the_dice_at_a_chance_point() -> None:
    rng = random.Random(2)
    state = P.new_game(size=9)
    state.play("open 1 2")
    while not state.chance:
        state.play(rng.choice(state.legal_moves()))
    assert -1.0 <= ai.evaluate(state, 0, budget_s=0.05) <= 1.0


@pytest.mark.parametrize("game", engines.NAMES)
def test_analysis_answers_where_a_single_move_is_legal(game: str) -> None:
    # A forced move still gets a value: an analysis or a hint walks every position of a record, and Polygo's
    # pass (the rolled block fits nowhere, engine-api: listed alone) has no placement for the search to value.
    options = {"size": 9} if game == "polygo" else {}
    forced = 0
    for seed in range(12):
        rng = random.Random(seed)
        state = engines.get(game).new_game(**options)
        while not state.is_over and forced < 6:
            moves = state.legal_moves()
            if not state.chance and len(moves) == 1:
                move, value = ai.analyse_position(state, budget_s=0.02)
                assert move == moves[0]
                assert -1.0 <= value <= 1.0
                assert -1.0 <= ai.evaluate(state, 0, budget_s=0.02) <= 1.0
                forced += 1
            state.play(rng.choice(moves))
    assert forced > 0  # random games of every game reach a forced move (Polygo: a pass on a crowded 9x9)


def test_polygo_a_pass_is_analysed_as_the_position_it_leaves() -> None:
    rng = random.Random(0)
    state = P.new_game(size=9)
    while state.chance or state.legal_moves() != ["pass"]:
        state.play(rng.choice(state.legal_moves()))
    before_roll = P.new_game(size=9)
    for move in state.moves[:-1]:
        before_roll.play(move)
    assert before_roll.chance  # the roll that left no room for the block
    move, value = ai.analyse_position(state, budget_s=0.05)
    assert move == "pass"
    assert -1.0 <= value <= 1.0
    assert -1.0 <= ai.evaluate(before_roll, state.turn, budget_s=0.05) <= 1.0


# --- the searches' own models of the rules must agree with the engines --------------------------------------


@pytest.mark.parametrize("variant", ["standard", "loose", "simple", "penalty"])
def test_iago_search_board_mirrors_the_engine_in_every_variant(variant: str) -> None:
    from ai import iago as search

    for seed in range(2):
        rng = random.Random(seed)
        state = engines.get("iago").new_game(variant=variant)
        board = search.Board.from_game(state)
        while not state.is_over:
            ours = sorted(f"call {CELLS[m - search.CALL]}" if m >= search.CALL else CELLS[m] for m in board.moves())
            assert ours == state.legal_moves()
            move = rng.choice(state.legal_moves())
            undo = board.make(search.INDEX[move.split()[-1]] + (search.CALL if move.startswith("call") else 0))
            state.play(move)
            fresh = search.Board.from_game(state)
            assert (board.cells, board.face, board.captive) == (fresh.cells, fresh.face, fresh.captive)
        assert board.winner() == state.result().winner
        board.unmake(undo)  # the last move taken back leaves the position before it
        assert board.empty_inner == 1


def test_isaac_search_model_follows_the_engine_through_both_phases() -> None:
    from ai import isaac as search

    for seed in range(4):
        rng = random.Random(seed)
        state = S.new_game()
        while not state.is_over:
            children = dict(search.children(search.Model.from_game(state), None))
            assert set(children) <= set(state.legal_moves())
            move = rng.choice(sorted(children))
            state.play(move)
            after = search.Model.from_game(state)
            child = children[move]
            assert (child.owner, child.hand, child.scores, child.phase, child.turn) == (
                after.owner,
                after.hand,
                after.scores,
                after.phase,
                after.turn,
            )


def test_ai_imports_no_discord_pillow_or_database() -> None:
    code = (
        "import sys, ai\n"
        "print(sorted({m.split('.')[0] for m in sys.modules} & {'discord', 'PIL', 'aiosqlite', 'sqlalchemy'}))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
