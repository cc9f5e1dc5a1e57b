"""Bring a database to the newest Alembic revision, once, even when several processes start together.

- PostgreSQL: the upgrade runs in one transaction that first takes ``pg_advisory_xact_lock``; a second process
  waits on the lock, then finds the database at head and does nothing.
- SQLite: the upgrade runs in one ``BEGIN IMMEDIATE`` transaction, so the file's write lock plays the same part
  (SQLite's DDL is transactional once the driver stops committing behind our back, see ``engine.py``).

A database made by the first release (yoyo-migrations: tables ``_yoyo_migration`` etc. and ``games``, but no
``alembic_version``) is stamped at revision 0001, which is exactly that schema, before upgrading.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from sqlalchemy.engine import URL, Connection
from sqlalchemy.ext.asyncio import AsyncConnection

from storage.engine import database_url, make_engine

log = logging.getLogger(__name__)

ALEMBIC_DIR = Path(__file__).with_name("alembic")
FIRST_RELEASE_REVISION = "0001"
# Any fixed 64-bit number: the advisory lock every process of this bot takes around migrations.
PG_MIGRATION_LOCK = 7_265_844_112_001


def alembic_config(connection: Connection | None = None) -> Config:
    config = Config()
    config.set_main_option("script_location", str(ALEMBIC_DIR))
    if connection is not None:
        config.attributes["connection"] = connection
    return config


def _upgrade(connection: Connection) -> None:
    config = alembic_config(connection)
    tables = set(sa.inspect(connection).get_table_names())
    if "alembic_version" not in tables and "games" in tables:
        legacy = sorted(t for t in tables if t.startswith(("_yoyo", "yoyo")))
        log.info("Found a database of the first release (%s): stamping it at %s", legacy, FIRST_RELEASE_REVISION)
        command.stamp(config, FIRST_RELEASE_REVISION)
    command.upgrade(config, "head")
    if connection.dialect.name == "sqlite":
        problems = connection.exec_driver_sql("PRAGMA foreign_key_check").fetchall()
        if problems:
            raise RuntimeError(f"Migration left rows pointing nowhere: {problems[:5]}")


@asynccontextmanager
async def migration_connection(target: str | Path | URL) -> AsyncIterator[AsyncConnection]:
    """A connection in a transaction that holds the migration lock; committed when the block ends."""
    engine = make_engine(database_url(target), migrating=True)
    try:
        async with engine.connect() as connection:
            await connection.execution_options(sqlite_immediate=True)
            async with connection.begin():
                if connection.dialect.name == "postgresql":
                    await connection.execute(sa.text("SELECT pg_advisory_xact_lock(:key)"), {"key": PG_MIGRATION_LOCK})
                yield connection
    finally:
        await engine.dispose()


async def upgrade_url(target: str | Path | URL) -> None:
    """Migrate the database at ``target`` to head under the migration lock."""
    async with migration_connection(target) as connection:
        await connection.run_sync(_upgrade)
