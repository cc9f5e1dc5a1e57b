"""Rematch: the button under a finished game challenges the other player again, sides swapped, same options and
rated flag; only the two players may click it, and only once."""

from __future__ import annotations

from collections.abc import Callable

from bot import GameBot
from storage.database import Database
from tests.e2e.driver import PNG_SIGNATURE, challenge_and_accept_in_thread, private_reply, public_reply
from tests.e2e.fake_discord import FakeDiscord


async def test_a_rematch_swaps_sides_keeps_the_options_and_is_offered_once(
    db: Database, fake: FakeDiscord, make_bot: Callable[..., GameBot]
) -> None:
    async with fake.running_bot(make_bot(game_threads=True)):
        game_id, _, thread, _ = await challenge_and_accept_in_thread(fake, "iago", {"variant": "loose", "rated": False})
        finish = await public_reply(await fake.slash(fake.alice, "iago", "resign", channel=thread))
        button = f"rematch:{game_id}"
        assert button in finish.custom_ids() and finish.channel_id == thread.id

        refused = await private_reply(await fake.click(fake.carol, finish, button))
        assert "Only the two players" in refused.content
        assert await db.challenges.rematch_of(game_id) is None  # a refusal writes nothing

        offer = await public_reply(await fake.click(fake.bob, finish, button))
        assert fake.alice.mention in offer.content and "loose" in offer.content and "unrated" in offer.content
        rematch = await db.challenges.rematch_of(game_id)
        assert rematch is not None and rematch.status == "challenge"
        assert rematch.players == (fake.bob.id, fake.alice.id)  # bob had Light, now Dark
        assert rematch.options == {"variant": "loose"} and rematch.rated is False
        assert rematch.challenger_id == fake.bob.id
        assert f"challenge:accept:{rematch.id}" in offer.custom_ids()

        for who in (fake.alice, fake.bob):  # a second click, by either player, while it is open
            again = await private_reply(await fake.click(who, finish, button))
            assert "already been offered" in again.content

        # The offer is an ordinary challenge: alice accepts, and the rematch is played in this thread.
        board = await (await fake.click(fake.alice, offer, f"challenge:accept:{rematch.id}")).final()
        assert board.attachment().data.startswith(PNG_SIGNATURE) and board.channel_id == thread.id
        assert fake.bob.mention in board.content  # bob plays Dark and moves first
        assert len(fake.threads()) == 1

    async with fake.running_bot(make_bot(game_threads=True)):  # the button is persistent
        after = await private_reply(await fake.click(fake.alice, fake.messages[finish.id], button))
        assert "already been offered" in after.content
