"""The courses of /<game> learn against the engines: every position is reachable, every step has its answer, and
what the lessons say about a position is what the engine does there."""

from __future__ import annotations

import pytest

import games
from engines import iago, isaac, polygo
from lessons import DONE, NOT_LEGAL, NOT_THE_ANSWER, Course, Place, course_at
from lessons.iago import COURSE as IAGO
from lessons.isaac import COURSE as ISAAC
from lessons.polygo import COURSE as POLYGO
from locales import catalogue, tr

COURSES = {entry.name: course_at(entry.course) for entry in games.entries() if entry.course is not None}
PLACES = [
    pytest.param(name, Place(lesson.key, number), id=f"{name}-{lesson.key}-{number + 1}")
    for name, course in COURSES.items()
    for lesson in course.lessons
    for number in range(len(lesson.steps))
]


def test_every_shipped_game_has_a_course_named_by_its_entry() -> None:
    assert set(COURSES) == {"iago", "isaac", "polygo"}
    assert COURSES["iago"] is IAGO and COURSES["isaac"] is ISAAC and COURSES["polygo"] is POLYGO


@pytest.mark.parametrize(("game", "place"), PLACES)
def test_each_step_is_a_reachable_position_with_a_right_answer_among_its_choices(game: str, place: Place) -> None:
    course = COURSES[game]
    step = course.step(place)
    # Reachable: the step's moves replay from a new game through the engine contract, one legal move at a time.
    state = games.find(game).new_game(**course.options(place))
    for move in step.moves:
        assert move in state.legal_moves(), f"{move} is not legal after {state.moves}"
        state.play(move)
    assert state.to_dict() == course.position(place).to_dict()
    assert not state.is_over and not state.chance and state.turn is not None  # a player is to move
    right = course.right_moves(place)
    assert right, "no legal move answers this step"
    choices = course.choices(place)
    assert 2 <= len(choices) <= 25 and len(set(choices)) == len(choices)
    assert any(course.judge(place, choice).correct for choice in choices)
    for choice in choices:
        judged = course.judge(place, choice)
        legal = choice in state.legal_moves()
        assert judged.correct == (legal and choice in right)
        if not legal:  # a refused choice is there to teach: the engine's own reason is said first
            assert judged.said[0][0] == NOT_LEGAL
        for message, params in judged.said:
            assert tr("en", message, **params) and tr("ja", message, **params)  # every placeholder is filled
    for move in right:
        assert course.judge(place, move).correct


@pytest.mark.parametrize(("game", "place"), PLACES)
def test_a_step_with_wrong_legal_moves_offers_one_and_explains_it_beyond_the_generic_words(
    game: str, place: Place
) -> None:
    course = COURSES[game]
    state = course.position(place)
    right = course.right_moves(place)
    tempting = [m for m in course.choices(place) if m in state.legal_moves() and m not in right]
    if len(right) == len(state.legal_moves()):  # every legal move is right: the refused choices teach instead
        assert any(m not in state.legal_moves() for m in course.choices(place))
        return
    assert tempting, "the menu offers no wrong move to learn from"
    judged = course.judge(place, tempting[0])
    assert not judged.correct
    assert any(message != NOT_THE_ANSWER for message, _ in judged.said)


def test_positions_are_fresh_copies_so_a_judged_answer_changes_no_lesson() -> None:
    place = Place("capture")
    before = IAGO.position(place).to_dict()
    IAGO.position(place).play("D6")
    IAGO.judge(place, "D6")
    assert IAGO.position(place).to_dict() == before


def test_places_run_through_every_step_to_done_and_unknown_places_fall_back() -> None:
    place = IAGO.start()
    seen = []
    while not place.done:
        seen.append(place)
        place = IAGO.after(place)
    assert len(seen) == sum(len(lesson.steps) for lesson in IAGO.lessons)
    assert place.lesson == DONE and IAGO.valid(place) == place
    assert IAGO.valid(Place("no-such-lesson", 2)) == IAGO.start()  # an old button after the course changed
    assert IAGO.valid(Place("variants", 9)) == Place("variants")
    with pytest.raises(ValueError, match="distinct keys"):
        Course(engine=iago, lessons=(*IAGO.lessons, IAGO.lessons[0]), welcome="w", farewell="f")


