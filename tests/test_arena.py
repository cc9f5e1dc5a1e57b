"""The measuring tools in bench/ (docs/arena.md): the UCT reference, the arena's pairs, its statistics and its
resumable record. Budgets are tiny fixed iteration counts, so nothing here depends on the machine's speed."""

from __future__ import annotations

import json
import math
import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import games
from bench import arena, ladder, players
from bench.arena import Match, run_match
from bench.uct import UCT, calibrate
from games import GameEntry
from tests.fourth_game.entry import ENTRY as FOURTH_GAME


@pytest.fixture
def tictactoe() -> Iterator[GameEntry]:
    games.register(FOURTH_GAME)
    try:
        yield FOURTH_GAME
    finally:
        games.unregister(FOURTH_GAME.name)


def smallest_options(entry: GameEntry) -> dict[str, Any]:
    """Each option at its cheapest value (the smallest number, else the default): whole games stay fast."""
    chosen: dict[str, Any] = {}
    for option in entry.options:
        numbers = [value for value in option.values if isinstance(value, int)]
        chosen[option.name] = min(numbers) if numbers else option.default
    return chosen


def chance_flags(match: Match, moves: list[str]) -> list[bool]:
    """For each recorded move, whether it was a chance move (replayed through the engine, which also checks it)."""
    state = match.new_game()
    flags = []
    for move in moves:
        assert move in state.legal_moves()
        flags.append(bool(state.chance))
        state.play(move)
    assert state.is_over
    return flags


def quiet(message: str) -> None:
    pass


ENTRIES = [*games.entries(), FOURTH_GAME]


@pytest.mark.parametrize("entry", ENTRIES, ids=lambda e: e.name)
def test_uct_plays_only_legal_moves_along_whole_games_and_is_never_asked_a_chance_move(entry: GameEntry) -> None:
    registered = entry.name not in games.names()
    if registered:
        games.register(entry)
    try:
        match = Match("uct:3", "uct:2", entry.name, smallest_options(entry), seed=5, opening_plies=0)
        run = run_match(match, 2, log=quiet)  # UCT.choose raises at a chance point: that would be an error here
        assert [r["error"] for r in run.records] == [None, None]
        for record in run.records:
            chance_flags(match, record["moves"])
    finally:
        if registered:
            games.unregister(entry.name)


def test_uct_never_mutates_the_state_and_answers_a_single_move_without_search(tictactoe: GameEntry) -> None:
    state = tictactoe.new_game()
    for move in ["a1", "b2", "c3", "a3", "c1", "b1", "b3", "c2"]:  # a draw so far; a2 is the last cell
        state.play(move)
    searcher = UCT(10**9, seed=1)  # a search would never end: the single move must come at once
    assert searcher.choose(state) == "a2"
    before = state.copy()
    assert UCT(50, seed=1).choose(tictactoe.new_game()) in tictactoe.new_game().legal_moves()
    assert state == before


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_uct_takes_the_immediate_win(tictactoe: GameEntry, seed: int) -> None:
    state = tictactoe.new_game()
    for move in ["a1", "b1", "a2", "c1"]:  # X has a1 a2: a3 wins; O also threatens nothing yet
        state.play(move)
    assert UCT(400, seed=seed).choose(state) == "a3"


def test_a_ply_budget_stops_after_the_playout_that_reaches_it(tictactoe: GameEntry) -> None:
    searcher = UCT(1, seed=1, plies=60)
    root = searcher.search(tictactoe.new_game(), 10**9, plies=60)
    assert 60 <= searcher.plies_done < 60 + 9  # a tic-tac-toe playout is at most 9 moves
    assert root.visits == sum(child.visits for child in root.children.values()) > 60 // 9
    state = tictactoe.new_game()
    for move in ["a1", "b1", "a2", "c1"]:
        state.play(move)
    assert UCT(1, seed=2, plies=2000).choose(state) == "a3"


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_uct_blocks_the_immediate_loss(tictactoe: GameEntry, seed: int) -> None:
    state = tictactoe.new_game()
    for move in ["a1", "b2", "a2"]:  # X threatens a3; O must block there
        state.play(move)
    assert UCT(400, seed=seed).choose(state) == "a3"


def test_uct_is_reproducible_for_a_seed(tictactoe: GameEntry) -> None:
    state = tictactoe.new_game()
    state.play("b2")
    first = [UCT(60, seed=seed).choose(state) for seed in range(6)]
    assert first == [UCT(60, seed=seed).choose(state) for seed in range(6)]


