"""Open challenges: ``/<game> challenge`` without an opponent, which anyone in the channel may accept; the first
to press Accept plays, everyone else is answered privately."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

from bot import GameBot
from storage.database import Database
from tests.e2e.driver import PNG_SIGNATURE, private_reply, public_reply
from tests.e2e.fake_discord import FakeDiscord


async def test_two_members_accepting_at_once_start_exactly_one_game(
    db: Database, fake: FakeDiscord, make_bot: Callable[..., GameBot]
) -> None:
    dave = fake.add_member(name="dave").user
    async with fake.running_bot(make_bot()):
        offer = await public_reply(await fake.slash(fake.alice, "iago", "challenge", options={"side": 0}))
        assert "looking for an opponent" in offer.content and "Anyone here may accept" in offer.content
        game_id = int(next(cid for cid in offer.custom_ids() if cid.startswith("challenge:accept:")).rsplit(":", 1)[1])
        assert offer.custom_ids() == [f"challenge:accept:{game_id}", f"challenge:cancel:{game_id}"]  # no Decline

        listed = await private_reply(await fake.slash(fake.carol, "games", "all"))
        assert "Open challenges" in listed.content and fake.alice.mention in listed.content
        assert f"/{offer.channel_id}/{offer.id}" in listed.content  # a link to the message with Accept

        own = await private_reply(await fake.click(fake.alice, offer, f"challenge:accept:{game_id}"))
        assert "your own challenge" in own.content

        # Three members press Accept at the same moment.
        clicks = await asyncio.gather(
            *(fake.click(user, offer, f"challenge:accept:{game_id}") for user in (fake.bob, fake.carol, dave))
        )
        answers = [await click.final() for click in clicks]
        public = [answer for answer in answers if not answer.ephemeral]
        private = [answer for answer in answers if answer.ephemeral]
        assert len(public) == 1 and len(private) == 2
        assert public[0].id == offer.id and public[0].attachment().data.startswith(PNG_SIGNATURE)
        for refusal in private:
            assert (
                "Someone else accepted this challenge first" in refusal.content or "no longer open" in refusal.content
            )

        row = await db.games.game(game_id)
        assert row is not None and row.status == "active" and row.players[0] == fake.alice.id
        winner = row.players[1]
        assert winner in (fake.bob.id, fake.carol.id, dave.id)
        assert f"<@{winner}> accepted" in public[0].content
        started = [
            game for game in await db.games.active_games(guild_id=fake.guild.id) if fake.alice.id in game.players
        ]
        assert [game.id for game in started] == [game_id]  # one game, not two or three


async def test_an_open_challenge_keeps_to_its_rating_range_and_expires_like_any(
    db: Database, fake: FakeDiscord, make_bot: Callable[..., GameBot]
) -> None:
    async with fake.running_bot(make_bot()) as bot:
        offer = await public_reply(
            await fake.slash(
                fake.alice, "iago", "challenge", options={"rating_min": 1600, "rating_max": 2000, "rated": False}
            )
        )
        assert "from 1600 to 2000" in offer.content and "unrated" in offer.content
        game_id = int(next(cid for cid in offer.custom_ids() if cid.startswith("challenge:accept:")).rsplit(":", 1)[1])
        low = await private_reply(await fake.click(fake.bob, offer, f"challenge:accept:{game_id}"))
        assert "from 1600 to 2000" in low.content and "1500" in low.content  # bob is new: 1500
        assert (await db.games.game(game_id)).status == "challenge"  # type: ignore[union-attr]

        second = await private_reply(await fake.slash(fake.alice, "isaac", "challenge"))
        assert "open challenge to anyone" in second.content
        ranged = await private_reply(
            await fake.slash(fake.alice, "iago", "challenge", options={"opponent": fake.bob.id, "rating_min": 1000})
        )
        assert "for open challenges" in ranged.content

        bot.service.clock = lambda: time.time() + 16 * 60
        await bot.get_cog("HousekeepingCog").sweep()
        await fake.wait_until(lambda: "expired" in fake.messages[offer.id].content, what="the expiry")
        assert fake.messages[offer.id].custom_ids() == []
        assert (await db.games.game(game_id)).status == "expired"  # type: ignore[union-attr]
