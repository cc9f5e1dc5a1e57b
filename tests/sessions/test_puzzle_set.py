"""The shipped puzzle set through the service (issue 29): stored once for every registered game with its rating and
themes; puzzles picked by theme; "no puzzles yet" told apart from "you tried them all"; a tap's move checked against
the board it was picked on; streaks of rising difficulty that end at the first miss and are counted once whatever
the clicks; the daily puzzle drawn from the shipped set when a server has none of its own, never twice within a
year (a clock moved by hand)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
import sqlalchemy as sa

import games
from puzzles import shipped
from sessions.model import UserError, themes_of, title_of
from sessions.model.puzzles import DAY, PuzzleView
from sessions.puzzles.daily import REPEAT_DAYS
from sessions.puzzles.mining import shipped_row
from sessions.service import GameService
from storage.database import Database
from storage.schema import puzzles
from tests.sessions.play import ALICE, BOB, CAROL, GUILD, Clock

STREAK_GAME = "isaac"  # a shipped set with a spread of ratings and lines with the bot's replies


def by_rating(game: str) -> list[shipped.ShippedPuzzle]:
    """The game's shipped puzzles, one per rating (the lowest id of each), easiest first."""
    found: dict[int, shipped.ShippedPuzzle] = {}
    for puzzle in sorted(shipped.load(game), key=lambda p: p.id):
        found.setdefault(puzzle.rating, puzzle)
    return [found[rating] for rating in sorted(found)]


async def store(db: Database, found: list[shipped.ShippedPuzzle]) -> None:
    await db.puzzle_mining.store_shipped([shipped_row(p) for p in found], 0.0)


async def row_of(db: Database, key: str) -> Any:
    return await db.read(
        lambda connection: connection.execute(sa.select(puzzles).where(puzzles.c.position_key == key)).mappings().one()
    )


async def solve(service: GameService, user: int, view: PuzzleView) -> Any:
    """Play the solution's moves (the bot plays the replies); returns the last answer."""
    answer = None
    for index in range(view.attempt.step, len(view.puzzle.solution), 2):
        answer = await service.puzzles.play(GUILD, user, view.puzzle.game, view.puzzle.solution[index])
        assert answer.correct
    assert answer is not None
    return answer


def wrong_move(view: PuzzleView) -> str:
    return next(m for m in view.state.legal_moves() if m != view.expected)


async def test_every_games_shipped_set_is_stored_once_with_its_rating_and_themes(
    service: GameService, db: Database
) -> None:
    everything = [p for name in games.names() for p in shipped.load(name)]
    assert everything, "the bot ships puzzles"
    assert await service.puzzle_mining.load_shipped() == len(everything)
    assert await service.puzzle_mining.load_shipped() == 0  # a second start stores nothing again
    for name in games.names():
        assert await service.puzzles.count(GUILD, name) == len(shipped.load(name))
    first, second = everything[0], everything[-1]
    row = await row_of(db, first.position_key)
    assert (row["mu"], tuple(row["themes"]), row["guild_id"]) == (first.rating, first.themes, None)
    # A refreshed set: an untried puzzle takes its shipped rating and themes again; a tried one keeps its rating.
    async with db.transaction() as connection:
        for key, attempts in ((first.position_key, 0), (second.position_key, 3)):
            await connection.execute(
                sa.update(puzzles).where(puzzles.c.position_key == key).values(mu=1234.0, themes=[], attempts=attempts)
            )
    assert await service.puzzle_mining.load_shipped() == 0
    untried, tried = await row_of(db, first.position_key), await row_of(db, second.position_key)
    assert (untried["mu"], tuple(untried["themes"])) == (first.rating, first.themes)
    assert (tried["mu"], tuple(tried["themes"])) == (1234.0, second.themes)


