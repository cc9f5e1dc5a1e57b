"""Storage on SQLite and PostgreSQL: migrations, the move log and its ply guard, atomic finishes, the outbox, one
open challenge per pair, reminders claimed once, and the queries that filter in SQL."""

from __future__ import annotations

import asyncio
import sqlite3
import warnings
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory

import engines
from sessions.model import Rating
from sessions.model.ratings import rate
from sessions.ratings import Ratings
from sessions.service import GameService
from storage.database import Announce, Database, DuplicateChallenge, DuplicateRematch, GameRow, StalePly
from storage.migrate import alembic_config, migration_connection, upgrade_url
from storage.schema import metadata, records

LEGACY_SQL = Path(__file__).parent / "legacy" / "yoyo_0001_initial.sql"
GUILD, CHANNEL = 1_234_567_890_123_456_789, 987_654_321_098_765_432  # real snowflakes need 64 bits
ALICE, BOB, CAROL, DAVE = 301_234_567_890_123_456, 302_234_567_890_123_456, 303_234_567_890_123_456, 304
# The newest revision, from the scripts themselves: each upgrade must end there.
HEAD = ScriptDirectory.from_config(alembic_config()).get_current_head()


@pytest.fixture
async def db(database_url: str) -> AsyncIterator[Database]:
    database = await Database.open(database_url)
    yield database
    await database.close()


async def new_game(
    db: Database, a: int = ALICE, b: int = BOB, *, guild: int = GUILD, channel: int = CHANNEL, game: str = "iago",
    rated: bool = True, now: float = 1.0, active: bool = True,
) -> int:  # fmt: skip
    game_id = await db.challenges.insert_game(
        guild_id=guild,
        channel_id=channel,
        game=game,
        options={"variant": "standard"} if game == "iago" else {},
        players=(a, b),
        challenger_id=a,
        rated=rated,
        now=now,
        expires_at=now + 900,
    )
    if active:
        assert await db.challenges.activate(game_id, now, [])
    return game_id


def settle_with_openskill(row: GameRow, old: dict[int, Any]) -> dict[int, tuple[float, float, float]]:
    return Ratings.rate(row, old)


async def scalar(db: Database, sql: str, **params: Any) -> Any:
    async with db.engine.connect() as connection:
        return (await connection.execute(sa.text(sql), params)).scalar()


# --- migrations ------------------------------------------------------------------------------------


async def test_migrations_apply_once_and_sqlite_pragmas_are_set(tmp_path: Path) -> None:
    path = tmp_path / "nested" / "games.sqlite3"
    db = await Database.open(path)  # a bare path still means a SQLite file
    await db.close()
    db = await Database.open(f"sqlite+aiosqlite:///{path}")  # a second start applies nothing and keeps the data
    try:
        assert await scalar(db, "SELECT version_num FROM alembic_version") == HEAD
        assert await scalar(db, "PRAGMA journal_mode") == "wal"
        assert await scalar(db, "PRAGMA foreign_keys") == 1
        async with db.transaction() as connection:  # writes hold the write lock from BEGIN (IMMEDIATE)
            other = sqlite3.connect(path, timeout=0)
            with pytest.raises(sqlite3.OperationalError, match="locked"):
                other.execute("BEGIN IMMEDIATE")
            other.close()
            await connection.execute(sa.text("SELECT 1"))
    finally:
        await db.close()


async def test_the_tables_match_storage_schema_on_both_databases(db: Database) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # expression indexes cannot be reflected; checked in the next test

        def compare(connection: sa.Connection) -> list[Any]:
            context = MigrationContext.configure(connection, opts={"compare_type": True})
            return compare_metadata(context, metadata)

        async with db.engine.connect() as connection:
            assert await connection.run_sync(compare) == []
            columns = await connection.run_sync(lambda c: {col["name"] for col in sa.inspect(c).get_columns("games")})
            indexes = await connection.run_sync(lambda c: {i["name"] for i in sa.inspect(c).get_indexes("games")})
    assert "board_message_id" not in columns and "challenge_message_id" in columns
    assert {"games_by_guild_channel", "games_by_player0", "games_by_player1", "games_by_expiry"} <= indexes


