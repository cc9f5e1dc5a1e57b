"""Polygo engine: one test per ruling in shared/rules/polygo.md, plus property tests over whole games."""

from __future__ import annotations

import inspect
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engines
from engines import IllegalMove, Result
from engines import polygo as P

# ----------------------------------------------------------------------------------------------- helpers


def play_all(game: P.PolygoGame, *moves: str) -> P.PolygoGame:
    for move in moves:
        game.play(move)
    return game


def snapshot(game: P.PolygoGame) -> tuple:
    return (
        game.to_dict(),
        game.legal_moves(),
        game.turn,
        game.chance,
        game.die,
        game.to_roll,
        game.last_block,
        game.finished,
        game.extra_turns_left,
        game.scores(),
        game.is_over,
    )


def ring(*names: str) -> list[str]:
    return list(names)


# Black's 3x4 ring around E5 and E6 on 9x9, while White drops a domino inside it and plays elsewhere.
BLACK_FINISHES = (
    "open 1 2",  # Black's die 1 < White's 2: Black starts with a domino
    "D4 E4",
    "A1 B1 C1",  # White's first placement uses White's own opening die (2: a line of 3)
    "roll 1",
    "F4 F5",
    "roll 1",
    "E5 E6",  # White stones inside the future polygon
    "roll 1",
    "D5 D6",
    "roll 1",
    "A3 B3",
    "roll 1",
    "F6 F7",
    "roll 1",
    "A5 B5",
    "roll 1",
    "D7 E7",  # closes the ring: Black finishes
)


def random_game(size: int, seed: int, max_moves: int = 10_000) -> P.PolygoGame:
    rng = random.Random(seed)
    game = P.new_game(size=size)
    while not game.is_over and len(game.moves) < max_moves:
        game.play(rng.choice(game.legal_moves()))
    return game


# ------------------------------------------------------------------------------------- options, registry


def test_registry_returns_module_with_contract_constants() -> None:
    assert engines.get("polygo") is P
    assert P.OPTIONS == {"size": (19, 13, 9)}
    assert P.SIDES == ("Black", "White")


def test_option_size_accepts_int_and_numeric_string_default_19() -> None:
    assert P.new_game().size == 19
    assert P.new_game(size=13).size == 13
    assert P.new_game(size="9").size == 9


@pytest.mark.parametrize("bad", [10, "12", "big", None, 0])
def test_option_size_rejects_other_values_naming_allowed(bad: object) -> None:
    with pytest.raises(ValueError, match="19, 13, 9"):
        P.new_game(size=bad)


def test_unknown_option_is_value_error() -> None:
    with pytest.raises(ValueError, match="size"):
        P.new_game(variant="x")


# --------------------------------------------------------------------------------------------- notation


def test_notation_points_as_in_go_without_i() -> None:
    assert P.point_name(0, 0) == "A1"
    assert P.point_name(8, 0) == "J1"
    assert P.point_name(18, 18) == "T19"
    assert P.parse_point("q16") == (15, 15)
    for bad in ("I5", "Z3", "A0", "A20", "", "44"):
        with pytest.raises(IllegalMove):
            P.parse_point(bad)


def test_notation_placement_canonical_sorted_by_column_then_row_and_tolerant_input() -> None:
    game = play_all(P.new_game(size=9), "OPEN 1, 2")
    game.play("e4,d4")
    assert game.moves == ["open 1 2", "D4 E4"]
    game.play("  c1 a1   B1 ")
    assert game.moves[-1] == "A1 B1 C1"
    game.play("Roll 3")
    game.play("A9A8B9")  # no separators at all
    assert game.moves[-1] == "A8 A9 B9"


def test_notation_legal_moves_sorted_plain_string_sort_without_duplicates() -> None:
    game = play_all(P.new_game(size=19), "open 5 6")
    legal = game.legal_moves()
    assert legal == sorted(legal)
    assert len(legal) == len(set(legal))
    # an L-tetromino fits 8 orientations x 17 x 18 positions on the empty board
    assert len(legal) == 8 * 17 * 18


