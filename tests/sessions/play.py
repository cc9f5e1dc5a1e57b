"""What the session tests share: ids, a clock they move by hand, and games played through the service."""

from __future__ import annotations

import random
from typing import Any

from sessions.model import Game
from sessions.service import GameService

GUILD, CHANNEL = 1, 2
ALICE, BOB, CAROL = 101, 102, 103


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


async def challenge(service: GameService, game: str = "iago", **overrides: Any) -> Game:
    """alice challenges bob as side 0, unless ``overrides`` say otherwise."""
    arguments: dict[str, Any] = dict(
        game=game,
        guild_id=GUILD,
        channel_id=CHANNEL,
        challenger_id=ALICE,
        opponent_id=BOB,
        opponent_is_bot=False,
        options={"variant": "standard"} if game == "iago" else {},
        side=0,
        rated=True,
    )
    return await service.challenges.challenge(**{**arguments, **overrides})


async def start(service: GameService, game: str = "iago", options: dict | None = None, rated: bool = True) -> int:
    row = await challenge(service, game, rated=rated, **({} if options is None else {"options": options}))
    await service.open_challenges.accept(row.id, BOB, guild_id=GUILD)
    return row.id


async def play_to_end(service: GameService, game_id: int, seed: int = 7) -> None:
    rng = random.Random(seed)
    for _ in range(2000):
        row = await service.finder.game(game_id)
        if row.status == "finished":
            return
        state = await service.finder.state(row)
        if state.chance:
            await service.turns.roll(game_id, row.players[state.to_roll])
            continue
        await service.turns.play(game_id, row.players[state.turn], rng.choice(state.legal_moves()))
    raise AssertionError("game did not finish")
