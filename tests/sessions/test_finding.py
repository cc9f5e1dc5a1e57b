"""Which game a command means (sessions/finding.py)."""

from __future__ import annotations

import pytest

from sessions.model import UserError
from sessions.service import GameService
from tests.sessions.play import ALICE, CAROL, CHANNEL, GUILD, start


async def test_games_are_found_only_in_their_own_server(service: GameService) -> None:
    game_id = await start(service)
    found = await service.finder.find_game("iago", ALICE, GUILD, CHANNEL, game_id)
    assert found.id == game_id
    for guild in (GUILD + 1, 0):
        with pytest.raises(UserError, match="cannot find game"):
            await service.finder.find_game("iago", CAROL, guild, 99, game_id, spectate=True)
    for impossible in (0, -1, 2**63, 2**70):
        with pytest.raises(UserError, match="cannot find game"):
            await service.finder.find_game("iago", ALICE, GUILD, CHANNEL, impossible)
