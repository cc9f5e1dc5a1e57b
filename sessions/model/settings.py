"""A server's settings as every layer reads them: what its admins chose, over the operator's defaults, and the bounds
of each choice."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

CHALLENGE_MINUTES = (1, 1440)  # a minute to a day: shorter cannot be answered, longer clutters the channel
REMINDER_HOURS = (1, 168)  # an hour to a week; a timeout win may be claimed after twice this
DAILY_HOURS = (0, 23)  # the hour (UTC) a daily puzzle is posted


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
    daily_puzzles: Mapping[str, tuple[int, int]] = field(default_factory=dict)  # game -> (channel, hour UTC)

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
        daily_puzzles={
            game: (int(channel), int(hour))
            for game, (channel, hour) in (chosen.get("daily_puzzles") or {}).items()
            if game in registered
        },
    )
