"""Puzzles (issue 20): the mined positions, members' attempts and puzzle ratings, which finished games were mined,
and the daily puzzle of each server and game (``guild_settings.daily_puzzles`` says where and when).

Revision ID: 0007_puzzles
Revises: 0006_lessons
Create Date: 2026-11-23
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision = "0007_puzzles"
down_revision = "0006_lessons"
branch_labels = None
depends_on = None

# Frozen copies of the types, not imports from storage.schema: a revision must keep doing what it did.
Id = sa.BigInteger().with_variant(sa.Integer(), "sqlite")
Json = sa.JSON().with_variant(postgresql.JSONB(), "postgresql")
Time = sa.Double()


def upgrade() -> None:
    # Where and when each game's daily puzzle is posted: {game: [channel id, hour in UTC]}; NULL: none.
    op.add_column("guild_settings", sa.Column("daily_puzzles", Json))
    op.create_table(
        "puzzles",
        sa.Column("id", Id, primary_key=True, autoincrement=True),
        sa.Column("game", sa.Text, nullable=False),
        sa.Column("position_key", sa.Text, nullable=False, unique=True),
        sa.Column("guild_id", sa.BigInteger),
        sa.Column("source_game_id", sa.BigInteger),
        sa.Column("seed", sa.BigInteger),
        sa.Column("ply", sa.Integer, nullable=False),
        sa.Column("options", Json, nullable=False),
        sa.Column("moves", Json, nullable=False),
        sa.Column("solver", sa.Integer, nullable=False),
        sa.Column("solution", Json, nullable=False),
        sa.Column("steps", Json, nullable=False),
        sa.Column("margin", sa.Double, nullable=False),
        sa.Column("mu", sa.Double, nullable=False),
        sa.Column("sigma", sa.Double, nullable=False),
        sa.Column("attempts", sa.Integer, nullable=False),
        sa.Column("solved", sa.Integer, nullable=False),
        sa.Column("created_at", Time, nullable=False),
        sqlite_autoincrement=True,
    )
    op.create_index("puzzles_by_game_rating", "puzzles", ["game", "mu"])
    op.create_table(
        "puzzle_attempts",
        sa.Column("id", Id, primary_key=True, autoincrement=True),
        sa.Column("guild_id", sa.BigInteger, nullable=False),
        sa.Column("user_id", sa.BigInteger, nullable=False),
        sa.Column("game", sa.Text, nullable=False),
        sa.Column("puzzle_id", Id, sa.ForeignKey("puzzles.id", ondelete="CASCADE"), nullable=False),
        sa.Column("step", sa.Integer, nullable=False),
        sa.Column("status", sa.Text, nullable=False),
        sa.Column("mistakes", sa.Integer, nullable=False),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("started_at", Time, nullable=False),
        sa.Column("finished_at", Time),
        sa.CheckConstraint("status IN ('open', 'solved', 'failed', 'left')", name="puzzle_attempts_status"),
        sqlite_autoincrement=True,
    )
    op.create_index("puzzle_attempts_once", "puzzle_attempts", ["guild_id", "user_id", "puzzle_id"], unique=True)
    op.create_index("puzzle_attempts_open", "puzzle_attempts", ["guild_id", "user_id", "game", "status"])
    op.create_index("puzzle_attempts_by_puzzle", "puzzle_attempts", ["puzzle_id", "guild_id"])
    op.create_table(
        "puzzle_ratings",
        sa.Column("guild_id", sa.BigInteger, primary_key=True),
        sa.Column("game", sa.Text, primary_key=True),
        sa.Column("user_id", sa.BigInteger, primary_key=True),
        sa.Column("mu", sa.Double, nullable=False),
        sa.Column("sigma", sa.Double, nullable=False),
        sa.Column("attempts", sa.Integer, nullable=False),
        sa.Column("solved", sa.Integer, nullable=False),
    )
    op.create_table(
        "puzzle_mining",
        sa.Column("game_id", Id, sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("claimed_by", sa.Text),
        sa.Column("claimed_until", Time),
        sa.Column("mined_at", Time),
        sa.Column("found", sa.Integer),
    )
    op.create_table(
        "daily_puzzles",
        sa.Column("guild_id", sa.BigInteger, primary_key=True),
        sa.Column("game", sa.Text, primary_key=True),
        sa.Column("day", sa.Integer, primary_key=True),
        sa.Column("puzzle_id", Id, sa.ForeignKey("puzzles.id", ondelete="CASCADE"), nullable=False),
        sa.Column("channel_id", sa.BigInteger, nullable=False),
        sa.Column("post_claimed_by", sa.Text),
        sa.Column("post_claimed_until", Time),
        sa.Column("posted_at", Time),
        sa.Column("message_id", sa.BigInteger),
        sa.Column("reveal_claimed_by", sa.Text),
        sa.Column("reveal_claimed_until", Time),
        sa.Column("revealed_at", Time),
        sa.Column("created_at", Time, nullable=False),
    )
    op.create_index("daily_puzzles_by_puzzle", "daily_puzzles", ["guild_id", "puzzle_id"], unique=True)


def downgrade() -> None:
    op.drop_index("daily_puzzles_by_puzzle", table_name="daily_puzzles")
    op.drop_table("daily_puzzles")
    op.drop_table("puzzle_mining")
    op.drop_table("puzzle_ratings")
    op.drop_index("puzzle_attempts_by_puzzle", table_name="puzzle_attempts")
    op.drop_index("puzzle_attempts_open", table_name="puzzle_attempts")
    op.drop_index("puzzle_attempts_once", table_name="puzzle_attempts")
    op.drop_table("puzzle_attempts")
    op.drop_index("puzzles_by_game_rating", table_name="puzzles")
    op.drop_table("puzzles")
    op.execute("ALTER TABLE guild_settings DROP COLUMN daily_puzzles")
