"""The ``database_url`` fixture: every test that takes it runs on SQLite and on a real PostgreSQL.

PostgreSQL is a throwaway cluster started once per test session from the installed server binaries (``initdb`` and
``pg_ctl`` on PATH or under /usr/lib/postgresql/*/bin), on a free loopback port, in a temporary folder; any cluster
the distribution may have started is never used. Each test gets a fresh, empty database. Without the binaries the
PostgreSQL tests are skipped, unless ``REQUIRE_POSTGRES=1`` (CI sets it), which turns the skip into a failure.
"""

from __future__ import annotations

import asyncio
import glob
import itertools
import os
import shutil
import socket
import subprocess
import tempfile
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

SKIP_REASON = "PostgreSQL server binaries (initdb, pg_ctl) are not installed"


@dataclass(frozen=True)
class PostgresServer:
    host: str
    port: int
    user: str

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
    run(str(bin_dir / "pg_ctl"), "-D", str(data), "-l", str(log), "-o", settings, "-w", "-t", "60", "start")
    try:
        yield PostgresServer("127.0.0.1", port, "postgres")
    finally:
        run(str(bin_dir / "pg_ctl"), "-D", str(data), "-m", "immediate", "-w", "stop")
        shutil.rmtree(root, ignore_errors=True)


_database_numbers = itertools.count(1)


async def _create_database(server: PostgresServer) -> str:
    import asyncpg

    name = f"test_{os.getpid()}_{next(_database_numbers)}"
    connection = await asyncpg.connect(server.dsn())
    try:
        await connection.execute(f'CREATE DATABASE "{name}" TEMPLATE template0')
    finally:
        await connection.close()
    return name


async def _drop_database(server: PostgresServer, name: str) -> None:
    import asyncpg

    connection = await asyncpg.connect(server.dsn())
    try:
        await connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    finally:
        await connection.close()


@pytest.fixture(params=["sqlite", "postgresql"])
async def database_url(
    request: pytest.FixtureRequest, tmp_path: Path, postgres_server: PostgresServer | None
) -> AsyncIterator[str]:
    """A URL to a fresh, empty database: a SQLite file, or a new database on the session's PostgreSQL."""
    if request.param == "sqlite":
        yield f"sqlite+aiosqlite:///{tmp_path / 'games.sqlite3'}"
        return
    if postgres_server is None:
        if os.environ.get("REQUIRE_POSTGRES") == "1":
            pytest.fail(f"{SKIP_REASON}, and REQUIRE_POSTGRES=1 forbids skipping the PostgreSQL tests")
        pytest.skip(SKIP_REASON)
    name = await _create_database(postgres_server)
    try:
        yield postgres_server.url(name)
    finally:
        await asyncio.shield(_drop_database(postgres_server, name))