async def test_no_puzzles_yet_is_told_apart_from_having_tried_them_all(service: GameService, db: Database) -> None:
    game = STREAK_GAME
    with pytest.raises(UserError) as refused:
        await service.puzzles.start(GUILD, ALICE, game)
    assert refused.value.message.startswith("There are no {title} puzzles here yet")
    assert refused.value.params["title"] == title_of(game)  # the title, translated where it is read
    await store(db, by_rating(game)[:1])
    view = await service.puzzles.start(GUILD, ALICE, game)
    await service.puzzles.give_up(GUILD, ALICE, view.attempt.id)
    with pytest.raises(UserError) as refused:
        await service.puzzles.start(GUILD, ALICE, game)
    assert refused.value.message.startswith("You have tried every {title} puzzle")
    with pytest.raises(UserError) as refused:
        await service.puzzles.play(GUILD, ALICE, game, "x a1-a2 3")
    assert refused.value.params == {"title": title_of(game), "game": game}


async def test_puzzles_are_picked_by_theme(service: GameService, db: Database) -> None:
    game = STREAK_GAME
    everything = shipped.load(game)
    counts = {theme: sum(theme in p.themes for p in everything) for theme in themes_of(game)}
    theme = min((t for t, n in counts.items() if 0 < n < len(everything)), key=lambda t: counts[t])
    without = [p for p in everything if theme not in p.themes]
    await store(db, without[:3])
    with pytest.raises(UserError) as refused:
        await service.puzzles.start(GUILD, ALICE, game, theme=theme)
    assert refused.value.message.startswith("There are no {title} puzzles with the theme {theme}")
    await store(db, everything)
    seen = set()
    for _ in range(counts[theme]):
        view = await service.puzzles.start(GUILD, ALICE, game, theme=theme)
        assert theme in view.puzzle.themes and view.puzzle.id not in seen
        seen.add(view.puzzle.id)
        await service.puzzles.give_up(GUILD, ALICE, view.attempt.id)
    with pytest.raises(UserError) as refused:
        await service.puzzles.start(GUILD, ALICE, game, theme=theme)
    assert refused.value.message.startswith("You have tried every {title} puzzle with the theme {theme}")
    assert (await service.puzzles.start(GUILD, ALICE, game)).puzzle.id not in seen  # without a theme: any other
    for forged in ("no-such-theme", ""):
        with pytest.raises(UserError, match="no such theme"):
            await service.puzzles.start(GUILD, ALICE, game, theme=forged)
    with pytest.raises(UserError, match="every theme"):
        await service.puzzles.start(GUILD, BOB, game, theme=theme, streak=True)


async def test_a_move_picked_on_an_outdated_board_is_refused_and_changes_nothing(
    service: GameService, db: Database
) -> None:
    puzzle = next(p for p in by_rating(STREAK_GAME) if len(p.solution) >= 3)
    await store(db, [puzzle])
    view = await service.puzzles.start(GUILD, ALICE, STREAK_GAME)
    first = await service.puzzles.play(GUILD, ALICE, STREAK_GAME, puzzle.solution[0], at=(view.attempt.id, 0))
    assert first.correct and first.view.attempt.step == 2
    with pytest.raises(UserError, match="out of date"):  # the first board again: the same move, a step behind
        await service.puzzles.play(GUILD, ALICE, STREAK_GAME, puzzle.solution[0], at=(view.attempt.id, 0))
    with pytest.raises(UserError, match="out of date"):
        await service.puzzles.play(GUILD, ALICE, STREAK_GAME, puzzle.solution[2], at=(view.attempt.id + 1, 2))
    after = await service.puzzles.current(GUILD, ALICE, STREAK_GAME)
    assert after is not None and after.attempt == first.view.attempt


