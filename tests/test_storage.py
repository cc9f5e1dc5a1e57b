"""Storage: migrations, pragmas, the move log and its ply guard."""

from __future__ import annotations

from pathlib import Path

import pytest

from storage.database import Database, StalePly


async def test_migrations_apply_once_and_pragmas_are_set(tmp_path: Path) -> None:
    path = tmp_path / "nested" / "games.sqlite3"
    db = await Database.open(path)
    await db.close()
    db = await Database.open(path)  # a second start applies nothing and keeps the data
    try:
        async with db._db.execute("PRAGMA journal_mode") as cursor:
            assert (await cursor.fetchone())[0] == "wal"
        async with db._db.execute("PRAGMA foreign_keys") as cursor:
            assert (await cursor.fetchone())[0] == 1
        async with db._db.execute("SELECT name FROM sqlite_master WHERE type = 'table'") as cursor:
            tables = {row[0] async for row in cursor}
        assert {"games", "moves", "ratings", "records", "rating_changes"} <= tables
    finally:
        await db.close()


async def test_moves_need_an_existing_game_and_the_current_ply(tmp_path: Path) -> None:
    db = await Database.open(tmp_path / "games.sqlite3")
    try:
        game_id = await db.insert_game(
            guild_id=1,
            channel_id=2,
            game="iago",
            options={"variant": "loose"},
            players=(10, 11),
            challenger_id=10,
            rated=True,
            now=1.0,
            expires_at=60.0,
        )
        with pytest.raises(StalePly):  # a challenge is not active yet
            await db.append_moves(game_id, 0, [("E4", 0, 10)], now=2.0)
        assert await db.activate(game_id, 3.0, [])
        assert not await db.activate(game_id, 3.0, [])  # accepting twice does nothing
        await db.append_moves(game_id, 0, [("E4", 0, 10), ("E6", 1, 11)], now=4.0)
        with pytest.raises(StalePly):
            await db.append_moves(game_id, 1, [("D4", 1, 11)], now=5.0)
        row = await db.game(game_id)
        assert row is not None and row.ply == 2 and row.options == {"variant": "loose"}
        assert await db.moves(game_id) == ["E4", "E6"]
        await db.append_moves(game_id, 2, [("D4", 0, 10)], now=6.0, finish=(1, "score", (3, 7)))
        row = await db.game(game_id)
        assert row is not None and (row.status, row.winner, row.scores) == ("finished", 1, (3, 7))
    finally:
        await db.close()