# ---------------------------------------------------------------------------------------- dice and blocks


def test_blocks_table_is_the_rulings_table() -> None:
    sizes = {face: [len(shape) for shape in P.BLOCKS[face][1]] for face in range(1, 7)}
    assert sizes == {1: [2], 2: [3], 3: [3], 4: [4], 5: [4, 4], 6: [4, 4]}
    game = P.new_game(size=9)
    assert game.blocks_for(2) == [[(0, 0), (1, 0), (2, 0)]]
    assert len(game.blocks_for(5)) == 2 and len(game.blocks_for(6)) == 2


@pytest.mark.parametrize(("face", "orientations"), [(1, 2), (2, 2), (3, 4), (4, 2), (5, 8), (6, 4)])
def test_blocks_turn_but_never_mirror_except_or_faces(face: int, orientations: int) -> None:
    # on an empty 9x9 board each orientation spanning w x h points fits (10 - w) * (10 - h) times
    legal = P._geometry(9).placements[face]
    shapes = {P._rotate(shape, turn) for shape in P.BLOCKS[face][1] for turn in P.TURNS}
    assert len(shapes) == orientations
    expected = sum((9 - max(c for c, _ in s)) * (9 - max(r for _, r in s)) for s in shapes)
    assert len(legal) == expected


def test_bent_three_is_not_mirrored_but_all_four_turns_are_allowed() -> None:
    game = play_all(P.new_game(size=9), "open 3 5")  # Black starts with a bent three
    legal = set(game.legal_moves())
    assert {"D4 D5 E4", "D4 E4 E5", "D5 E4 E5", "D4 D5 E5"} <= legal
    assert "D4 E4 F4" not in legal


def test_s_face_offers_s_and_z() -> None:
    game = play_all(P.new_game(size=9), "open 6 1", "A1 B1")  # White domino first, then Black's 6
    legal = set(game.legal_moves())
    assert "D4 E4 E5 F5" in legal  # S
    assert "D5 E4 E5 F4" in legal  # Z
    assert "D4 E4 F4 F5" not in legal


# ------------------------------------------------------------------------------------- chance and order


def test_engine_never_draws_random_numbers() -> None:
    source = inspect.getsource(P)
    assert "import random" not in source and "secrets" not in source


def test_opening_lists_the_30_open_moves_with_different_dice() -> None:
    game = P.new_game(size=9)
    assert game.chance and game.turn is None and game.to_roll is None and game.die is None
    legal = game.legal_moves()
    assert len(legal) == 30
    assert "open 3 3" not in legal and "open 1 2" in legal and "open 2 1" in legal


def test_opening_equal_dice_are_illegal() -> None:
    game = P.new_game(size=9)
    with pytest.raises(IllegalMove, match="different"):
        game.play("open 3 3")
    assert game.moves == []


def test_opening_lower_die_moves_first_with_own_die() -> None:
    game = play_all(P.new_game(size=9), "open 5 2")  # Black 5, White 2: White starts
    assert game.first_player == 1
    assert game.turn == 1 and game.die == 2 and not game.chance
    game.play("A1 B1 C1")
    assert game.turn == 0 and game.die == 5  # Black's first placement uses Black's own opening die
    game.play("E1 E2 E3 F1")
    assert game.chance and game.turn is None and game.die is None
    assert game.to_roll == 1  # the first player rolls next
    assert game.legal_moves() == [f"roll {n}" for n in range(1, 7)]


def test_roll_before_each_later_placement() -> None:
    game = play_all(P.new_game(size=9), "open 1 2", "A1 B1", "A3 B3 C3")
    with pytest.raises(IllegalMove, match="Roll the die first"):
        game.play("E5 E6")
    game.play("roll 4")
    assert game.turn == 0 and game.die == 4
    with pytest.raises(IllegalMove, match="already been rolled"):
        game.play("roll 2")
    game.play("E5 E6 E7 E8")
    assert game.to_roll == 1


