"""Per-server settings: what a server's admins chose, merged over the operator's defaults from the environment.

Other code asks :meth:`sessions.service.GameService.settings_for` and gets a frozen :class:`GuildSettings`; it
never reads the table itself, so every default and bound lives here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

CHALLENGE_MINUTES = (1, 1440)  # a minute to a day: shorter cannot be answered, longer clutters the channel
REMINDER_HOURS = (1, 168)  # an hour to a week; a timeout win may be claimed after twice this
SETTINGS_TTL = 2.0  # seconds a process may use a server's settings before reading them again


@dataclass(frozen=True)
class Defaults:
    """The operator's defaults (environment), used where a server chose nothing."""

    challenge_minutes: float = 15
    reminder_hours: float = 24
    threads: bool = True


@dataclass(frozen=True)
class GuildSettings:
    enabled_games: frozenset[str]
    allowed_channels: frozenset[int]  # empty: challenges may start in any channel
    threads: bool
    challenge_minutes: float
    reminder_hours: float

    @property
    def challenge_ttl(self) -> float:
        return self.challenge_minutes * 60

    @property
    def reminder_after(self) -> float:
        return self.reminder_hours * 3600

    def channel_allowed(self, channel_id: int, parent_id: int | None = None) -> bool:
        """Any channel when none was chosen; a thread counts as its parent channel."""
        return not self.allowed_channels or bool({channel_id, parent_id} & self.allowed_channels)


def merge(defaults: Defaults, chosen: dict[str, Any], registered: list[str]) -> GuildSettings:
    """A server's settings from its row (``None`` for what it never set) over ``defaults``."""
    disabled = set(chosen.get("disabled_games") or ())
    return GuildSettings(
        enabled_games=frozenset(name for name in registered if name not in disabled),
        allowed_channels=frozenset(int(channel) for channel in chosen.get("allowed_channels") or ()),
        threads=defaults.threads if chosen.get("threads") is None else bool(chosen["threads"]),
        challenge_minutes=chosen.get("challenge_minutes") or defaults.challenge_minutes,
        reminder_hours=chosen.get("reminder_hours") or defaults.reminder_hours,
    )