async def test_snowflakes_and_timestamps_round_trip_exactly(db: Database) -> None:
    now = 1_763_846_400.123456  # a 4-byte REAL would round this by minutes
    game_id = await new_game(db, now=now)
    row = await db.games.game(game_id)
    assert row is not None
    assert (row.guild_id, row.channel_id, row.players) == (GUILD, CHANNEL, (ALICE, BOB))
    assert (row.created_at, row.last_move_at) == (now, now)
    assert await db.games.claim_reminder(game_id, now, now + 1)  # matches last_move_at exactly


async def test_concurrent_starts_migrate_once(database_url: str) -> None:
    await asyncio.gather(*(upgrade_url(database_url) for _ in range(4)))
    db = await Database.open(database_url)
    try:
        assert await scalar(db, "SELECT count(*) FROM alembic_version") == 1
        assert await scalar(db, "SELECT version_num FROM alembic_version") == HEAD
    finally:
        await db.close()


async def test_the_upgrade_expires_duplicate_open_challenges_and_keeps_the_oldest(database_url: str) -> None:
    async with migration_connection(database_url) as connection:
        await connection.run_sync(lambda c: command.upgrade(alembic_config(c), "0001"))
    async with migration_connection(database_url) as connection:
        for game_id, (p0, p1) in enumerate([(ALICE, BOB), (BOB, ALICE), (ALICE, BOB), (ALICE, CAROL)], start=1):
            await connection.execute(
                sa.text(
                    "INSERT INTO games (id, guild_id, channel_id, game, player0_id, player1_id, challenger_id,"
                    " status, created_at) VALUES (:id, :g, :c, 'iago', :p0, :p1, :p0, 'challenge', 1.0)"
                ),
                {"id": game_id, "g": GUILD, "c": CHANNEL, "p0": p0, "p1": p1},
            )
    db = await Database.open(database_url)
    try:
        statuses = [(await db.games.game(game_id)).status for game_id in (1, 2, 3, 4)]  # type: ignore[union-attr]
        assert statuses == ["challenge", "expired", "expired", "challenge"]
    finally:
        await db.close()


