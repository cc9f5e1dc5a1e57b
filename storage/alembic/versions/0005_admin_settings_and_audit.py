"""Server admins: per-server settings (``guild_settings``) and the audit log of admin actions (``admin_audit``).

Every settings column is nullable: NULL means "the operator's default from the environment", so changing a
default in ``.env`` still reaches every server that never chose otherwise.

Revision ID: 0005_admin
Revises: 0004
Create Date: 2026-11-22
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision = "0005_admin"
down_revision = "0004"
branch_labels = None
depends_on = None

# Frozen copies of the types, not imports from storage.schema: a revision must keep doing what it did.
Id = sa.BigInteger().with_variant(sa.Integer(), "sqlite")
Json = sa.JSON().with_variant(postgresql.JSONB(), "postgresql")
Time = sa.Double()


def upgrade() -> None:
    op.create_table(
        "guild_settings",
        sa.Column("guild_id", sa.BigInteger, primary_key=True, autoincrement=False),
        sa.Column("disabled_games", Json),
        sa.Column("allowed_channels", Json),
        sa.Column("threads", sa.Boolean),
        sa.Column("challenge_minutes", sa.Integer),
        sa.Column("reminder_hours", sa.Integer),
        sa.Column("updated_at", Time, nullable=False),
        sa.CheckConstraint("challenge_minutes BETWEEN 1 AND 1440", name="guild_settings_challenge_minutes"),
        sa.CheckConstraint("reminder_hours BETWEEN 1 AND 168", name="guild_settings_reminder_hours"),
    )
    op.create_table(
        "admin_audit",
        sa.Column("id", Id, primary_key=True, autoincrement=True),
        sa.Column("guild_id", sa.BigInteger, nullable=False),
        sa.Column("user_id", sa.BigInteger, nullable=False),
        sa.Column("action", sa.Text, nullable=False),
        sa.Column("details", Json, nullable=False),
        sa.Column("created_at", Time, nullable=False),
        sqlite_autoincrement=True,
    )
    op.create_index("admin_audit_by_guild", "admin_audit", ["guild_id", "id"])


def downgrade() -> None:
    op.drop_index("admin_audit_by_guild", table_name="admin_audit")
    op.drop_table("admin_audit")
    op.drop_table("guild_settings")
