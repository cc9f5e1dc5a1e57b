"""Puzzles through the service: stored once, offered near the member's rating and never twice, solved step by step
with the bot's replies, explained when wrong, and rated once per attempt (member and puzzle); the daily puzzle
chosen, posted and revealed exactly once per day, whoever asks; finished games mined once."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from sqlalchemy import update

from puzzles.mining import Budgets, Puzzle, Step
from sessions.model import UserError, day_of
from sessions.model.puzzles import DAY
from sessions.service import GameService, Settings
from storage.database import Database
from storage.schema import puzzles
from tests.sessions.play import ALICE, BOB, CAROL, GUILD, Clock, play_to_end, start

DATA = Path(__file__).resolve().parent.parent / "data" / "puzzles.json"


def shipped_for_tests() -> list[Puzzle]:
    """Puzzles mined from the committed self-play records (tests/data/puzzles.json, bench/puzzles.py --ship)."""
    return [Puzzle.from_dict(item) for item in json.loads(DATA.read_text())["puzzles"]]


def two_step_puzzle() -> Puzzle:
    """A mined puzzle whose solution has a reply, if the data has one; else the first."""
    found = shipped_for_tests()
    return next((p for p in found if len(p.solution) >= 3), found[0])


async def test_a_position_is_stored_once(service: GameService) -> None:
    puzzle = shipped_for_tests()[0]
    assert await service.puzzle_mining.store([puzzle]) == 1
    assert await service.puzzle_mining.store([puzzle]) == 0
    assert await service.puzzles.count(GUILD, puzzle.game) == 1


async def test_a_member_solves_a_puzzle_with_the_bots_replies_and_both_ratings_move(service: GameService) -> None:
    puzzle = two_step_puzzle()
    await service.puzzle_mining.store([puzzle])
    view = await service.puzzles.start(GUILD, ALICE, puzzle.game)
    assert list(view.puzzle.solution) == list(puzzle.solution)
    assert view.state.moves == list(puzzle.moves) and view.state.turn == puzzle.solver
    answer = None
    for index in range(0, len(puzzle.solution), 2):
        answer = await service.puzzles.play(GUILD, ALICE, puzzle.game, puzzle.solution[index])
        assert answer.correct
        if index + 1 < len(puzzle.solution):  # the bot played the reply: the member is to move again
            assert answer.reply == puzzle.solution[index + 1]
            assert answer.view.state.moves[-1] == answer.reply and answer.view.state.turn == puzzle.solver
    assert answer is not None and answer.view.attempt.status == "solved"
    assert answer.rating is not None and answer.rating[1] > answer.rating[0] == 1500
    stored = await service.puzzles.rating(GUILD, puzzle.game, ALICE)
    assert stored is not None and stored.attempts == 1 and stored.solved == 1
    row = await service._db.puzzles.puzzle(view.puzzle.id)
    assert row is not None and row.mu < 1500 and row.attempts == 1 and row.solved == 1
    # Solved puzzles are not offered again to the member.
    with pytest.raises(UserError, match="tried every"):
        await service.puzzles.start(GUILD, ALICE, puzzle.game)


async def test_a_wrong_move_is_explained_not_played_and_rated_once_as_a_miss(service: GameService) -> None:
    puzzle = shipped_for_tests()[0]
    await service.puzzle_mining.store([puzzle])
    view = await service.puzzles.start(GUILD, BOB, puzzle.game)
    wrong = next(m for m in view.state.legal_moves() if m != puzzle.solution[0])
    answer = await service.puzzles.play(GUILD, BOB, puzzle.game, wrong)
    assert not answer.correct and answer.move == wrong
    assert answer.view.state.moves == view.state.moves  # not played
    assert answer.value is not None and -1.0 <= answer.value <= 1.0
    assert answer.rating is not None and answer.rating[1] < answer.rating[0]
    again = await service.puzzles.play(GUILD, BOB, puzzle.game, wrong)
    assert again.rating is None  # rated once, at the first mistake
    assert again.view.attempt.mistakes == 2
    # Finding the line after a mistake finishes the puzzle as failed, without rating it again.
    last = None
    for index in range(0, len(puzzle.solution), 2):
        last = await service.puzzles.play(GUILD, BOB, puzzle.game, puzzle.solution[index])
    assert last is not None and last.view.attempt.status == "failed" and last.rating is None
    stored = await service.puzzles.rating(GUILD, puzzle.game, BOB)
    assert stored is not None and stored.attempts == 1 and stored.solved == 0


async def test_an_illegal_move_or_none_open_is_refused_and_changes_nothing(service: GameService) -> None:
    puzzle = shipped_for_tests()[0]
    with pytest.raises(UserError, match="puzzle open"):
        await service.puzzles.play(GUILD, ALICE, puzzle.game, puzzle.solution[0])
    await service.puzzle_mining.store([puzzle])
    view = await service.puzzles.start(GUILD, ALICE, puzzle.game)
    with pytest.raises(UserError, match="not legal"):
        await service.puzzles.play(GUILD, ALICE, puzzle.game, "zz99")
    after = await service.puzzles.current(GUILD, ALICE, puzzle.game)
    assert after is not None and after.attempt == view.attempt


async def test_giving_up_shows_the_solution_and_counts_as_a_miss(service: GameService) -> None:
    puzzle = shipped_for_tests()[0]
    await service.puzzle_mining.store([puzzle])
    view = await service.puzzles.start(GUILD, ALICE, puzzle.game)
    with pytest.raises(UserError, match="someone else"):
        await service.puzzles.give_up(GUILD, BOB, view.attempt.id)
    ended, rating = await service.puzzles.give_up(GUILD, ALICE, view.attempt.id)
    assert ended.attempt.status == "failed" and rating is not None and rating[1] < rating[0]
    assert await service.puzzles.current(GUILD, ALICE, puzzle.game) is None


async def test_the_puzzle_offered_is_the_one_nearest_the_members_rating(service: GameService, db: Database) -> None:
    found = [p for p in shipped_for_tests() if p.game == shipped_for_tests()[0].game][:3]
    if len(found) < 3:
        pytest.skip("the committed data has fewer than three puzzles of one game")  # pragma: no cover
    await service.puzzle_mining.store(found)
    async with db.transaction() as connection:
        for mu, puzzle_id in zip((1200.0, 1500.0, 1900.0), (1, 2, 3), strict=True):
            await connection.execute(update(puzzles).where(puzzles.c.id == puzzle_id).values(mu=mu))
    assert (await service.puzzles.start(GUILD, ALICE, found[0].game)).puzzle.mu == 1500.0


async def test_the_daily_puzzle_is_posted_once_a_day_and_revealed_the_next(
    service: GameService, db: Database, clock: Clock
) -> None:
    found = shipped_for_tests()
    game = found[0].game
    await service.puzzle_mining.store(found)
    other = GameService(db, Settings(), clock=clock)  # a second process on the same database
    await service.server_settings.change(GUILD, ALICE, daily_puzzle=(game, 555, 9))
    clock.now = 100 * DAY + 8 * 3600  # before nine: nothing
    assert await service.daily_puzzles.due([GUILD]) == []
    clock.now = 100 * DAY + 9 * 3600 + 5
    first = await service.daily_puzzles.due([GUILD])
    assert await other.daily_puzzles.due([GUILD]) == []  # claimed: the other process posts nothing
    assert [job.kind for job in first] == ["post"] and first[0].channel_id == 555 and first[0].daily.day == 100
    assert await service.daily_puzzles.done(first[0], 777)
    assert await other.daily_puzzles.due([GUILD]) == [] and await service.daily_puzzles.due([GUILD]) == []
    # A member solves it privately; another misses it.
    puzzle = first[0].puzzle
    await service.puzzles.open_puzzle(GUILD, BOB, puzzle.id)
    for index in range(0, len(puzzle.solution), 2):
        await service.puzzles.play(GUILD, BOB, game, puzzle.solution[index])
    await service.puzzles.give_up(GUILD, CAROL, (await service.puzzles.open_puzzle(GUILD, CAROL, puzzle.id)).attempt.id)
    # The next day: yesterday's solution with who solved it, then a new puzzle the server has not seen.
    clock.now += DAY
    jobs = await other.daily_puzzles.due([GUILD])
    assert [job.kind for job in jobs] == ["reveal", "post"]
    assert jobs[0].puzzle.id == puzzle.id and jobs[0].solvers == (BOB,) and jobs[0].tried == 2
    assert jobs[1].puzzle.id != puzzle.id and jobs[1].daily.day == day_of(clock.now)
    for job in jobs:
        assert await other.daily_puzzles.done(job, 1)
    assert await service.daily_puzzles.due([GUILD]) == []


async def test_a_failed_post_is_released_and_tried_again(service: GameService, clock: Clock) -> None:
    found = shipped_for_tests()
    await service.puzzle_mining.store(found)
    await service.server_settings.change(GUILD, ALICE, daily_puzzle=(found[0].game, 555, 0))
    clock.now = 200 * DAY + 60
    job = (await service.daily_puzzles.due([GUILD]))[0]
    await service.daily_puzzles.failed(job)
    again = await service.daily_puzzles.due([GUILD])
    assert [j.puzzle.id for j in again] == [job.puzzle.id]


async def test_turning_the_daily_puzzle_off_and_a_bad_hour(service: GameService) -> None:
    game = shipped_for_tests()[0].game
    here = await service.server_settings.change(GUILD, ALICE, daily_puzzle=(game, 555, 9))
    assert here.daily_puzzles == {game: (555, 9)}
    with pytest.raises(UserError, match="hour"):
        await service.server_settings.change(GUILD, ALICE, daily_puzzle=(game, 555, 24))
    here = await service.server_settings.change(GUILD, ALICE, daily_puzzle=(game, None, 9))
    assert here.daily_puzzles == {}


async def test_a_finished_game_is_mined_once_by_one_claim(service: GameService, db: Database, clock: Clock) -> None:
    game_id = await start(service, "iago")
    await play_to_end(service, game_id)
    other = GameService(db, Settings(), clock=clock)
    fast = Budgets().scaled(0.005)
    service.puzzle_mining.budgets = fast
    claimed = await db.puzzle_mining.claim_game_to_mine(other.puzzle_mining.worker, clock.now, 60, 8)
    assert claimed is not None and claimed.id == game_id
    assert await service.puzzle_mining.mine_next() is None  # the other's claim holds
    clock.now += 61  # the other died: its lease lapses
    try:
        assert await service.puzzle_mining.mine_next() is not None
    finally:
        service.puzzle_mining.close()
    assert await service.puzzle_mining.mine_next() is None  # mined: never again
    assert await other.puzzle_mining.mine_next() is None
    # The other's late result is not stored: its claim was taken over.
    assert await db.puzzle_mining.finish_mining(game_id, other.puzzle_mining.worker, [], clock.now) is None


async def test_forgetting_a_member_deletes_their_puzzle_ratings(service: GameService) -> None:
    puzzle = shipped_for_tests()[0]
    await service.puzzle_mining.store([puzzle])
    view = await service.puzzles.start(GUILD, ALICE, puzzle.game)
    await service.puzzles.give_up(GUILD, ALICE, view.attempt.id)
    assert await service.puzzles.rating(GUILD, puzzle.game, ALICE) is not None
    await service.admin.forget_member(GUILD, ALICE, BOB)
    assert await service.puzzles.rating(GUILD, puzzle.game, ALICE) is None


def test_steps_keep_their_margin() -> None:
    assert Step("a", 0.9, "b", 0.2).margin == pytest.approx(0.7)