async def test_a_streak_rises_ends_at_the_first_miss_and_is_counted_once(service: GameService, db: Database) -> None:
    game = STREAK_GAME
    await store(db, by_rating(game)[:6])
    view = await service.puzzles.start(GUILD, ALICE, game, streak=True)
    assert view.streak is not None and view.streak.open and view.streak.solved == 0
    streak_id, ratings = view.streak.id, [view.puzzle.mu]
    # /<game> puzzle gives the streak's open puzzle back.
    assert (await service.puzzles.start(GUILD, ALICE, game)).attempt.id == view.attempt.id
    for solved in (1, 2):
        done = await solve(service, ALICE, view)
        assert done.view.attempt.status == "solved" and done.view.streak.solved == solved and done.view.streak.open
        # Next in streak pressed twice at once: one next puzzle, rated higher than the last.
        first, second = await asyncio.gather(
            service.puzzles.streak(GUILD, ALICE, game), service.puzzles.streak(GUILD, ALICE, game)
        )
        assert first.attempt.id == second.attempt.id and first.attempt.streak_id == streak_id
        assert first.puzzle.mu > ratings[-1]
        view = first
        ratings.append(view.puzzle.mu)
    # The first miss ends the puzzle and the streak, at once; the same wrong move again (a double click) does nothing.
    missed = await service.puzzles.play(GUILD, ALICE, game, wrong_move(view))
    assert not missed.correct and missed.view.attempt.status == "failed" and missed.rating is not None
    assert missed.view.streak is not None and not missed.view.streak.open and missed.view.streak.solved == 2
    assert missed.view.best == 2
    with pytest.raises(UserError, match="puzzle open"):
        await service.puzzles.play(GUILD, ALICE, game, wrong_move(view))
    assert (await service.puzzles.give_up(GUILD, ALICE, view.attempt.id))[1] is None  # over: not rated again
    assert await service.puzzles.best_streaks(GUILD, ALICE) == [(game, 2)]
    # A new streak starts again from the easiest puzzle left; giving up ends it at 0, recorded once.
    again = await service.puzzles.start(GUILD, ALICE, game, streak=True)
    assert again.streak is not None and again.streak.id != streak_id and again.puzzle.mu not in ratings
    ended, _ = await service.puzzles.give_up(GUILD, ALICE, again.attempt.id)
    assert ended.streak is not None and not ended.streak.open and ended.streak.solved == 0
    assert await service.puzzles.best_streaks(GUILD, ALICE) == [(game, 2)]
    assert await service.puzzles.streak_board(GUILD, game) == [(ALICE, 2)]
    # A forgotten member's streaks go with their puzzle ratings.
    await service.admin.forget_member(GUILD, ALICE, BOB)
    assert await service.puzzles.best_streaks(GUILD, ALICE) == []
    assert await service.puzzles.streak_board(GUILD, game) == []


async def test_a_solving_move_clicked_twice_counts_once_in_the_streak(service: GameService, db: Database) -> None:
    game = STREAK_GAME
    await store(db, [p for p in by_rating(game) if len(p.solution) == 1][:3])
    view = await service.puzzles.start(GUILD, BOB, game, streak=True)
    move = view.puzzle.solution[0]
    results = await asyncio.gather(
        *(service.puzzles.play(GUILD, BOB, game, move, at=(view.attempt.id, 0)) for _ in range(2)),
        return_exceptions=True,
    )
    answers = [r for r in results if not isinstance(r, BaseException)]
    assert len(answers) == 1 and all(isinstance(r, UserError) for r in results if r not in answers)
    streak = await db.puzzles.streak(view.attempt.streak_id or 0)
    assert streak is not None and streak.solved == 1 and streak.open
    # Starting another puzzle while the streak's next one is open leaves it: the streak ends there.
    following = await service.puzzles.streak(GUILD, BOB, game)
    await service.puzzles.next(GUILD, BOB, game)
    left = await db.puzzles.streak(following.attempt.streak_id or 0)
    assert left is not None and not left.open and left.solved == 1


