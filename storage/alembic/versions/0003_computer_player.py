"""Games against the bot itself: which side the bot plays, and at which level.

Revision ID: 0003_computer
Revises: 0002
Create Date: 2026-11-22
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003_computer"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("ai_side", sa.Integer, nullable=True))
        batch.add_column(sa.Column("ai_level", sa.Integer, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("ai_level")
        batch.drop_column("ai_side")
