"""An installed copy of the bot (not only a checkout) has every package: pyproject's find rules cover them all."""

from __future__ import annotations

import tomllib
from pathlib import Path

from setuptools import find_packages

ROOT = Path(__file__).resolve().parent.parent
OUTSIDE = {"tests", "bench", "docs", "deploy", "build"}  # what the wheel leaves out on purpose


def test_every_package_of_the_checkout_is_installed() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["tool"]["setuptools"]["packages"]["find"]
    installed = set(find_packages(where=str(ROOT), include=config["include"]))
    packages = {
        ".".join(init.parent.relative_to(ROOT).parts)
        for init in ROOT.rglob("__init__.py")
        if init.relative_to(ROOT).parts[0] not in OUTSIDE and not init.relative_to(ROOT).parts[0].startswith(".")
    }
    assert packages - installed == set(), "add these to [tool.setuptools.packages.find] include in pyproject.toml"
    assert {"ai.iago", "ai.polygo", "cogs", "sessions", "storage"} <= installed
