"""docs/deploy.md's systemd recipe, followed line by line on a fresh Debian machine (issue 24: its `tee` wrote into
a folder nothing had made). The block is run with bash in a scratch root: `/etc` and `/opt` are moved under it,
the machine's commands (apt-get, psql, git, useradd, systemctl, ...) are stubs that note their calls, and
`systemctl enable` checks what a real one would need: the unit installed and every file it reads present, with
the settings the bot needs."""

from __future__ import annotations

import os
import re
import stat
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "deploy.md"
UNIT = "abstract-games-bot@.service"

STUBS = {
    # sudo: run the rest, dropping its own options (-u postgres)
    "sudo": 'while [ "${1#-}" != "$1" ]; do [ "$1" = -u ] && shift; shift; done; exec "$@"',
    "apt-get": 'echo "apt-get $*" >> "$SCRATCH/calls"',
    "psql": 'echo "psql $*" >> "$SCRATCH/calls"',
    "createdb": 'echo "createdb $*" >> "$SCRATCH/calls"',
    "useradd": 'echo "useradd $*" >> "$SCRATCH/calls"',
    "chgrp": 'echo "chgrp $*" >> "$SCRATCH/calls"; test -e "${@: -1}"',
    # git clone URL DIR: the checkout holds the repository's deploy folder
    "git": '[ "$1" = clone ] && mkdir -p "$3" && cp -r "$REPO/deploy" "$3/" && [ -n "$2" ]',
    # python3 -m venv .venv: a venv whose pip installs the entry point
    "python3": '[ "$1 $2" = "-m venv" ] && mkdir -p "$3/bin" && printf "%s\\n" "#!/bin/sh" '
    '"[ \\"\\$1\\" = install ] && touch \\"\\$(dirname \\$0)/abstract-games-bot\\"" > "$3/bin/pip" '
    '&& chmod +x "$3/bin/pip"',
    # install -d -m MODE -g GROUP DIR: the directory (owner and group are the real machine's business)
    "install": '[ "$1" = -d ] && mkdir -p "${@: -1}"',
    "systemctl": 'echo "systemctl $*" >> "$SCRATCH/calls"; exec python3-real "$SCRATCH/check_units.py" "$@"',
}

CHECK_UNITS = r"""
import re, sys
from pathlib import Path
root = Path(sys.argv[0]).parent / "root"
args = sys.argv[1:]
if args[:1] != ["enable"]:
    sys.exit(0)
for instance in [a for a in args[1:] if not a.startswith("-")]:
    name, _, number = instance.partition("@")
    unit = root / "etc/systemd/system" / f"{name}@.service"
    assert unit.is_file(), f"{unit} is not installed"
    text = unit.read_text()
    workdir = re.search(r"^WorkingDirectory=(.+)$", text, re.M).group(1)
    assert (root / workdir.lstrip("/")).is_dir(), f"WorkingDirectory {workdir} is missing"
    start = re.search(r"^ExecStart=(\S+)", text, re.M).group(1)
    assert (root / start.lstrip("/")).exists(), f"ExecStart {start} is missing"
    settings = {}
    for line in re.findall(r"^EnvironmentFile=(.+)$", text, re.M):
        optional = line.startswith("-")
        path = root / line.lstrip("-").replace("%i", number).lstrip("/")
        assert optional or path.is_file(), f"{path} is missing for {instance}"
        if path.is_file():
            settings.update(l.split("=", 1) for l in path.read_text().splitlines() if "=" in l)
    for needed in ("DISCORD_TOKEN", "DATABASE_URL", "SHARD_COUNT", "SHARD_IDS"):
        assert settings.get(needed), f"{instance} has no {needed}"
    assert settings["DATABASE_URL"].startswith("postgresql+asyncpg://")
    print(instance, settings["SHARD_IDS"], file=open(Path(sys.argv[0]).parent / "started", "a"))
"""


def recipe() -> str:
    text = DOC.read_text()
    found = re.search(r"<!-- deploy-recipe[^>]*-->\s*```bash\n(.*?)```", text, re.S)
    assert found, "docs/deploy.md has no marked recipe"
    return found.group(1)


def run_recipe(script: str, scratch: Path) -> subprocess.CompletedProcess[str]:
    """Run ``script`` as the doc's reader would, with /etc and /opt under ``scratch/root`` and the stubs first."""
    root = scratch / "root"
    for fresh in ("etc/systemd/system", "opt"):  # what a fresh Debian machine has
        (root / fresh).mkdir(parents=True)
    stubs = scratch / "bin"
    stubs.mkdir()
    for name, body in STUBS.items():
        path = stubs / name
        path.write_text(f"#!/bin/bash\nset -e\n{body}\n")
        path.chmod(path.stat().st_mode | stat.S_IEXEC)
    (stubs / "python3-real").symlink_to(sys.executable)
    (scratch / "check_units.py").write_text(CHECK_UNITS)
    moved = re.sub(r"(?<![\w.$/-])/(etc|opt)/", lambda m: f"{root}/{m.group(1)}/", script)
    env = {**os.environ, "PATH": f"{stubs}:{os.environ['PATH']}", "SCRATCH": str(scratch), "REPO": str(ROOT)}
    return subprocess.run(
        ["bash", "-euo", "pipefail", "-c", moved], cwd=scratch, env=env, capture_output=True, text=True, timeout=60
    )


def test_the_systemd_recipe_works_line_by_line_on_a_fresh_machine(tmp_path: Path) -> None:
    run = run_recipe(recipe(), tmp_path)
    assert run.returncode == 0, f"the recipe failed:\n{run.stderr}"
    started = (tmp_path / "started").read_text().split()
    assert started == ["abstract-games-bot@0", "0", "abstract-games-bot@1", "1"]  # two processes, a shard each
    calls = (tmp_path / "calls").read_text()
    assert "apt-get install -y" in calls and "postgresql" in calls and "createdb --owner=gamesbot games" in calls


# The recipe as the first release wrote it: nothing made /etc/abstract-games-bot/ or its env file.
FIRST_RECIPE = """\
sudo useradd --system --home /opt/abstract-games-bot gamesbot
sudo git clone https://example.org/bot.git /opt/abstract-games-bot && cd /opt/abstract-games-bot
sudo python3 -m venv .venv && sudo .venv/bin/pip install .
sudo cp deploy/abstract-games-bot@.service /etc/systemd/system/
printf 'SHARD_COUNT=8\\nSHARD_IDS=0-3\\n' | sudo tee /etc/abstract-games-bot/shards-0.env
sudo systemctl daemon-reload && sudo systemctl enable --now abstract-games-bot@0
"""


def test_the_check_fails_the_first_recipe_where_a_reader_failed(tmp_path: Path) -> None:
    run = run_recipe(FIRST_RECIPE, tmp_path)
    assert run.returncode != 0 and "shards-0.env: No such file or directory" in run.stderr
