"""Every kind of bad input a member can send gets a private answer and changes nothing."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from bot import GameBot
from storage.database import Database
from tests.e2e.driver import challenge_and_accept, private_reply, public_reply
from tests.e2e.fake_discord import FakeDiscord


async def test_bad_moves_and_strangers_get_private_answers_and_change_nothing(
    db: Database, fake: FakeDiscord, make_bot: Callable[[], GameBot]
) -> None:
    async with fake.running_bot(make_bot()):
        game_id, _ = await challenge_and_accept(fake, "iago")
        attempts = [
            (fake.bob, "E4", "not your turn"),  # out of turn
            (fake.carol, "E4", "no Iago game"),  # a stranger
            (fake.alice, "Z9", "not legal"),  # a typo
            (fake.alice, "E5", "not legal"),  # the centre needs a release
            (fake.alice, " ", "Type a move"),  # empty
            (fake.alice, "E4" * 80, "too long"),  # very long
            (fake.alice, "Ｅ４　🎲", "not legal"),  # non-ASCII
            (fake.alice, "'; DROP TABLE games; --", "not legal"),
        ]
        for user, move, expected in attempts:
            reply = await private_reply(await fake.slash(user, "iago", "move", options={"move": move}))
            assert expected.lower() in reply.content.lower(), (move, reply.content)
        assert await db.games.moves(game_id) == []
        assert (await db.games.game(game_id)).ply == 0

        # A double click: the same move twice at once is applied once, the other gets a private answer.
        first, second = await asyncio.gather(
            fake.slash(fake.alice, "iago", "move", options={"move": "E4"}),
            fake.slash(fake.alice, "iago", "move", options={"move": "E4"}),
        )
        replies = [await first.final(), await second.final()]
        assert sorted(reply.ephemeral for reply in replies) == [False, True]
        assert await db.games.moves(game_id) == ["E4"]

        # A finished game refuses moves.
        resigned = await public_reply(await fake.slash(fake.bob, "iago", "resign"))
        assert "resigned" in resigned.content
        after = await private_reply(await fake.slash(fake.bob, "iago", "move", options={"move": "E6", "game": game_id}))
        assert "over" in after.content
        assert await db.games.moves(game_id) == ["E4"]


async def test_challenge_buttons_refuse_strangers_and_the_wrong_side(
    db: Database, fake: FakeDiscord, make_bot: Callable[[], GameBot]
) -> None:
    async with fake.running_bot(make_bot()):
        own = await private_reply(
            await fake.slash(fake.alice, "iago", "challenge", options={"opponent": fake.alice.id})
        )
        assert "yourself" in own.content
        other_bot = fake.add_member(name="another-bot", bot=True).user
        bot_reply = await private_reply(
            await fake.slash(fake.alice, "iago", "challenge", options={"opponent": other_bot.id})
        )
        assert "Bots" in bot_reply.content  # only this bot plays, itself

        challenge = await public_reply(
            await fake.slash(fake.alice, "iago", "challenge", options={"opponent": fake.bob.id})
        )
        again = await private_reply(
            await fake.slash(fake.bob, "iago", "challenge", options={"opponent": fake.alice.id})
        )
        assert "already an open challenge" in again.content
        accept, decline, cancel = challenge.custom_ids()
        game_id = int(accept.rsplit(":", 1)[1])

        for user, button, expected in [
            (fake.carol, accept, "two other members"),
            (fake.carol, cancel, "two other members"),
            (fake.alice, accept, "own challenge"),
            (fake.bob, cancel, "Only the challenger"),
        ]:
            reply = await private_reply(await fake.click(user, challenge, button))
            assert expected in reply.content
        assert (await db.games.game(game_id)).status == "challenge"
        assert fake.messages[challenge.id].custom_ids() == [accept, decline, cancel]

        declined = await fake.click(fake.bob, challenge, decline)
        await declined.response()
        assert "declined" in fake.messages[challenge.id].content
        assert (await db.games.game(game_id)).status == "declined"
        assert fake.messages[challenge.id].custom_ids() == []  # nothing left to click


async def test_buttons_work_after_a_restart(db: Database, fake: FakeDiscord, make_bot: Callable[[], GameBot]) -> None:
    async with fake.running_bot(make_bot()):
        challenge = await public_reply(
            await fake.slash(fake.alice, "iago", "challenge", options={"opponent": fake.bob.id})
        )
    accept = challenge.custom_ids()[0]
    game_id = int(accept.rsplit(":", 1)[1])
    async with fake.running_bot(make_bot()):
        accepted = await fake.click(fake.bob, challenge, accept)
        board = await accepted.final()
        assert board.id == challenge.id and board.attachment().data[:4] == b"\x89PNG"
        assert [row.id for row in await db.games.games_with_status("active")] == [game_id]
