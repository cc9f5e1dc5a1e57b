"""Abort (issue 24): a game in which neither player has made two moves yet ends with no result at either player's
word, from the board's button or ``/<game> abort``: unrated, uncounted, both players told; later it is refused."""

from __future__ import annotations

import random
from collections.abc import Callable

from bot import GameBot
from storage.database import Database
from tests.e2e.driver import Mirror, challenge_and_accept, challenge_and_accept_in_thread, private_reply, public_reply
from tests.e2e.fake_discord import FakeDiscord
from tests.e2e.taps import button, tap_a_move


async def test_either_player_aborts_from_the_board_unrated_uncounted_and_both_are_told(
    db: Database, fake: FakeDiscord, make_bot: Callable[..., GameBot]
) -> None:
    async with fake.running_bot(make_bot()):
        game_id, board = await challenge_and_accept(fake, "iago", {"variant": "standard"})  # a rated game
        board, _ = await tap_a_move(fake, fake.alice, board, random.Random(1))  # alice has made one move
        abort = button(board, "abort")
        assert abort is not None
        told = await public_reply(await fake.click(fake.alice, board, abort))  # alice, though it is bob's turn
        assert fake.alice.mention in told.content and fake.bob.mention in told.content and "aborted" in told.content
        assert told.pings.users == {fake.alice.id, fake.bob.id}
        row = await db.games.game(game_id)
        assert row.status == "cancelled" and row.result_reason == "aborted" and row.winner is None
        for user in (fake.alice.id, fake.bob.id):  # unrated and uncounted: no rating, no record
            assert await db.ratings.rating(fake.guild.id, "iago", user) is None
        assert await db.ratings.records_of(fake.guild.id, fake.alice.id) == []
        again = await private_reply(await fake.click(fake.bob, board, abort))
        assert f"Game #{game_id} is over" in again.content

        async def delivered() -> bool:
            return await db.outbox.pending_for_game(game_id) == []

        # The reply carried the announcement: the bot marks it so in the background once the reply is out (a race
        # when asked at once), and the outbox posted no message of its own.
        await fake.wait_until(delivered, what="the announcement to be marked delivered")
        assert [m.id for m in fake.channel_messages(fake.channel) if "aborted" in m.content] == [told.id]


async def test_a_game_can_no_longer_be_aborted_once_a_player_has_made_two_moves(
    db: Database, fake: FakeDiscord, make_bot: Callable[..., GameBot]
) -> None:
    mirror = Mirror("iago", {"variant": "standard"}, seed=3)
    players = (fake.alice, fake.bob)
    async with fake.running_bot(make_bot()):
        game_id, board = await challenge_and_accept(fake, "iago", {"variant": "standard"})
        for _ in range(3):  # alice, bob, alice: alice has made two moves
            assert button(board, "abort") is not None
            board = await public_reply(
                await fake.slash(
                    players[mirror.state.turn], "iago", "move", options={"move": (move := mirror.choose())}
                )
            )
            mirror.state.play(move)
        assert button(board, "abort") is None and button(board, "resign") is not None
        refused = await private_reply(await fake.slash(fake.bob, "iago", "abort"))
        assert "can no longer be aborted" in refused.content
        assert (await db.games.game(game_id)).status == "active"


async def test_dice_and_rolls_are_not_moves_and_the_command_aborts_in_the_thread(
    db: Database, fake: FakeDiscord, make_bot: Callable[..., GameBot]
) -> None:
    async with fake.running_bot(make_bot(game_threads=True)) as bot:
        bot.service.draw = random.Random(2).choice
        game_id, header, thread, board = await challenge_and_accept_in_thread(fake, "polygo", {"size": 9})
        rng = random.Random(4)
        mirror = Mirror("polygo", {"size": 9}, seed=0)
        players = (fake.alice, fake.bob)
        for _ in range(3):  # a placement each (the first player's opening die), then a roll: one move each
            mirror.sync(await db.games.moves(game_id))
            board, _ = await tap_a_move(fake, players[mirror.state.to_act], board, rng)
        assert button(board, "abort") is not None
        # From the channel, not the thread: a private pointer, and the thread says it.
        pointer = await private_reply(await fake.slash(fake.bob, "polygo", "abort", channel=fake.channel))
        assert f"<#{thread.id}>" in pointer.content
        told = await fake.wait_for_message(thread, lambda m: "aborted" in m.content)
        assert fake.alice.mention in told.content and fake.bob.mention in told.content
        assert (await db.games.game(game_id)).status == "cancelled"
        await fake.wait_until(lambda: "no result" in fake.messages[header.id].content, what="the header's result")
