"""The ``database_url`` fixture: every test that takes it runs on SQLite and on a real PostgreSQL.

PostgreSQL is a throwaway cluster started once per test session from the installed server binaries (``initdb`` and
``pg_ctl`` on PATH or under /usr/lib/postgresql/*/bin), on a free loopback port, in a temporary folder; any cluster
the distribution may have started is never used. Each test gets an empty database. Without the binaries the
PostgreSQL tests are skipped, unless ``REQUIRE_POSTGRES=1`` (CI sets it), which turns the skip into a failure.

Under pytest-xdist (``-n`` in pyproject.toml's ``addopts``) each worker is its own process with its own cluster:
some tests stop and start the server, which must not pull it away from another worker's tests.

The hooks at the end order the run for xdist: the tests of a module whose module-scoped fixture is expensive run
together on one worker (the fixture is made once), and the longest tests start first, so that no worker is left
with a long one at the end while the others are idle.
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
from typing import Any

import pytest

SKIP_REASON = "PostgreSQL server binaries (initdb, pg_ctl) are not installed"
PORT_ATTEMPTS = 3


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

    def run(*args: str) -> None:
        subprocess.run([*prefix, *args], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT, timeout=120)

    run(str(bin_dir / "initdb"), "-D", str(data), "-U", "postgres", "--auth=trust", "--encoding=UTF8", "--no-sync")

    def settings_on(port: int) -> str:
        # Speed over durability: the cluster is thrown away after the run.
        settings = f"-c listen_addresses=127.0.0.1 -p {port} -k {root} -c fsync=off -c synchronous_commit=off"
        return settings + " -c full_page_writes=off -c max_connections=200"

    port = _free_port()
    settings = settings_on(port)
    pg_ctl = str(bin_dir / "pg_ctl")

    def control(action: str, mode: str) -> None:
        if action == "start":
            run(pg_ctl, "-D", str(data), "-l", str(log), "-o", settings, "-w", "-t", "60", "start")
        else:
            run(pg_ctl, "-D", str(data), "-m", mode, "-w", "stop")

    for attempt in range(PORT_ATTEMPTS):
        try:
            control("start", "")
            break
        except subprocess.CalledProcessError:
            # The port was free when probed but was taken before the server bound it (another worker's cluster,
            # any other process): a new port. Start fails fast then, and the log says why if it was something else.
            if attempt == PORT_ATTEMPTS - 1:
                raise
            port = _free_port()
            settings = settings_on(port)
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


# --- CI: every test runs ------------------------------------------------------------------------------------


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """``REQUIRE_NO_SKIPS=1`` (``.ci/run`` sets it): a skipped or xfailed test fails the run, whatever the reason it
    gives (no root for a full disk, no PostgreSQL...): in CI every test must run and pass. Decided where the reports
    of all the workers meet, in the main process."""
    if os.environ.get("REQUIRE_NO_SKIPS") != "1" or hasattr(session.config, "workerinput"):
        return
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    if reporter is None:
        return
    missed = [report.nodeid for kind in ("skipped", "xfailed") for report in reporter.stats.get(kind, [])]
    if missed:
        reporter.write_line(f"REQUIRE_NO_SKIPS=1, but {len(missed)} tests did not run or did not pass:", red=True)
        for nodeid in missed:
            reporter.write_line(f"  {nodeid}", red=True)
        if session.exitstatus == pytest.ExitCode.OK:
            session.exitstatus = pytest.ExitCode.TESTS_FAILED


# --- the order of the run, for pytest-xdist ------------------------------------------------------------------

# Modules whose module-scoped fixture costs seconds (mining puzzles, drawing every board, raising every refusal):
# their tests go to one worker together, so that the fixture is made once and not once a worker.
GROUPED_MODULES = (
    "tests/test_puzzle_mining.py",
    "tests/test_render_phone.py",
    "tests/test_refusals.py",
    "tests/test_picker_steps_on_a_phone.py",
)

# The longest tests, longest first: bot processes started, killed and waited for, several at once; searches and
# faults that wait out their timings. They start at the beginning of the run, in parallel with the rest, and none
# is left running alone at the end while the other workers have nothing to do. A module or test renamed here only
# loses its place in the queue.
LONGEST_FIRST = (
    "tests/test_puzzle_mining.py",
    "tests/e2e/test_shards_e2e.py",
    "tests/e2e/test_seasons_e2e.py::test_two_processes",
    "tests/e2e/test_puzzles_e2e.py::test_two_processes",
    "tests/e2e/test_crash_e2e.py",
    "tests/e2e/test_records_e2e.py::test_a_record_exported_by_history",
    "tests/e2e/test_computer_e2e.py",
    "tests/e2e/test_duplicate_and_slow_e2e.py",
    "tests/e2e/test_faults_e2e.py",
    "tests/e2e/test_database_faults_e2e.py",
    "tests/e2e/test_hostile_input_e2e.py",
    "tests/test_drawing.py",
    "tests/test_thinker.py",
    "tests/test_workers.py",
    "tests/test_ai.py::test_iago_endgame_solver",
    "tests/test_iago_engine.py::test_engine_agrees_with_reference_rules",
    "tests/test_render_phone.py",
    "tests/test_refusals.py",
    "tests/test_picker_steps_on_a_phone.py",
)


def _rank(nodeid: str) -> int:
    """The test's place in :data:`LONGEST_FIRST` (its length: the rest, in pytest's own order)."""
    return next((i for i, prefix in enumerate(LONGEST_FIRST) if nodeid.startswith(prefix)), len(LONGEST_FIRST))


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    items.sort(key=lambda item: _rank(item.nodeid))  # stable: pytest's order within each rank


def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """``--dist loadgroup`` (pyproject.toml), with the groups said here: each module of :data:`GROUPED_MODULES` is
    one unit of work, every other test a unit of its own, handed out in the order of the collection (the longest
    first) to whichever worker is free.

    Not xdist's own grouping by ``xdist_group`` marks: it renames each test to pass its group on, which pytest 9.2
    no longer lets it do (pytest-xdist issue 1386), so the marks are silently ignored there."""
    if config.getoption("dist") != "loadgroup":
        return None
    from xdist.scheduler import LoadScopeScheduling

    class ModuleGroups(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            module = nodeid.split("::", 1)[0]
            return module if module in GROUPED_MODULES else nodeid

    config.option.loadscopereorder = False  # keep the collection's order; xdist would put the bigger units first
    return ModuleGroups(config, log)
