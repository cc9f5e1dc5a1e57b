"""Alembic's entry point. ``storage.migrate`` runs it with a connection that already holds the migration lock;
run from the command line (``alembic upgrade head``, ``alembic downgrade -1``) it takes the same lock, with the URL
from ``-x url=...``, ``DATABASE_URL`` or ``alembic.ini``. Only the bot's own start recognises (and stamps) a
database of the first release."""

from __future__ import annotations

import asyncio
import os

from alembic import context
from sqlalchemy.engine import Connection

from storage.schema import metadata

config = context.config


def run_on(connection: Connection) -> None:
    context.configure(connection=connection, target_metadata=metadata, render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()


def main() -> None:
    connection = config.attributes.get("connection")
    if connection is not None:
        run_on(connection)
        return
    if context.is_offline_mode():
        raise SystemExit("Offline (--sql) migrations are not supported: point alembic at a database.")
    from storage.migrate import migration_connection  # a command-line run: take the same lock as the bot does

    url = context.get_x_argument(as_dictionary=True).get("url") or os.environ.get("DATABASE_URL")
    url = url or config.get_main_option("sqlalchemy.url")
    if not url:
        raise SystemExit("Set DATABASE_URL or pass -x url=... to run migrations from the command line.")

    async def run() -> None:
        async with migration_connection(url) as locked:
            await locked.run_sync(run_on)

    asyncio.run(run())


main()
