"""ISAAC engine: one test per ruling in rules/isaac.md, the seed's worked examples, and properties."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engines
from engines import IllegalMove, isaac
from engines.isaac import IsaacGame

MAX_PLIES = 30 + 2 + 30 + 2  # every piece placed and removed, plus one pass per player per phase


def position(pieces: list[tuple[str, int]], **kwargs: object) -> IsaacGame:
    return IsaacGame.from_position(pieces, **kwargs)  # type: ignore[arg-type]


def removals(game: IsaacGame, span: str) -> list[int]:
    """The scores listed for removing ``span``."""
    return sorted(int(m.split()[2]) for m in game.legal_moves() if m.startswith(f"x {span} "))


def play_random(seed: int, plies: int | None = None) -> IsaacGame:
    rng = random.Random(seed)
    game = isaac.new_game()
    while not game.is_over and (plies is None or len(game.moves) < plies):
        game.play(rng.choice(game.legal_moves()))
    return game


# --- pieces, board and notation ------------------------------------------------------------------------


def test_piece_set_lengths_values_counts() -> None:
    assert isaac.LENGTHS == (3, 4, 5, 6, 7)
    assert isaac.VALUES == {3: 1, 4: 2, 5: 3, 6: 4, 7: 6}
    assert isaac.COUNTS == {3: 5, 4: 4, 5: 3, 6: 2, 7: 1}
    game = isaac.new_game()
    assert game.in_hand(0) == game.in_hand(1) == isaac.COUNTS
    assert sum(isaac.COUNTS.values()) == 15


def test_black_and_white_numbering_agree() -> None:
    assert isaac.black_number("a1") == 0 and isaac.white_number("a1") == 99
    assert isaac.black_number("j10") == 99 and isaac.white_number("j10") == 0
    assert isaac.black_number("c3") == 22 and isaac.white_number("c3") == 77
    assert isaac.black_number("j1") == 9 and isaac.black_number("a2") == 10
    for file in range(10):
        for rank in range(1, 11):
            square = isaac.square_name(file, rank)
            assert isaac.black_number(square) == 10 * (rank - 1) + file
            assert isaac.white_number(square) == 99 - isaac.black_number(square)
    with pytest.raises(IllegalMove):
        isaac.black_number("k1")
    with pytest.raises(IllegalMove):
        isaac.square_name(10, 1)


def test_placement_notation_lower_end_first() -> None:
    game = isaac.new_game()
    moves = game.legal_moves()
    assert "c3-g3" in moves and "d2-d7" in moves and "g3-c3" not in moves
    with pytest.raises(IllegalMove, match="lower end first: c3-g3"):
        game.play("g3-c3")
    with pytest.raises(IllegalMove, match="not a straight line"):
        game.play("c3-e5")
    with pytest.raises(IllegalMove, match="3 to 7 squares"):
        game.play("c3-d3")
    with pytest.raises(IllegalMove, match="3 to 7 squares"):
        game.play("a1-a9")
    assert game.moves == []


def test_placement_move_helper() -> None:
    assert isaac.placement_move(5, "c3", "right") == "c3-g3"
    assert isaac.placement_move(6, "D2", " Up ") == "d2-d7"
    assert isaac.placement_move(7, "d4", "right") == "d4-j4"
    with pytest.raises(IllegalMove, match="leave the board"):
        isaac.placement_move(7, "e4", "right")
    with pytest.raises(IllegalMove, match="leave the board"):
        isaac.placement_move(3, "a9", "up")
    with pytest.raises(IllegalMove):
        isaac.placement_move(8, "a1", "up")
    with pytest.raises(IllegalMove):
        isaac.placement_move(3, "a1", "left")


def test_input_is_case_insensitive_and_tolerates_spaces() -> None:
    game = isaac.new_game()
    game.play("  C3 - G3 ")
    assert game.moves == ["c3-g3"]
    scoring = position([("a5-c5", 0), ("e5-g5", 1)], scores=(0, 0))
    scoring.play("X  A5-C5   1")
    assert scoring.moves == ["x a5-c5 1"]


def test_removal_notation_includes_score() -> None:
    game = position([("a5-c5", 0), ("e5-g5", 1)])
    assert game.legal_moves() == ["x a5-c5 0", "x a5-c5 1"]
    with pytest.raises(IllegalMove, match="new score"):
        game.play("x a5-c5")
    with pytest.raises(IllegalMove, match="not a score"):
        game.play("x a5-c5 01")


def test_pass_is_listed_alone_only_when_nothing_else_is_legal() -> None:
    game = isaac.new_game()
    assert "pass" not in game.legal_moves()
    with pytest.raises(IllegalMove, match="cannot pass"):
        game.play("pass")
    stuck = position([], phase="placement", hand=[{}, {3: 1}])
    assert stuck.legal_moves() == ["pass"]


def test_new_game_takes_no_options() -> None:
    with pytest.raises(ValueError, match="no options"):
        isaac.new_game(variant="loose")
    assert isaac.OPTIONS == {}
    assert isaac.SIDES == ("Black", "White")
    assert engines.get("isaac") is isaac


# --- placement phase -----------------------------------------------------------------------------------


def test_board_starts_empty_black_begins_players_alternate() -> None:
    game = isaac.new_game()
    assert game.pieces() == [] and game.turn == 0 and game.phase == "placement"
    assert game.chance is False
    assert len(game.legal_moves()) == 2 * 10 * (8 + 7 + 6 + 5 + 4)
    game.play("a1-c1")
    assert game.turn == 1
    game.play("a2-c2")
    assert game.turn == 0
    assert game.pieces() == [("a1-c1", 0), ("a2-c2", 1)]
    assert game.last_move == "a2-c2"


def test_placement_only_on_empty_squares() -> None:
    game = isaac.new_game()
    game.play("c3-g3")
    with pytest.raises(IllegalMove, match=r"^e1-e5 covers a square that is not empty\.$"):
        game.play("e1-e5")
    assert "e1-e5" not in game.legal_moves()
    assert "e4-e8" in game.legal_moves()
    assert game.piece_at("e3") == ("c3-g3", 0)
    assert game.piece_at("h3") is None
    with pytest.raises(IllegalMove):
        game.piece_at("z9")


def test_no_piece_of_a_length_left() -> None:
    game = isaac.new_game()
    game.play("a1-a7")
    game.play("b1-b7")
    assert game.in_hand(0)[7] == 0
    with pytest.raises(IllegalMove, match=r"^You have no piece of length 7 left\.$"):
        game.play("c1-c7")
    assert all(isaac._SPANS[m].length != 7 for m in game.legal_moves())


def test_player_who_cannot_place_passes_for_good() -> None:
    game = position([], phase="placement", hand=[{}, {3: 2}])
    game.play("pass")
    assert game.out == (True, False) and game.passed_first == 0
    game.play("a1-c1")
    assert game.turn == 1  # Black is skipped for the rest of the phase
    game.play("a2-c2")
    assert game.turn == 1 and game.phase == "placement"
    assert game.legal_moves() == ["pass"]


def test_placement_phase_ends_when_neither_can_place() -> None:
    game = position([], phase="placement", hand=[{}, {3: 1}])
    game.play("pass")
    game.play("a5-c5")
    assert game.phase == "placement"
    game.play("pass")
    assert game.phase == "scoring"
    assert game.out == (False, False)


def full_board(hand: list[dict[int, int]]) -> IsaacGame:
    # Every rank filled by a 7 and a 3, so nothing fits although both players hold pieces.
    pieces = [(f"a{r}-g{r}" if r % 2 else f"a{r}-c{r}", r % 2) for r in range(1, 11)]
    pieces += [(f"h{r}-j{r}" if r % 2 else f"d{r}-j{r}", 1 - r % 2) for r in range(1, 11)]
    return position(pieces, phase="placement", hand=hand)


def test_full_board_blocks_placement_even_with_pieces_in_hand() -> None:
    game = full_board(hand=[{3: 1}, {4: 1}])
    assert game.legal_moves() == ["pass"]
    game.play("pass")
    assert game.legal_moves() == ["pass"]


def test_unplaced_pieces_are_kept_for_the_tiebreak() -> None:
    game = full_board(hand=[{3: 1}, {7: 1}])
    game.play("pass")
    game.play("pass")
    assert game.phase == "scoring"
    assert game.in_hand(0)[3] == 1 and game.in_hand(1)[7] == 1
    while not game.is_over:
        game.play(game.legal_moves()[0])  # always the lowest score: ends level on 0 points or not
    assert game.in_hand(0)[3] == 1 and game.in_hand(1)[7] == 1
    if game.scores()[0] == game.scores()[1]:
        assert game.result().winner == 1 and game.result().reason == "tiebreak-squares"


# --- scoring phase -------------------------------------------------------------------------------------


def test_scores_start_at_zero_on_each_owners_square_00() -> None:
    game = position([], phase="placement", hand=[{}, {}])
    assert game.counter_square(0) is None  # no counters during placement
    game.play("pass")
    game.play("pass")
    assert game.phase == "scoring" and game.scores() == (0, 0)
    assert game.counter_square(0) == "a1" and game.counter_square(1) == "j10"


def test_first_passer_starts_scoring() -> None:
    game = position([], phase="placement", turn=0, hand=[{3: 1}, {}])
    game.play("a5-c5")
    assert game.turn == 1
    game.play("pass")  # White passes first
    game.play("pass")
    assert game.passed_first == 1
    assert game.phase == "scoring" and game.turn == 1


def test_players_alternate_in_scoring() -> None:
    game = position([("a5-c5", 0), ("a6-c6", 1), ("a7-c7", 0), ("a8-c8", 1)], turn=0)
    game.play("x a5-c5 0")
    assert game.turn == 1
    game.play("x a6-c6 0")
    assert game.turn == 0


def test_removal_never_shorter_than_longest_removed() -> None:
    pieces = [("a2-c2", 0), ("a3-d3", 0), ("a5-e5", 0), ("h5-j5", 1)]
    game = position(pieces, removed=[["a10-d10"], []])
    assert game.min_removal_length(0) == 4 and game.min_removal_length(1) == 3
    spans = {m.split()[1] for m in game.legal_moves()}
    assert spans == {"a3-d3", "a5-e5"}
    with pytest.raises(IllegalMove, match=r"^You must remove a piece at least 4 squares long\.$"):
        game.play("x a2-c2 0")
    game.play("x a5-e5 3")
    assert game.min_removal_length(0) == 5 and game.removed(0) == ["a10-d10", "a5-e5"]


def test_no_removal_under_either_counter() -> None:
    pieces = [("a1-c1", 0), ("h10-j10", 0), ("a5-c5", 0), ("e7-g7", 1)]
    game = position(pieces)
    assert {m.split()[1] for m in game.legal_moves()} == {"a5-c5"}
    with pytest.raises(IllegalMove, match="under a score counter"):
        game.play("x a1-c1 0")
    with pytest.raises(IllegalMove, match="under a score counter"):
        game.play("x h10-j10 0")


def test_only_own_pieces_are_removed() -> None:
    game = position([("a5-c5", 0), ("e5-g5", 1)])
    with pytest.raises(IllegalMove, match="White's piece"):
        game.play("x e5-g5 0")
    with pytest.raises(IllegalMove, match="no piece"):
        game.play("x a7-c7 0")


def test_points_count_pieces_left_on_the_line_each_once() -> None:
    pieces = [
        ("c3-g3", 0),  # removed: horizontal, so its line is rank 3
        ("a1-a4", 1),  # crosses rank 3
        ("h3-j3", 0),  # lies along rank 3: counted once
        ("c4-c6", 1),  # same file as c3 but not on rank 3: not counted
        ("i5-i9", 1),
    ]
    game = position(pieces, scores=(10, 0))
    assert game.removal_points("c3-g3") == 2 * 3
    assert game.removal_points("e3") == 6  # any square of the piece names it
    assert removals(game, "c3-g3") == list(range(10, 17))


def test_line_is_the_column_of_a_vertical_piece() -> None:
    pieces = [("d2-d7", 0), ("a5-c5", 1), ("e5-g5", 1), ("c8-e8", 1), ("a9-c9", 0)]
    game = position(pieces, scores=(10, 0))
    assert game.removal_points("d2-d7") == 1 * 4  # only c8-e8 touches file d


def test_points_double_per_counter_on_line() -> None:
    pieces = [("b1-d1", 0), ("f1-h1", 1)]
    alone = position(pieces, scores=(10, 0))  # counters on a2 and j10: none on rank 1
    assert alone.removal_points("b1-d1") == 1
    own = position(pieces, scores=(0, 0))  # Black's counter on a1
    assert own.removal_points("b1-d1") == 2
    both = position(pieces, scores=(0, 90))  # White's 90 is Black's 09: j1
    assert both.counter_square(1) == "j1"
    assert both.removal_points("b1-d1") == 4
    assert removals(both, "b1-d1") == [0, 1, 2, 3, 4]


def test_points_can_be_zero() -> None:
    game = position([("a5-c5", 0), ("e7-g7", 1)], scores=(7, 3))
    assert game.removal_points("a5-c5") == 0
    assert game.legal_moves() == ["x a5-c5 7"]
    game.play("x a5-c5 7")
    assert game.scores() == (7, 3)


def twelve_point_position(scores: tuple[int, int]) -> IsaacGame:
    # a5-g5 is worth 6 x 2 pieces on rank 5, with no counter on rank 5
    return position([("a5-g5", 0), ("h3-h7", 1), ("i2-i6", 1)], scores=scores)


def test_counter_moves_anywhere_from_current_to_current_plus_points() -> None:
    game = twelve_point_position((12, 0))
    assert game.removal_points("a5-g5") == 12
    assert removals(game, "a5-g5") == list(range(12, 25))
    with pytest.raises(IllegalMove, match=r"^Score 40 is out of reach: choose 12 to 24\.$"):
        game.play("x a5-g5 40")
    with pytest.raises(IllegalMove, match="out of reach"):
        game.play("x a5-g5 11")
    game.play("x a5-g5 17")
    assert game.scores() == (17, 0) and game.counter_square(0) == "h2"


def test_counter_cannot_land_on_opponents_square_b_plus_w_99() -> None:
    game = twelve_point_position((12, 80))
    assert game.counter_square(1) == "j2"  # White's 80 is Black's 19
    assert removals(game, "a5-g5") == [s for s in range(12, 25) if s != 19]
    with pytest.raises(IllegalMove, match="White's counter"):
        game.play("x a5-g5 19")
    # The same rule from White's side.
    white = position([("a5-g5", 1), ("h3-h7", 0), ("i2-i6", 0)], turn=1, scores=(80, 12))
    assert white.counter_square(0) == isaac.square_name(0, 9)  # Black 80 = a9 = White 19
    assert removals(white, "a5-g5") == [s for s in range(12, 25) if s != 19]
    assert isaac.white_number(white.counter_square(0)) == 19


def test_reaching_100_ends_game() -> None:
    game = twelve_point_position((90, 0))
    # Black's 99 is White's 00 (j10, White's counter); 100 and beyond have no square, so never clash.
    assert removals(game, "a5-g5") == [s for s in range(90, 103) if s != 99]
    ended = game.copy()
    ended.play("x a5-g5 100")
    assert ended.is_over and ended.turn is None and ended.phase == "over"
    assert ended.legal_moves() == []
    assert ended.result() == engines.Result(0, (100, 0), "score")
    assert ended.counter_square(0) is None
    beyond = game.copy()
    beyond.play("x a5-g5 102")
    assert beyond.result().scores == (102, 0)
    with pytest.raises(IllegalMove, match="over"):
        beyond.play("pass")
    short = game.copy()
    short.play("x a5-g5 98")
    assert not short.is_over and short.turn == 1


def test_score_99_and_white_00_clash() -> None:
    game = twelve_point_position((95, 0))
    assert 99 not in removals(game, "a5-g5") and 100 in removals(game, "a5-g5")


def test_player_without_removal_is_out() -> None:
    # Black's only piece lies under White's counter on j10.
    pieces = [("h10-j10", 0), ("a5-c5", 1), ("a7-e7", 1), ("f5-f9", 1)]
    game = position(pieces, turn=0)
    assert game.legal_moves() == ["pass"]
    game.play("pass")
    assert game.out == (True, False) and game.turn == 1
    game.play("x a5-c5 1")  # White's counter leaves j10: h10-j10 is free now, but Black is out
    assert game.turn == 1 and not game.is_over
    game.play("x a7-e7 2")
    assert game.turn == 1


def test_game_ends_when_both_are_out() -> None:
    game = position([("a5-c5", 1)], turn=0, scores=(4, 3))
    game.play("pass")
    game.play("x a5-c5 3")
    assert game.legal_moves() == ["pass"]
    game.play("pass")
    assert game.is_over and game.result() == engines.Result(0, (4, 3), "score")


def test_result_before_end_raises() -> None:
    with pytest.raises(ValueError):
        isaac.new_game().result()


# --- result --------------------------------------------------------------------------------------------


def test_higher_score_wins() -> None:
    game = position([], phase="over", scores=(30, 41), hand=[{7: 1}, {}])
    assert game.result() == engines.Result(1, (30, 41), "score")


def test_tiebreak_longer_unplaced_line() -> None:
    game = position([], phase="over", scores=(20, 20), hand=[{3: 2}, {7: 1}])
    assert game.result() == engines.Result(1, (20, 20), "tiebreak-squares")
    flipped = position([], phase="over", scores=(20, 20), hand=[{4: 1}, {3: 1}])
    assert flipped.result() == engines.Result(0, (20, 20), "tiebreak-squares")


def test_tiebreak_fewer_pieces_on_equal_squares() -> None:
    game = position([], phase="over", scores=(5, 5), hand=[{3: 2}, {6: 1}])
    assert game.result() == engines.Result(1, (5, 5), "tiebreak-pieces")


def test_tiebreak_black_wins_when_all_equal() -> None:
    game = position([], phase="over", scores=(5, 5), hand=[{3: 1}, {3: 1}])
    assert game.result() == engines.Result(0, (5, 5), "tiebreak-black")


# --- the seed's worked examples ------------------------------------------------------------------------


def example_position(black_score: int) -> IsaacGame:
    """Black to remove d5-d10 (Black's 43-93); White's last piece a4-g4 is blocked by Black's counter."""
    pieces = [("d5-d10", 0), ("j3-j5", 0), ("a4-g4", 1)]
    return position(pieces, turn=0, scores=(black_score, 20), removed=[["b1-b6"], ["a10-c10"]])


def test_seed_example_1_white_scores_30() -> None:
    # White removes White's 04-44 (Black's 95-55: f6-f10, value 3); 4 White and 1 Black pieces cross
    # file f, and Black's counter on Black's 05 (f1) doubles it: 5 x 3 x 2 = 30.
    pieces = [("f6-f10", 1), ("d5-f5", 1), ("e3-g3", 1), ("f2-h2", 1), ("a4-f4", 1), ("f1-h1", 0)]
    game = position(pieces, turn=1, scores=(5, 0))
    assert (isaac.white_number("f10"), isaac.white_number("f6")) == (4, 44)
    assert game.counter_square(0) == "f1"
    assert game.removal_points("f6-f10") == 30
    game.play("x f6-f10 30")
    assert game.scores() == (5, 30) and isaac.white_number(game.counter_square(1)) == 30


def test_seed_example_2_sacrifice_blocks_whites_last_piece() -> None:
    game = example_position(34)
    assert (isaac.black_number("d5"), isaac.black_number("d10")) == (43, 93)
    assert game.removal_points("d5-d10") == 1 * 4
    assert game.legal_moves() == [f"x d5-d10 {s}" for s in range(34, 39)]
    # Taking the full 4 points frees White's last piece, worth 6 x 1 x 2 with Black's counter on rank 4:
    # the formula's 12 (the seed's text prints 16).
    free = game.copy()
    free.play("x d5-d10 38")
    assert free.counter_square(0) == "i4" and free.removal_points("a4-g4") == 12
    assert free.legal_moves() == [f"x a4-g4 {s}" for s in sorted(range(20, 33), key=str)]
    # Sacrificing 2 points keeps Black's counter on the piece: White can only pass and is out.
    blocked = game.copy()
    blocked.play("x d5-d10 36")
    assert blocked.counter_square(0) == "g4"
    assert blocked.legal_moves() == ["pass"]
    blocked.play("pass")
    assert blocked.turn == 0 and blocked.out == (False, True)


def test_seed_example_3_counter_in_line_with_removed_piece() -> None:
    game = example_position(33)  # Black's counter on d4, in line with d5-d10 (and on a4-g4)
    assert game.removal_points("d5-d10") == 1 * 4 * 2
    assert removals(game, "d5-d10") == list(range(33, 42))
    free = game.copy()
    free.play("x d5-d10 41")
    assert free.counter_square(0) == "b5"
    assert free.removal_points("a4-g4") == 6  # 6 x 1 piece, no counter on rank 4
    blocked = game.copy()
    blocked.play("x d5-d10 36")
    assert blocked.legal_moves() == ["pass"]


# --- extra API and persistence -------------------------------------------------------------------------


def test_extra_api_reports_state() -> None:
    game = isaac.new_game()
    game.play("c3-g3")
    game.play("a1-a3")
    assert game.in_hand(0)[5] == 2 and game.in_hand(1)[3] == 4
    assert game.pieces() == [("a1-a3", 1), ("c3-g3", 0)]
    assert game.removed(0) == [] and game.scores() == (0, 0)
    assert game.passed_first is None and game.out == (False, False)
    assert game.min_removal_length(0) == 3


def test_from_position_round_trips_through_json() -> None:
    game = example_position(34)
    data = json.loads(json.dumps(game.to_dict()))
    back = isaac.from_dict(data)
    assert back == game and back.legal_moves() == game.legal_moves()
    with pytest.raises(ValueError):
        isaac.from_dict({"game": "isaac"})


# --- properties ----------------------------------------------------------------------------------------

seeds = st.integers(min_value=0, max_value=2**32 - 1)


@settings(max_examples=60, deadline=None)
@given(seeds)
def test_random_games_end_with_a_move_available_at_every_ply(seed: int) -> None:
    rng = random.Random(seed)
    game = isaac.new_game()
    while not game.is_over:
        moves = game.legal_moves()
        assert moves and moves == sorted(set(moves))
        assert moves == ["pass"] or "pass" not in moves
        assert game.turn is not None and not game.out[game.turn]
        game.play(rng.choice(moves))
        assert len(game.moves) <= MAX_PLIES
    result = game.result()
    assert result.winner in (0, 1) and result.scores == game.scores()
    assert game.legal_moves() == [] and game.turn is None


def candidate_moves(game: IsaacGame, rng: random.Random) -> list[str]:
    """Legal moves, near misses and garbage."""
    spans = list(isaac._SPANS)
    current = game.scores()[game.turn or 0]
    out = [rng.choice(spans) for _ in range(10)]
    out += [f"x {name} {rng.randint(0, 130)}" for name, _ in game.pieces()]
    out += [f"x {name} {current + rng.randint(-2, 30)}" for name, _ in game.pieces()]
    out += ["pass", "", "x", "hello", "a1-a3 4", "x a1-c1 -3", "k1-k3", "x 10", "a0-a2"]
    return out