def _legacy_database(path: Path) -> dict[str, Any]:
    """A database exactly as the first release left it: its SQL applied by yoyo, with yoyo's bookkeeping, one
    finished game, one active game with moves, ratings, records, and two racing open challenges."""
    iago = engines.get("iago")
    state = iago.new_game(variant="standard")
    for _ in range(6):
        state.play(state.legal_moves()[0])
    finished_moves, active_moves = state.moves[:4], state.moves[:3]
    connection = sqlite3.connect(path)
    connection.executescript(LEGACY_SQL.read_text())
    connection.executescript(
        """
        CREATE TABLE _yoyo_migration (migration_hash VARCHAR(64), migration_id VARCHAR(255),
            applied_at_utc TIMESTAMP, PRIMARY KEY (migration_hash));
        CREATE TABLE _yoyo_version (version INT NOT NULL PRIMARY KEY, installed_at_utc TIMESTAMP);
        CREATE TABLE _yoyo_log (id VARCHAR(36), migration_hash VARCHAR(64), migration_id VARCHAR(255),
            operation VARCHAR(10), username VARCHAR(255), hostname VARCHAR(255), comment VARCHAR(255),
            created_at_utc TIMESTAMP, PRIMARY KEY (id));
        CREATE TABLE yoyo_lock (locked INT DEFAULT 1, ctime TIMESTAMP, pid INT NOT NULL, PRIMARY KEY (locked));
        INSERT INTO _yoyo_version VALUES (2, '2026-11-01 10:00:00');
        INSERT INTO _yoyo_migration VALUES ('4b1d0c1e', '0001_initial', '2026-11-01 10:00:00');
        """
    )
    insert = (
        "INSERT INTO games (id, guild_id, channel_id, game, options, player0_id, player1_id, challenger_id, rated,"
        " status, ply, winner, result_reason, score0, score1, challenge_message_id, board_message_id, created_at,"
        " expires_at, started_at, last_move_at, finished_at) VALUES (?, ?, ?, 'iago', '{\"variant\": \"standard\"}',"
        " ?, ?, ?, 1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
    )
    t = 1_763_000_000.25
    connection.execute(insert, (1, GUILD, CHANNEL, ALICE, BOB, ALICE, "finished", 4, 0, "resign", 2, 1, 11, 12,
                                t, t + 900, t + 10, t + 50, t + 60))  # fmt: skip
    connection.execute(insert, (2, GUILD, CHANNEL, ALICE, CAROL, CAROL, "active", 3, None, None, None, None, 21, 22,
                                t, t + 900, t + 20, t + 70, None))  # fmt: skip
    for game_id, (p0, p1) in ((3, (BOB, CAROL)), (4, (CAROL, BOB))):  # a race the old check let through
        connection.execute(insert, (game_id, GUILD, CHANNEL, p0, p1, p0, "challenge", 0, None, None, None, None,
                                    None, None, t, t + 900, None, None, None))  # fmt: skip
    for game_id, log in ((1, finished_moves), (2, active_moves)):
        players = (ALICE, BOB) if game_id == 1 else (ALICE, CAROL)
        connection.executemany(
            "INSERT INTO moves VALUES (?, ?, ?, ?, ?, ?)",
            [(game_id, ply, move, ply % 2, players[ply % 2], t + ply) for ply, move in enumerate(log)],
        )
    connection.executemany(
        "INSERT INTO ratings VALUES (?, 'iago', ?, ?, ?, 1)",
        [(GUILD, ALICE, 1612.5, 420.25), (GUILD, BOB, 1387.5, 420.25)],
    )
    connection.executemany(
        "INSERT INTO records VALUES (?, 'iago', ?, ?, ?, 0)", [(GUILD, ALICE, 1, 0), (GUILD, BOB, 0, 1)]
    )
    connection.executemany("INSERT INTO rating_changes VALUES (1, ?, 1500, ?)", [(ALICE, 1612.5), (BOB, 1387.5)])
    connection.commit()
    connection.close()
    return {"finished": finished_moves, "active": active_moves, "t": t}