async def test_a_streak_with_nothing_harder_left_ends_and_says_so(service: GameService, db: Database) -> None:
    game = STREAK_GAME
    await store(db, [p for p in by_rating(game) if len(p.solution) == 1][:1])
    view = await service.puzzles.start(GUILD, CAROL, game, streak=True)
    await solve(service, CAROL, view)
    with pytest.raises(UserError) as told:
        await service.puzzles.streak(GUILD, CAROL, game)
    assert "streak ends at {count}" in told.value.message and told.value.params["count"] == 1
    assert await db.puzzles.open_streak(GUILD, CAROL, game) is None
    assert await service.puzzles.best_streaks(GUILD, CAROL) == [(game, 1)]


async def daily_puzzles_of(service: GameService, clock: Clock, days: list[int], hour: int = 9) -> dict[int, int | None]:
    """The daily puzzle posted on each of ``days`` (None: none was), each post and reveal marked done."""
    posted: dict[int, int | None] = {}
    for day in days:
        clock.now = day * DAY + hour * 3600 + 5
        jobs = await service.daily_puzzles.due([GUILD])
        for job in jobs:
            assert await service.daily_puzzles.done(job, 1)
        posts = [job.puzzle.id for job in jobs if job.kind == "post"]
        posted[day] = posts[0] if posts else None
    return posted


async def test_the_daily_puzzle_draws_from_the_shipped_set_and_never_repeats_within_a_year(
    service: GameService, db: Database, clock: Clock
) -> None:
    game = STREAK_GAME
    *shipped_ones, other = by_rating(game)[:4]
    await store(db, shipped_ones)
    # The server's own puzzle (mined from one of its games): offered here only, and first.
    await db.puzzle_mining.insert_puzzles([{**shipped_row(other), "guild_id": GUILD, "source_game_id": 7}], 0.0)
    ids = {p.position_key: (await row_of(db, p.position_key))["id"] for p in [*shipped_ones, other]}
    own_id = ids[other.position_key]
    # A member tried the easiest shipped puzzle already: it comes last.
    tried = shipped_ones[0]
    view = await service.puzzles.open_puzzle(GUILD, BOB, ids[tried.position_key])
    await service.puzzles.give_up(GUILD, BOB, view.attempt.id)
    untried = sorted(shipped_ones[1:], key=lambda p: (abs(p.rating - 1500), ids[p.position_key]))
    expected = [own_id, *(ids[p.position_key] for p in untried), ids[tried.position_key]]
    await service.server_settings.change(GUILD, ALICE, daily_puzzle=(game, 555, 9))
    start = 500
    year = await daily_puzzles_of(service, clock, [start + n for n in range(5)])
    assert [year[start + n] for n in range(4)] == expected
    assert year[start + 4] is None  # every puzzle was a daily puzzle within the year: none today
    later = await daily_puzzles_of(service, clock, [start + 200, start + REPEAT_DAYS - 1])
    assert later == {start + 200: None, start + REPEAT_DAYS - 1: None}
    # A year after its day, a daily puzzle may come again (its day's solution was posted long ago).
    again = await daily_puzzles_of(service, clock, [start + REPEAT_DAYS, start + REPEAT_DAYS + 1])
    assert again == {start + REPEAT_DAYS: expected[0], start + REPEAT_DAYS + 1: expected[1]}
    latest = await service.daily_puzzles.daily_of_puzzle(GUILD, own_id)
    assert latest is not None and latest.day == start + REPEAT_DAYS


async def test_a_new_servers_daily_puzzle_is_a_shipped_one(service: GameService, db: Database, clock: Clock) -> None:
    await service.puzzle_mining.load_shipped()
    game = next(name for name in games.names() if len(shipped.load(name)) >= 2)
    await service.server_settings.change(GUILD, ALICE, daily_puzzle=(game, 555, 0))
    posted = await daily_puzzles_of(service, clock, [800, 801], hour=0)
    rows = [await db.puzzles.puzzle(puzzle_id) for puzzle_id in posted.values() if puzzle_id is not None]
    assert len(rows) == 2 and rows[0] != rows[1]
    shipped_moves = [list(p.moves) for p in shipped.load(game)]
    for row in rows:
        assert row is not None and row.guild_id is None and row.moves in shipped_moves