def test_every_message_of_every_course_is_translated() -> None:
    known = catalogue("ja")
    missing = [message for course in COURSES.values() for message in course.messages() if message not in known]
    assert missing == []


# --- what the lessons say is what the engine does -------------------------------------------------------------


def test_iago_forced_capture_takes_the_most_and_a_smaller_capture_is_refused_with_the_counts() -> None:
    """Rule: if you can capture you must, on a cell that captures the most disks."""
    place = Place("most")
    state = IAGO.position(place)
    assert state.legal_moves() == ["F5"] and state.forced_capture() == 2
    judged = IAGO.judge(place, "E6")
    assert not judged.correct
    said = [tr("en", message, **params) for message, params in judged.said]
    assert said == [
        "**E6** is not a legal move here: You must capture 2 disks: play one of F5.",
        "**E6** would capture 1, but when you can capture you must take the most you can: **F5** captures 2.",
    ]


def test_iago_release_returns_each_captive_to_its_own_colour_even_for_the_opponent() -> None:
    """Rule: a release the placement makes always happens; a released captive returns to its original colour."""
    state = IAGO.position(Place("outer"))
    assert (state.cell("F6"), state.cell("G7")) == ("xL", "xD") and state.turn == 1
    state.play("E5")
    assert (state.cell("F6"), state.cell("G7")) == ("L", "D")
    release = IAGO.position(Place("release"))
    release.play("A2")
    assert release.cell("B2") == "D" and release.last_flips == (0, 1)


def test_iago_the_product_lesson_doubles_the_score_where_any_inner_cell_only_adds_one() -> None:
    """Rule: score = inner face-up disks x outer face-up disks."""
    state = IAGO.position(Place("product"))
    assert state.scores()[0] == 5
    after = {move: _played(state, move).scores()[0] for move in state.legal_moves()}
    assert after.pop("H4") == 12 and set(after.values()) == {6}


def test_iago_the_habit_lesson_leaves_light_nothing_to_capture_only_after_f4() -> None:
    state = IAGO.position(Place("habit"))
    assert [m for m in state.legal_moves() if not _played(state, m).forced_capture()] == ["F4"]


def test_iago_variants_loose_allows_skipping_simple_refuses_the_outer_ring_penalty_owes_a_call() -> None:
    loose, simple, penalty = (IAGO.position(Place("variants", n)) for n in range(3))
    assert loose.variant == "loose" and "D6" in loose.legal_moves() and "C3" in loose.legal_moves()
    assert simple.variant == "simple" and "A2" not in simple.legal_moves()
    assert penalty.variant == "penalty" and penalty.call_owed and "call A1" in penalty.legal_moves()


def test_isaac_the_end_of_placement_is_a_forced_pass_by_the_player_who_then_starts_scoring() -> None:
    state = ISAAC.position(Place("end"))
    assert state.phase == isaac.PLACEMENT and state.legal_moves() == ["pass"]
    state.play("pass")
    state.play("pass")
    assert state.phase == isaac.SCORING and state.turn == 0 and state.passed_first == 0


def test_isaac_a_counter_on_the_line_doubles_and_a_removal_must_be_as_long_as_the_longest_before() -> None:
    """Rules: points = pieces left on the line x value x 2 per counter on it; removals never get shorter."""
    state = ISAAC.position(Place("counters"))
    assert state.counter_square(1) == "d9" and state.removal_points("d4-d7") == 5 * 2 * 2
    assert state.scores()[0] == 12 and ISAAC.right_moves(Place("counters")) == ["x d4-d7 32"]
    assert state.min_removal_length(0) == 4 and not any("j6-j8" in m for m in state.legal_moves())


