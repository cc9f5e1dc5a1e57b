"""ISAAC's tree search (ai/isaac/): its board follows the engine's rules through both phases, its tree lists only
legal moves, it plays legal moves along whole games at every level, and with a seed it is deterministic at fixed
work. Work is bounded by ``max_depth`` (iterations) with no clock, so nothing here depends on the machine."""

from __future__ import annotations

import math
import random
from typing import Any

import pytest

import ai
from ai import isaac
from ai.isaac import beam, mcts
from ai.isaac.board import Board, move_id, move_name
from ai.search import Analysis, Deadline
from engines import isaac as S


def _same(board: Board, game: S.IsaacGame) -> bool:
    fresh = Board.from_game(game)
    fields = ("owner", "occ", "count", "weight", "hand", "minlen", "scores", "out", "phase", "turn", "passed_first")
    return all(getattr(board, name) == getattr(fresh, name) for name in fields)


@pytest.mark.parametrize("seed", range(6))
def test_board_lists_the_engines_moves_and_follows_it_through_both_phases(seed: int) -> None:
    # Rules: a player who cannot place passes for the rest of the phase; whoever passed first starts the scoring;
    # removals never get shorter, never from under a counter; the clash rule; 100 ends the game; tie-breaks.
    rng = random.Random(seed)
    game = S.new_game()
    board = Board.from_game(game)
    while not game.is_over:
        assert sorted(move_name(m) for m in board.legal()) == sorted(game.legal_moves())
        move = rng.choice(game.legal_moves())
        game.play(move)
        board.play(move_id(move))
        assert _same(board, game)
    assert board.winner() == game.result().winner


@pytest.mark.parametrize("seed", range(3))
def test_tree_moves_are_legal_and_playouts_end_the_game(seed: int) -> None:
    rng = random.Random(seed)
    game = S.new_game()
    while not game.is_over:
        board = Board.from_game(game)
        moves, priors = mcts.tree_moves(board)
        assert {move_name(m) for m in moves} <= set(game.legal_moves())
        assert sum(priors) == pytest.approx(1.0) and len(priors) == len(moves)
        ended = board.copy()
        winner = mcts.playout(ended, rng)
        assert winner in (0, 1) and ended.turn == -1
        assert _same(board, game)  # the playout ran on a copy
        game.play(move_name(moves[rng.randrange(len(moves))]))


def test_a_removal_to_100_is_among_the_tree_moves_and_taken() -> None:
    # "A score of 100 or more ends the game at once": Black at 90 takes the 7 on rank 4 (two White pieces cross
    # it: 2 x 6 = 12 points) to 102.
    game = S.IsaacGame.from_position(
        [("a4-g4", 0), ("h3-h5", 1), ("j2-j6", 1), ("b6-b8", 0), ("c6-e6", 1), ("c8-e8", 1)],
        turn=0,
        scores=(90, 40),
    )
    moves, _ = mcts.tree_moves(Board.from_game(game))
    assert "x a4-g4 102" in {move_name(m) for m in moves}
    for level in ai.LEVELS:
        assert ai.choose_move(game, level, seed=1, budget_s=math.inf, max_depth=1) == "x a4-g4 102"


def test_a_counter_can_be_parked_on_the_opponents_best_piece() -> None:
    # A counter on a piece stops its removal (rules, "Scoring phase"): White's 7 on rank 1 (a1-g1) is worth
    # most to White; Black, removing d3-d7, can move its counter from 0 to any of 0..N, and the squares a1..g1 are
    # Black's scores 0..6 (a1 is already under Black's counter at 0).
    game = S.IsaacGame.from_position(
        [("a1-g1", 1), ("d3-d7", 0), ("a3-c3", 1), ("e3-g3", 1), ("a5-c5", 0), ("h2-h4", 0)],
        turn=0,
        scores=(0, 0),
    )
    names = {move_name(m) for m in mcts.tree_moves(Board.from_game(game))[0]}
    assert names <= set(game.legal_moves())
    parks = {n for n in names if n.startswith("x d3-d7") and 1 <= int(n.split()[-1]) <= 6}
    assert parks


@pytest.mark.parametrize("levels", [(1, 2), (3, 4)])
def test_levels_play_legal_moves_along_whole_games(levels: tuple[int, int]) -> None:
    game = S.new_game()
    rng = random.Random(sum(levels))
    for _ in range(2):  # a random opening, so the two tests' games differ
        game.play(rng.choice(game.legal_moves()))
    while not game.is_over:
        level = levels[game.turn]
        move = ai.choose_move(game, level, seed=len(game.moves), budget_s=math.inf, max_depth=1)
        assert move in game.legal_moves()
        game.play(move)
    assert game.result().winner in (0, 1)


def test_the_search_is_deterministic_with_a_seed_at_fixed_work() -> None:
    rng = random.Random(5)
    game = S.new_game()
    for _ in range(6):
        game.play(rng.choice(game.legal_moves()))
    first = ai.choose_move(game, 4, seed=11, budget_s=math.inf, max_depth=2)
    assert all(ai.choose_move(game, 4, seed=11, budget_s=math.inf, max_depth=2) == first for _ in range(2))
    root = isaac.search(game, 200, None, random.Random(3))
    again = isaac.search(game, 200, None, random.Random(3))
    assert (root.moves, root.visits, root.totals) == (again.moves, again.visits, again.totals)
    assert sum(root.visits) == 200


def test_analysis_gives_the_search_value_and_a_legal_best_move() -> None:
    rng = random.Random(8)
    game = S.new_game()
    while game.phase == S.PLACEMENT:
        game.play(rng.choice(game.legal_moves()))
    best, value = ai.analyse_position(game, budget_s=0.05)
    assert best in game.legal_moves() and -1.0 <= value <= 1.0


def test_a_move_the_narrow_root_only_bounded_never_ties_with_the_best_move() -> None:
    # The tuning search (bench/tune_isaac.py) searches each root move after the first with a window that only
    # bounds it from above; a bound equal to the best move's exact value must not tie with it, or the order of
    # the moves, not their values, would choose.
    class Scripted(beam.IsaacSearch):
        def child_value(self, child: Any, player: int, depth: int, alpha: float, beta: float, deadline: Any) -> float:
            return 0.5  # the first move's exact value, and every later move's fail-low bound at alpha = 0.5

    game = S.new_game()
    values, _ = Scripted(full_width_root=False).root_values(game, 1, Deadline(None))
    first, *others = values
    assert values[first] == 0.5 and others
    assert all(values[m] < 0.5 for m in others)
    assert Analysis(values, 1, True).best()[0] == first
    exact, _ = Scripted(full_width_root=True).root_values(game, 1, Deadline(None))
    assert set(exact.values()) == {0.5}