async def test_a_first_release_database_is_recognised_kept_and_plays_on(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"
    legacy = _legacy_database(path)
    db = await Database.open(path)
    try:
        assert await scalar(db, "SELECT version_num FROM alembic_version") == HEAD
        finished, active = await db.games.game(1), await db.games.game(2)
        assert finished is not None and active is not None
        assert (finished.status, finished.winner, finished.result_reason, finished.scores) == (
            "finished", 0, "resign", (2, 1),
        )  # fmt: skip
        assert (finished.finished_at, finished.challenge_message_id) == (legacy["t"] + 60, 11)
        assert (active.status, active.ply, active.players, active.options, active.rated) == (
            "active", 3, (ALICE, CAROL), {"variant": "standard"}, True,
        )  # fmt: skip
        assert await db.games.moves(1) == legacy["finished"] and await db.games.moves(2) == legacy["active"]
        assert [(r.user_id, r.mu, r.sigma, r.rated_games) for r in await db.ratings.leaderboard(GUILD, "iago", 10)] == [
            (ALICE, 1612.5, 420.25, 1), (BOB, 1387.5, 420.25, 1),
        ]  # fmt: skip
        assert [(r.game, r.wins, r.losses) for r in await db.ratings.records_of(GUILD, BOB)] == [("iago", 0, 1)]
        assert await scalar(db, "SELECT count(*) FROM rating_changes") == 2
        assert [(await db.games.game(i)).status for i in (3, 4)] == ["challenge", "expired"]  # type: ignore[union-attr]

        service = GameService(db, clock=lambda: legacy["t"] + 100)
        state = await service.finder.state(await service.finder.game(2))
        report = await service.turns.play(2, active.players[state.turn], state.legal_moves()[0])
        assert report.game.ply == 4 and await db.games.moves(2) == [*legacy["active"], report.played[0].move]
        report = await service.turns.resign(2, CAROL)
        assert report.finish is not None and report.finish.rating_changes[ALICE][0] == 1612  # the kept rating
        assert (await db.ratings.rating(GUILD, "iago", ALICE)).rated_games == 2  # type: ignore[union-attr]
    finally:
        await db.close()


# --- moves and finishes ------------------------------------------------------------------------------


async def test_moves_need_an_active_game_and_the_current_ply(db: Database) -> None:
    game_id = await new_game(db, active=False)
    with pytest.raises(StalePly):  # a challenge is not active yet
        await db.games.append_moves(game_id, 0, [("E4", 0, ALICE)], now=2.0)
    assert await db.challenges.activate(game_id, 3.0, [])
    assert not await db.challenges.activate(game_id, 3.0, [])  # accepting twice does nothing
    await db.games.append_moves(game_id, 0, [("E4", 0, ALICE), ("E6", 1, BOB)], now=4.0)
    with pytest.raises(StalePly):
        await db.games.append_moves(game_id, 1, [("D4", 1, BOB)], now=5.0)
    row = await db.games.game(game_id)
    assert row is not None and row.ply == 2 and row.options == {"variant": "standard"}
    assert await db.games.moves(game_id) == ["E4", "E6"]
    written = await db.games.append_moves(game_id, 2, [("D4", 0, ALICE)], now=6.0, finish=(1, "score", (3, 7)))
    assert (written.row.status, written.row.winner, written.row.scores) == ("finished", 1, (3, 7))
    assert written.settlement is not None and written.settlement.ratings == {}  # no settle: ratings untouched
    with pytest.raises(StalePly):
        await db.games.append_moves(game_id, 3, [("C4", 1, BOB)], now=7.0)


async def test_two_writers_at_the_same_ply_one_wins(database_url: str, db: Database) -> None:
    game_id = await new_game(db)
    others = [await Database.open(database_url) for _ in range(3)]  # as separate processes: separate connections
    try:
        results = await asyncio.gather(
            *(other.games.append_moves(game_id, 0, [(f"M{i}", 0, ALICE)], now=2.0) for i, other in enumerate(others)),
            return_exceptions=True,
        )
    finally:
        for other in others:
            await other.close()
    assert sum(isinstance(r, StalePly) for r in results) == 2
    assert len(await db.games.moves(game_id)) == 1 and (await db.games.game(game_id)).ply == 1  # type: ignore[union-attr]


async def test_a_finish_writes_result_records_and_ratings_together_or_not_at_all(db: Database) -> None:
    game_id = await new_game(db)

    def broken(row: GameRow, old: dict[int, Any]) -> dict[int, tuple[float, float, float]]:
        raise RuntimeError("rating service down")

    with pytest.raises(RuntimeError):
        await db.games.append_moves(game_id, 0, [("E4", 0, ALICE)], 2.0, (0, "score", (5, 1)), settle=broken,
                              announce={"kind": "finish"})  # fmt: skip
    row = await db.games.game(game_id)
    assert row is not None and (row.status, row.ply) == ("active", 0) and await db.games.moves(game_id) == []
    assert await db.ratings.records_of(GUILD, ALICE) == [] and await db.outbox.pending_for_game(game_id) == []

    written = await db.games.append_moves(game_id, 0, [("E4", 0, ALICE)], 3.0, (0, "score", (5, 1)),
                                    settle=settle_with_openskill, announce={"kind": "finish"})  # fmt: skip
    assert written.row.status == "finished" and written.settlement is not None
    assert written.settlement.outcome == ("wins", "losses")
    (alice_before, alice_after) = written.settlement.ratings[ALICE]
    assert alice_before is None and alice_after.rated_games == 1 and alice_after.mu > 1500
    assert await db.ratings.rating(GUILD, "iago", ALICE) == alice_after
    assert [(r.wins, r.losses) for r in await db.ratings.records_of(GUILD, BOB)] == [(0, 1)]
    assert await scalar(db, "SELECT count(*) FROM rating_changes WHERE game_id = :g", g=game_id) == 2
    assert [a.kind for a in await db.outbox.pending_for_game(game_id)] == ["finish"]
    assert written.announcement_ids == tuple(a.id for a in await db.outbox.pending_for_game(game_id))


async def test_finish_without_move_counts_once_and_refuses_a_stale_ply(db: Database) -> None:
    game_id = await new_game(db, rated=False)
    await db.games.append_moves(game_id, 0, [("E4", 0, ALICE)], now=2.0)
    with pytest.raises(StalePly):
        await db.games.finish_without_move(game_id, 0, (1, "resign", (0, 0)), 3.0, settle=settle_with_openskill)
    written = await db.games.finish_without_move(game_id, 1, (None, "draw", (0, 0)), 3.0, settle=settle_with_openskill)
    assert written.settlement is not None and written.settlement.ratings == {}  # unrated: no ratings
    with pytest.raises(StalePly):  # resigning twice
        await db.games.finish_without_move(game_id, 1, (1, "resign", (0, 0)), 4.0, settle=settle_with_openskill)
    assert [(r.wins, r.losses, r.draws) for r in await db.ratings.records_of(GUILD, ALICE)] == [(0, 0, 1)]
    assert await db.ratings.rating(GUILD, "iago", ALICE) is None


async def test_two_games_of_one_player_finishing_at_once_both_count(database_url: str, db: Database) -> None:
    first, second = await new_game(db, ALICE, BOB), await new_game(db, ALICE, CAROL)
    warm_up = await new_game(db, ALICE, DAVE)  # so that Alice has a rating and a record before the race
    await db.games.finish_without_move(warm_up, 0, (0, "resign", (0, 0)), 2.0, settle=settle_with_openskill)
    start = await db.ratings.rating(GUILD, "iago", ALICE)
    assert start is not None
    finishers = [await Database.open(database_url) for _ in range(2)]  # two connections, as two processes
    try:
        async with db.transaction() as connection:
            # Hold what a finish of Alice's must wait for: her records row on PostgreSQL, the write lock on SQLite.
            await connection.execute(sa.select(records).where(records.c.user_id == ALICE).with_for_update())
            tasks = [
                asyncio.create_task(
                    finisher.games.finish_without_move(
                        game_id, 0, (0, "resign", (0, 0)), 3.0, settle=settle_with_openskill
                    )
                )
                for finisher, game_id in zip(finishers, (first, second), strict=True)
            ]
            await asyncio.sleep(0.3)
            assert not any(task.done() for task in tasks)  # both wait, and will then read what the other wrote
        await asyncio.gather(*tasks)
    finally:
        for finisher in finishers:
            await finisher.close()
    after = await db.ratings.rating(GUILD, "iago", ALICE)
    assert after is not None and after.rated_games == 3  # no update lost
    assert [(r.wins, r.losses) for r in await db.ratings.records_of(GUILD, ALICE)] == [(3, 0)]
    # Bob and Carol were both new, so either order of the two updates gives the same result.
    once = rate((Rating(start.mu, start.sigma, start.rated_games), Rating()), 0)[0]
    assert after.mu == pytest.approx(rate((once, Rating()), 0)[0].mu, abs=1e-9)


# --- the outbox --------------------------------------------------------------------------------------


async def test_announcements_are_written_with_their_action_or_not_at_all(db: Database) -> None:
    game_id = await new_game(db, active=False)
    assert await db.challenges.activate(
        game_id, 2.0, [("open 2 5", None, None)], announce={"kind": "accept", "payload": {"x": 1}}
    )
    assert not await db.challenges.activate(game_id, 2.0, [], announce={"kind": "accept"})  # refused: nothing announced
    with pytest.raises(StalePly):
        await db.games.append_moves(game_id, 0, [("E4", 0, ALICE)], 3.0, announce={"kind": "move"})
    written = await db.games.append_moves(game_id, 1, [("E4", 0, ALICE)], 3.0, announce=[Announce("move", {"m": "E4"})])
    other = await new_game(db, ALICE, CAROL, active=False)
    assert await db.challenges.transition(other, "challenge", "expired", 4.0, announce=Announce("expiry"))
    assert not await db.challenges.transition(other, "challenge", "declined", 4.0, announce=Announce("decline"))
    pending = await db.outbox.pending_for_game(game_id)
    assert [(a.kind, a.ply, a.payload) for a in pending] == [("accept", 1, {"x": 1}), ("move", 2, {"m": "E4"})]
    assert written.announcement_ids == (pending[1].id,)
    assert (pending[0].guild_id, pending[0].channel_id, pending[0].attempts) == (GUILD, CHANNEL, 0)
    assert [a.kind for a in await db.outbox.pending_for_game(other)] == ["expiry"]


async def test_claims_give_each_announcement_to_one_worker_until_its_lease_lapses(
    database_url: str, db: Database
) -> None:
    game_id = await new_game(db)
    elsewhere = await new_game(db, ALICE, CAROL, guild=GUILD + 1)
    for ply in range(6):
        await db.games.append_moves(game_id, ply, [(f"M{ply}", 0, ALICE)], 10.0 + ply, announce=Announce("move"))
    await db.games.append_moves(elsewhere, 0, [("E4", 0, ALICE)], 10.0, announce=Announce("move"))
    workers = [await Database.open(database_url) for _ in range(3)]
    try:
        claims = await asyncio.gather(
            *(
                worker.outbox.claim_pending(f"w{i}", 20.0, 30.0, 3, guild_filter=[GUILD])
                for i, worker in enumerate(workers)
            )
        )
    finally:
        for worker in workers:
            await worker.close()
    ids = [a.id for claim in claims for a in claim]
    assert len(ids) == len(set(ids)) == 6  # nobody got a row twice, the other guild's was left alone
    assert all(a.claimed_by == f"w{i}" and a.claimed_until == 50.0 for i, claim in enumerate(claims) for a in claim)
    assert await db.outbox.claim_pending("late", 49.0, 30.0, 10, guild_filter=[GUILD]) == []  # leases still held
    lapsed = await db.outbox.claim_pending("late", 50.0, 30.0, 10)
    assert len(lapsed) == 7 and [a.id for a in lapsed] == sorted(a.id for a in lapsed)  # oldest first


async def test_delivery_is_recorded_once_and_a_failure_is_retried_later(db: Database) -> None:
    game_id = await new_game(db)
    await db.games.append_moves(game_id, 0, [("E4", 0, ALICE)], 10.0, announce=[Announce("move"), Announce("finish")])
    first, second = await db.outbox.claim_pending("w", 11.0, 30.0, 10)
    assert await db.outbox.release(second.id, "503 Service Unavailable", retry_at=100.0)
    retried = await db.outbox.announcement(second.id)
    assert retried is not None and (retried.attempts, retried.last_error, retried.claimed_by) == (
        1,
        "503 Service Unavailable",
        None,
    )
    assert await db.outbox.claim_pending("w", 40.0, 30.0, 10) == []  # not due before retry_at, first still leased
    assert await db.outbox.mark_delivered(first.id, 555, now=12.0)
    assert not await db.outbox.mark_delivered(first.id, 556, now=13.0)  # a second delivery is reported, not recorded
    assert not await db.outbox.release(first.id, "late failure", retry_at=200.0)
    delivered = await db.outbox.announcement(first.id)
    assert delivered is not None and (delivered.message_id, delivered.delivered_at, delivered.attempts) == (
        555,
        12.0,
        0,
    )
    assert [a.id for a in await db.outbox.claim_pending("w", 100.0, 30.0, 10)] == [
        second.id
    ]  # delivered ones never again
    assert [a.id for a in await db.outbox.pending_for_game(game_id)] == [second.id]


# --- challenges, reminders, queries ------------------------------------------------------------------


async def test_one_open_challenge_per_pair_even_when_challenges_race(database_url: str, db: Database) -> None:
    racers = [await Database.open(database_url) for _ in range(3)]
    try:
        results = await asyncio.gather(
            *(
                racer.challenges.insert_game(
                    guild_id=GUILD,
                    channel_id=CHANNEL,
                    game="iago",
                    options={},
                    players=pair,
                    challenger_id=pair[0],
                    rated=True,
                    now=1.0,
                    expires_at=900.0,
                )
                for racer, pair in zip(racers, [(ALICE, BOB), (BOB, ALICE), (ALICE, BOB)], strict=True)
            ),
            return_exceptions=True,
        )
    finally:
        for racer in racers:
            await racer.close()
    assert sum(isinstance(r, DuplicateChallenge) for r in results) == 2
    (open_id,) = [r for r in results if isinstance(r, int)]
    assert [g.id for g in await db.games.games_with_status("challenge")] == [open_id]
    # Other pairs and other servers are free, and so is the pair once its challenge is answered.
    await new_game(db, ALICE, CAROL, active=False)
    await new_game(db, BOB, ALICE, guild=GUILD + 1, active=False)
    assert await db.challenges.transition(open_id, "challenge", "declined", 2.0)
    await new_game(db, BOB, ALICE, active=False)
    with pytest.raises(sa.exc.IntegrityError):  # other constraint failures are not mistaken for duplicates
        await new_game(db, CAROL, CAROL, guild=GUILD + 2, active=False)


async def test_a_reminder_is_claimed_once_per_idle_spell(database_url: str, db: Database) -> None:
    game_id = await new_game(db, now=100.0)
    assert [g.id for g in await db.games.idle_games(before=99.0)] == []
    assert [g.id for g in await db.games.idle_games(before=100.0)] == [game_id]
    assert not await db.games.claim_reminder(game_id, 50.0, 200.0)  # someone moved since the caller looked
    other = await Database.open(database_url)
    try:
        results = await asyncio.gather(
            db.games.claim_reminder(game_id, 100.0, 200.0, {"user_id": ALICE}),
            other.games.claim_reminder(game_id, 100.0, 200.0, {"user_id": ALICE}),
        )
    finally:
        await other.close()
    assert sorted(results) == [False, True]  # two processes, one reminder
    assert await db.games.idle_games(before=1000.0) == []
    (reminder,) = await db.outbox.pending_for_game(game_id)
    assert (reminder.kind, reminder.payload, reminder.created_at) == ("reminder", {"user_id": ALICE}, 200.0)
    await db.games.append_moves(game_id, 0, [("E4", 0, ALICE)], 300.0)  # a move starts a new idle spell
    assert await db.games.claim_reminder(game_id, 300.0, 400.0)


async def test_game_queries_filter_in_sql(db: Database) -> None:
    here = await new_game(db, ALICE, BOB)
    isaac_here = await new_game(db, ALICE, CAROL, game="isaac")
    other_channel = await new_game(db, BOB, CAROL, channel=CHANNEL + 1)
    other_guild = await new_game(db, ALICE, BOB, guild=GUILD + 1, channel=CHANNEL + 2)
    challenge = await new_game(db, CAROL, DAVE, active=False, now=50.0)  # expires at 950
    assert [g.id for g in await db.games.active_games(guild_id=GUILD, channel_id=CHANNEL)] == [here, isaac_here]
    assert [g.id for g in await db.games.active_games(guild_id=GUILD, channel_id=CHANNEL, game="iago")] == [here]
    assert [g.id for g in await db.games.active_games(guild_id=GUILD)] == [here, isaac_here, other_channel]
    assert [g.id for g in await db.games.active_games()] == [here, isaac_here, other_channel, other_guild]
    assert [g.id for g in await db.games.games_with_status("active", guild_ids=[GUILD + 1])] == [other_guild]
    assert [g.id for g in await db.games.active_games_of(BOB, CHANNEL)] == [here]
    assert await db.challenges.expirable(949.0) == [] and [g.id for g in await db.challenges.expirable(950.0)] == [
        challenge
    ]
    assert (await db.challenges.open_challenge_between(GUILD, DAVE, CAROL)).id == challenge  # type: ignore[union-attr]
    await db.challenges.set_message(challenge, "challenge_message_id", 77)
    assert (await db.games.game(challenge)).challenge_message_id == 77  # type: ignore[union-attr]
    with pytest.raises(ValueError):
        await db.challenges.set_message(here, "board_message_id", 78)  # that column is gone


async def test_finishes_of_games_with_the_players_in_opposite_seats_do_not_deadlock(
    database_url: str, db: Database
) -> None:
    rounds = 8
    pairs = [(await new_game(db, ALICE, BOB), await new_game(db, BOB, ALICE)) for _ in range(rounds)]
    finishers = [await Database.open(database_url) for _ in range(2)]
    try:
        for ab, ba in pairs:  # each round, one game locks Alice then Bob by seat and the other Bob then Alice
            await asyncio.gather(
                finishers[0].games.finish_without_move(ab, 0, (0, "resign", (0, 0)), 3.0, settle=settle_with_openskill),
                finishers[1].games.finish_without_move(ba, 0, (0, "resign", (0, 0)), 3.0, settle=settle_with_openskill),
            )
    finally:
        for finisher in finishers:
            await finisher.close()
    for user in (ALICE, BOB):
        assert (await db.ratings.rating(GUILD, "iago", user)).rated_games == 2 * rounds  # type: ignore[union-attr]
        assert [(r.wins, r.losses) for r in await db.ratings.records_of(GUILD, user)] == [(rounds, rounds)]


THREAD = 555_654_321_098_765_432


async def test_a_game_in_a_thread_is_found_there_and_announced_there(db: Database) -> None:
    game_id = await new_game(db, active=False)
    assert await db.challenges.activate(game_id, 2.0, [], Announce("start", {"reply": {"token": "t"}}, delay=10))
    await db.outbox.set_thread(game_id, THREAD, ("start", "move", "finish", "reminder"))
    (start,) = await db.outbox.pending_for_game(game_id)
    assert start.channel_id == THREAD and start.payload["reply"] is None  # the click no longer carries the board
    assert [r.id for r in await db.games.active_games_of(ALICE, THREAD)] == [game_id]
    assert [r.id for r in await db.games.active_games_of(ALICE, CHANNEL)] == [game_id]  # and from the parent channel
    assert await db.games.active_games_of(ALICE, THREAD + 1) == []
    written = await db.games.append_moves(game_id, 0, [("D3", 0, ALICE)], 3.0, announce=Announce("move"))
    assert (await db.outbox.announcement(written.announcement_ids[0])).channel_id == THREAD
    assert await db.games.claim_reminder(game_id, 3.0, 4.0, {"user_id": BOB})
    assert (await db.outbox.pending_for_game(game_id))[-1].channel_id == THREAD


async def test_a_finished_game_has_one_rematch(db: Database) -> None:
    game_id = await new_game(db)
    assert await db.challenges.rematch_of(game_id) is None
    common = dict(guild_id=GUILD, channel_id=CHANNEL, game="iago", options={}, rated=True, now=5.0, expires_at=9.0)
    rematch = await db.challenges.insert_game(players=(BOB, ALICE), challenger_id=BOB, rematch_of=game_id, **common)
    assert (await db.challenges.rematch_of(game_id)).id == rematch
    with pytest.raises(DuplicateRematch):  # the unique index, whoever asks (here another pair, so no pair clash)
        await db.challenges.insert_game(players=(CAROL, DAVE), challenger_id=CAROL, rematch_of=game_id, **common)


async def test_game_lists_are_filtered_by_server_and_member_in_sql(db: Database) -> None:
    mine = [await new_game(db, ALICE, b) for b in (BOB, CAROL, DAVE)]
    await new_game(db, BOB, CAROL)
    await new_game(db, ALICE, BOB, guild=GUILD + 1)  # another server
    rows, total = await db.games.guild_games(GUILD, limit=2, offset=0)
    assert total == 4 and len(rows) == 2 and rows[0].id > rows[1].id
    rows, total = await db.games.guild_games(GUILD, user_id=ALICE)
    assert total == 3 and sorted(r.id for r in rows) == mine
