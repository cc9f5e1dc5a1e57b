"""Iago engine: one test per ruling in shared/rules/iago.md, the engine contract, and property tests.

Positions are built with ``IagoGame._from_position`` so that each ruling is checked on a handful of disks.
A small reference implementation written straight from the rulings (coordinates and dicts, no shared code)
replays random games next to the engine and compares legal moves, boards and results at every ply.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engines
from engines import IllegalMove, Result, iago
from engines.iago import CELLS, CENTRE, INNER, OUTER, IagoGame

VARIANTS = iago.OPTIONS["variant"]


def pos(cells: dict[str, str], turn: int = 0, variant: str = "standard", call_owed: bool = False) -> IagoGame:
    return IagoGame._from_position(cells, turn=turn, variant=variant, call_owed=call_owed)


def fill_inner(label: str, **overrides: str | None) -> dict[str, str]:
    """Every inner cell but the centre holding label, with some cells changed (None = left empty)."""
    cells = {name: label for name in INNER if name != CENTRE}
    for name, value in overrides.items():
        if value is None:
            cells.pop(name, None)
        else:
            cells[name] = value
    return cells


# --- reference implementation, straight from the rulings ------------------------------------------------

REF_ROWS = "ABCDEFGHI"
REF_DIRS = ((0, -1), (0, 1), (-1, -1), (-1, 0), (1, 0), (1, 1))
REF_ALL = [(a, b) for a in range(-4, 5) for b in range(-4, 5) if max(abs(a), abs(b), abs(a - b)) <= 4]


def ref_name(p: tuple[int, int]) -> str:
    return f"{REF_ROWS[p[0] + 4]}{p[1] + 5}"


def ref_dist(p: tuple[int, int]) -> int:
    return max(abs(p[0]), abs(p[1]), abs(p[0] - p[1]))


def ref_special(p: tuple[int, int]) -> bool:
    return ref_dist(p) == 4 or p == (0, 0)


def ref_flips(board: dict[tuple[int, int], str], c: tuple[int, int], player: int, release: bool) -> tuple[list, list]:
    me, opp = ("D", "L") if player == 0 else ("L", "D")
    captured: list = []
    released: list = []
    for da, db in REF_DIRS:
        run = []
        p = (c[0] + da, c[1] + db)
        if board.get(p) == opp:
            while board.get(p) == opp:
                run.append(p)
                p = (p[0] + da, p[1] + db)
            if board.get(p) == me:
                captured += run
        elif release and board.get(p, "").startswith("x"):
            while board.get(p, "").startswith("x"):
                run.append(p)
                p = (p[0] + da, p[1] + db)
            if board.get(p) == me and (ref_special(c) or ref_special(p)):
                released += run
    return captured, released


def ref_forced(board: dict, player: int) -> set[tuple[int, int]]:
    counts = {p: len(ref_flips(board, p, player, False)[0]) for p in REF_ALL if p not in board}
    best = max(counts.values(), default=0)
    return {p for p, n in counts.items() if n == best} if best else set()


def ref_legal(board: dict, player: int, variant: str, call_owed: bool) -> list[str]:
    empty = [p for p in REF_ALL if p not in board]
    if not any(ref_dist(p) <= 3 for p in empty):
        return []
    if variant in ("standard", "simple") and ref_forced(board, player):
        return sorted(ref_name(p) for p in ref_forced(board, player))
    release = variant != "simple"
    legal = set()
    for p in empty:
        cap, rel = ref_flips(board, p, player, release)
        if (ref_dist(p) <= 3 and p != (0, 0)) or (ref_special(p) and (cap or rel)):
            legal.add(p)
    if not legal and (0, 0) in empty:
        legal = {(0, 0)}
    names = {ref_name(p) for p in legal}
    if call_owed:
        names |= {f"call {ref_name(p)}" for p in empty}
    return sorted(names)


def ref_play(board: dict, move: str, player: int, variant: str) -> bool:
    """Apply a canonical move; returns whether the next player is owed a call."""
    cell = move.split()[-1]
    c = (REF_ROWS.index(cell[0]) - 4, int(cell[1]) - 5)
    owed = variant == "penalty" and not move.startswith("call")
    owed = owed and bool(ref_forced(board, player)) and c not in ref_forced(board, player)
    captured, released = ref_flips(board, c, player, variant != "simple")
    board[c] = "D" if player == 0 else "L"
    for p in captured:
        board[p] = "x" + board[p]
    for p in released:
        board[p] = board[p][1:]
    return owed


def ref_result(board: dict, variant: str) -> tuple[int, tuple[int, int], str]:
    def count(label: str, inner: bool) -> int:
        return sum(1 for p, v in board.items() if v == label and (ref_dist(p) <= 3) == inner)

    if variant == "simple":
        scores = tuple(count(s, True) + count(s, False) for s in "DL")
    else:
        scores = tuple(max(count(s, True), 1) * max(count(s, False), 1) for s in "DL")
    if scores[0] != scores[1]:
        return (0 if scores[0] > scores[1] else 1), scores, "score"
    centre = board[(0, 0)]
    winner = {"D": 0, "L": 1, "xD": 1, "xL": 0}[centre]
    return winner, scores, "centre"


def random_game(seed: int, variant: str) -> IagoGame:
    rng = random.Random(seed)
    game = iago.new_game(variant=variant)
    while not game.is_over:
        game.play(rng.choice(game.legal_moves()))
    return game


# --- board and notation ---------------------------------------------------------------------------------


def test_board_has_61_cells_named_like_abalone() -> None:
    assert len(CELLS) == 61 == len(set(CELLS))
    rows = {row: sorted(int(c[1]) for c in CELLS if c[0] == row) for row in "ABCDEFGHI"}
    assert rows["A"] == [1, 2, 3, 4, 5]
    assert rows["E"] == list(range(1, 10))
    assert rows["F"] == list(range(2, 10))
    assert rows["I"] == [5, 6, 7, 8, 9]
    assert list(CELLS) == sorted(CELLS)
    assert iago.cell_coords("A1") == (-4, -4)
    assert iago.cell_coords("e5") == (0, 0)


def test_outer_area_is_the_edge_ring_and_inner_area_includes_centre() -> None:
    assert len(OUTER) == 24
    assert len(INNER) == 37
    assert CENTRE == "E5" and CENTRE in INNER
    assert {"A1", "A5", "E1", "E9", "I5", "I9", "D1", "F9", "B6", "H4"} <= OUTER
    assert {"B2", "D2", "H8", "F2"} & OUTER == {"F2"}
    assert set(CELLS) == OUTER | INNER


def test_neighbours_of_centre_are_the_six_directions() -> None:
    # Dark on every second ring around E5, Light between: E5 captures in all six directions at once.
    light = ["E4", "E6", "D4", "D5", "F5", "F6"]
    dark = ["E3", "E7", "C3", "C5", "G5", "G7"]
    game = pos({**dict.fromkeys(light, "L"), **dict.fromkeys(dark, "D")})
    assert game.legal_moves() == ["E5"]
    game.play("E5")
    assert all(game.cell(c) == "xL" for c in light)
    assert game.last_flips == (6, 0)


def test_moves_are_case_insensitive_and_canonical_upper_case() -> None:
    game = iago.new_game()
    game.play(" d 4 ")
    assert game.moves == ["D4"]
    assert game.last_cell == "D4"
    assert all(m == m.upper() and len(m) == 2 for m in game.legal_moves())


# --- disks ----------------------------------------------------------------------------------------------


def test_dark_moves_first_and_players_alternate() -> None:
    game = iago.new_game()
    assert game.turn == 0 and iago.SIDES == ("Dark", "Light")
    game.play("D4")
    assert game.cell("D4") == "D"
    assert game.turn == 1
    game.play("D6")
    assert game.cell("D6") == "L"
    assert game.turn == 0


def test_at_most_61_placements_happen() -> None:
    for seed in range(30):
        game = random_game(seed, VARIANTS[seed % 4])
        assert game.is_over
        assert len(game.moves) <= 61


# --- flip actions ---------------------------------------------------------------------------------------


def test_capture_turns_the_bracketed_run_captive() -> None:
    game = pos({"D2": "D", "D3": "L", "D4": "L"})
    assert game.legal_moves() == ["D5"]
    game.play("D5")
    assert [game.cell(c) for c in ("D2", "D3", "D4", "D5")] == ["D", "xL", "xL", "D"]
    assert game.last_flips == (2, 0)


def test_capture_stopped_by_captive_or_empty_cell() -> None:
    with_captive = pos({"D2": "D", "D3": "L", "D4": "xD", "D5": "L"})
    assert "D6" in with_captive.legal_moves()  # no capture anywhere, so any inner cell is open
    with_captive.play("D6")
    assert with_captive.cell("D5") == "L"
    assert with_captive.last_flips == (0, 0)
    with_gap = pos({"D2": "D", "D3": "L", "D5": "L"})
    assert with_gap.legal_moves() == ["D4"]  # D6 would need to jump the empty D4


def test_release_needs_outer_or_centre_bracket() -> None:
    inner_only = pos({"D3": "D", "D4": "xL"})
    inner_only.play("D5")
    assert inner_only.cell("D4") == "xL"
    assert inner_only.last_flips == (0, 0)

    far_end_outer = pos({"D1": "D", "D2": "xL", "D3": "xL"})
    far_end_outer.play("D4")
    assert far_end_outer.cell("D2") == far_end_outer.cell("D3") == "L"
    assert far_end_outer.last_flips == (0, 2)

    placed_on_outer = pos({"D4": "D", "D3": "xL", "D2": "xL"})
    assert "D1" in placed_on_outer.legal_moves()
    placed_on_outer.play("D1")
    assert placed_on_outer.cell("D2") == "L"

    far_end_centre = pos({"E5": "D", "E6": "xL"})
    far_end_centre.play("E7")
    assert far_end_centre.cell("E6") == "L"

    placed_on_centre = pos({"E3": "D", "E4": "xL"})
    assert "E5" in placed_on_centre.legal_moves()
    placed_on_centre.play("E5")
    assert placed_on_centre.cell("E4") == "L"


def test_release_frees_captives_of_both_colours() -> None:
    game = pos({"D1": "D", "D2": "xL", "D3": "xD"})
    game.play("D4")
    assert game.cell("D2") == "L"
    assert game.cell("D3") == "D"
    by_light = pos({"D1": "L", "D2": "xD"}, turn=1)
    by_light.play("D3")
    assert by_light.cell("D2") == "D"  # a released Dark disk is Dark again, whoever released it


def test_release_stopped_by_face_up_disk() -> None:
    game = pos({"D1": "D", "D2": "xL", "D3": "L", "D4": "xL"})
    game.play("D5")
    assert game.cell("D4") == "xL"
    assert game.cell("D2") == "xL"
    assert game.last_flips == (0, 0)


def test_all_directions_are_applied_at_once() -> None:
    game = pos(
        {
            "D4": "D", "D3": "L",  # west: capture
            "D6": "xD", "D7": "xL", "D8": "L",  # east: release, D8 on the outer ring
            "E5": "D", "F5": "L",  # north: capture of the centre disk
            "C4": "D", "B3": "L",  # south-west: capture
        },
        turn=1,
    )  # fmt: skip
    assert "D5" in game.legal_moves()
    game.play("D5")
    assert [game.cell(c) for c in ("D4", "E5", "C4")] == ["xD", "xD", "xD"]
    assert game.cell("D6") == "D" and game.cell("D7") == "L"
    assert game.last_flips == (3, 2)


def test_release_is_carried_out_even_when_it_hurts() -> None:
    game = pos({"D1": "D", "D2": "xL"})
    game.play("D3")
    assert game.cell("D2") == "L"
    assert game.area_counts()["inner"] == (1, 1)


# --- legal placements -----------------------------------------------------------------------------------


def test_forced_capture_must_take_the_maximum() -> None:
    game = pos({"D2": "D", "D3": "L", "D4": "L", "B2": "D", "B3": "L"})
    assert game.legal_moves() == ["D5"]  # B4 captures only one
    before = game.to_dict()
    with pytest.raises(IllegalMove, match=r"You must capture 2 disks: play one of D5\."):
        game.play("B4")
    assert game.to_dict() == before


def test_forced_capture_may_be_on_outer_or_centre() -> None:
    game = pos({"D3": "D", "D2": "L", "G5": "D", "F5": "L"})
    assert game.legal_moves() == ["D1", "E5"]
    with pytest.raises(IllegalMove, match="You must capture 1 disk: play one of D1, E5"):
        game.play("D6")


def test_without_capture_any_inner_cell_but_the_centre() -> None:
    game = iago.new_game()
    assert game.legal_moves() == sorted(INNER - {CENTRE})
    with pytest.raises(IllegalMove, match="centre"):
        game.play("E5")
    with pytest.raises(IllegalMove, match="outer ring"):
        game.play("A1")


def test_outer_and_centre_only_where_the_placement_releases() -> None:
    game = pos({"D4": "D", "D3": "xL", "D2": "xL"})
    legal = game.legal_moves()
    assert "D1" in legal
    assert not (set(legal) & OUTER) - {"D1"}
    assert "E5" not in legal


def test_centre_exception_when_only_centre_left() -> None:
    for turn in (0, 1):
        game = pos(fill_inner("D"), turn=turn)
        assert game.legal_moves() == ["E5"]
        game.play("E5")
        assert game.is_over


def test_centre_exception_not_when_an_outer_cell_releases() -> None:
    game = pos(fill_inner("D", D2="xL"))
    assert game.legal_moves() == ["C1", "D1"]
    with pytest.raises(IllegalMove, match="centre"):
        game.play("E5")


def test_some_placement_is_always_legal_until_the_end() -> None:
    for seed in range(40):
        rng = random.Random(seed)
        game = iago.new_game(variant=VARIANTS[seed % 4])
        while not game.is_over:
            legal = game.legal_moves()
            assert legal
            game.play(rng.choice(legal))
        assert game.legal_moves() == []


# --- end and score --------------------------------------------------------------------------------------


def test_game_ends_right_after_the_last_inner_cell_is_filled() -> None:
    game = pos(fill_inner("D", D4="L", D5=None, E5="D"), turn=0)
    assert game.legal_moves() == ["D5"]
    game.play("D5")
    assert game.is_over and game.turn is None
    assert game.cell("D4") == "xL"  # the flips of the last placement happen before the end
    assert game.legal_moves() == []
    assert any(game.cell(c) is None for c in OUTER)
    before = game.to_dict()
    with pytest.raises(IllegalMove, match="over"):
        game.play("A1")
    assert game.to_dict() == before


def test_score_is_inner_times_outer_with_zero_counting_as_one() -> None:
    game = pos({"D2": "D", "D3": "D", "D4": "D", "A1": "D", "I9": "D", "F6": "L", "F7": "L", "E6": "xL"})
    assert game.scores() == (3 * 2, 2 * 1)
    assert game.area_counts() == {"inner": (3, 2), "outer": (2, 0), "captives": (0, 1)}
    assert pos({}).scores() == (1, 1)


def test_higher_score_wins() -> None:
    game = pos(fill_inner("D", D4="L", D5=None, E5="D"))
    game.play("D5")
    assert game.result() == Result(0, (36, 1), "score")
    with pytest.raises(ValueError):
        iago.new_game().result()


def tie_position(centre: str) -> IagoGame:
    """A finished position scored 2 x 1 against 2 x 1, with the given disk on the centre."""
    cells = fill_inner("xD", D2="D", F6="L")
    cells.update({"A1": "D", "I9": "L", "E5": centre})
    if centre not in ("D", "L"):
        cells.update({"D3": "D", "F7": "L"})  # a captive on the centre counts for nobody
    return pos(cells)


def test_tie_broken_by_face_up_disk_on_centre() -> None:
    light = tie_position("L")
    assert light.scores() == (1 * 1, 2 * 1)  # the centre counts in the inner area
    light_tie = pos({**{c: light.cell(c) for c in CELLS if light.cell(c)}, "D3": "D"})
    assert light_tie.result() == Result(1, (2, 2), "centre")
    dark_tie = pos({**{c: light.cell(c) for c in CELLS if light.cell(c)}, "E5": "D", "F7": "L"})
    assert dark_tie.result() == Result(0, (2, 2), "centre")


def test_tie_broken_by_captive_on_centre() -> None:
    assert tie_position("xL").result() == Result(0, (2, 2), "centre")
    assert tie_position("xD").result() == Result(1, (2, 2), "centre")


# --- variants -------------------------------------------------------------------------------------------


def test_loose_has_no_forced_capture() -> None:
    game = pos({"D2": "D", "D3": "L", "D4": "L", "B2": "D", "B3": "L"}, variant="loose")
    legal = game.legal_moves()
    assert {"B4", "D5", "F5"} <= set(legal)
    assert "E5" not in legal
    game.play("B4")
    assert game.cell("B3") == "xL"
    assert not game.call_owed


def test_loose_outer_and_centre_need_a_capture_or_release() -> None:
    game = pos({"D3": "D", "D2": "L", "G5": "D", "F5": "L", "I5": "D", "H5": "xL"}, variant="loose")
    legal = set(game.legal_moves())
    assert {"D1", "E5"} <= legal  # captures
    assert "I5" not in legal and "A1" not in legal
    release = pos({"D4": "D", "D3": "xL"}, variant="loose")
    assert (set(release.legal_moves()) & OUTER) == set()  # D2 is still empty
    release = pos({"D4": "D", "D3": "xL", "D2": "xL"}, variant="loose")
    assert set(release.legal_moves()) & OUTER == {"D1"}


def test_loose_keeps_the_centre_exception() -> None:
    game = pos(fill_inner("L"), variant="loose")
    assert game.legal_moves() == ["E5"]


def test_simple_has_no_release() -> None:
    game = pos({"D1": "D", "D2": "xL"}, variant="simple")
    game.play("D3")
    assert game.cell("D2") == "xL"
    assert game.last_flips == (0, 0)
    outer = pos({"D4": "D", "D3": "xL", "D2": "xL"}, variant="simple")
    assert "D1" not in outer.legal_moves()
    assert not set(outer.legal_moves()) & OUTER


def test_simple_forces_the_maximum_capture_and_allows_outer_captures() -> None:
    game = pos({"D2": "D", "D3": "L", "D4": "L", "B2": "D", "B3": "L"}, variant="simple")
    assert game.legal_moves() == ["D5"]
    outer = pos({"D3": "D", "D2": "L", "G5": "D", "F5": "L"}, variant="simple")
    assert outer.legal_moves() == ["D1", "E5"]


def test_simple_keeps_the_centre_exception() -> None:
    game = pos(fill_inner("D", C3="xL"), turn=1, variant="simple")
    assert game.legal_moves() == ["E5"]


def test_simple_scores_one_point_per_face_up_disk() -> None:
    game = pos({"D2": "D", "D3": "D", "A1": "D", "F6": "L", "E6": "xL", "E7": "xD"}, variant="simple")
    assert game.scores() == (3, 1)
    cells = fill_inner("xD", D2="D", F6="L")
    cells.update({"A1": "L", "E5": "xL"})
    finished = pos(cells, variant="simple")
    assert finished.result() == Result(1, (1, 2), "score")


def test_simple_tie_broken_by_centre() -> None:
    cells = fill_inner("xD", D2="D", F6="L")
    cells["E5"] = "xD"
    assert pos(cells, variant="simple").result() == Result(1, (1, 1), "centre")


def test_penalty_does_not_enforce_forced_capture_but_owes_a_call() -> None:
    game = pos({"D2": "D", "D3": "L", "D4": "L", "B2": "D", "B3": "L"}, variant="penalty")
    assert not game.call_owed
    assert not any(m.startswith("call") for m in game.legal_moves())
    assert {"B4", "D5", "F5"} <= set(game.legal_moves())
    game.play("B4")  # D5 captured more: the capture rule was broken
    assert game.call_owed
    legal = game.legal_moves()
    empty = [c for c in CELLS if game.cell(c) is None]
    assert [m for m in legal if m.startswith("call")] == sorted(f"call {c}" for c in empty)
    assert legal == sorted(legal)


def test_penalty_no_call_when_the_capture_rule_was_followed() -> None:
    game = pos({"D2": "D", "D3": "L", "D4": "L", "B2": "D", "B3": "L"}, variant="penalty")
    game.play("D5")
    assert not game.call_owed
    assert not any(m.startswith("call") for m in game.legal_moves())
    opening = iago.new_game(variant="penalty")
    opening.play("D4")  # nothing could be captured: nothing to call
    assert not opening.call_owed
    with pytest.raises(IllegalMove, match="nothing to call"):
        opening.play("call A1")


def test_penalty_call_places_anywhere_with_the_usual_flips() -> None:
    game = pos({"E7": "L", "E6": "xD", "G5": "D"}, turn=1, variant="penalty", call_owed=True)
    assert "A1" not in game.legal_moves() and "call A1" in game.legal_moves()
    game.play("CALL  e5")
    assert game.moves == ["call E5"]
    assert game.cell("E5") == "L"
    assert game.cell("E6") == "D"  # released: E5 is the centre
    assert game.last_flips == (0, 1)
    assert not game.call_owed  # later turns follow the normal rules
    assert not any(m.startswith("call") for m in game.legal_moves())


def test_penalty_call_lapses_when_not_taken() -> None:
    game = pos({"D2": "D", "D3": "L", "D4": "L", "B2": "D", "B3": "L"}, variant="penalty")
    game.play("B4")
    assert game.call_owed
    saved = {**game.to_dict(), "variant": "standard", "call_owed": False}
    required = iago.from_dict(saved).legal_moves()  # what standard rule 1 asks of Light
    assert "call D5" in game.legal_moves()
    game.play(required[0])  # Light follows the capture rule instead of calling
    assert not game.call_owed
    assert not any(m.startswith("call") for m in game.legal_moves())


def test_calls_are_refused_outside_the_penalty_variant() -> None:
    game = iago.new_game()
    with pytest.raises(IllegalMove, match="penalty"):
        game.play("call D4")


# --- contract -------------------------------------------------------------------------------------------


def test_registry_and_options() -> None:
    assert "iago" in engines.NAMES
    assert engines.get("iago") is iago
    assert iago.OPTIONS == {"variant": ("standard", "loose", "simple", "penalty")}
    assert iago.new_game().variant == "standard"
    with pytest.raises(ValueError, match="standard, loose, simple, penalty"):
        iago.new_game(variant="fast")
    with pytest.raises(ValueError, match="variant"):
        iago.new_game(size=9)
    game = iago.new_game(variant="loose")
    assert game.variant == "loose" and game.chance is False


def test_illegal_input_messages() -> None:
    game = iago.new_game()
    game.play("D4")
    cases = {
        "Q9": "Q9 is not a cell on the board.",
        "A9": "A9 is not a cell on the board.",
        "d4": "D4 is not empty.",
        "hello": "hello is not a move: name a cell such as E5.",
        "": "An empty move is not a move: name a cell such as E5.",
    }
    for move, message in cases.items():
        before = game.to_dict()
        with pytest.raises(IllegalMove) as info:
            game.play(move)
        assert str(info.value) == message
        assert game.to_dict() == before
    assert issubclass(IllegalMove, ValueError)


def test_extra_api_before_and_after_a_move() -> None:
    game = iago.new_game()
    assert game.last_flips is None and game.last_cell is None
    assert game.cell("E5") is None
    game.play("C3")
    assert game.last_flips == (0, 0) and game.last_cell == "C3"
    with pytest.raises(ValueError):
        game.cell("Z1")


# --- properties -----------------------------------------------------------------------------------------

FAST = settings(max_examples=150, deadline=None)


@FAST
@given(st.sampled_from(VARIANTS), st.randoms(use_true_random=False))
def test_random_games_end_within_61_placements_and_never_stall(variant: str, rng: random.Random) -> None:
    game = iago.new_game(variant=variant)
    while not game.is_over:
        legal = game.legal_moves()
        assert legal and legal == sorted(set(legal))
        assert game.turn in (0, 1)
        game.play(rng.choice(legal))
        assert len(game.moves) <= 61
    assert all(game.cell(c) is not None for c in INNER)
    result = game.result()
    assert result.winner in (0, 1)
    assert result.scores == game.scores()
    assert result.reason == ("score" if result.scores[0] != result.scores[1] else "centre")


def test_from_dict_rejects_bad_data() -> None:
    with pytest.raises(ValueError):
        iago.from_dict({"variant": "standard"})
    with pytest.raises(ValueError):
        iago.from_dict({**iago.new_game().to_dict(), "board": "x" * 61})


@FAST
@given(st.sampled_from(VARIANTS), st.randoms(use_true_random=False))
def test_engine_agrees_with_reference_rules_at_every_ply(variant: str, rng: random.Random) -> None:
    game = iago.new_game(variant=variant)
    board: dict = {}
    owed = False
    player = 0
    while True:
        expected = ref_legal(board, player, variant, owed)
        assert game.legal_moves() == expected
        if not expected:
            break
        # Prefer the rarer moves (outer cells, the centre, calls) so that every rule gets exercised.
        special = [m for m in expected if m.startswith("call") or m.split()[-1] in OUTER | {CENTRE}]
        move = rng.choice(special if special and rng.random() < 0.5 else expected)
        game.play(move)
        owed = ref_play(board, move, player, variant)
        player = 1 - player
        assert game.call_owed == (owed and not game.is_over)
        assert {c: game.cell(c) for c in CELLS if game.cell(c)} == {ref_name(p): v for p, v in board.items()}
    assert game.is_over
    assert tuple(game.result()) == ref_result(board, variant)
