"""Iago's computer player (ai/iago/): the learned evaluation's patterns, its weights file, the training script and
the levels. Budgets are tiny or depths capped; nothing here asserts wall-clock time."""

from __future__ import annotations

import json
import math
import random
import subprocess
import sys
from pathlib import Path

import pytest

import ai
from ai import iago
from ai.iago import alphabeta, evaluation
from ai.iago import patterns as P
from ai.iago.board import Board
from ai.search import Deadline
from engines import iago as E

ROOT = Path(__file__).resolve().parent.parent


def random_game(seed: int, plies: int, variant: str = "standard") -> E.IagoGame:
    rng = random.Random(seed)
    state = E.new_game(variant=variant)
    while not state.is_over and len(state.moves) < plies:
        state.play(rng.choice(state.legal_moves()))
    return state


def test_pattern_instances_are_closed_under_the_twelve_symmetries() -> None:
    # The rules name only the outer ring and the centre, both kept by every rotation and reflection of the hexagon,
    # so each class's instances must be mapped onto themselves (as sets of cells) by all 12 symmetries.
    index = {c: i for i, c in enumerate(P.COORDS)}
    syms = P.symmetries()
    assert len({tuple(s(c) for c in P.COORDS) for s in syms}) == 12
    for k, name in enumerate(P.CLASS_NAMES):
        cell_sets = {frozenset(cells) for cls, cells in P.INSTANCES if cls == k}
        assert len(cell_sets) == sum(1 for cls, _ in P.INSTANCES if cls == k), name
        for sym in syms:
            assert {frozenset(index[sym(P.COORDS[i])] for i in cells) for cells in cell_sets} == cell_sets, name
    for sym in syms:  # the outer ring and the centre stay where they are
        assert {E.CELLS[index[sym(E.cell_coords(n))]] for n in E.OUTER} == set(E.OUTER)
        assert sym((0, 0)) == (0, 0)


def test_generated_pattern_code_matches_a_plain_loop() -> None:
    rng = random.Random(5)
    cells = [rng.randrange(P.STATES) for _ in E.CELLS]
    tables = [[rng.random() for _ in range(size)] for size in P.TABLE_SIZES]
    indices = []
    for _, instance in P.INSTANCES:
        value = 0
        for cell in instance:
            value = value * P.STATES + cells[cell]
        indices.append(value)
    assert P.pattern_indices(cells) == tuple(indices)
    expected = sum(tables[k][j] for (k, _), j in zip(P.INSTANCES, indices, strict=True))
    assert P.pattern_sum(cells, tables) == pytest.approx(expected)


def test_search_evaluation_agrees_with_what_training_fits() -> None:
    # The search reads Light's positions through colour-swapped tables, training through swapped cells: the
    # two must give one value, or the search would play with weights other than the ones learned.
    evaluator = evaluation.default_evaluator()
    for seed in range(12):
        board = Board.from_game(random_game(seed, 3 + 3 * seed))
        empty = board.empty_inner
        fitted = evaluation.fitted_sum(
            evaluator.weights,
            P.pattern_stage(empty),
            evaluation.relative_indices(board),
            P.global_stage(empty),
            evaluation.global_features(board),
        )
        assert evaluator.raw(board) == pytest.approx(fitted)


def test_value_is_the_same_for_the_same_position_with_colours_and_turn_swapped() -> None:
    for seed in range(6):
        board = Board.from_game(random_game(seed, 9 + seed))
        swapped = Board([P.SWAP_COLOURS[v] for v in board.cells], 1 - board.turn, board.variant, board.call_owed)
        assert iago.evaluate(swapped) == pytest.approx(iago.evaluate(board))
        assert -1.0 < iago.evaluate(board) < 1.0


