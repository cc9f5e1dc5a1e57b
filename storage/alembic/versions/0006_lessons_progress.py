"""Lessons: where each member is in each game's course (``/<game> learn``), per server.

Revision ID: 0006_lessons
Revises: 0005_admin
Create Date: 2026-11-23
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006_lessons"
down_revision = "0005_admin"
branch_labels = None
depends_on = None

Time = sa.Double()  # a frozen copy of storage.schema's type: a revision must keep doing what it did


def upgrade() -> None:
    op.create_table(
        "lesson_progress",
        sa.Column("guild_id", sa.BigInteger, primary_key=True, autoincrement=False),
        sa.Column("user_id", sa.BigInteger, primary_key=True, autoincrement=False),
        sa.Column("game", sa.Text, primary_key=True),
        sa.Column("lesson", sa.Text, nullable=False),  # the lesson's key, or "done" after the last one
        sa.Column("step", sa.Integer, nullable=False),
        sa.Column("completed_at", Time),  # when the member first finished the course
        sa.Column("updated_at", Time, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("lesson_progress")