def test_placement_at_opening_point_is_refused() -> None:
    game = P.new_game(size=9)
    with pytest.raises(IllegalMove, match="opening dice"):
        game.play("D4 E4")
    with pytest.raises(IllegalMove, match=r"Roll the die first|opening"):
        game.placement_from_anchor("D4")


# ------------------------------------------------------------------------------------ placements checks


def test_placement_on_taken_point_is_illegal_and_named() -> None:
    game = play_all(P.new_game(size=9), "open 1 2", "D4 E4")
    before = snapshot(game)
    with pytest.raises(IllegalMove, match=r"^D4 is already taken\.$"):
        game.play("C4 D4 B4")
    assert snapshot(game) == before


def test_placement_of_wrong_shape_names_the_block() -> None:
    game = play_all(P.new_game(size=9), "open 1 2", "D4 E4")
    before = snapshot(game)
    with pytest.raises(IllegalMove, match=r"do not form the rolled block \(a straight line of 3\)"):
        game.play("A1 B1 B2")
    with pytest.raises(IllegalMove, match="has 3 stones; you listed 2"):
        game.play("A1 B1")
    with pytest.raises(IllegalMove, match="not on the 9x9 board"):
        game.play("K1 L1 M1")
    with pytest.raises(IllegalMove, match="only once"):
        game.play("A1 A1 B1")
    with pytest.raises(IllegalMove):
        game.play("hello")
    assert snapshot(game) == before


def test_placement_from_anchor_turns_clockwise_and_anchors_lowest_then_leftmost_point() -> None:
    game = play_all(P.new_game(size=9), "open 3 5")  # Black: bent three
    assert game.placement_from_anchor("D4") == "D4 D5 E4"
    assert game.placement_from_anchor("D4", 90) == "D4 D5 E5"
    assert game.placement_from_anchor("D4", 180) == "C5 D4 D5"  # anchor is the lower-right stone
    assert game.placement_from_anchor("D4", "270") == "D4 E4 E5"
    with pytest.raises(IllegalMove, match="no mirror"):
        game.placement_from_anchor("D4", 0, mirror=True)
    with pytest.raises(IllegalMove, match="leave the board"):
        game.placement_from_anchor("J9")
    with pytest.raises(IllegalMove, match="0, 90, 180 or 270"):
        game.placement_from_anchor("D4", 45)
    with pytest.raises(IllegalMove):
        game.placement_from_anchor("Z4")


def test_placement_from_anchor_mirror_picks_second_shape_on_or_faces() -> None:
    game = play_all(P.new_game(size=9), "open 5 1", "A9 B9")  # White domino, then Black's 5
    assert game.placement_from_anchor("D4") == "D4 D5 D6 E4"  # L
    assert game.placement_from_anchor("D4", mirror=True) == "D4 E4 E5 E6"  # J
    for turn in P.TURNS:
        for mirror in (False, True):
            assert game.placement_from_anchor("D4", turn, mirror) in game.legal_moves()


# -------------------------------------------------------------------------------------------- polygons


def test_polygon_smallest_is_ring_of_8_with_territory_1() -> None:
    polygon = P.polygon_from_points(ring("D4", "E4", "F4", "D5", "F5", "D6", "E6", "F6"), 9)
    assert polygon is not None
    assert polygon["stones"] == ["D4", "D5", "D6", "E4", "E6", "F4", "F5", "F6"]
    assert polygon["territory"] == ["E5"]
    assert polygon["score"] == 10
    assert polygon["outline"] == [(3, 3), (5, 3), (5, 5), (3, 5)]


def test_polygon_seven_stones_do_not_make_a_polygon() -> None:
    assert P.polygon_from_points(["D4", "E4", "F4", "D5", "F5", "D6", "E6"], 9) is None


