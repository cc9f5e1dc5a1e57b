"""A server's settings (sessions/server_settings.py): each change an admin may make is one checked entry of CHANGES.
How the settings merge over the operator's defaults and rule the games: tests/test_admin_storage.py."""

from __future__ import annotations

import pytest

from sessions.model import CHALLENGE_MINUTES, REMINDER_HOURS, UserError
from sessions.server_settings import CHANGES
from sessions.service import GameService
from tests.sessions.play import GUILD

NOTHING_CHOSEN = {"disabled_games": None, "allowed_channels": None}


def test_each_change_an_admin_may_make_becomes_the_columns_it_writes() -> None:
    assert CHANGES["game"](NOTHING_CHOSEN, ("iago", False)) == {"disabled_games": ["iago"]}
    assert CHANGES["game"]({"disabled_games": ["iago"]}, ("iago", True)) == {"disabled_games": []}
    with pytest.raises(KeyError):
        CHANGES["game"](NOTHING_CHOSEN, ("chess", True))  # the cog offers the registry's games only
    assert CHANGES["channel"](NOTHING_CHOSEN, (5, True)) == {"allowed_channels": ["5"]}
    assert CHANGES["channel"]({"allowed_channels": ["5"]}, (5, False)) == {"allowed_channels": None}  # any again
    assert CHANGES["threads"](NOTHING_CHOSEN, 0) == {"threads": False}


@pytest.mark.parametrize(
    ("name", "bounds"), [("challenge_minutes", CHALLENGE_MINUTES), ("reminder_hours", REMINDER_HOURS)]
)
def test_a_number_outside_its_bounds_is_refused_whatever_the_caller_sent(name: str, bounds: tuple[int, int]) -> None:
    low, high = bounds
    assert CHANGES[name](NOTHING_CHOSEN, low) == {name: low} and CHANGES[name](NOTHING_CHOSEN, high) == {name: high}
    for wrong in (low - 1, high + 1):
        with pytest.raises(UserError, match="Choose between") as refused:
            CHANGES[name](NOTHING_CHOSEN, wrong)
        assert refused.value.params == {"low": low, "high": high}


async def test_an_unknown_setting_is_the_callers_mistake_not_a_members(service: GameService) -> None:
    with pytest.raises(ValueError, match="colour"):
        await service.server_settings.change(GUILD, 1, colour="red")