def test_calibration_turns_a_rate_into_iterations(tictactoe: GameEntry) -> None:
    calibration = calibrate(tictactoe.new_game, 0.02, seed=1, seconds_per_position=0.01)
    assert calibration.positions > 0 and calibration.rate > 0
    assert calibration.iterations == max(1, round(0.02 * calibration.rate))
    assert f"-> {calibration.iterations} iterations" in calibration.describe()


def test_elo_and_its_interval_on_known_values() -> None:
    assert arena.elo(0.5) == 0
    assert arena.elo(0.75) == pytest.approx(190.85, abs=0.01)  # 400 log10(3)
    assert arena.elo(0.25) == pytest.approx(-190.85, abs=0.01)
    assert arena.elo(1.0) == math.inf and arena.elo(0.0) == -math.inf
    low, high = arena.wilson(0.5, 100)
    assert (low, high) == (pytest.approx(0.4038, abs=1e-4), pytest.approx(0.5962, abs=1e-4))
    low, high = arena.wilson(1.0, 12)  # a clean sweep: the interval stays below 100% on the low side only
    assert high == 1.0 and low == pytest.approx(0.7575, abs=1e-4)
    assert arena.elo(low) == pytest.approx(197.4, abs=0.5)


def test_summary_counts_a_from_either_side() -> None:
    def record(index: int, a_side: int, winner: int | None) -> dict[str, Any]:
        times = [[0.1], [0.2, 0.3]]
        return {"index": index, "a_side": a_side, "result": {"winner": winner}, "error": None, "times": times}

    summary = arena.summarise([record(0, 0, 0), record(1, 0, None), record(2, 0, 1), record(3, 1, 1)])
    assert (summary.games, summary.wins, summary.draws, summary.losses) == (4, 2, 1, 1)
    assert summary.score == pytest.approx(0.625)
    assert summary.times_a is not None and summary.times_a.count == 5  # 0.1 three times as side 0, 0.2 and 0.3
    assert summary.times_b is not None and summary.times_b.count == 7


def test_games_of_a_pair_share_their_opening() -> None:
    # the games without dice (whatever the registry holds) open both games of a pair with the same random plies
    for entry in games.entries():
        match = Match("random", "greedy", entry.name, smallest_options(entry), seed=3, opening_plies=3)
        run = run_match(match, 4, log=quiet)
        for first, second in zip(run.records[::2], run.records[1::2], strict=True):
            assert first["a_side"] == 0 and second["a_side"] == 1
            assert first["players"] == second["players"][::-1]
            assert player_moves(match, first["moves"])[:3] == player_moves(match, second["moves"])[:3]
        assert player_moves(match, run.records[0]["moves"])[:3] != player_moves(match, run.records[2]["moves"])[:3]


def player_moves(match: Match, moves: list[str]) -> list[str]:
    return [move for move, chance in zip(moves, chance_flags(match, moves), strict=True) if not chance]


def chance_moves(match: Match, moves: list[str]) -> list[str]:
    return [move for move, chance in zip(moves, chance_flags(match, moves), strict=True) if chance]


def test_games_of_a_pair_share_their_dice() -> None:
    dice_games = [entry for entry in games.entries() if any_chance(entry)]
    assert dice_games, "the registry holds a game with dice"
    for entry in dice_games:
        match = Match("random", "greedy", entry.name, smallest_options(entry), seed=4, opening_plies=0)
        run = run_match(match, 4, log=quiet)
        for first, second in zip(run.records[::2], run.records[1::2], strict=True):
            one, two = chance_moves(match, first["moves"]), chance_moves(match, second["moves"])
            shared = min(len(one), len(two))
            assert shared > 1 and one[:shared] == two[:shared]  # the k-th outcome of both games is the same
        assert chance_moves(match, run.records[0]["moves"]) != chance_moves(match, run.records[2]["moves"])


def any_chance(entry: GameEntry) -> bool:
    state = entry.new_game(**smallest_options(entry))
    rng = random.Random(0)
    while not state.is_over:
        if state.chance:
            return True
        state.play(rng.choice(state.legal_moves()))
    return False