def test_polygon_diagonal_links_are_no_walls() -> None:
    assert P.polygon_from_points(["E4", "D5", "F5", "E6", "D4", "F6", "D6"], 9) is None
    assert P.polygon_from_points(["E3", "D4", "F4", "C5", "G5", "D6", "F6", "E7"], 9) is None


def test_polygon_two_loops_sharing_a_one_stone_wall_score_as_one() -> None:
    # rows 4..6, columns D..H: outer ring plus the wall F5 between the two loops
    stones = ["D4", "E4", "F4", "G4", "H4", "D6", "E6", "F6", "G6", "H6", "D5", "F5", "H5"]
    polygon = P.polygon_from_points(stones, 9)
    assert polygon is not None
    assert polygon["territory"] == ["E5", "F5", "G5"]  # the wall stone counts as territory
    assert len(polygon["stones"]) == 12 and "F5" not in polygon["stones"]
    assert polygon["score"] == 12 + 2 * 3


def test_polygon_tail_is_discarded_outside_and_counts_as_territory_inside() -> None:
    base = ["D4", "E4", "F4", "D5", "F5", "D6", "E6", "F6"]
    with_tail = P.polygon_from_points([*base, "G4", "H4", "H3"], 9)
    assert with_tail is not None and with_tail["score"] == 10 and "G4" not in with_tail["stones"]
    # a 5x5 ring (B2..F6) with a tail C4 sticking in from its wall
    big = [f"{c}{r}" for c in "BCDEF" for r in (2, 6)] + [f"{c}{r}" for c in "BF" for r in (3, 4, 5)]
    inner = P.polygon_from_points([*big, "C4"], 9)
    assert inner is not None
    assert len(inner["stones"]) == 16 and len(inner["territory"]) == 9 and "C4" in inner["territory"]


def test_polygon_solid_lump_is_no_polygon() -> None:
    lump = [f"{c}{r}" for c in "CDEF" for r in range(3, 7)]
    assert P.polygon_from_points(lump, 9) is None


def test_polygon_lump_inside_a_loop_is_a_filled_hole_counted_as_territory() -> None:
    wall = [f"{c}{r}" for c in "ABCDEFG" for r in (1, 7)] + [f"{c}{r}" for c in "AG" for r in range(2, 7)]
    lump = [f"{c}{r}" for c in "CDE" for r in (3, 4, 5)]
    polygon = P.polygon_from_points(wall + lump, 9)
    assert polygon is not None
    assert len(polygon["stones"]) == 24 and len(polygon["territory"]) == 25
    assert "D4" in polygon["territory"]


def test_polygon_loops_touching_only_at_a_corner_are_separate() -> None:
    small = ["A1", "B1", "C1", "A2", "C2", "A3", "B3", "C3"]  # around B2
    larger = ["C3", "D3", "E3", "C4", "E4", "C5", "E5", "C6", "D6", "E6"]  # around D4 and D5, shares C3
    polygon = P.polygon_from_points(small + larger, 9)
    assert polygon is not None
    assert polygon["territory"] == ["D4", "D5"]  # the larger one, not a merged one
    assert polygon["score"] == 10 + 4


def test_polygon_two_stone_thick_wall_parts_two_loops() -> None:
    left = ["A1", "B1", "C1", "A2", "C2", "A3", "B3", "C3"]
    right = ["D1", "E1", "F1", "D2", "F2", "D3", "E3", "F3"]
    polygon = P.polygon_from_points(left + right, 9)
    assert polygon is not None
    assert len(polygon["territory"]) == 1 and polygon["score"] == 10


def test_polygon_board_edge_cannot_close_a_loop_but_stones_on_it_can() -> None:
    assert P.polygon_from_points(["C1", "C2", "C3", "B3", "A3"], 9) is None  # corner pocket
    assert P.polygon_from_points(["A4", "B4", "C4", "C3", "C2", "C1", "A1", "B1"], 9) is None  # open at A2..A3
    on_edge = P.polygon_from_points(["A1", "B1", "C1", "A2", "C2", "A3", "B3", "C3"], 9)
    assert on_edge is not None and on_edge["territory"] == ["B2"]


