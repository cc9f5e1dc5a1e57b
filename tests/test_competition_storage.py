"""The once-only writes of open challenges, tournaments and seasons, raced by several connections (as several
processes would) on SQLite and on PostgreSQL: exactly one of them wins each race, and the losers write nothing."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest
import sqlalchemy as sa

from sessions.ratings import Ratings
from storage.competition import NewBoard
from storage.database import Announce, Database
from storage.rows import OPEN_SEAT
from storage.schema import announcements, games, season_ratings, seasons, tournament_pairings

GUILD, CHANNEL = 1_234_567_890_123_456_789, 987_654_321_098_765_432
ALICE, BOB, CAROL, DAVE = 301_234_567_890_123_456, 302_234_567_890_123_456, 303_234_567_890_123_456, 304
RACERS = 3


@pytest.fixture
async def dbs(database_url: str) -> AsyncIterator[list[Database]]:
    """Several independent connections to one database: the processes of a scaled-out bot."""
    opened = [await Database.open(database_url) for _ in range(RACERS)]
    yield opened
    for db in opened:
        await db.close()


async def count(db: Database, statement: sa.Select) -> int:  # type: ignore[type-arg]
    return await db.read(lambda connection: int(connection.execute(statement).scalar_one()))


async def test_members_taking_an_open_seat_at_once_start_one_game(dbs: list[Database]) -> None:
    game_id = await dbs[0].challenges.insert_game(
        guild_id=GUILD,
        channel_id=CHANNEL,
        game="iago",
        options={"variant": "standard"},
        players=(ALICE, OPEN_SEAT),
        challenger_id=ALICE,
        rated=True,
        now=1.0,
        expires_at=901.0,
    )
    takers = (BOB, CAROL, DAVE)
    results = await asyncio.gather(
        *(
            db.challenges.take_open_seat(game_id, 1, user, 2.0, [], Announce("start"))
            for db, user in zip(dbs, takers, strict=True)
        )
    )
    assert sum(result is not None for result in results) == 1
    winner = takers[next(index for index, result in enumerate(results) if result is not None)]
    row = await dbs[0].games.game(game_id)
    assert row is not None and row.status == "active" and row.players == (ALICE, winner)
    assert await count(dbs[0], sa.select(sa.func.count()).select_from(announcements)) == 1  # one first board


async def test_the_last_place_of_a_tournament_goes_to_one_member(dbs: list[Database]) -> None:
    tournament_id = await new_tournament(dbs[0], max_players=2)
    assert await dbs[0].tournaments.join_tournament(tournament_id, ALICE, 2.0) == "joined"
    outcomes = await asyncio.gather(
        *(
            db.tournaments.join_tournament(tournament_id, user, 3.0)
            for db, user in zip(dbs, (BOB, CAROL, DAVE), strict=True)
        )
    )
    assert sorted(outcomes) == ["full", "full", "joined"]
    assert len(await dbs[0].tournaments.entrants(tournament_id)) == 2


async def test_a_round_is_started_once_however_many_processes_try(dbs: list[Database]) -> None:
    tournament_id = await new_tournament(dbs[0])
    for user in (ALICE, BOB, CAROL, DAVE):
        await dbs[0].tournaments.join_tournament(tournament_id, user, 2.0)
    revision = (await dbs[0].tournaments.tournament(tournament_id)).revision  # type: ignore[union-attr]
    boards = [NewBoard(ALICE, CAROL, announce=Announce("paired")), NewBoard(DAVE, BOB, announce=Announce("paired"))]
    seeds = [(user, seed, 1500.0) for seed, user in enumerate((ALICE, BOB, CAROL, DAVE), start=1)]
    results = await asyncio.gather(
        *(
            db.tournaments.start_round(
                tournament_id,
                expected_round=0,
                expected_revision=revision,
                boards=boards,
                now=5.0,
                announce=Announce("round", {"tournament": tournament_id, "round": 1}),
                seeds=seeds,
                rounds=2,
            )
            for db in dbs
        )
    )
    assert sum(result is not None for result in results) == 1
    assert await count(dbs[0], sa.select(sa.func.count()).select_from(games)) == 2
    assert await count(dbs[0], sa.select(sa.func.count()).select_from(tournament_pairings)) == 2
    kinds = await dbs[0].read(lambda c: sorted(c.execute(sa.select(announcements.c.kind)).scalars()))
    assert kinds == ["paired", "paired", "round"]
    tournament = await dbs[0].tournaments.tournament(tournament_id)
    assert tournament is not None and (tournament.status, tournament.round, tournament.rounds) == ("running", 1, 2)
    # Round 2 cannot start while round 1's games are on, nor from a stale revision.
    assert await dbs[1].tournaments.start_round(
        tournament_id, expected_round=1, expected_revision=tournament.revision, boards=[], now=6.0,
        announce=Announce("round"),
    ) is None  # fmt: skip
    assert await dbs[1].tournaments.join_tournament(tournament_id, 999, 6.0) == "closed"


async def test_a_season_ends_once_and_the_next_begins_where_it_ended(dbs: list[Database]) -> None:
    await dbs[0].seasons.start_season(GUILD, CHANNEL, 3, now=10.0, ends_at=100.0, admin_id=ALICE)
    results = await asyncio.gather(
        *(db.seasons.end_season(GUILD, 1, 150.0, Announce("season_end", {"season": 1, "next": 2}), 200.0) for db in dbs)
    )
    assert sorted(results) == [False, False, True]
    rows = await dbs[0].seasons.seasons_of(GUILD)
    assert [(s.number, s.starts_at, s.ends_at, s.closed_at) for s in rows] == [
        (2, 100.0, 200.0, None),
        (1, 10.0, 100.0, 150.0),
    ]
    assert await count(dbs[0], sa.select(sa.func.count()).select_from(announcements)) == 1
    assert await count(dbs[0], sa.select(sa.func.count()).select_from(seasons)) == 2


async def test_a_rated_game_counts_in_the_running_season_from_a_fresh_start(dbs: list[Database]) -> None:
    db = dbs[0]
    await db.seasons.start_season(GUILD, CHANNEL, 1, now=1.0, ends_at=1000.0, admin_id=ALICE)
    for winner in (0, 1):
        game_id = await db.challenges.insert_game(
            guild_id=GUILD, channel_id=CHANNEL, game="iago", options={"variant": "standard"}, players=(ALICE, BOB),
            challenger_id=ALICE, rated=True, now=2.0, expires_at=900.0,
        )  # fmt: skip
        assert await db.challenges.activate(game_id, 2.0, [])
        await db.games.finish_without_move(game_id, 0, (winner, "resign", (0, 0)), 3.0, settle=Ratings.rate)
    board = await db.seasons.season_leaderboard(GUILD, 1, "iago", 10)
    overall = {row.user_id: row for row in await db.ratings.leaderboard(GUILD, "iago", 10)}
    assert {user: played for _, user, _, _, played in board} == {ALICE: 2, BOB: 2}
    for _, user, mu, _, _ in board:  # the season's ratings are the all-time ones while both started together
        assert mu == pytest.approx(overall[user].mu)
    # Closed, the season keeps them; the next game counts in no season (seasons are off).
    assert await db.seasons.end_season(GUILD, 1, 5.0, Announce("season_end"), None)
    game_id = await db.challenges.insert_game(
        guild_id=GUILD, channel_id=CHANNEL, game="iago", options={"variant": "standard"}, players=(ALICE, BOB),
        challenger_id=ALICE, rated=True, now=6.0, expires_at=900.0,
    )  # fmt: skip
    assert await db.challenges.activate(game_id, 6.0, [])
    await db.games.finish_without_move(game_id, 0, (0, "resign", (0, 0)), 7.0, settle=Ratings.rate)
    assert await count(db, sa.select(sa.func.count()).select_from(season_ratings)) == 2
    assert [played for *_, played in await db.seasons.season_leaderboard(GUILD, 1, None, 10)] == [2, 2]


async def new_tournament(db: Database, max_players: int = 8) -> int:
    return await db.tournaments.create_tournament(
        guild_id=GUILD,
        channel_id=CHANNEL,
        name="Test",
        game="iago",
        options={"variant": "standard"},
        format="swiss",
        rounds=3,
        legs=1,
        move_seconds=86400.0,
        rated=True,
        signup_deadline=1000.0,
        max_players=max_players,
        created_by=ALICE,
        created_at=1.0,
    )


async def test_forgetting_a_member_takes_them_out_of_seasons_and_tournaments(dbs: list[Database]) -> None:
    db = dbs[0]
    await db.seasons.start_season(GUILD, CHANNEL, 1, now=1.0, ends_at=1000.0, admin_id=ALICE)
    game_id = await db.challenges.insert_game(
        guild_id=GUILD, channel_id=CHANNEL, game="iago", options={"variant": "standard"}, players=(ALICE, BOB),
        challenger_id=ALICE, rated=True, now=2.0, expires_at=900.0,
    )  # fmt: skip
    assert await db.challenges.activate(game_id, 2.0, [])
    await db.games.finish_without_move(game_id, 0, (0, "resign", (0, 0)), 3.0, settle=Ratings.rate)
    running, signing_up = await new_tournament(db), await new_tournament(db)
    for tournament_id in (running, signing_up):
        for user in (ALICE, BOB, CAROL):
            await db.tournaments.join_tournament(tournament_id, user, 2.0)
    revision = (await db.tournaments.tournament(running)).revision  # type: ignore[union-attr]
    assert await db.tournaments.start_round(
        running, expected_round=0, expected_revision=revision, boards=[NewBoard(BOB, CAROL), NewBoard(ALICE, None,
        points=(2, 0))], now=4.0, announce=Announce("round"),
    ) is not None  # fmt: skip

    await db.admin.forget_member(GUILD, BOB, -77, ALICE, 5.0, Announce("cancelled"))
    assert [user for _, user, *_ in await db.seasons.season_leaderboard(GUILD, 1, None, 10)] == [ALICE]
    assert [p.user_id for p in await db.tournaments.entrants(signing_up)] == [ALICE, CAROL]  # the sign-up is withdrawn
    entrants = {p.user_id: p.removed_at for p in await db.tournaments.entrants(running)}
    assert entrants == {ALICE: None, CAROL: None, -77: 5.0}  # anonymous, and paired no more
    assert [(p.player0_id, p.player1_id) for p in await db.tournaments.pairings(running)] == [
        (-77, CAROL),
        (ALICE, None),
    ]
    assert BOB not in {row.user_id for row in await db.tournaments.entrants(running)}

    await db.admin.reset_leaderboard(GUILD, "iago", ALICE, 6.0, with_records=False)
    assert await db.seasons.season_leaderboard(GUILD, 1, None, 10) == []
