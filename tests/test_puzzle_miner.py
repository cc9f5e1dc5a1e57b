"""The shipped set's miner: seeds, resuming after an interruption, the CPU allowance, and one seed mined for real."""

from __future__ import annotations

import dataclasses
import json
import time
from pathlib import Path
from typing import Any

import pytest

import games
from puzzles import miner, recheck, shipped
from puzzles.oracle import load

ISAAC = games.find("isaac").puzzles or ""
POLYGO = games.find("polygo").puzzles or ""


def fake_seed(job: tuple[str, dict[str, Any], int]) -> dict[str, Any]:
    _, _, seed = job
    return {"seed": seed, "levels": [1, 4], "plies": 3, "candidates": 0, "skipped": 0, "cpu_s": 1.0, "puzzles": []}


def test_seeds_are_ranges_and_lists() -> None:
    assert miner.parse_seeds("1-3,7,10-11") == [1, 2, 3, 7, 10, 11]


def test_a_run_resumes_skipping_the_seeds_done_and_running_a_cut_line_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Resuming: a seed already in the work file is not mined again; a line cut by an interruption (not JSON) is
    as if its seed had not run; a seed finished twice (two runs) counts once."""
    path = miner.work_path("iago", {}, tmp_path)
    path.write_text(json.dumps(fake_seed(("iago", {}, 1))) + "\n" + '{"seed": 2, "lev' + "\n")
    mined: list[int] = []

    def record(job: tuple[str, dict[str, Any], int]) -> dict[str, Any]:
        mined.append(job[2])
        return fake_seed(job)

    monkeypatch.setattr(miner, "mine_seed", record)
    miner.mine(games.find("iago").puzzles or "", {}, [1, 2, 3], jobs=1, directory=tmp_path)
    assert mined == [2, 3]
    with path.open("a") as out:
        out.write(json.dumps(fake_seed(("iago", {}, 3))) + "\n")
    assert sorted(line["seed"] for line in miner.read_work(path)) == [1, 2, 3]


def test_the_work_file_is_named_by_game_and_options(tmp_path: Path) -> None:
    assert miner.work_path("polygo", {"size": 13}, tmp_path).name == "polygo-13.jsonl"
    assert miner.work_path("iago", {}, tmp_path).name == "iago.jsonl"


def test_a_search_past_its_cpu_allowance_is_stopped() -> None:
    with pytest.raises(miner.TooLong), miner.cpu_limit(0.05):
        end = time.process_time() + 5
        while time.process_time() < end:
            pass


def test_a_seed_names_one_game() -> None:
    """Reproducible: the same seed plays the same game (fixed-work levels, seeded opening and dice)."""
    first, levels = miner.self_play(load(POLYGO), {"size": 9}, 4)
    again, _ = miner.self_play(load(POLYGO), {"size": 9}, 4)
    assert first.moves == again.moves and levels == miner.PAIRS[4 % len(miner.PAIRS)]


def test_shipping_keeps_one_puzzle_per_position_and_counts_the_mining(tmp_path: Path) -> None:
    puzzle = shipped.load("isaac")[0]
    oracle = load(ISAAC)
    state = oracle.position(puzzle.options, list(puzzle.moves))
    item = {**puzzle.to_dict(), "position": miner._digest(oracle.key(state))}
    work = tmp_path / "work"
    work.mkdir()
    lines = [
        {"seed": 1, "levels": [1, 4], "plies": 30, "candidates": 9, "cpu_s": 1800.0, "puzzles": [item]},
        {"seed": 2, "levels": [4, 1], "plies": 30, "candidates": 9, "cpu_s": 1800.0, "puzzles": [item]},
    ]
    (work / "isaac.jsonl").write_text("".join(json.dumps(line) + "\n" for line in lines))
    miner.ship(ISAAC, work, tmp_path / "data")
    assert [p.id for p in shipped.load("isaac", tmp_path / "data")] == [puzzle.id]
    figures = shipped.header("isaac", tmp_path / "data")["mining"]["isaac"]
    assert figures["games"] == 2 and figures["found"] == 2 and figures["shipped"] == 1
    assert figures["cpu_hours"] == 1.0 and figures["per_cpu_hour"] == 1.0


def test_a_recheck_drops_a_puzzle_whose_answer_is_not_the_only_move_and_ship_leaves_it_out(tmp_path: Path) -> None:
    """After a change of a game's AI the shipped set is proven again; a puzzle whose stored answer the current
    search does not find as the only move (here one given another legal move as its answer) is dropped, and stays
    out when the set is shipped again from the work files."""
    oracle = load(ISAAC)
    sound, other = shipped.load("isaac")[:2]
    state = oracle.position(other.options, list(other.moves))
    wrong_move = next(m for m in state.legal_moves() if m != other.solution[0])
    wrong = dataclasses.replace(other, solution=(wrong_move, *other.solution[1:]))
    data, work = tmp_path / "data", tmp_path / "work"
    work.mkdir()
    shipped.write("isaac", [sound, wrong], data, {"isaac": {"cpu_hours": 1.0, "shipped": 2, "per_cpu_hour": 2.0}})
    recheck.recheck(ISAAC, jobs=1, directory=work, data=data)
    assert [p.id for p in shipped.load("isaac", data)] == [sound.id]
    assert list(miner.read_dropped("isaac", work)) == [wrong.id]
    assert shipped.header("isaac", data)["mining"]["isaac"]["shipped"] == 1
    items = []
    for puzzle in (sound, wrong):
        position = miner._digest(oracle.key(oracle.position(puzzle.options, list(puzzle.moves))))
        items.append({**puzzle.to_dict(), "position": position})
    line = {"seed": 1, "levels": [1, 4], "plies": 30, "candidates": 9, "cpu_s": 3600.0, "puzzles": items}
    (work / "isaac.jsonl").write_text(json.dumps(line) + "\n")
    miner.ship(ISAAC, work, data)
    assert [p.id for p in shipped.load("isaac", data)] == [sound.id]
