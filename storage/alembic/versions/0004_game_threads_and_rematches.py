"""A thread per game and rematches: ``games.thread_id`` (where a game is played, when it has its own thread) and
``games.rematch_of`` (the finished game a challenge is the rematch of; unique, so a game has one rematch).

Revision ID: 0004
Revises: 0003_computer
Create Date: 2026-11-22
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003_computer"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Plain nullable columns: both databases add them in place, old rows read NULL (no thread, no rematch).
    op.add_column("games", sa.Column("thread_id", sa.BigInteger))
    op.add_column("games", sa.Column("rematch_of", sa.BigInteger))
    # find_game looks a game up by the thread a command was used in.
    op.create_index("games_by_thread", "games", ["thread_id", "status"])
    # The server's game lists: a guild's games by status.
    op.create_index("games_by_guild_status", "games", ["guild_id", "status", "id"])
    # NULLs never collide in a unique index (SQLite and PostgreSQL), so only real rematches are limited to one.
    op.create_index("games_one_rematch", "games", ["rematch_of"], unique=True)


def downgrade() -> None:
    op.drop_index("games_one_rematch", table_name="games")
    op.drop_index("games_by_guild_status", table_name="games")
    op.drop_index("games_by_thread", table_name="games")
    # drop_column rebuilds nothing on PostgreSQL; on SQLite 3.35+ it drops in place.
    op.execute("ALTER TABLE games DROP COLUMN rematch_of")
    op.execute("ALTER TABLE games DROP COLUMN thread_id")
