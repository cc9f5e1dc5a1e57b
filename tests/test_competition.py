"""The pure tournament logic against hand-computed examples: Swiss pairings (Dutch system in spirit), the round
robin's circle, standings with Buchholz and Sonneborn-Berger, the clock and season boundaries; and, over many
random results, the promises a Swiss makes: no repeat pairing, sides within one of each other, one bye a round."""

from __future__ import annotations

import random
from datetime import UTC, datetime
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from competition import clock, round_robin, swiss
from competition.pairing import Pairing
from competition.season import add_months
from competition.standings import DRAW, LOSS, WIN, Outcome, shown, standings
from render.standings import StandingsPicture
from render.standings import render as render_standings
from sessions.drawing import Drawer


def entrants(count: int) -> list[swiss.Entrant]:
    return [swiss.Entrant(10 + rank, rank) for rank in range(count)]


def test_round_one_of_a_swiss_pairs_the_top_half_against_the_bottom_half_with_alternating_sides() -> None:
    # Dutch: 1 v 5, 2 v 6, 3 v 7, 4 v 8; the higher seed has side 0 on boards 1 and 3, side 1 on boards 2 and 4.
    assert swiss.pair_round(entrants(8)) == [Pairing(10, 14), Pairing(15, 11), Pairing(12, 16), Pairing(17, 13)]


def test_round_two_keeps_score_groups_and_transposes_to_balance_sides() -> None:
    # Round 1: 10 (side 0) beat 14, 11 (side 1) beat 15, 12 (side 0) beat 16, 13 (side 1) beat 17.
    played = {10: (14, 0, 2), 11: (15, 1, 2), 12: (16, 0, 2), 13: (17, 1, 2), 14: (10, 1, 0), 15: (11, 0, 0)}
    played |= {16: (12, 1, 0), 17: (13, 0, 0)}
    field = [
        swiss.Entrant(player, player - 10, score, frozenset({opponent}), (side,))
        for player, (opponent, side, score) in played.items()
    ]
    # The winners' group: 10 v 12 would give both side 0 twice, so the bottom half is transposed: 10 v 13, 11 v 12,
    # and the player who had side 1 takes side 0. Likewise among the losers: 14 v 17, 15 v 16.
    assert swiss.pair_round(field) == [Pairing(13, 10), Pairing(11, 12), Pairing(14, 17), Pairing(16, 15)]


def test_a_leader_floats_down_to_the_top_of_the_next_group_and_sides_follow_the_last_game() -> None:
    # After two rounds (ranks 1-7 = ids 1-7): 4 has 2 points; 2 and 3 have 1½ (they drew each other); 1, 5 and 7
    # have 1; 6 has 0. Every side count is even. 6 has the bye (lowest score). 4 floats down to the top of the
    # 1½ group, 2 (4 met 1 already); 3 then floats to the 1-point group, where 1 would repeat its side 1 and 7 was
    # met already: 3 v 5; 1 v 7 is left. Sides: 4 and 2 both had side 0 last, so the higher ranked (2) gets side
    # 1 this time; 3 and 1 had side 1 last, so they take side 0.
    history = {  # id: (score in half points, opponents, sides)
        1: (2, {5, 4}, (0, 1)),
        2: (3, {6, 3}, (1, 0)),
        3: (3, {7, 2}, (0, 1)),
        4: (4, {8, 1}, (1, 0)),
        5: (2, {1, 8}, (1, 0)),
        6: (0, {2, 7}, (0, 1)),
        7: (2, {3, 6}, (1, 0)),
    }
    field = [swiss.Entrant(p, p - 1, score, frozenset(met), sides) for p, (score, met, sides) in history.items()]
    assert swiss.pair_round(field) == [Pairing(4, 2), Pairing(3, 5), Pairing(1, 7), Pairing(6, None)]


def test_an_odd_field_gives_the_bye_to_the_lowest_ranked_player_of_the_lowest_score() -> None:
    assert swiss.pair_round([swiss.Entrant(player, player - 1) for player in range(1, 6)]) == [
        Pairing(1, 3),
        Pairing(4, 2),
        Pairing(5, None),
    ]
    # Later: the lowest score group gets it, and never a player who had one.
    field = [
        swiss.Entrant(1, 0, 2, frozenset({2})),
        swiss.Entrant(2, 1, 0, frozenset({1})),
        swiss.Entrant(3, 2, 1, frozenset({4})),
        swiss.Entrant(4, 3, 1, frozenset({3})),
        swiss.Entrant(5, 4, 2, frozenset(), byes=1),
    ]
    boards = swiss.pair_round(field)
    assert boards is not None and boards[-1] == Pairing(2, None)


