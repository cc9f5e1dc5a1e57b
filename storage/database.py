"""aiosqlite access: one connection, WAL, foreign keys, numbered SQL migrations, small typed queries.

No game logic lives here. Writes go through :meth:`Database.transaction`, which serialises them on an
asyncio lock (one connection is shared by every coroutine) and uses ``BEGIN IMMEDIATE`` so a second
process on the same file waits instead of interleaving.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiosqlite
from yoyo import get_backend, read_migrations

log = logging.getLogger(__name__)

MIGRATIONS = Path(__file__).with_name("migrations")

GAME_COLUMNS = (
    "id, guild_id, channel_id, game, options, player0_id, player1_id, challenger_id, rated, status, ply, "
    "winner, result_reason, score0, score1, challenge_message_id, board_message_id, created_at, expires_at, "
    "started_at, last_move_at, reminded_at, finished_at"
)


@dataclass(frozen=True)
class GameRow:
    id: int
    guild_id: int
    channel_id: int
    game: str
    options: dict[str, Any]
    players: tuple[int, int]
    challenger_id: int
    rated: bool
    status: str
    ply: int
    winner: int | None
    result_reason: str | None
    scores: tuple[int, int] | None
    challenge_message_id: int | None
    board_message_id: int | None
    created_at: float
    expires_at: float | None
    started_at: float | None
    last_move_at: float | None
    reminded_at: float | None
    finished_at: float | None

    @property
    def opponent_id(self) -> int:
        """The challenged member: whichever player did not issue the challenge."""
        return self.players[1] if self.players[0] == self.challenger_id else self.players[0]

    def side_of(self, user_id: int) -> int | None:
        return self.players.index(user_id) if user_id in self.players else None

    @classmethod
    def from_sql(cls, row: aiosqlite.Row) -> GameRow:
        score0, score1 = row["score0"], row["score1"]
        return cls(
            id=row["id"],
            guild_id=row["guild_id"],
            channel_id=row["channel_id"],
            game=row["game"],
            options=json.loads(row["options"]),
            players=(row["player0_id"], row["player1_id"]),
            challenger_id=row["challenger_id"],
            rated=bool(row["rated"]),
            status=row["status"],
            ply=row["ply"],
            winner=row["winner"],
            result_reason=row["result_reason"],
            scores=None if score0 is None else (score0, score1),
            challenge_message_id=row["challenge_message_id"],
            board_message_id=row["board_message_id"],
            created_at=row["created_at"],
            expires_at=row["expires_at"],
            started_at=row["started_at"],
            last_move_at=row["last_move_at"],
            reminded_at=row["reminded_at"],
            finished_at=row["finished_at"],
        )


@dataclass(frozen=True)
class RatingRow:
    user_id: int
    mu: float
    sigma: float
    rated_games: int


@dataclass(frozen=True)
class RecordRow:
    game: str
    wins: int
    losses: int
    draws: int


class StalePly(Exception):
    """The game moved on (or ended) between reading it and writing a move: the write was refused."""


def apply_migrations(path: Path) -> None:
    """Bring the schema up to date; blocking, so callers run it in a thread."""
    backend = get_backend(f"sqlite:///{path}")
    migrations = read_migrations(str(MIGRATIONS))
    with backend.lock():
        pending = backend.to_apply(migrations)
        if pending:
            log.info("Applying %d migration(s) to %s", len(pending), path)
        backend.apply_migrations(pending)


class Database:
    def __init__(self, connection: aiosqlite.Connection) -> None:
        self._db = connection
        self._write_lock = asyncio.Lock()

    @classmethod
    async def open(cls, path: str | Path) -> Database:
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        await asyncio.to_thread(apply_migrations, path)
        connection = await aiosqlite.connect(path, isolation_level=None)
        connection.row_factory = aiosqlite.Row
        await connection.execute("PRAGMA journal_mode=WAL")
        await connection.execute("PRAGMA foreign_keys=ON")
        await connection.execute("PRAGMA busy_timeout=5000")
        return cls(connection)

    async def close(self) -> None:
        await self._db.close()

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        async with self._write_lock:
            await self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
            except BaseException:
                await self._db.execute("ROLLBACK")
                raise
            await self._db.execute("COMMIT")

    async def _fetch_games(self, where: str, params: Iterable[Any]) -> list[GameRow]:
        async with self._db.execute(f"SELECT {GAME_COLUMNS} FROM games WHERE {where}", tuple(params)) as cursor:
            return [GameRow.from_sql(row) async for row in cursor]

    # --- games ---------------------------------------------------------------------------------

    async def insert_game(
        self,
        *,
        guild_id: int,
        channel_id: int,
        game: str,
        options: dict[str, Any],
        players: tuple[int, int],
        challenger_id: int,
        rated: bool,
        now: float,
        expires_at: float,
    ) -> int:
        async with self.transaction() as db:
            cursor = await db.execute(
                "INSERT INTO games (guild_id, channel_id, game, options, player0_id, player1_id, challenger_id,"
                " rated, status, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'challenge', ?, ?)",
                (
                    guild_id,
                    channel_id,
                    game,
                    json.dumps(options),
                    *players,
                    challenger_id,
                    int(rated),
                    now,
                    expires_at,
                ),
            )
            assert cursor.lastrowid is not None
            return cursor.lastrowid

    async def game(self, game_id: int) -> GameRow | None:
        rows = await self._fetch_games("id = ?", (game_id,))
        return rows[0] if rows else None

    async def open_challenge_between(self, guild_id: int, a: int, b: int) -> GameRow | None:
        rows = await self._fetch_games(
            "guild_id = ? AND status = 'challenge' AND "
            "((player0_id = ? AND player1_id = ?) OR (player0_id = ? AND player1_id = ?))",
            (guild_id, a, b, b, a),
        )
        return rows[0] if rows else None

    async def open_challenges_by(self, guild_id: int, user_id: int) -> int:
        async with self._db.execute(
            "SELECT COUNT(*) FROM games WHERE guild_id = ? AND challenger_id = ? AND status = 'challenge'",
            (guild_id, user_id),
        ) as cursor:
            row = await cursor.fetchone()
        return int(row[0]) if row else 0

    async def active_games_of(self, user_id: int, channel_id: int | None = None) -> list[GameRow]:
        where = "status = 'active' AND (player0_id = ? OR player1_id = ?)"
        params: list[Any] = [user_id, user_id]
        if channel_id is not None:
            where += " AND channel_id = ?"
            params.append(channel_id)
        return await self._fetch_games(where + " ORDER BY id", params)

    async def games_with_status(self, status: str) -> list[GameRow]:
        return await self._fetch_games("status = ? ORDER BY id", (status,))

    async def set_message(self, game_id: int, column: str, message_id: int) -> None:
        if column not in ("challenge_message_id", "board_message_id"):
            raise ValueError(column)
        async with self.transaction() as db:
            await db.execute(f"UPDATE games SET {column} = ? WHERE id = ?", (message_id, game_id))

    async def transition(self, game_id: int, from_status: str, to_status: str, now: float) -> bool:
        """Move a game between statuses only if it is still in ``from_status``; False if someone was first."""
        started = ", started_at = ?, last_move_at = ?" if to_status == "active" else ""
        params: tuple[Any, ...] = (to_status, now, now) if started else (to_status,)
        async with self.transaction() as db:
            cursor = await db.execute(
                f"UPDATE games SET status = ?{started} WHERE id = ? AND status = ?",
                (*params, game_id, from_status),
            )
            return cursor.rowcount == 1

    async def activate(self, game_id: int, now: float, opening: list[tuple[str, int | None, int | None]]) -> bool:
        """Accept a challenge: make the game active and log its opening chance moves in one commit.
        False when the challenge is no longer open (declined, cancelled, expired or accepted twice)."""
        async with self.transaction() as db:
            cursor = await db.execute(
                "UPDATE games SET status = 'active', started_at = ?, last_move_at = ?, ply = ?"
                " WHERE id = ? AND status = 'challenge'",
                (now, now, len(opening), game_id),
            )
            if cursor.rowcount != 1:
                return False
            await db.executemany(
                "INSERT INTO moves (game_id, ply, move, player, user_id, created_at) VALUES (?, ?, ?, ?, ?, ?)",
                [(game_id, ply, move, player, user, now) for ply, (move, player, user) in enumerate(opening)],
            )
            return True

    async def mark_reminded(self, game_id: int, now: float) -> None:
        async with self.transaction() as db:
            await db.execute("UPDATE games SET reminded_at = ? WHERE id = ?", (now, game_id))

    # --- moves ---------------------------------------------------------------------------------

    async def moves(self, game_id: int) -> list[str]:
        async with self._db.execute("SELECT move FROM moves WHERE game_id = ? ORDER BY ply", (game_id,)) as cursor:
            return [row["move"] async for row in cursor]

    async def append_moves(
        self,
        game_id: int,
        expected_ply: int,
        moves: list[tuple[str, int | None, int | None]],
        now: float,
        finish: tuple[int | None, str, tuple[int, int]] | None = None,
    ) -> None:
        """Append ``(move, player, user_id)`` rows in one transaction, only if the game is still active
        at ``expected_ply``. The ply check in the same transaction is what makes a double click (or
        a second process) unable to apply a move twice. ``finish`` ends the game in the same commit."""
        async with self.transaction() as db:
            cursor = await db.execute(
                "UPDATE games SET ply = ?, last_move_at = ?, reminded_at = NULL"
                " WHERE id = ? AND ply = ? AND status = 'active'",
                (expected_ply + len(moves), now, game_id, expected_ply),
            )
            if cursor.rowcount != 1:
                raise StalePly(game_id)
            await db.executemany(
                "INSERT INTO moves (game_id, ply, move, player, user_id, created_at) VALUES (?, ?, ?, ?, ?, ?)",
                [
                    (game_id, expected_ply + offset, move, player, user_id, now)
                    for offset, (move, player, user_id) in enumerate(moves)
                ],
            )
            if finish is not None:
                await self._finish(db, game_id, finish, now)

    async def finish_without_move(
        self, game_id: int, expected_ply: int, finish: tuple[int | None, str, tuple[int, int]], now: float
    ) -> None:
        """End an active game (resignation, claimed timeout) if nobody moved in the meantime."""
        async with self.transaction() as db:
            cursor = await db.execute(
                "SELECT 1 FROM games WHERE id = ? AND ply = ? AND status = 'active'", (game_id, expected_ply)
            )
            if await cursor.fetchone() is None:
                raise StalePly(game_id)
            await self._finish(db, game_id, finish, now)

    @staticmethod
    async def _finish(
        db: aiosqlite.Connection, game_id: int, finish: tuple[int | None, str, tuple[int, int]], now: float
    ) -> None:
        winner, reason, (score0, score1) = finish
        await db.execute(
            "UPDATE games SET status = 'finished', winner = ?, result_reason = ?, score0 = ?, score1 = ?,"
            " finished_at = ? WHERE id = ?",
            (winner, reason, score0, score1, now, game_id),
        )

    # --- ratings and records ---------------------------------------------------------------------

    async def rating(self, guild_id: int, game: str, user_id: int) -> RatingRow | None:
        async with self._db.execute(
            "SELECT user_id, mu, sigma, rated_games FROM ratings WHERE guild_id = ? AND game = ? AND user_id = ?",
            (guild_id, game, user_id),
        ) as cursor:
            row = await cursor.fetchone()
        return None if row is None else RatingRow(row["user_id"], row["mu"], row["sigma"], row["rated_games"])

    async def record_result(
        self,
        game: GameRow,
        outcome: tuple[str, str],
        new_ratings: dict[int, tuple[float, float, float]] | None,
    ) -> None:
        """Count the result for both players; ``outcome`` is each player's 'wins'/'losses'/'draws';
        ``new_ratings`` maps user id to (mu, sigma, displayed rating before) for rated games."""
        async with self.transaction() as db:
            for user_id, column in zip(game.players, outcome, strict=True):
                await db.execute(
                    "INSERT INTO records (guild_id, game, user_id) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
                    (game.guild_id, game.game, user_id),
                )
                await db.execute(
                    f"UPDATE records SET {column} = {column} + 1 WHERE guild_id = ? AND game = ? AND user_id = ?",
                    (game.guild_id, game.game, user_id),
                )
            for user_id, (mu, sigma, before) in (new_ratings or {}).items():
                await db.execute(
                    "INSERT INTO ratings (guild_id, game, user_id, mu, sigma, rated_games) VALUES (?, ?, ?, ?, ?, 1)"
                    " ON CONFLICT (guild_id, game, user_id) DO UPDATE SET mu = excluded.mu,"
                    " sigma = excluded.sigma, rated_games = rated_games + 1",
                    (game.guild_id, game.game, user_id, mu, sigma),
                )
                await db.execute(
                    "INSERT OR REPLACE INTO rating_changes (game_id, user_id, before, after) VALUES (?, ?, ?, ?)",
                    (game.id, user_id, before, mu),
                )

    async def rating_changes(self, game_id: int) -> dict[int, tuple[float, float]]:
        async with self._db.execute(
            "SELECT user_id, before, after FROM rating_changes WHERE game_id = ?", (game_id,)
        ) as cursor:
            return {row["user_id"]: (row["before"], row["after"]) async for row in cursor}

    async def leaderboard(self, guild_id: int, game: str, limit: int) -> list[RatingRow]:
        # Sorted by the conservative estimate (mu - 3 sigma), as TrueSkill-style boards do, so one
        # lucky win does not put a newcomer on top.
        async with self._db.execute(
            "SELECT user_id, mu, sigma, rated_games FROM ratings WHERE guild_id = ? AND game = ?"
            " ORDER BY mu - 3 * sigma DESC, user_id LIMIT ?",
            (guild_id, game, limit),
        ) as cursor:
            return [RatingRow(row["user_id"], row["mu"], row["sigma"], row["rated_games"]) async for row in cursor]

    async def records_of(self, guild_id: int, user_id: int) -> list[RecordRow]:
        async with self._db.execute(
            "SELECT game, wins, losses, draws FROM records WHERE guild_id = ? AND user_id = ? ORDER BY game",
            (guild_id, user_id),
        ) as cursor:
            return [RecordRow(row["game"], row["wins"], row["losses"], row["draws"]) async for row in cursor]