def test_polygon_best_by_territory_then_stones() -> None:
    # left: territory 2 in a 3x4 ring (10 stones); right: territory 2 on a diagonal (12 stones)
    three_by_four = ["A1", "A2", "A3", "A4", "B1", "B4", "C1", "C2", "C3", "C4"]
    diagonal = [f"{c}{r}" for c in "EFGH" for r in range(1, 5)]
    diagonal = [p for p in diagonal if p not in ("H1", "E4", "F2", "G3")]
    polygon = P.polygon_from_points(three_by_four + diagonal, 9)
    assert polygon is not None
    assert polygon["territory"] == ["F2", "G3"] and len(polygon["stones"]) == 12 and polygon["score"] == 16


# ------------------------------------------------------------------------------- finishing and scoring


def test_finishing_fixes_polygon_with_opponent_stones_as_territory_and_bonus() -> None:
    game = play_all(P.new_game(size=9), *BLACK_FINISHES)
    assert game.finished == (True, False)
    polygon = game.polygon(0)
    assert polygon is not None
    assert polygon["territory"] == ["E5", "E6"] and game.stone("E5") == 1
    assert polygon["score"] == 10 + 2 * 2
    assert game.scores() == (14 + 4, 0)  # 4-point bonus for finishing first
    assert not game.is_over and game.to_roll == 1 and game.extra_turns_left == 2


def test_finisher_opponent_gets_exactly_two_extra_turns_then_first_finisher_wins() -> None:
    game = play_all(P.new_game(size=9), *BLACK_FINISHES, "roll 1", "A7 B7")
    assert game.extra_turns_left == 1 and game.to_roll == 1  # the finisher takes no more turns
    game.play("roll 2")
    assert game.turn == 1
    game.play("A9 B9 C9")
    assert game.is_over and game.turn is None and game.legal_moves() == []
    assert game.extra_turns_left == 0
    assert game.result() == Result(0, (18, 0), "finish")


def test_opponent_finishing_in_extra_turn_ends_at_once_and_higher_score_wins() -> None:
    white = ("open 1 4", "D4 E4", "A5 A6 A7 A8", "roll 1", "F4 F5", "roll 2", "A9 B9 C9")
    black = ("roll 1", "D5 D6", "roll 4", "C5 C6 C7 C8", "roll 1", "E6 F6")  # Black's ring closes
    game = play_all(P.new_game(size=9), *white, *black)
    assert game.finished == (True, False) and game.scores() == (14, 0)
    game.play("roll 1")
    game.play("B4 B5")  # White's 3x5 ring: 12 stones, territory B6 B7 B8
    assert game.is_over
    assert game.polygon(1)["territory"] == ["B6", "B7", "B8"]  # type: ignore[index]
    assert game.result() == Result(1, (14, 18), "both-finished")


def test_both_finished_with_equal_scores_is_a_draw() -> None:
    moves = (
        "open 1 2",
        "D4 E4",
        "A6 A7 A8",
        "roll 1",
        "F4 F5",
        "roll 1",
        "A9 B9",
        "roll 1",
        "D5 D6",
        "roll 1",
        "B6 C6",
        "roll 1",
        "E6 F6",  # Black finishes: 10 + 4 bonus = 14
        "roll 1",
        "C7 C8",
        "roll 1",
        "C9 D9",  # White's 3x4 ring in the second extra turn: 10 + 2 x 2 = 14
    )
    game = play_all(P.new_game(size=9), *moves)
    assert game.result() == Result(None, (14, 14), "both-finished")


def test_result_before_the_end_is_value_error() -> None:
    game = play_all(P.new_game(size=9), "open 1 2")
    with pytest.raises(ValueError):
        game.result()


