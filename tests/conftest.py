"""The ``database_url`` fixture: every test that takes it runs on SQLite and on a real PostgreSQL.

PostgreSQL is a throwaway cluster started once per test session from the installed server binaries (``initdb`` and
``pg_ctl`` on PATH or under /usr/lib/postgresql/*/bin), on a free loopback port, in a temporary folder; any cluster
the distribution may have started is never used. Each test gets an empty database. Without the binaries the
PostgreSQL tests are skipped, unless ``REQUIRE_POSTGRES=1`` (CI sets it), which turns the skip into a failure.
"""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

SKIP_REASON = "PostgreSQL server binaries (initdb, pg_ctl) are not installed"


@dataclass(frozen=True)
class PostgresServer:
    host: str
    port: int
    user: str
    # Runs pg_ctl on the cluster ("start", or "stop" with a mode): for the tests that stop and start the server.
    control: Callable[[str, str], None] = field(default=lambda action, mode: None, repr=False, compare=False)

    def stop(self, mode: str = "fast") -> None:
        """Stop the server (``fast``: sessions are ended; ``immediate``: as a crash); :meth:`start` it again."""
        self.control("stop", mode)

    def start(self) -> None:
        """Start the stopped server on the same port; returns once it accepts connections."""
        self.control("start", "")

    def url(self, database: str) -> str:
        return f"postgresql+asyncpg://{self.user}@{self.host}:{self.port}/{database}"

    def dsn(self, database: str = "postgres") -> str:
        return f"postgresql://{self.user}@{self.host}:{self.port}/{database}"


def _pg_bin() -> Path | None:
    found = shutil.which("initdb")
    if found and shutil.which("pg_ctl"):
        return Path(os.path.realpath(found)).parent
    candidates = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(p.split("/")[4]))
    return Path(candidates[-1]).parent if candidates else None


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer | None]:
    """A private PostgreSQL for this test session, or None when its binaries are not installed."""
    bin_dir = _pg_bin()
    if bin_dir is None:
        yield None
        return
    root = Path(tempfile.mkdtemp(prefix="agb-postgres-"))
    data, log = root / "data", root / "server.log"
    prefix: list[str] = []
    if os.geteuid() == 0:  # initdb refuses to run as root: run the server as the postgres user
        shutil.chown(root, "postgres", "postgres")
        prefix = ["runuser", "-u", "postgres", "--"]
    port = _free_port()

    def run(*args: str) -> None:
        subprocess.run([*prefix, *args], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT, timeout=120)

    run(str(bin_dir / "initdb"), "-D", str(data), "-U", "postgres", "--auth=trust", "--encoding=UTF8", "--no-sync")
    # Speed over durability: the cluster is thrown away after the run.
    settings = f"-c listen_addresses=127.0.0.1 -p {port} -k {root} -c fsync=off -c synchronous_commit=off"
    settings += " -c full_page_writes=off -c max_connections=200"
    pg_ctl = str(bin_dir / "pg_ctl")

    def control(action: str, mode: str) -> None:
        if action == "start":
            run(pg_ctl, "-D", str(data), "-l", str(log), "-o", settings, "-w", "-t", "60", "start")
        else:
            run(pg_ctl, "-D", str(data), "-m", mode, "-w", "stop")

    control("start", "")
    try:
        yield PostgresServer("127.0.0.1", port, "postgres", control)
    finally:
        control("stop", "immediate")
        shutil.rmtree(root, ignore_errors=True)


TEST_DATABASE = "agb_tests"


async def _fresh_database(server: PostgresServer) -> str:
    """The session's test database, emptied. Dropping the schema takes milliseconds where CREATE DATABASE takes
    most of a second, and leaves nothing of the previous test (tables, indexes, sequences, alembic_version)."""
    import asyncpg

    admin = await asyncpg.connect(server.dsn())
    try:
        if not await admin.fetchval("SELECT 1 FROM pg_database WHERE datname = $1", TEST_DATABASE):
            await admin.execute(f'CREATE DATABASE "{TEST_DATABASE}" TEMPLATE template0')
    finally:
        await admin.close()
    connection = await asyncpg.connect(server.dsn(TEST_DATABASE))
    try:
        await connection.execute("SET lock_timeout = '10s'")  # a connection leaked by a test fails loudly here
        await connection.execute("DROP SCHEMA IF EXISTS public CASCADE; CREATE SCHEMA public")
    finally:
        await connection.close()
    return TEST_DATABASE


@pytest.fixture(params=["sqlite", "postgresql"])
async def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[str]:
    """A URL to an empty database: a new SQLite file, or the session's PostgreSQL test database, emptied."""
    if request.param == "sqlite":
        yield f"sqlite+aiosqlite:///{tmp_path / 'games.sqlite3'}"
        return
    yield await _postgres_url(request)


@pytest.fixture
async def postgres_url(request: pytest.FixtureRequest) -> str:
    """The session's PostgreSQL test database, emptied, for tests that need PostgreSQL itself."""
    return await _postgres_url(request)


async def _postgres_url(request: pytest.FixtureRequest) -> str:
    postgres_server: PostgresServer | None = request.getfixturevalue("postgres_server")  # started on first use
    if postgres_server is None:
        if os.environ.get("REQUIRE_POSTGRES") == "1":
            pytest.fail(f"{SKIP_REASON}, and REQUIRE_POSTGRES=1 forbids skipping the PostgreSQL tests")
        pytest.skip(SKIP_REASON)
    return postgres_server.url(await _fresh_database(postgres_server))
