"""The session service behind every interaction: the bot as the cogs see it (:class:`ServiceHost`), and the service
from an interaction or a client, for code that has no cog in hand (a button, a delivery).

This is the Discord layer's one import of ``sessions.service``: everything else names ``GameService`` from here, and
every other type from ``sessions.model``.
"""

from __future__ import annotations

from typing import Protocol, cast

import discord

from sessions.service import GameService


class ServiceHost(Protocol):
    """The bot as the cogs see it: it carries the one session service (typed here, so no cog imports the bot)."""

    @property
    def service(self) -> GameService: ...


def service_of(interaction: discord.Interaction) -> GameService:
    """The session service, for code that has an interaction but no cog (persistent buttons)."""
    return client_service(interaction.client)


def client_service(client: discord.Client) -> GameService:
    """The session service of the bot ``client`` is."""
    return cast(ServiceHost, client).service


__all__ = ["GameService", "ServiceHost", "client_service", "service_of"]