def test_a_resumed_run_plays_only_the_missing_games(
    tictactoe: GameEntry, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "games.jsonl"
    match = Match("random", "uct:20", "tictactoe", seed=2, opening_plies=1)
    first = run_match(match, 3, out, log=quiet)
    saved = out.read_text(encoding="utf-8").splitlines()
    assert [r["index"] for r in first.records] == [0, 1, 2] and len(saved) == 3

    played: list[int] = []
    real = arena.play_game

    def counting(match: Match, index: int, pair: Any) -> dict[str, Any]:
        played.append(index)
        return real(match, index, pair)

    monkeypatch.setattr(arena, "play_game", counting)
    with pytest.raises(SystemExit, match="--resume"):  # never mixes a new run into an old file by accident
        run_match(match, 6, out, log=quiet)
    resumed = run_match(match, 6, out, resume=True, log=quiet)
    assert played == [3, 4, 5]
    assert [r["index"] for r in resumed.records] == list(range(6))
    lines = out.read_text(encoding="utf-8").splitlines()
    assert lines[:3] == saved and len(lines) == 6
    assert all(json.loads(line)["match"] == match.key() for line in lines)


def test_an_illegal_move_loses_the_game_and_is_reported(tictactoe: GameEntry, monkeypatch: pytest.MonkeyPatch) -> None:
    cheat = players.Player("cheat", "cheat", lambda state, rng: "z9")
    honest = players.make_player("random")
    monkeypatch.setattr(arena, "make_player", lambda spec, *args: cheat if spec == "cheat" else honest)
    run = run_match(Match("cheat", "random", "tictactoe", seed=1), 2, log=quiet)
    summary = run.summary()
    assert (summary.wins, summary.losses) == (0, 2)
    assert len(summary.errors) == 2 and "not one of the" in summary.errors[0]


def test_player_specs() -> None:
    specs = [
        "random",
        "greedy",
        "L1",
        "L4:budget=0.5",
        "L4:depth=3",
        "L3:budget=inf,depth=2",
        "L4:clock=cpu",
        "uct:50",
        "uct-ply:500",
        "uct-time:0.5",
        "uct-time:1.6,clock=cpu",
    ]
    for spec in specs:
        assert players.make_player(spec).resolved == spec
    with pytest.raises(ValueError, match="Unknown player"):
        players.make_player("alphazero")
    with pytest.raises(ValueError, match="Unknown level parameter"):
        players.make_player("L2:nodes=5")
    with pytest.raises(ValueError, match="Unknown level parameter"):
        players.make_player("L2:clock=sundial")
    with pytest.raises(ValueError, match="calibrate"):
        players.make_player("uct@1.0")
    with pytest.raises(ValueError, match="Unknown UCT parameter"):
        players.make_player("uct-time:1.6,clock=sundial")
    with pytest.raises(ValueError, match="positive budget"):
        players.make_player("uct-time:0")


class TickingClock:
    """A clock that advances one second each time it is read: a time control's work, without real time."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        self.now += 1.0
        return self.now


def test_a_time_controlled_uct_searches_until_its_clock_has_run_its_budget(tictactoe: GameEntry) -> None:
    clock = TickingClock()
    searcher = UCT(1, seed=1, seconds=400.0, clock=clock)
    state = tictactoe.new_game()
    for move in ["a1", "b1", "a2", "c1"]:
        state.play(move)
    assert searcher.choose(state) == "a3"
    # read at the question (1), for what is left (2: 399 s), for the search's deadline (3 + 399) and before each
    # iteration after the first (4 .. 402 go on, 403 stops): the whole budget, counted from the question
    assert clock.now == 403.0
    root = UCT(1, seed=1).search(state, 10**9, seconds=5.0, clock=TickingClock())
    assert root.visits == 6  # the deadline is 1 + 5; the first iteration always runs, then those read at 2 .. 6


def test_the_reference_of_a_level_gets_its_budget(tictactoe: GameEntry) -> None:
    import ai.iago
    import ai.isaac
    import ai.polygo

    assert players.level_budget("iago", 4) == ai.iago.LEVELS[4].budget_s
    assert players.level_budget("isaac", 4) == ai.isaac.LEVELS[4].budget_s
    assert players.level_budget("polygo", 4) == ai.polygo.LEVELS[4].seconds
    with pytest.raises(ValueError, match="no time budget"):
        players.level_budget(tictactoe.name, 4)  # its AI has no level table


def test_the_ladders_time_control_line_gives_the_uct_level_4s_budget_on_the_same_clock(
    tictactoe: GameEntry, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["--game", "tictactoe", "--only", "L4-uct", "--games", "2", "--level4-budget", "0.01"]
    ladder.main([*argv, "--clock", "cpu", "--out", str(tmp_path)])
    (path,) = tmp_path.iterdir()
    records = [json.loads(line) for line in path.read_text().splitlines()]
    assert len(records) == 2
    assert {spec for record in records for spec in record["resolved"]} == {"L4:clock=cpu", "uct-time:0.01,clock=cpu"}
    printed = capsys.readouterr().out
    assert (
        "| L4 vs UCT, same budget a move (0.01 s) | 2 |" in printed and ">= 90% vs UCT with the same budget" in printed
    )


def test_greedy_takes_a_win(tictactoe: GameEntry) -> None:
    state = tictactoe.new_game()
    for move in ["a1", "b1", "a2", "c1"]:
        state.play(move)
    assert players.greedy_move(state, random.Random(1)) == "a3"


def test_ladder_verdicts_say_met_or_missed_and_whether_the_interval_decides() -> None:
    from bench import ladder

    assert ladder.verdict(0.75, (0.66, 0.85), ladder.STEP, 40) == "met (75%), whole interval above"
    assert ladder.verdict(0.70, (0.50, 0.85), ladder.STEP, 40) == "met (70%), not resolved"
    assert ladder.verdict(0.08, (0.01, 0.35), ladder.SAME_TIME, 12) == (
        "missed by 82 points, whole interval below; 12 < 40 games"
    )


def test_ladder_calibrates_on_the_positions_the_player_faced(tictactoe: GameEntry) -> None:
    from bench import ladder

    match = Match("uct:5", "random", "tictactoe", seed=1, opening_plies=1)
    run = run_match(match, 2, log=quiet)
    positions = ladder.positions_of(run.records, match, "uct:5")
    assert positions and all(uct_to_move(run.records, p) for p in positions)
    assert all(len(p.moves) >= 1 and len(p.legal_moves()) > 1 for p in positions)  # not the random opening ply


def uct_to_move(records: list[dict[str, Any]], position: Any) -> bool:
    """Whether "uct:5" was to move at ``position`` in a recorded game that went through it."""
    return any(
        record["moves"][: len(position.moves)] == position.moves and record["players"][position.turn] == "uct:5"
        for record in records
    )


def test_the_cpu_clock_is_only_borrowed_for_the_call() -> None:
    wall = time.perf_counter
    with players.cpu_clock():
        assert time.perf_counter is time.process_time
    assert time.perf_counter is wall
    with pytest.raises(RuntimeError), players.cpu_clock():
        raise RuntimeError
    assert time.perf_counter is wall


def test_the_ladders_table_only_mode_reads_the_games_without_playing(tictactoe: GameEntry, tmp_path: Path) -> None:
    out = tmp_path / "games.jsonl"
    match = Match("random", "uct:20", "tictactoe", seed=3, opening_plies=1)
    played = run_match(match, 4, out, log=quiet)
    read = ladder.recorded(match, out)
    assert read.records == sorted(played.records, key=lambda r: r["index"])
    assert read.summary() == played.summary() and read.resolved() == ("random", "uct:20")
    assert ladder.recorded(Match("random", "uct:30", "tictactoe", seed=3), out).records == []


def _games_file(path: Path, results: list[int | None]) -> Path:
    """A game file of a match where A plays side (index % 2) and each game's winner is given."""
    lines = []
    for index, winner in enumerate(results):
        record = {"match": {"a": "L4"}, "index": index, "a_side": index % 2, "error": None}
        lines.append(json.dumps({**record, "result": {"winner": winner}}))
    path.write_text("\n".join(lines) + "\n")
    return path


def test_paired_compares_the_same_games_and_reads_the_side_each_game_gave_the_player(tmp_path: Path) -> None:
    from bench import paired

    # game 0: a on side 0; game 1: a on side 1. Before: a wins game 0, draws game 1; after: loses 0, wins 1, and a
    # third game only after has no partner and is left out
    before = _games_file(tmp_path / "before.jsonl", [0, None])
    after = _games_file(tmp_path / "after.jsonl", [1, 1, 0])
    assert paired.scores(before) == {0: 1.0, 1: 0.5}
    assert paired.scores(after) == {0: 0.0, 1: 1.0, 2: 1.0}
    mean, low, high = paired.paired([1.0, 0.5], [0.0, 1.0])
    assert mean == pytest.approx(-0.25) and low < mean < high
    assert paired.paired([0.5, 1.0, 0.0], [0.5, 1.0, 0.0]) == (0.0, 0.0, 0.0)