def _seed_where(size: int, wanted: str) -> tuple[P.PolygoGame, int]:
    """A random game (fixed seeds, so deterministic) whose record shows ``wanted``."""
    for seed in range(500):
        game = random_game(size, seed)
        replay = P.new_game(size=size)
        for index, move in enumerate(game.moves):
            if move == "pass":
                in_extra = replay.extra_turns_left is not None
                if (wanted == "extra-pass") == in_extra:
                    return game, index
            replay.play(move)
    raise AssertionError(f"no seed shows {wanted}")


def test_pass_is_the_only_legal_move_when_the_block_fits_nowhere() -> None:
    game, index = _seed_where(9, "pass")
    before = play_all(P.new_game(size=9), *game.moves[:index])
    assert before.legal_moves() == ["pass"]
    assert before.turn is not None and before.die is not None


def test_pass_is_illegal_while_the_block_fits() -> None:
    game = play_all(P.new_game(size=9), "open 1 2")
    with pytest.raises(IllegalMove, match="only pass"):
        game.play("pass")
    assert game.moves == ["open 1 2"]


def test_two_passes_in_a_row_one_by_each_player_is_a_draw() -> None:
    for seed in range(50):
        game = random_game(9, seed)
        if game.result().reason == "double-pass":
            break
    else:
        raise AssertionError("no double-pass game in 50 seeds")
    placements = [m for m in game.moves if not m.startswith(("roll", "open"))]
    assert placements[-2:] == ["pass", "pass"]
    assert game.result().winner is None and game.result().scores == (0, 0)
    assert game.finished == (False, False)


def test_pass_during_extra_turns_uses_up_a_turn_and_never_draws() -> None:
    game, index = _seed_where(9, "extra-pass")
    before = play_all(P.new_game(size=9), *game.moves[:index])
    left = before.extra_turns_left
    assert left in (1, 2)
    before.play("pass")
    if left == 2:
        assert before.extra_turns_left == 1 and not before.is_over
    else:
        assert before.is_over
    assert game.result().reason in ("finish", "both-finished")


# ------------------------------------------------------------------------------------------ extra API


def test_extra_api_stone_last_block_die_and_polygon_none_before_finishing() -> None:
    game = play_all(P.new_game(size=9), "open 2 4", "C3 D3 E3")
    assert game.stone("D3") == 0 and game.stone((3, 2)) == 0 and game.stone("D4") is None
    assert game.last_block == ["C3", "D3", "E3"]
    assert game.die == 4 and game.turn == 1
    assert game.polygon(0) is None and game.polygon(1) is None
    assert game.extra_turns_left is None and game.scores() == (0, 0)


# ------------------------------------------------------------------------------------ property tests


def _drive(data: st.DataObject, size: int, limit: int) -> P.PolygoGame:
    """Hypothesis picks every move, chance outcomes included."""
    game = P.new_game(size=size)
    while not game.is_over and len(game.moves) < limit:
        legal = game.legal_moves()
        assert legal, "no legal moves before the end"
        assert legal == sorted(set(legal))
        game.play(legal[data.draw(st.integers(0, len(legal) - 1), label="move")])
    return game


PROPERTY = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@PROPERTY
@given(st.data())
def test_property_9x9_games_end_within_bound_with_moves_until_the_end(data: st.DataObject) -> None:
    game = _drive(data, 9, 1000)
    assert game.is_over  # 81 points: at most ~40 placements, each with a roll and maybe passes
    assert game.legal_moves() == []
    result = game.result()
    assert result.reason in ("finish", "both-finished", "double-pass")
    assert result.scores == game.scores()
    for player in (0, 1):
        polygon = game.polygon(player)
        if polygon is not None:
            assert polygon["score"] == len(polygon["stones"]) + 2 * len(polygon["territory"])
            assert all(game.stone(name) == player for name in polygon["stones"])
