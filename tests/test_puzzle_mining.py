"""The miner on real games: seeded self-play records of the bot's levels (tests/data/puzzle_records.jsonl, written
by bench/puzzles.py --records) are mined at small budgets, and every puzzle found is checked again by a deeper
search of every legal move: the solution's move is still the best, by a clear margin, at each solver's turn."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import engines
import games
from puzzles import shipped
from puzzles.mining import MARGIN, Budgets, Miner, Puzzle, Step, is_only_move, judge_move, position, verify
from sessions.puzzles.mining import shipped_rows

RECORDS = Path(__file__).resolve().parent / "data" / "puzzle_records.jsonl"
MINING = Budgets().scaled(0.1)  # the strongest search 1.6 s, each rival 0.16 s
DEEPER = 4 * MINING.check  # every legal move, searched four times as long as mining searched a rival ...
DEEPEST = 2 * MINING.deep  # ... and the closest rivals twice as long as mining's strongest search


def records() -> list[dict[str, Any]]:
    return [json.loads(line) for line in RECORDS.read_text().splitlines() if line.strip()]


def mined() -> list[tuple[dict[str, Any], Puzzle]]:
    found = []
    for record in records():
        entry = games.find(record["game"])
        assert entry.ai is not None
        miner = Miner(entry.ai, MINING)
        for puzzle in miner.mine(record["game"], entry.engine.__name__, record["options"], record["moves"]):
            found.append((record, puzzle))
    return found


@pytest.fixture(scope="module")
def found() -> list[tuple[dict[str, Any], Puzzle]]:
    return mined()


def test_puzzles_are_mined_from_the_records(found: list[tuple[dict[str, Any], Puzzle]]) -> None:
    assert len(found) >= 2
    for record, puzzle in found:
        assert list(puzzle.moves) == record["moves"][: puzzle.ply]  # a position of the record itself
        assert len(puzzle.solution) % 2 == 1  # the solver's move, the reply, ..., the solver's move
        assert all(is_only_move(step.value, step.margin) for step in puzzle.steps)


def test_every_mined_puzzle_is_unique_by_a_deeper_search(found: list[tuple[dict[str, Any], Puzzle]]) -> None:
    """The rule of a puzzle: at each of the solver's turns, one move is better than every other by a clear margin.
    Checked here with every legal move searched four times longer than mining searched its rivals, and the closest
    rivals twice as long as mining's strongest search."""
    for record, puzzle in found:
        entry = games.find(record["game"])
        assert entry.ai is not None
        for move, value, rival, rival_value in verify(puzzle, entry.engine.__name__, entry.ai, DEEPER, DEEPEST):
            assert value - rival_value >= MARGIN / 2, (puzzle.game, puzzle.ply, move, value, rival, rival_value)


def test_the_line_is_legal_and_the_solver_moves_at_every_other_step(
    found: list[tuple[dict[str, Any], Puzzle]],
) -> None:
    for record, puzzle in found:
        state = position(games.find(record["game"]).engine.__name__, puzzle.options, puzzle.moves)
        for index, move in enumerate(puzzle.solution):
            assert (state.turn == puzzle.solver) == (index % 2 == 0) and not state.chance
            state.play(move)


def test_a_puzzle_with_dice_is_the_move_after_the_roll() -> None:
    """Polygo puzzles are positions after the roll: the die is part of the puzzle, and the line stops at the next
    roll (nobody's choice). Checked on the shipped set as the bot stores it."""
    with_dice = [row for row in shipped_rows() if games.find(row["game"]).chance_words]
    assert with_dice, "the shipped set has a puzzle of a game with dice"
    for row in with_dice:
        entry = games.find(row["game"])
        assert row["moves"][-1].startswith(entry.chance_words)  # the roll is the last move before it
        state = position(entry.engine.__name__, row["options"], [*row["moves"], *row["solution"]])
        assert state.is_over or state.chance or state.turn != row["solver"]


def test_no_only_move_where_two_moves_are_as_good() -> None:
    """A position where two moves are worth the same has no puzzle (the margin rule), however good they are."""
    assert not is_only_move(0.9, 0.0)
    assert not is_only_move(0.2, 0.5)  # neither winning nor a big gain
    assert is_only_move(0.6, 0.45) and is_only_move(0.1, 0.7)
    assert Step("a", 0.9, "b", 0.2).margin == pytest.approx(0.7)


def test_a_wrong_move_is_judged_with_the_opponents_answer() -> None:
    record = records()[0]
    entry = games.find(record["game"])
    assert entry.ai is not None
    state = engines.get(record["game"]).new_game(**record["options"])
    for move in record["moves"]:
        if not state.chance and state.turn is not None and len(state.legal_moves()) > 1:
            break
        state.play(move)
    solver = state.turn
    assert solver is not None
    tried = state.copy()
    tried.play(tried.legal_moves()[0])
    value, reply = judge_move(entry.engine.__name__, entry.ai, record["options"], tried.moves, solver, 0.05)
    assert -1.0 <= value <= 1.0
    assert reply is None or reply in tried.legal_moves()


def test_the_shipped_puzzles_are_real_positions_of_their_games() -> None:
    """What the bot stores at start-up: every registered game's shipped set, one row per position, each a position
    of its game with the solver to move and a legal solution."""
    rows = shipped_rows()
    assert {row["game"] for row in rows} == {name for name in games.names() if shipped.load(name)}
    assert len({row["position_key"] for row in rows}) == len(rows)
    for row in rows:
        entry = games.find(row["game"])
        state = position(entry.engine.__name__, row["options"], [*row["moves"]])
        assert state.turn == row["solver"]
        for move in row["solution"]:
            state.play(move)