def test_weights_file_round_trips_and_refuses_other_definitions_or_formats(tmp_path: Path) -> None:
    weights = evaluation.Weights.zero()
    weights.tables[1][2][77] = 0.5
    weights.globals_[3][1] = 2.25
    weights.meta = {"games": 3}
    path = tmp_path / "w.bin"
    evaluation.save(path, weights)
    back = evaluation.load(path)
    assert back.tables[1][2][77] == pytest.approx(0.5, abs=1e-3)
    assert back.globals_[3][1] == 2.25 and back.meta == {"games": 3}

    magic_len = len(evaluation.MAGIC)
    data = path.read_bytes()
    header_line, _, body = data[magic_len:].partition(b"\n")
    header = json.loads(header_line)
    for key, bad, message in (("definitions", "0" * 64, "other pattern definitions"), ("format", 99, "format 99")):
        changed = dict(header, **{key: bad})
        path.write_bytes(evaluation.MAGIC + json.dumps(changed).encode() + b"\n" + body)
        with pytest.raises(evaluation.WeightsError, match=message):
            evaluation.load(path)
    path.write_bytes(b"not weights")
    with pytest.raises(evaluation.WeightsError, match="not an Iago weights file"):
        evaluation.load(path)


def test_shipped_weights_load_and_record_how_they_were_made() -> None:
    weights = evaluation.load(evaluation.WEIGHTS_PATH)
    assert weights.meta["games"] > 0 and "seed" in weights.meta
    assert any(any(v != 0 for v in table) for table in weights.tables[0])