def test_isaac_the_clash_rule_forbids_exactly_the_opponents_square() -> None:
    """Rule: a counter may not stop on the square of the other counter (b + w = 99)."""
    state = ISAAC.position(Place("counters", 1))
    assert state.scores() == (57, 36) and state.removal_points("b2-h2") == 6
    removals = [m for m in state.legal_moves() if m.startswith("x b2-h2")]
    assert removals == [f"x b2-h2 {score}" for score in range(57, 63)]  # 63 would be White's square
    said = [tr("en", m, **p) for m, p in ISAAC.judge(Place("counters", 1), "x b2-h2 63").said]
    assert "Score 63 would put your counter on White's counter (square d7)." in said[0]


def test_isaac_reaching_100_ends_the_game_at_once_with_a_win() -> None:
    """Rule: a score of 100 or more ends the game immediately."""
    place = Place("hundred")
    state = ISAAC.position(place)
    assert state.scores()[0] == 70 and state.out == (False, True)
    assert (state.counter_square(0), state.counter_square(1)) == ("a8", "j8")  # both on rank 8, as the prompt says
    for move in ISAAC.right_moves(place):
        after = _played(ISAAC.position(place), move)
        assert after.is_over and after.result().winner == 0 and after.scores()[0] >= 100
    assert ISAAC.right_moves(place) == ["x d8-i8 100", "x d8-i8 101", "x d8-i8 102"]


def test_isaac_parking_on_whites_only_long_piece_puts_white_out() -> None:
    place = Place("parking")
    state = ISAAC.position(place)
    assert state.min_removal_length(1) == 6
    assert [span for span, owner in state.pieces() if owner == 1 and isaac.span_length(span) >= 6] == ["a1-a7"]
    for move in ISAAC.right_moves(place):
        assert move.endswith(" 40")  # square a5, on White's a1-a7
        after = _played(state, move)
        assert after.counter_square(0) == "a5" and after.piece_at("a5") == ("a1-a7", 1)
        assert after.legal_moves() == ["pass"]


def test_polygo_lessons_fix_the_dice_as_moves_of_the_record() -> None:
    for name in ("goal", "blocks", "polygon", "scoring", "last-turns", "gap"):
        state = POLYGO.position(Place(name))
        assert state.size == 9 and state.moves[0].startswith("open ") and state.die is not None
    assert POLYGO.position(Place("polygon")).moves[-1] == "roll 1"


def test_polygo_a_polygon_needs_something_inside_and_a_tail_does_not_count() -> None:
    """Rule: the loop must enclose a point; stones sticking out are not part of the polygon."""
    state = POLYGO.position(Place("polygon"))
    assert POLYGO.right_moves(Place("polygon")) == ["F5 G5"]
    closed = _played(state, "F5 G5")
    polygon = closed.polygon(0)
    assert polygon is not None and len(polygon["stones"]) == 8 and polygon["territory"] == ["E5"]
    assert "G5" not in polygon["stones"] and "C5" not in polygon["stones"]
    assert not _played(state, "E5 F5").finished[0]  # filling the inside leaves nothing enclosed


def test_polygo_the_last_turns_lesson_starts_in_whites_two_extra_turns() -> None:
    """Rule: after the first finish the other player has exactly two turns; if both finish, the higher wins."""
    state = POLYGO.position(Place("last-turns"))
    assert state.first_finisher == 1 and state.extra_turns_left == 2 and state.scores() == (0, 14)
    assert not POLYGO.judge(Place("last-turns"), "E4 E5").correct  # closes 14 against 14: a draw is no win
    assert _played(state, "E4 E5").result().winner is None


def test_polygo_the_tip_holds_every_die_face_closes_the_loop_in_the_tip_position() -> None:
    """The tip's claim: a last gap of one point with room beside it is closed by any roll."""
    ring = POLYGO.step(Place("gap")).moves[:-1]
    for face in range(1, 7):
        state = polygo.new_game(size=9)
        for move in (*ring, f"roll {face}"):
            state.play(move)
        assert any(_played(state, move).finished[0] for move in state.legal_moves()), face


def _played(state, move):  # type: ignore[no-untyped-def]
    after = state.copy()
    after.play(move)
    return after
