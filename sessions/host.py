"""What the cogs may ask of the bot they run in, typed here so no cog imports the bot module."""

from __future__ import annotations

from typing import Protocol

from sessions.service import GameService


class ServiceHost(Protocol):
    """The bot as the cogs see it: it carries the one session service."""

    @property
    def service(self) -> GameService: ...
