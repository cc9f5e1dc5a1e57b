"""The schema of the first release (yoyo's 0001_initial.sql): games, moves, ratings, records, rating changes.

A database made by that release is recognised at start and stamped at this revision instead of running it.

Revision ID: 0001
Revises:
Create Date: 2026-11-22
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None

# Frozen copies of the types, not imports from storage.schema: a revision must keep doing what it did.
Id = sa.BigInteger().with_variant(sa.Integer(), "sqlite")
Json = sa.JSON().with_variant(postgresql.JSONB(), "postgresql")
Time = sa.Double()


def upgrade() -> None:
    op.create_table(
        "games",
        sa.Column("id", Id, primary_key=True, autoincrement=True),
        sa.Column("guild_id", sa.BigInteger, nullable=False),
        sa.Column("channel_id", sa.BigInteger, nullable=False),
        sa.Column("game", sa.Text, nullable=False),
        sa.Column("options", Json, nullable=False, server_default=sa.text("'{}'")),
        sa.Column("player0_id", sa.BigInteger, nullable=False),
        sa.Column("player1_id", sa.BigInteger, nullable=False),
        sa.Column("challenger_id", sa.BigInteger, nullable=False),
        sa.Column("rated", sa.Boolean, nullable=False, server_default=sa.true()),
        sa.Column("status", sa.Text, nullable=False, server_default="challenge"),
        sa.Column("ply", sa.Integer, nullable=False, server_default="0"),
        sa.Column("winner", sa.Integer),
        sa.Column("result_reason", sa.Text),
        sa.Column("score0", sa.Integer),
        sa.Column("score1", sa.Integer),
        sa.Column("challenge_message_id", sa.BigInteger),
        sa.Column("board_message_id", sa.BigInteger),
        sa.Column("created_at", Time, nullable=False),
        sa.Column("expires_at", Time),
        sa.Column("started_at", Time),
        sa.Column("last_move_at", Time),
        sa.Column("reminded_at", Time),
        sa.Column("finished_at", Time),
        sa.CheckConstraint(
            "status IN ('challenge', 'active', 'finished', 'declined', 'cancelled', 'expired')", name="games_status"
        ),
        sa.CheckConstraint("winner IN (0, 1)", name="games_winner"),
        sa.CheckConstraint("player0_id <> player1_id", name="games_two_players"),
        sqlite_autoincrement=True,
    )
    op.create_index("games_by_channel", "games", ["channel_id", "status"])
    op.create_index("games_by_player0", "games", ["player0_id", "status"])
    op.create_index("games_by_player1", "games", ["player1_id", "status"])
    op.create_table(
        "moves",
        sa.Column("game_id", Id, sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("ply", sa.Integer, primary_key=True),
        sa.Column("move", sa.Text, nullable=False),
        sa.Column("player", sa.Integer),
        sa.Column("user_id", sa.BigInteger),
        sa.Column("created_at", Time, nullable=False),
    )
    op.create_table(
        "ratings",
        sa.Column("guild_id", sa.BigInteger, primary_key=True),
        sa.Column("game", sa.Text, primary_key=True),
        sa.Column("user_id", sa.BigInteger, primary_key=True),
        sa.Column("mu", sa.Double, nullable=False),
        sa.Column("sigma", sa.Double, nullable=False),
        sa.Column("rated_games", sa.Integer, nullable=False, server_default="0"),
    )
    op.create_table(
        "records",
        sa.Column("guild_id", sa.BigInteger, primary_key=True),
        sa.Column("game", sa.Text, primary_key=True),
        sa.Column("user_id", sa.BigInteger, primary_key=True),
        sa.Column("wins", sa.Integer, nullable=False, server_default="0"),
        sa.Column("losses", sa.Integer, nullable=False, server_default="0"),
        sa.Column("draws", sa.Integer, nullable=False, server_default="0"),
    )
    op.create_table(
        "rating_changes",
        sa.Column("game_id", Id, sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("user_id", sa.BigInteger, primary_key=True),
        sa.Column("before", sa.Double, nullable=False),
        sa.Column("after", sa.Double, nullable=False),
    )


def downgrade() -> None:
    for table in ("rating_changes", "records", "ratings", "moves", "games"):
        op.drop_table(table)
