"""The shipped puzzle set (``puzzles/data/*.jsonl.gz``): every puzzle replayed on its engine, a sample proven again.

The rules a shipped puzzle keeps (docs/puzzles.md, "What sound means"): its record is legal, the solver is to move
with at least three legal moves, the solution is legal and alternates the solver's moves with the replies, no
position is shipped twice, and at each of the solver's steps the stored values show one move clearly better than
every other that keeps the win or saves the game. A deterministic sample is then searched again.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

import games
from engines import GameState
from puzzles import shipped
from puzzles.mining import is_only_move
from puzzles.oracle import Oracle, load
from puzzles.prove import MIN_MOVES, prove_step
from puzzles.rating import HIGHEST, LOWEST, rating
from puzzles.themes import names, themes

# every game whose registry entry names a puzzle module, with that module's oracle
ORACLES: dict[str, Oracle] = {entry.name: load(entry.puzzles) for entry in games.entries() if entry.puzzles}
GAMES = sorted(ORACLES)
SAMPLE = 2  # puzzles per game searched again: the cheapest to prove of those with the smallest ids
SAMPLE_FROM = 12


def replay(puzzle: shipped.ShippedPuzzle) -> GameState:
    state = games.find(puzzle.game).new_game(**puzzle.options)
    for move in puzzle.moves:
        state.play(move)  # IllegalMove fails the test
    return state


@pytest.mark.parametrize("game", GAMES)
def test_every_game_ships_puzzles_in_the_current_format(game: str) -> None:
    assert shipped.header(game)["format"] == shipped.FORMAT
    puzzles = shipped.load(game)
    assert puzzles, f"no shipped {game} puzzles"
    assert len({p.id for p in puzzles}) == len(puzzles)
    assert [p.id for p in puzzles] == sorted(p.id for p in puzzles)


@pytest.mark.parametrize("game", GAMES)
def test_every_shipped_puzzle_replays_legally_with_the_solver_to_move(game: str) -> None:
    """Legal record; the solver to move, not a die; at least three legal moves (no coin flips); the solution legal,
    the solver's moves and the replies alternating, ending with the solver's; one step of values per solver's
    move; the id is the hash of game, options and record; no position twice in the set (by the position itself,
    whatever record reached it)."""
    oracle: Oracle = ORACLES[game]
    positions: dict[str, str] = {}
    for puzzle in shipped.load(game):
        assert puzzle.id == shipped.puzzle_id(game, puzzle.options, puzzle.moves)
        state = replay(puzzle)
        assert not state.is_over and not state.chance and state.turn == puzzle.solver, puzzle.id
        assert len(state.legal_moves()) >= MIN_MOVES, puzzle.id
        assert len(state.legal_moves()) == puzzle.legal, puzzle.id
        key = oracle.key(state)
        assert key not in positions, (puzzle.id, positions.get(key))
        positions[key] = puzzle.id
        assert len(puzzle.solution) % 2 == 1 and len(puzzle.steps) == puzzle.solver_moves, puzzle.id
        for index, move in enumerate(puzzle.solution):
            assert (state.turn == puzzle.solver) == (index % 2 == 0), (puzzle.id, index)
            if index % 2 == 0:
                assert puzzle.steps[index // 2][0] == move, (puzzle.id, index)
            state.play(move)


@pytest.mark.parametrize("game", GAMES)
def test_every_shipped_step_keeps_the_only_move_rule_in_its_stored_values(game: str) -> None:
    """The rule of a solver's step, on the values the proving search stored: the move beats its closest rival
    by the margin and keeps the win, or gains far more than any other (the only move that saves the game)."""
    for puzzle in shipped.load(game):
        for move, value, rival, rival_value in puzzle.steps:
            assert rival is not None and rival != move, puzzle.id
            assert is_only_move(value, value - rival_value), (puzzle.id, move, value, rival, rival_value)
        assert puzzle.search == ORACLES[game].search


@pytest.mark.parametrize("game", GAMES)
def test_every_shipped_puzzle_has_a_rating_from_its_levels_and_known_themes(game: str) -> None:
    for puzzle in shipped.load(game):
        assert LOWEST <= puzzle.rating <= HIGHEST, puzzle.id
        assert puzzle.rating == rating(puzzle.found, puzzle.solver_moves, puzzle.legal), puzzle.id
        assert puzzle.themes and set(puzzle.themes) <= set(names(ORACLES[game])), (puzzle.id, puzzle.themes)


def sample(game: str) -> list[shipped.ShippedPuzzle]:
    """A few puzzles chosen deterministically: of the first ``SAMPLE_FROM`` by id, the ``SAMPLE`` with the fewest
    legal moves (the cheapest to search again)."""
    first = shipped.load(game)[:SAMPLE_FROM]
    return sorted(first, key=lambda p: (p.legal, p.id))[:SAMPLE]


@pytest.mark.parametrize("game", GAMES)
def test_the_themes_of_a_sample_are_computed_again_from_position_and_solution(game: str) -> None:
    for puzzle in sample(game):
        value = puzzle.steps[0][1]
        assert themes(ORACLES[game], puzzle.options, puzzle.moves, list(puzzle.solution), value) == list(puzzle.themes)


@pytest.mark.parametrize("game", GAMES)
def test_a_sample_is_proven_again_every_move_searched_past_the_levels(game: str) -> None:
    """lichess-puzzler's rule: the puzzle was found by the levels' and level 4's search at the position; here every
    legal move is searched again from the position it leaves by the game's generic searches (each move solved
    exactly on its own, in Iago's endgames, independently of the win-or-loss prover that found it; one roll deeper
    than level 4, in Polygo) and the solution's first move must still be the only one."""
    oracle = ORACLES[game]
    for puzzle in sample(game):
        step = prove_step(oracle, replay(puzzle), MIN_MOVES, generic=True)
        assert step is not None, puzzle.id
        assert step.move == puzzle.solution[0], (puzzle.id, step)
        assert is_only_move(step.value, step.margin), (puzzle.id, step)


def test_the_loader_refuses_a_file_of_another_format(tmp_path: Path) -> None:
    with gzip.open(tmp_path / "iago.jsonl.gz", "wt") as out:
        out.write(json.dumps({"format": "something/else", "game": "iago"}) + "\n")
    with pytest.raises(ValueError):
        shipped.load("iago", tmp_path)
    assert shipped.load("isaac", tmp_path) == []


def test_a_written_set_loads_back_equal_and_writes_the_same_bytes(tmp_path: Path) -> None:
    puzzles = shipped.load("iago")[:5]
    shipped.write("iago", list(reversed(puzzles)), tmp_path)
    assert shipped.load("iago", tmp_path) == puzzles
    assert shipped.dumps("iago", puzzles) == (tmp_path / "iago.jsonl.gz").read_bytes()


def test_rating_follows_the_weakest_level_that_finds_the_move() -> None:
    """A move level 1 finds is easy; one only level 4 finds is hard; one no level finds is harder still."""
    easy = rating([3, 3, 3, 3], 1, 8)
    middling = rating([0, 3, 3, 3], 1, 8)
    hard = rating([0, 0, 0, 3], 1, 8)
    unfound = rating([0, 0, 0, 0], 1, 8)
    assert easy < middling < hard < unfound
    assert rating([0, 0, 0, 3], 2, 8) > hard  # a longer line is harder
    assert rating([1, 0, 0, 3], 1, 8) < hard  # a weaker level finding it now and then: a little easier
