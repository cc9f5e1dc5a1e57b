"""Per-server settings: what a server's admins chose, merged over the operator's defaults from the environment.

Other code asks :meth:`ServerSettings.settings_for` (``GameService.settings_for``) and gets a frozen
:class:`GuildSettings`; it never reads the table itself, so every default and bound lives here, and each change an
admin may make is one entry of :data:`CHANGES`.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from typing import Any

import games
from locales import N_
from sessions.memory import LruCache
from sessions.model import UserError
from sessions.model.settings import CHALLENGE_MINUTES, DAILY_HOURS, REMINDER_HOURS, Defaults, GuildSettings, merge
from sessions.table import Table
from storage.database import AdminRepository

SETTINGS_TTL = 2.0  # seconds a process may use a server's settings before reading them again


# A change an admin asks for: the stored settings and the value asked -> the columns to write.
Change = Callable[[Mapping[str, Any], Any], dict[str, Any]]


def _turn_game(stored: Mapping[str, Any], value: tuple[str, bool]) -> dict[str, Any]:
    game, enabled = value
    games.find(game)  # an unknown name raises KeyError: the cog offers registry choices only
    disabled = set(stored["disabled_games"] or ()) - {game} | (set() if enabled else {game})
    return {"disabled_games": sorted(disabled)}


def _allow_channel(stored: Mapping[str, Any], value: tuple[int, bool]) -> dict[str, Any]:
    channel, allowed = value
    channels = set(stored["allowed_channels"] or ()) - {str(channel)} | ({str(channel)} if allowed else set())
    return {"allowed_channels": sorted(channels) or None}


def _within(column: str, bounds: tuple[int, int], refusal: str) -> Change:
    """A number the admin chooses between ``bounds``, checked here whatever the caller sent."""

    def change(stored: Mapping[str, Any], value: int) -> dict[str, Any]:
        if not bounds[0] <= value <= bounds[1]:
            raise UserError(refusal, low=bounds[0], high=bounds[1])
        return {column: value}

    return change


def _daily_puzzle(stored: Mapping[str, Any], value: tuple[str, int | None, int]) -> dict[str, Any]:
    """(game, channel or None for none, hour UTC): where and when the game's daily puzzle is posted."""
    game, channel, hour = value
    games.find(game)
    if not 0 <= hour <= DAILY_HOURS[1]:
        raise UserError(N_("Choose an hour between {low} and {high}."), low=DAILY_HOURS[0], high=DAILY_HOURS[1])
    daily = {name: where for name, where in (stored.get("daily_puzzles") or {}).items() if name != game}
    if channel is not None:
        daily[game] = [str(channel), hour]
    return {"daily_puzzles": daily or None}


CHANGES: dict[str, Change] = {
    "game": _turn_game,  # (game, enabled)
    "channel": _allow_channel,  # (channel id, allowed)
    "threads": lambda stored, value: {"threads": bool(value)},
    "challenge_minutes": _within(
        "challenge_minutes", CHALLENGE_MINUTES, N_("Choose between {low} and {high} minutes.")
    ),
    "reminder_hours": _within("reminder_hours", REMINDER_HOURS, N_("Choose between {low} and {high} hours.")),
    "daily_puzzle": _daily_puzzle,  # (game, channel or None, hour)
}


class ServerSettings:
    """A server's settings, read through a short cache, and changed by its admins (audited)."""

    def __init__(self, table: Table, admin: AdminRepository) -> None:
        self._table = table
        self._admin = admin
        self._cached: LruCache[int, tuple[float, GuildSettings]] = LruCache(10_000)

    async def settings_for(self, guild_id: int) -> GuildSettings:
        """A server's settings: its admins' choices over the environment's defaults. Read again after
        ``SETTINGS_TTL`` seconds, so a change made by any process applies everywhere almost at once."""
        cached = self._cached.get(guild_id)
        now = time.monotonic()
        if cached is not None and cached[0] > now:
            return cached[1]
        settings = self._table.settings
        defaults = Defaults(settings.challenge_ttl / 60, settings.reminder_after / 3600, settings.threads)
        chosen = await self._admin.guild_settings(guild_id)
        merged = merge(defaults, chosen, [entry.name for entry in games.entries()])
        self._cached.put(guild_id, (now + SETTINGS_TTL, merged))
        return merged

    async def change(self, guild_id: int, admin_id: int, **changes: Any) -> GuildSettings:
        """Change some of a server's settings (audited); an unknown setting is a ValueError."""
        stored = await self._admin.guild_settings(guild_id)
        values: dict[str, Any] = {}
        for name, value in changes.items():
            if name not in CHANGES:
                raise ValueError(name)
            values |= CHANGES[name](stored, value)
        details = {name: list(value) if isinstance(value, tuple) else value for name, value in changes.items()}
        await self._admin.update_guild_settings(guild_id, admin_id, values, self._table.clock(), details)
        self._cached.pop(guild_id)
        return await self.settings_for(guild_id)