def test_no_round_is_paired_when_every_pairing_would_repeat() -> None:
    assert swiss.pair_round([swiss.Entrant(1, 0, 2, frozenset({2})), swiss.Entrant(2, 1, 0, frozenset({1}))]) is None


def test_most_rounds_is_log2_of_the_players_rounded_up() -> None:
    assert [swiss.most_rounds(n) for n in (2, 3, 4, 5, 8, 9, 16, 17, 64)] == [1, 2, 2, 3, 3, 4, 4, 5, 6]


@settings(max_examples=120, deadline=None)
@given(players=st.integers(min_value=2, max_value=16), seed=st.integers(min_value=0, max_value=2**32))
def test_a_swiss_never_repeats_a_pairing_and_keeps_every_players_sides_within_one(players: int, seed: int) -> None:
    rng = random.Random(seed)
    score = dict.fromkeys(range(players), 0)
    met: dict[int, set[int]] = {player: set() for player in range(players)}
    sides: dict[int, list[int]] = {player: [] for player in range(players)}
    byes = dict.fromkeys(range(players), 0)
    for _ in range(swiss.most_rounds(players)):
        field = [
            swiss.Entrant(player, player, score[player], frozenset(met[player]), tuple(sides[player]), byes[player])
            for player in range(players)
        ]
        boards = swiss.pair_round(field)
        assert boards is not None
        seated = [player for board in boards for player in board.players]
        assert sorted(seated) == list(range(players))  # everyone plays once, or has the bye
        assert sum(board.is_bye for board in boards) == players % 2
        for board in boards:
            if board.player1 is None:
                assert byes[board.player0] == 0  # nobody gets a second bye
                byes[board.player0] += 1
                score[board.player0] += 2
                continue
            first, second = board.player0, board.player1
            assert second not in met[first]  # no repeat pairing
            met[first].add(second)
            met[second].add(first)
            sides[first].append(0)
            sides[second].append(1)
            points = rng.choice((0, 1, 2))
            score[first] += points
            score[second] += 2 - points
        for player in range(players):
            assert abs(sides[player].count(0) - sides[player].count(1)) <= 1, sides[player]


def test_a_round_robin_of_four_by_the_circle_method() -> None:
    assert round_robin.schedule([1, 2, 3, 4]) == [
        [Pairing(1, 4), Pairing(3, 2)],
        [Pairing(2, 1), Pairing(4, 3)],
        [Pairing(1, 3), Pairing(2, 4)],
    ]


def test_a_round_robin_of_five_gives_each_player_one_bye() -> None:
    rounds = round_robin.schedule([1, 2, 3, 4, 5])
    assert rounds[0] == [Pairing(5, 2), Pairing(4, 3), Pairing(1, None)]
    assert sorted(board.player0 for games in rounds for board in games if board.is_bye) == [1, 2, 3, 4, 5]
    assert round_robin.rounds_needed(5, 1) == 5 and round_robin.rounds_needed(5, 2) == 10


def test_every_round_robin_meets_everyone_once_a_leg_with_sides_within_one() -> None:
    for players in range(2, 41):
        for legs in (1, 2):
            rounds = round_robin.schedule(list(range(players)), legs)
            assert len(rounds) == round_robin.rounds_needed(players, legs)
            meetings: dict[frozenset[int], int] = {}
            balance = dict.fromkeys(range(players), 0)
            for games in rounds:
                seated = [player for board in games for player in board.players]
                assert sorted(seated) == list(range(players))
                for board in games:
                    if board.player1 is not None:
                        pair = frozenset(board.players)
                        meetings[pair] = meetings.get(pair, 0) + 1
                        balance[board.player0] += 1
                        balance[board.player1] -= 1
            assert len(meetings) == players * (players - 1) // 2 and set(meetings.values()) == {legs}
            assert max(abs(value) for value in balance.values()) <= (1 if legs == 1 else 0)


