"""What a fault test counts in the bot's log: tracebacks, the database's outage lines, the project's warnings."""

from __future__ import annotations

import logging

import pytest

PROJECT = ("bot", "cogs", "sessions", "storage")


def project_lines(caplog: pytest.LogCaptureFixture, level: int = logging.WARNING) -> list[str]:
    """The project's own log lines at ``level`` or above (discord.py's start-up notices aside)."""
    return [
        f"{r.levelname} {r.name}: {r.getMessage()}"
        for r in caplog.records
        if r.levelno >= level and r.name.split(".")[0] in PROJECT
    ]


def tracebacks(caplog: pytest.LogCaptureFixture) -> list[str]:
    """Every record, of any logger, that carries a traceback."""
    return [f"{r.name}: {r.getMessage()}" for r in caplog.records if r.exc_info]


def outage_lines(caplog: pytest.LogCaptureFixture) -> list[str]:
    """The database tracker's lines: one when an outage starts, one when it ends."""
    return [r.getMessage() for r in caplog.records if r.name == "storage"]
