"""The bot's worker pools import only the project's modules: a launcher without a main guard runs once.

multiprocessing's fork server, and each worker it forks, would import the launching script by default; a launcher
written as ``from bot import main; main()`` would then start a second bot in each of them (sessions/workers.py).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

# No ``if __name__ == "__main__":`` on purpose: everything below runs wherever this file is imported.
LAUNCHER = """
import os, sys
with open(sys.argv[1] if len(sys.argv) > 1 else os.environ["RUNS_FILE"], "a") as runs:
    runs.write(f"{os.getpid()}\\n")
from sessions.workers import worker_pool
pool = worker_pool(2)
pids = {job.result() for job in [pool.submit(os.getpid) for _ in range(8)]}
pool.shutdown()
print(len(pids), os.getpid() in pids, flush=True)
"""


@pytest.mark.parametrize("how", ["script", "module"])
def test_a_launcher_without_a_main_guard_runs_once(tmp_path: Path, how: str) -> None:
    """``python launcher.py`` (the workers would import it by path) and ``python -m launcher`` (by name)."""
    (tmp_path / "launcher.py").write_text(LAUNCHER)
    runs = tmp_path / "runs.txt"
    command = [sys.executable, "launcher.py"] if how == "script" else [sys.executable, "-m", "launcher"]
    env = {**os.environ, "PYTHONPATH": str(ROOT), "RUNS_FILE": str(runs)}
    done = subprocess.run(command, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    workers, in_launcher = done.stdout.split()
    assert int(workers) >= 1 and in_launcher == "False"  # the work ran in worker processes
    assert len(runs.read_text().split()) == 1, runs.read_text()  # and the launcher ran only in its own process
