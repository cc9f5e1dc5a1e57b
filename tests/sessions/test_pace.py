"""When searches queue for the workers, each thinks less so the bot still answers in time (sessions/pace.py), and
a whole-game analysis shares one budget over the member's moves (sessions/thinking.py's judge). A fake clock
makes the schedule exact; nothing here measures time."""

from __future__ import annotations

from typing import Any

import pytest

import ai
import games
from cogs.presentation import game_text as present
from sessions import thinking
from sessions.model import Game, GameStatus, Report
from sessions.pace import LEAST, OVERHEAD, THINK_DEADLINE, USUAL, Pace


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_an_idle_pool_lets_every_search_think_its_own_time() -> None:
    clock = Clock()
    pace = Pace(2, clock)
    first, second = pace.book(None), pace.book(1.5)
    assert first.budget is None and second.budget == 1.5  # a worker each, no wait
    assert pace.waiting() == pytest.approx(1.5 + OVERHEAD)  # the second worker is free first
    clock.now += 2.0
    assert pace.book(30.0).budget == 30.0  # an operator's long budget stands while a worker is idle


def test_a_queue_shortens_the_searches_behind_it_to_meet_the_deadline() -> None:
    clock = Clock()
    pace = Pace(2, clock)
    bookings = [pace.book(None) for _ in range(20)]  # twenty members move against level 4 at once
    assert [b.budget for b in bookings[:2]] == [None, None]  # the first two find a worker idle
    for booking in bookings[2:]:
        assert booking.budget is not None and LEAST <= booking.budget < USUAL
        # over within the deadline, unless the queue is so long that it thinks the least there is
        assert booking.end - clock.now <= THINK_DEADLINE + 1e-9 or booking.budget == LEAST
    assert bookings[-1].budget == LEAST
    # the whole queue is done in about 2 x (level 4 + 9 of the least searches), not in 10 x level 4
    assert max(pace.free_at) - clock.now < USUAL + 10 * (LEAST + OVERHEAD) + OVERHEAD + 1e-9


def test_a_search_that_ends_early_gives_its_time_back() -> None:
    clock = Clock()
    pace = Pace(1, clock)
    first = pace.book(None)
    clock.now += 0.1  # a forced move, answered at once
    pace.done(first)
    assert pace.waiting() == 0.0
    assert pace.book(None).budget is None  # the next one thinks its own time


def test_a_search_that_finds_the_pool_busy_thinks_less_but_within_the_deadline() -> None:
    clock = Clock()
    pace = Pace(1, clock)
    pace.book(None)  # one level-4 search on the only worker: USUAL + OVERHEAD
    behind = pace.book(None)
    wait = USUAL + OVERHEAD
    assert behind.budget == pytest.approx(max(LEAST, THINK_DEADLINE - wait - OVERHEAD))
    assert pace.book(None, deadline=None).budget is None  # an analysis has no deadline: it waits its turn
    assert pace.book(0.02).budget == 0.02  # never more than the search would think anyway


@pytest.mark.parametrize("use", [1.0, 0.0])
def test_judge_shares_one_budget_over_the_members_moves_only(monkeypatch: pytest.MonkeyPatch, use: float) -> None:
    clock = Clock()
    budgets: list[float] = []

    def search(budget_s: float) -> None:
        budgets.append(budget_s)
        clock.now += use * budget_s  # a search uses its whole share (1.0) or ends at once (0.0)

    def analyse(state: Any, *, budget_s: float, game_ai: str) -> tuple[str, float]:
        search(budget_s)
        return state.legal_moves()[0], 0.0

    def evaluate(state: Any, player: int, *, budget_s: float, game_ai: str) -> float:
        search(budget_s)
        return -0.5

    monkeypatch.setattr(ai, "analyse_position", analyse)
    monkeypatch.setattr(ai, "evaluate", evaluate)
    monkeypatch.setattr(thinking.time, "perf_counter", clock)
    state = games.find("iago").new_game()
    for _ in range(10):
        state.play(state.legal_moves()[0])
    found = thinking.judge("engines.iago", "ai.iago", {}, state.moves, 4.0, side=1)
    assert [ply for ply, *_ in found] == [2, 4, 6, 8, 10]  # side 1 moves second: only its moves are judged
    assert all(drop == pytest.approx(0.5) for *_, drop in found)
    assert len(budgets) == 10  # two searches a move: before it, and after it
    if use:
        assert budgets == pytest.approx([0.4] * 10)  # equal shares of the game's budget, all of it used
    else:
        assert budgets[-1] == pytest.approx(4.0) and budgets == sorted(budgets)  # time not used passes on


def test_a_hurried_bot_move_says_so_in_english_and_japanese() -> None:
    state = games.find("iago").new_game()
    fields = dict.fromkeys(Game.__dataclass_fields__)
    fields.update(id=1, guild_id=1, channel_id=1, entry=games.find("iago"), options={}, players=(1, 2), challenger_id=1)
    fields.update(rated=False, status=GameStatus.ACTIVE, ply=0, created_at=0.0, ai_side=1, ai_level=4)
    game = Game(**fields)
    calm = present.report_text("en-US", Report(game, state, []))
    hurried = Report(game, state, [], hurried=True)
    assert "thought less" not in calm
    assert "Many games are running: I thought less than usual." in present.report_text("en-US", hurried)
    assert "いつもより短い時間で考えました" in present.report_text("ja", hurried)
