"""Replays: step through a game with buttons (before and after a restart) and download it animated."""

from __future__ import annotations

import io
from collections.abc import Callable

from PIL import Image

from bot import GameBot
from storage.database import Database
from tests.e2e.driver import PNG_SIGNATURE, Mirror, challenge_and_accept, private_reply, public_reply
from tests.e2e.fake_discord import FakeDiscord


async def test_a_game_replays_step_by_step_across_a_restart_and_as_an_animation(
    db: Database, fake: FakeDiscord, make_bot: Callable[[], GameBot]
) -> None:
    mirror = Mirror("iago", {"variant": "standard"}, seed=5)
    players = (fake.alice, fake.bob)
    async with fake.running_bot(make_bot()):
        game_id, _ = await challenge_and_accept(fake, "iago", {"variant": "standard"})
        for _ in range(6):
            move = mirror.choose()
            await public_reply(await fake.slash(players[mirror.state.turn], "iago", "move", options={"move": move}))
            mirror.state.play(move)
        replay = await private_reply(await fake.slash(fake.carol, "iago", "replay", options={"game": game_id}))
        assert "move 6 of 6" in replay.content and f"**{mirror.state.moves[5]}**" in replay.content
        assert replay.attachment().data.startswith(PNG_SIGNATURE)
        first = await fake.click(fake.carol, replay, f"replay:{game_id}:0:first")
        start = await first.final()
        assert "the start (6 moves in all)" in start.content and start.ephemeral
        assert (await db.games.game(game_id)).ply == 6  # looking changes nothing

    async with fake.running_bot(make_bot()):  # the buttons are persistent: a fresh process answers them
        step = await (await fake.click(fake.carol, fake.messages[start.id], f"replay:{game_id}:1:forward")).final()
        assert "move 1 of 6" in step.content and f"**{mirror.state.moves[0]}**" in step.content
        animated = await public_reply(
            await fake.slash(fake.alice, "iago", "replay", options={"game": game_id, "animated": True})
        )
        gif = Image.open(io.BytesIO(animated.attachment().data))
        assert gif.format == "GIF" and gif.n_frames == len(mirror.state.moves) + 1
        elsewhere = await private_reply(
            await fake.slash(fake.alice, "iago", "replay", options={"game": 10**9}),
        )
        assert "cannot find game" in elsewhere.content
