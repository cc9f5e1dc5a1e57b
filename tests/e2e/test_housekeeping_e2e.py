"""Expiry of unanswered challenges and reminders for idle players, as the background sweep posts them."""

from __future__ import annotations

import time
from collections.abc import Callable

from bot import GameBot
from storage.database import Database
from tests.e2e.driver import challenge_and_accept, public_reply
from tests.e2e.fake_discord import FakeDiscord


async def test_an_unanswered_challenge_expires_and_loses_its_buttons(
    fake: FakeDiscord, make_bot: Callable[[], GameBot]
) -> None:
    async with fake.running_bot(make_bot()) as bot:
        challenge = await public_reply(
            await fake.slash(fake.alice, "iago", "challenge", options={"opponent": fake.bob.id})
        )
        bot.service.clock = lambda: time.time() + 16 * 60  # past the default 15 minutes
        await bot.get_cog("HousekeepingCog").sweep()
        await fake.wait_until(lambda: "expired" in fake.messages[challenge.id].content, what="the expiry edit")
        assert fake.messages[challenge.id].custom_ids() == []


async def test_an_idle_player_is_reminded_once_then_the_opponent_can_claim(
    db: Database, fake: FakeDiscord, make_bot: Callable[[], GameBot]
) -> None:
    async with fake.running_bot(make_bot()) as bot:
        game_id, board = await challenge_and_accept(fake, "iago")
        bot.service.clock = lambda: time.time() + 25 * 3600
        housekeeping = bot.get_cog("HousekeepingCog")
        await housekeeping.sweep()
        reminder = await fake.wait_for_message(
            fake.channel, lambda m: "waiting for your move" in m.content, after=board
        )
        assert fake.alice.mention in reminder.content  # Dark (alice) has not moved
        await housekeeping.sweep()
        reminders = [m for m in fake.channel_messages(fake.channel) if "waiting for your move" in m.content]
        assert len(reminders) == 1
        bot.service.clock = lambda: time.time() + 49 * 3600
        claimed = await public_reply(await fake.slash(fake.bob, "iago", "claim"))
        assert "claimed the win" in claimed.content
        assert (await db.games.game(game_id)).winner == 1
