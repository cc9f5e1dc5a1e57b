"""Puzzles worth solving (issue 29): themes, streaks, and daily puzzles that may come back after a year.

- ``puzzles.themes``: the puzzle's theme keys (JSON list; the shipped set's, docs/puzzles.md); NULL for a puzzle
  whose themes are not known (one mined from a server's own game).
- ``puzzle_streaks``: a member's streaks of puzzles of rising difficulty, one open at a time per server, member and
  game (a partial unique index); ``puzzle_attempts.streak_id`` marks the attempts that are a streak's puzzles.
- ``daily_puzzles_by_puzzle`` is no longer unique: a server's daily puzzle never repeats within a year, and may after.

Revision ID: 0009_puzzle_streaks
Revises: 0008_tournaments
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision = "0009_puzzle_streaks"
down_revision = "0008_tournaments"
branch_labels = None
depends_on = None

# Frozen copies of the types, not imports from storage.schema: a revision must keep doing what it did.
Id = sa.BigInteger().with_variant(sa.Integer(), "sqlite")
Json = sa.JSON().with_variant(postgresql.JSONB(), "postgresql")
Time = sa.Double()


def upgrade() -> None:
    op.add_column("puzzles", sa.Column("themes", Json))
    op.add_column("puzzle_attempts", sa.Column("streak_id", Id))
    op.create_table(
        "puzzle_streaks",
        sa.Column("id", Id, primary_key=True, autoincrement=True),
        sa.Column("guild_id", sa.BigInteger, nullable=False),
        sa.Column("user_id", sa.BigInteger, nullable=False),
        sa.Column("game", sa.Text, nullable=False),
        sa.Column("solved", sa.Integer, nullable=False),
        sa.Column("rating", sa.Double),
        sa.Column("attempt_id", Id),
        sa.Column("started_at", Time, nullable=False),
        sa.Column("ended_at", Time),
        sqlite_autoincrement=True,
    )
    # One open streak per server, member and game: a second start (a double click) is refused by the index.
    op.create_index(
        "puzzle_streaks_one_open",
        "puzzle_streaks",
        ["guild_id", "user_id", "game"],
        unique=True,
        sqlite_where=sa.text("ended_at IS NULL"),
        postgresql_where=sa.text("ended_at IS NULL"),
    )
    op.create_index("puzzle_streaks_by_game", "puzzle_streaks", ["guild_id", "game", "solved"])
    op.drop_index("daily_puzzles_by_puzzle", table_name="daily_puzzles")
    op.create_index("daily_puzzles_by_puzzle", "daily_puzzles", ["guild_id", "puzzle_id", "day"])


def downgrade() -> None:
    # A puzzle posted twice (a year apart) keeps its latest day: the unique index allows one.
    op.execute(
        "DELETE FROM daily_puzzles WHERE EXISTS (SELECT 1 FROM daily_puzzles AS later "
        "WHERE later.guild_id = daily_puzzles.guild_id AND later.puzzle_id = daily_puzzles.puzzle_id "
        "AND later.day > daily_puzzles.day)"
    )
    op.drop_index("daily_puzzles_by_puzzle", table_name="daily_puzzles")
    op.create_index("daily_puzzles_by_puzzle", "daily_puzzles", ["guild_id", "puzzle_id"], unique=True)
    op.drop_index("puzzle_streaks_by_game", table_name="puzzle_streaks")
    op.drop_index("puzzle_streaks_one_open", table_name="puzzle_streaks")
    op.drop_table("puzzle_streaks")
    op.execute("ALTER TABLE puzzle_attempts DROP COLUMN streak_id")
    op.execute("ALTER TABLE puzzles DROP COLUMN themes")
