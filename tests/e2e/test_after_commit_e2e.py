"""Past the commit nothing is "try again" (issue 23): whatever fails after an action was committed (here the
drawing of its board, with an error that is neither Discord's nor the network's), the member reads privately
that it is done and the board follows, and the outbox posts the board, once.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

import pytest

from bot import GameBot
from storage.database import Database
from tests.e2e.driver import PNG_SIGNATURE, private_reply
from tests.e2e.fake_discord import FakeDiscord
from tests.e2e.test_database_faults_e2e import boards_of, drained

FAST_OUTBOX = {"announce_grace_seconds": 0.3, "announce_seconds": 0.2}
PLAYED = "Done: it is saved. The board follows in a moment."


def fail_once(bot: GameBot) -> list[int]:
    """The next board drawn fails with a bug's error (not HTTP, timeout or OS); later ones are drawn."""
    draw = bot.service.boards.board_picture
    failed: list[int] = []

    async def broken(*args: object, **marks: object) -> tuple[bytes, str]:
        if not failed:
            failed.append(1)
            raise KeyError("a drawing bug")
        return await draw(*args, **marks)  # type: ignore[arg-type]

    bot.service.boards.board_picture = broken  # type: ignore[method-assign]
    return failed


def nobody_told_to_try_again(fake: FakeDiscord) -> None:
    texts = [m.content.lower() for m in fake.messages.values()]
    assert not any("try again" in text or "went wrong" in text for text in texts), texts


async def test_an_accept_and_a_move_whose_boards_cannot_be_drawn_are_played_and_their_boards_follow(
    db: Database, fake: FakeDiscord, make_bot: Callable[..., GameBot], caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    async with fake.running_bot(make_bot(**FAST_OUTBOX)) as bot:
        from_start = await fake.slash(fake.alice, "iago", "challenge", options={"opponent": fake.bob.id, "side": 0})
        challenge = await from_start.final()
        accept_id = next(cid for cid in challenge.custom_ids() if cid.startswith("challenge:accept:"))
        game_id = int(accept_id.rsplit(":", 1)[1])
        failed = fail_once(bot)
        told = await private_reply(await fake.click(fake.bob, challenge, accept_id))  # the accept's board fails
        assert told.content == PLAYED and failed
        await drained(fake, db, game_id)
        firsts = [m for m in fake.channel_messages(fake.channel) if m.attachments and "accepted" in m.content]
        assert len(firsts) == 1 and fake.messages[challenge.id].custom_ids() == []
        failed = fail_once(bot)
        told = await private_reply(await fake.slash(fake.alice, "iago", "move", options={"move": "D4"}))
        assert told.content == PLAYED and failed
        await drained(fake, db, game_id)
    (board,) = boards_of(fake, "D4")
    assert board.attachment().data.startswith(PNG_SIGNATURE) and fake.bob.mention in board.content
    assert await db.games.moves(game_id) == ["D4"]
    nobody_told_to_try_again(fake)
    bugs = [r for r in caplog.records if r.exc_info and r.name.startswith("cogs")]
    assert len(bugs) == 2  # a bug is logged with its traceback, once per failure
