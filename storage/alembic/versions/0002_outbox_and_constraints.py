"""Nothing lost, nothing leaked: the announcements outbox, one open challenge per pair, query indexes, and no
more ``board_message_id`` (written, never read).

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-22
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

Id = sa.BigInteger().with_variant(sa.Integer(), "sqlite")
Json = sa.JSON().with_variant(postgresql.JSONB(), "postgresql")
Time = sa.Double()


def _pair_functions() -> tuple[str, str]:
    # SQLite's two-argument min()/max() are deterministic scalar functions, so an index may use them.
    return ("min", "max") if op.get_bind().dialect.name == "sqlite" else ("LEAST", "GREATEST")


def upgrade() -> None:
    # The first release checked for an open challenge before inserting one, so two racing challenges could both
    # be stored. Keep the oldest of each pair open and expire the others, or the unique index cannot be built.
    op.execute(
        """
        UPDATE games SET status = 'expired'
        WHERE status = 'challenge' AND EXISTS (
            SELECT 1 FROM games AS older
            WHERE older.status = 'challenge' AND older.guild_id = games.guild_id AND older.id < games.id
              AND ((older.player0_id = games.player0_id AND older.player1_id = games.player1_id)
                OR (older.player0_id = games.player1_id AND older.player1_id = games.player0_id))
        )
        """
    )
    low, high = _pair_functions()
    op.create_index(
        "games_one_open_challenge_per_pair",
        "games",
        ["guild_id", sa.text(f"{low}(player0_id, player1_id)"), sa.text(f"{high}(player0_id, player1_id)")],
        unique=True,
        sqlite_where=sa.text("status = 'challenge'"),
        postgresql_where=sa.text("status = 'challenge'"),
    )

    # Both databases drop a plain column in place (SQLite since 3.35), so no table copy is needed.
    op.execute("ALTER TABLE games DROP COLUMN board_message_id")

    op.drop_index("games_by_channel", table_name="games")
    op.create_index("games_by_guild_channel", "games", ["guild_id", "channel_id", "status"])
    op.create_index("games_by_expiry", "games", ["status", "expires_at"])
    op.create_index("games_by_idle", "games", ["status", "last_move_at"])

    op.create_table(
        "announcements",
        sa.Column("id", Id, primary_key=True, autoincrement=True),
        sa.Column("game_id", Id, sa.ForeignKey("games.id", ondelete="CASCADE"), nullable=False),
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
    op.create_index(
        "announcements_pending",
        "announcements",
        ["next_attempt_at", "id"],
        sqlite_where=sa.text("delivered_at IS NULL"),
        postgresql_where=sa.text("delivered_at IS NULL"),
    )
    op.create_index("announcements_by_game", "announcements", ["game_id", "id"])


def downgrade() -> None:
    op.drop_table("announcements")
    op.drop_index("games_by_idle", table_name="games")
    op.drop_index("games_by_expiry", table_name="games")
    op.drop_index("games_by_guild_channel", table_name="games")
    op.create_index("games_by_channel", "games", ["channel_id", "status"])
    op.add_column("games", sa.Column("board_message_id", sa.BigInteger))
    op.drop_index("games_one_open_challenge_per_pair", table_name="games")