def test_standings_order_by_points_then_buchholz_and_a_bye_counts_a_point_but_no_opponent() -> None:
    # Five players, three rounds: 1 beat 2, 3 drew 4, 5 bye; 1 drew 3, 5 beat 2, 4 bye; 5 beat 1, 2 beat 4, 3 bye.
    outcomes = [
        Outcome(1, 2, WIN, LOSS),
        Outcome(3, 4, DRAW, DRAW),
        Outcome(5, None, WIN),
        Outcome(1, 3, DRAW, DRAW),
        Outcome(5, 2, WIN, LOSS),
        Outcome(4, None, WIN),
        Outcome(5, 1, WIN, LOSS),
        Outcome(2, 4, WIN, LOSS),
        Outcome(3, None, WIN),
    ]
    table = [
        (row.player, row.points, row.buchholz, row.sonneborn_berger) for row in standings([1, 2, 3, 4, 5], outcomes)
    ]
    # Worked by hand: 5 has 3 points (Buchholz 1 + 1½, S-B the same: it beat both); 3 has 2 (met 4 and 1, 1½ each;
    # drew both: ¾ + ¾); 1 and 4 have 1½, Buchholz 6 (2's 1, 3's 2, 5's 3) against 3 (3's 2, 2's 1); 2 has 1.
    assert table == [
        (5, 3, Fraction(5, 2), Fraction(5, 2)),
        (3, 2, 3, Fraction(3, 2)),
        (1, Fraction(3, 2), 6, 2),
        (4, Fraction(3, 2), 3, 1),
        (2, 1, 6, Fraction(3, 2)),
    ]


def test_sonneborn_berger_breaks_a_tie_buchholz_leaves() -> None:
    # a=1 beat b=2 and drew c=3, lost to d=4; d drew c, lost to b, beat a; c beat b. a and d: 1½ points and
    # Buchholz 4½ each; S-B: a beat b (1) and drew c (2 x ½) = 2; d drew c (1) and beat a (1½) = 2½.
    outcomes = [
        Outcome(1, 2, WIN, LOSS),
        Outcome(3, 4, DRAW, DRAW),
        Outcome(1, 3, DRAW, DRAW),
        Outcome(2, 4, WIN, LOSS),
        Outcome(4, 1, WIN, LOSS),
        Outcome(3, 2, WIN, LOSS),
    ]
    rows = standings([1, 2, 3, 4], outcomes)
    assert [(row.place, row.player) for row in rows] == [(1, 3), (2, 4), (3, 1), (4, 2)]
    assert (rows[1].buchholz, rows[1].sonneborn_berger) == (Fraction(9, 2), Fraction(5, 2))
    assert (rows[2].buchholz, rows[2].sonneborn_berger) == (Fraction(9, 2), 2)
    assert (rows[0].points, rows[0].buchholz, rows[0].sonneborn_berger) == (2, 4, Fraction(5, 2))


def test_players_level_on_everything_keep_their_seed_order_and_removed_players_are_marked() -> None:
    rows = standings([7, 3, 5], [Outcome(3, 5, DRAW, DRAW)], withdrawn=frozenset({5}))
    assert [row.player for row in rows] == [3, 5, 7]
    assert [row.withdrawn for row in rows] == [False, True, False]


def test_scores_are_written_as_players_write_them() -> None:
    assert [shown(Fraction(n, 4)) for n in (0, 2, 4, 9, 10, 12)] == ["0", "½", "1", "2¼", "2½", "3"]


def test_the_clock_reminds_with_a_quarter_of_the_time_left_at_most_twelve_hours_before() -> None:
    day = 86400
    assert clock.deadline(1000, day) == 1000 + day
    assert clock.reminder_at(0, day) == day - 6 * 3600
    assert clock.reminder_at(0, 7 * day) == 7 * day - 12 * 3600
    assert clock.reminder_at(0, 3600) == 2700
    assert not clock.flagged(0, day, day - 1) and clock.flagged(0, day, day)


def test_seasons_last_calendar_months() -> None:
    def at(year: int, month: int, day: int) -> float:
        return datetime(year, month, day, 12, tzinfo=UTC).timestamp()

    assert add_months(at(2025, 11, 15), 3) == at(2026, 2, 15)
    assert add_months(at(2025, 1, 31), 1) == at(2025, 2, 28)
    assert add_months(at(2024, 1, 31), 1) == at(2024, 2, 29)
    assert add_months(at(2025, 12, 1), 12) == at(2026, 12, 1)


async def test_the_pairing_and_the_standings_picture_run_in_a_drawing_worker_process() -> None:
    """Off the bot's event loop: a worker gets the players as data and sends the round (and the PNG) back."""
    drawer = Drawer(workers=1)
    try:
        await drawer.warm_up()
        assert await drawer.run(swiss.pair_round, entrants(8)) == swiss.pair_round(entrants(8))
        picture = StandingsPicture("Club", "Final standings", [("1", "アリス", "3", "4½", "3¼", "3-0-0")])
        png = await drawer.run(render_standings, picture, "ja")
        assert png.startswith(b"\x89PNG\r\n\x1a\n")
    finally:
        drawer.close()
