"""The session service over a real database (SQLite and PostgreSQL), with a clock the tests move by hand."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from sessions.service import GameService, Settings
from storage.database import Database
from tests.sessions.play import Clock


@pytest.fixture
async def db(database_url: str) -> AsyncIterator[Database]:
    database = await Database.open(database_url)
    yield database
    await database.close()


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def service(db: Database, clock: Clock) -> GameService:
    return GameService(db, Settings(challenge_ttl=900, reminder_after=3600), clock=clock)
