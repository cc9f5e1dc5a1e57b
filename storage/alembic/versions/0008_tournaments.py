"""Play with the whole server: open challenges, tournaments and seasons.

- ``games``: an open challenge keeps its open seat as player id 0 (``storage.rows.OPEN_SEAT``) until a member takes
  it, within ``rating_min``/``rating_max`` when the challenger chose a range. Nullable player columns would mean
  rebuilding ``games``, the biggest table, on SQLite, and a missing player for every reader of ``players``; 0 is
  never a Discord id (those are positive, a forgotten member's negative). The one-open-challenge-per-pair index
  then also allows one open challenge to anyone per member and server. ``tournament_id`` and ``move_seconds`` (a
  correspondence clock) mark a tournament's games.
- ``announcements.game_id`` becomes nullable: a tournament's rounds and standings and a season's end are announced
  through the same outbox, without a game. SQLite cannot drop a NOT NULL in place, so that table (which nothing
  references) is rebuilt.
- ``tournaments``, ``tournament_players``, ``tournament_pairings``, ``competition_settings`` (who may organise
  tournaments), ``seasons`` and ``season_ratings``.

Revision ID: 0008_tournaments
Revises: 0007_puzzles
Create Date: 2026-11-23
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision = "0008_tournaments"
down_revision = "0007_puzzles"
branch_labels = None
depends_on = None

# Frozen copies of the types, not imports from storage.schema: a revision must keep doing what it did.
Id = sa.BigInteger().with_variant(sa.Integer(), "sqlite")
Json = sa.JSON().with_variant(postgresql.JSONB(), "postgresql")
Time = sa.Double()

ANNOUNCEMENT_COLUMNS = (
    "id, game_id, guild_id, channel_id, kind, ply, payload, created_at, delivered_at, claimed_by, claimed_until, "
    "attempts, next_attempt_at, message_id, last_error"
)


def _announcements_table(name: str, *, game_required: bool) -> None:
    op.create_table(
        name,
        sa.Column("id", Id, primary_key=True, autoincrement=True),
        sa.Column("game_id", Id, sa.ForeignKey("games.id", ondelete="CASCADE"), nullable=not game_required),
        sa.Column("guild_id", sa.BigInteger, nullable=False),
        sa.Column("channel_id", sa.BigInteger, nullable=False),
        sa.Column("kind", sa.Text, nullable=False),
        sa.Column("ply", sa.Integer),
        sa.Column("payload", Json, nullable=False, server_default=sa.text("'{}'")),
        sa.Column("created_at", Time, nullable=False),
        sa.Column("delivered_at", Time),
        sa.Column("claimed_by", sa.Text),
        sa.Column("claimed_until", Time),
        sa.Column("attempts", sa.Integer, nullable=False, server_default="0"),
        sa.Column("next_attempt_at", Time, nullable=False),
        sa.Column("message_id", sa.BigInteger),
        sa.Column("last_error", sa.Text),
        sqlite_autoincrement=True,
    )


def _announcement_indexes() -> None:
    op.create_index(
        "announcements_pending",
        "announcements",
        ["next_attempt_at", "id"],
        sqlite_where=sa.text("delivered_at IS NULL"),
        postgresql_where=sa.text("delivered_at IS NULL"),
    )
    op.create_index("announcements_by_game", "announcements", ["game_id", "id"])


def _rebuild_announcements(*, game_required: bool) -> None:
    """SQLite: copy the outbox into a table whose ``game_id`` is (or is not) nullable, keeping ids and the
    AUTOINCREMENT counter (ids name Discord nonces: one must never come back)."""
    op.drop_index("announcements_by_game", table_name="announcements")
    op.drop_index("announcements_pending", table_name="announcements")
    op.rename_table("announcements", "announcements_before_0008")
    _announcements_table("announcements", game_required=game_required)
    op.execute(
        f"INSERT INTO announcements ({ANNOUNCEMENT_COLUMNS}) "
        f"SELECT {ANNOUNCEMENT_COLUMNS} FROM announcements_before_0008"
        + (" WHERE game_id IS NOT NULL" if game_required else "")
    )
    op.execute(
        "UPDATE sqlite_sequence SET seq = max(seq, coalesce((SELECT seq FROM sqlite_sequence "
        "WHERE name = 'announcements_before_0008'), 0)) WHERE name = 'announcements'"
    )
    op.execute(
        "INSERT INTO sqlite_sequence (name, seq) SELECT 'announcements', seq FROM sqlite_sequence "
        "WHERE name = 'announcements_before_0008' "
        "AND NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = 'announcements')"
    )
    op.drop_table("announcements_before_0008")
    _announcement_indexes()


def upgrade() -> None:
    # Plain nullable columns: both databases add them in place; old games read NULL (no tournament, no clock).
    op.add_column("games", sa.Column("tournament_id", sa.BigInteger))
    op.add_column("games", sa.Column("move_seconds", Time))
    op.add_column("games", sa.Column("rating_min", sa.Integer))
    op.add_column("games", sa.Column("rating_max", sa.Integer))
    op.create_index("games_by_tournament", "games", ["tournament_id", "status"])

    if op.get_bind().dialect.name == "sqlite":
        _rebuild_announcements(game_required=False)
    else:
        op.alter_column("announcements", "game_id", nullable=True)

    op.create_table(
        "tournaments",
        sa.Column("id", Id, primary_key=True, autoincrement=True),
        sa.Column("guild_id", sa.BigInteger, nullable=False),
        sa.Column("channel_id", sa.BigInteger, nullable=False),
        sa.Column("name", sa.Text, nullable=False),
        sa.Column("game", sa.Text, nullable=False),
        sa.Column("options", Json, nullable=False),
        sa.Column("format", sa.Text, nullable=False),
        sa.Column("rounds", sa.Integer, nullable=False),
        sa.Column("legs", sa.Integer, nullable=False),
        sa.Column("move_seconds", Time, nullable=False),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("signup_deadline", Time, nullable=False),
        sa.Column("max_players", sa.Integer, nullable=False),
        sa.Column("status", sa.Text, nullable=False),
        sa.Column("round", sa.Integer, nullable=False),
        sa.Column("revision", sa.Integer, nullable=False),
        sa.Column("winner_role_id", sa.BigInteger),
        sa.Column("message_id", sa.BigInteger),
        sa.Column("created_by", sa.BigInteger, nullable=False),
        sa.Column("created_at", Time, nullable=False),
        sa.Column("started_at", Time),
        sa.Column("finished_at", Time),
        sa.CheckConstraint("format IN ('swiss', 'round_robin')", name="tournaments_format"),
        sa.CheckConstraint("status IN ('signup', 'running', 'finished', 'cancelled')", name="tournaments_status"),
        sqlite_autoincrement=True,
    )
    op.create_index("tournaments_by_status", "tournaments", ["status", "guild_id"])
    op.create_table(
        "tournament_players",
        sa.Column("tournament_id", Id, sa.ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("user_id", sa.BigInteger, primary_key=True),
        sa.Column("joined_at", Time, nullable=False),
        sa.Column("seed", sa.Integer),
        sa.Column("rating", sa.Double),
        sa.Column("removed_at", Time),
    )
    op.create_table(
        "tournament_pairings",
        sa.Column("tournament_id", Id, sa.ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("round", sa.Integer, primary_key=True),
        sa.Column("board", sa.Integer, primary_key=True),
        sa.Column("player0_id", sa.BigInteger, nullable=False),
        sa.Column("player1_id", sa.BigInteger),
        sa.Column("game_id", Id, sa.ForeignKey("games.id", ondelete="SET NULL")),
        sa.Column("points0", sa.Integer),
        sa.Column("points1", sa.Integer),
    )
    op.create_index("tournament_pairings_by_game", "tournament_pairings", ["game_id"])
    op.create_table(
        "competition_settings",
        sa.Column("guild_id", sa.BigInteger, primary_key=True, autoincrement=False),
        sa.Column("organiser_role_id", sa.BigInteger),
        sa.Column("updated_at", Time, nullable=False),
    )
    op.create_table(
        "seasons",
        sa.Column("guild_id", sa.BigInteger, primary_key=True, autoincrement=False),
        sa.Column("number", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("channel_id", sa.BigInteger, nullable=False),
        sa.Column("months", sa.Integer, nullable=False),
        sa.Column("starts_at", Time, nullable=False),
        sa.Column("ends_at", Time, nullable=False),
        sa.Column("closed_at", Time),
    )
    # At most one season running per server: a second start, or a rollover run twice, is refused by the index.
    op.create_index(
        "seasons_one_open",
        "seasons",
        ["guild_id"],
        unique=True,
        sqlite_where=sa.text("closed_at IS NULL"),
        postgresql_where=sa.text("closed_at IS NULL"),
    )
    op.create_table(
        "season_ratings",
        sa.Column("guild_id", sa.BigInteger, primary_key=True),
        sa.Column("season", sa.Integer, primary_key=True),
        sa.Column("game", sa.Text, primary_key=True),
        sa.Column("user_id", sa.BigInteger, primary_key=True),
        sa.Column("mu", sa.Double, nullable=False),
        sa.Column("sigma", sa.Double, nullable=False),
        sa.Column("rated_games", sa.Integer, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("season_ratings")
    op.drop_index("seasons_one_open", table_name="seasons")
    op.drop_table("seasons")
    op.drop_table("competition_settings")
    op.drop_index("tournament_pairings_by_game", table_name="tournament_pairings")
    op.drop_table("tournament_pairings")
    op.drop_table("tournament_players")
    op.drop_index("tournaments_by_status", table_name="tournaments")
    op.drop_table("tournaments")
    if op.get_bind().dialect.name == "sqlite":
        _rebuild_announcements(game_required=True)  # announcements without a game cannot be kept
    else:
        op.execute("DELETE FROM announcements WHERE game_id IS NULL")
        op.alter_column("announcements", "game_id", nullable=False)
    op.drop_index("games_by_tournament", table_name="games")
    for column in ("rating_max", "rating_min", "move_seconds", "tournament_id"):
        op.execute(f"ALTER TABLE games DROP COLUMN {column}")