def test_weights_are_loaded_on_first_use_not_at_import() -> None:
    code = (
        "import ai, engines\n"
        "from ai.iago import evaluation\n"
        "print(evaluation.default_evaluator.cache_info().currsize)\n"
        "ai.choose_move(engines.get('iago').new_game(), 2, seed=1)\n"
        "print(evaluation.default_evaluator.cache_info().currsize)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT).stdout
    assert out.split() == ["0", "1"]


def test_training_is_reproducible_from_its_seed(tmp_path: Path) -> None:
    outputs = []
    for name in ("a.bin", "b.bin", "c.bin"):
        seed = "2" if name == "c.bin" else "1"
        out = tmp_path / name
        subprocess.run(
            [sys.executable, str(ROOT / "bench" / "train_iago.py"), "--games", "4", "--seed", seed, "--out", str(out)],
            check=True,
            capture_output=True,
            cwd=ROOT,
        )
        outputs.append(out.read_bytes())
    assert outputs[0] == outputs[1]
    assert outputs[0] != outputs[2]


def test_a_single_legal_move_is_answered_without_search() -> None:
    # Standard rule 1 (forced capture) often leaves one cell: that move comes back whatever the budget.
    for seed in range(40):
        state = random_game(seed, 12)
        if len(state.legal_moves()) == 1:
            assert iago.choose_move(state, 4, random.Random(0), budget_s=0.0) == state.legal_moves()[0]
            return
    pytest.fail("no position with a single legal move among the seeds")


@pytest.mark.parametrize("variant", E.OPTIONS["variant"])
@pytest.mark.parametrize("level", ai.LEVELS)
def test_every_level_plays_legal_moves_through_a_whole_game_in_every_variant(variant: str, level: int) -> None:
    # penalty: the calls are legal moves too, and the search must list and play them as the engine does
    rng = random.Random(level)
    state = E.new_game(variant=variant)
    while not state.is_over:
        if state.turn == 1:
            move = rng.choice(state.legal_moves())
        else:
            move = ai.choose_move(state, level, seed=len(state.moves), budget_s=0.02)
        assert move in state.legal_moves()
        state.play(move)


def test_depth_bound_choice_is_deterministic_for_a_seed() -> None:
    state = random_game(11, 14)
    first = iago.choose_move(state.copy(), 1, random.Random(3), budget_s=math.inf)
    assert all(iago.choose_move(state.copy(), 1, random.Random(3), budget_s=math.inf) == first for _ in range(3))
    deep = iago.choose_move(state.copy(), 4, random.Random(3), budget_s=math.inf, max_depth=3)
    assert iago.choose_move(state.copy(), 4, random.Random(3), budget_s=math.inf, max_depth=3) == deep


def test_levels_think_more_up_the_ladder() -> None:
    # weaker the natural way: a softmax over one-ply values at level 1, then more iterations of the search
    work = [iago.LEVELS[n].iterations for n in ai.LEVELS]
    assert work[0] == 0 and iago.LEVELS[1].temperature > 0
    assert work[1] < work[2] and work[3] is None  # level 4: as many as its time allows
    assert iago.LEVELS[4].budget_s >= iago.LEVELS[3].budget_s and iago.LEVELS[4].temperature == 0


def solve(state: E.IagoGame) -> int:
    """+1 when the player to act wins with best play, -1 when they lose: plain minimax on the engine itself."""
    best = -1
    for move in state.legal_moves():
        best = max(best, result_after(state, move))
        if best == 1:
            break
    return best


def result_after(state: E.IagoGame, move: str) -> int:
    """``solve`` for the player to act at ``state`` once ``move`` is played (the game may end with it)."""
    after = state.copy()
    after.play(move)
    if after.is_over:
        return 1 if after.result().winner == state.turn else -1
    return -solve(after)


def endgame(seed: int, empties: int) -> E.IagoGame:
    """A position of seeded random play with ``empties`` empty inner cells left."""
    rng = random.Random(seed)
    state = E.new_game()
    while sum(state.cell(n) is None for n in E.INNER) > empties:
        state.play(rng.choice(state.legal_moves()))
    return state


@pytest.mark.parametrize("seed", range(4))
def test_analysis_near_the_end_is_the_exact_result_for_the_player_to_act(seed: int) -> None:
    # "End and score": the game ends when the inner area is full; with three empty inner cells the analysis
    # searches to the end, so its value must be an exact result (beyond any heuristic value, +-0.95), with the
    # sign of the engine's own minimax, and its move must keep that result.
    state = endgame(seed, 3)
    move, value = ai.analyse_position(state, budget_s=math.inf)
    outcome = solve(state)
    assert abs(value) > 0.95 and (value > 0) == (outcome > 0)
    assert result_after(state, move) == outcome


def test_a_move_the_solver_only_bounded_never_wins_a_tie_with_the_best_move() -> None:
    # From a ladder game against the UCT reference, level 4 to move with four empty inner cells: F9 wins, and
    # D7 loses. The root searches D7 after F9 with a window that only bounds it from above, and its bound came
    # out equal to F9's exact value; the tie went to the earlier name, and level 4 lost a won game.
    state = E.new_game()
    opening = "C4 D6 G5 E2 E7 F8 D4 B3 A2 G7 F5 E6 D2 C2 G6 G4 H5 I6 H7 I7 I5 B4 I8 E4 G8 H8 F3 H6 D1 H4 D3 F4 "
    for move in (opening + "B2 F6 G3 F2 E1 G9 C6 C3 E3 A1 E8 A3 E5 E9 F7 H9").split():
        state.play(move)
    outcome = solve(state)
    assert outcome == 1
    move = iago.choose_move(state, 4, random.Random(0), budget_s=math.inf, max_depth=64)
    assert result_after(state, move) == outcome, move
    chosen, value = ai.analyse_position(state, budget_s=math.inf)  # the exact solver alone
    assert value > 0.95 and result_after(state, chosen) == outcome, chosen


@pytest.mark.parametrize("seed", range(6))
def test_level_4s_forced_win_search_plays_a_win_exactly_when_there_is_one(seed: int) -> None:
    # "End and score": with four empty inner cells the null-window search reaches the end of every line; it
    # finds a move exactly when the engine's own minimax says the position is won, and that move keeps the win.
    state = endgame(100 + seed, 4)
    move = iago._winning_move(state, Deadline(None), None)
    if solve(state) < 1:
        assert move is None
        return
    assert move is not None and result_after(state, move) == 1


def test_only_level_4_looks_for_a_forced_win_before_the_endgame_solver() -> None:
    assert iago.LEVELS[4].wins_from > iago.SOLVE_EMPTIES
    assert all(iago.LEVELS[n].wins_from == 0 for n in (1, 2, 3))  # weaker the natural way: their lines stand


@pytest.mark.parametrize("seed", range(3))
def test_the_search_to_the_end_near_the_end_does_not_sort_by_the_evaluation(seed: int) -> None:
    # With ORDER_EMPTIES empty inner cells or fewer, sorting by the evaluation costs more than it saves: a search
    # to the end from there never calls the evaluation at all, and still finds the engine minimax's result.
    state = endgame(200 + seed, 5)
    assert alphabeta.ORDER_EMPTIES >= 5
    calls = 0

    def counted(board: Board) -> float:
        nonlocal calls
        calls += 1
        return iago.evaluate(board)

    search = alphabeta.IagoSearch(False, counted)
    null = alphabeta.NULL
    value = search.negamax(Board.from_game(state), alphabeta.TO_THE_END, -null, null, Deadline(None))
    assert calls == 0
    assert (1 if value > 0 else -1) == solve(state)
