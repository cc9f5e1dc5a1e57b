"""Discord failing under a move: every fault leaves the move applied once and announced once.

Each test plays one Iago move while the fake Discord server misbehaves on one endpoint (rate limits, server
errors, an answer lost after the request was applied, an outage past the 3 s deadline), then checks the
promises of docs/reliability.md: the move is in the log once, exactly one public message announces it, the
outbox has nothing left, and no member ever reads "try again" for a move that was played.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import pytest

from bot import GameBot
from storage.database import Database
from tests.e2e.driver import PNG_SIGNATURE, Mirror, challenge_and_accept, challenge_and_accept_in_thread
from tests.e2e.fake_discord import FakeDiscord

FAST_OUTBOX = {"announce_grace_seconds": 0.3, "announce_seconds": 0.2}
MOVE = "D4"  # Dark's opening move in this test: any legal first move would do


async def play_one_move_under(fake: FakeDiscord, db: Database, game_id: int) -> None:
    """Alice plays ``MOVE``; wait until the outbox has delivered everything it owes."""
    await fake.slash(fake.alice, "iago", "move", options={"move": MOVE})

    async def settled() -> bool:
        return await db.games.moves(game_id) == [MOVE] and not await db.outbox.pending_for_game(game_id)

    for _ in range(300):
        if await settled():
            return
        await asyncio.sleep(0.05)
    raise AssertionError("the move was not applied and announced in time")


def announcements_of(fake: FakeDiscord, move: str) -> list[str]:
    return [m.content for m in fake.channel_messages(fake.channel) if f"**{move}**" in m.content and not m.ephemeral]


def assert_once_and_never_try_again(fake: FakeDiscord, move: str) -> None:
    shown = announcements_of(fake, move)
    assert len(shown) == 1, shown
    assert fake.bob.mention in shown[0]  # the player to act is named
    everything = [m.content for m in fake.messages.values()]
    assert not any("try again" in text.lower() or "went wrong" in text.lower() for text in everything)


@pytest.mark.parametrize(
    ("endpoint", "fault"),
    [
        ("callback", "429"),
        ("callback", "500"),
        ("callback", "502"),
        ("callback", "503"),
        ("callback", "applied_but_lost"),
        ("followup", "503"),  # a move's reply is a single callback: a followup fault never touches it
        ("webhook_edit", "503"),
        ("channel_message", "503"),
    ],
)
async def test_a_fault_on_the_reply_still_announces_the_move_once(
    db: Database, fake: FakeDiscord, make_bot: Callable[..., GameBot], endpoint: str, fault: str
) -> None:
    async with fake.running_bot(make_bot(**FAST_OUTBOX)):
        game_id, _ = await challenge_and_accept(fake, "iago")
        injected = fake.inject(endpoint, fault)
        await play_one_move_under(fake, db, game_id)
        assert_once_and_never_try_again(fake, MOVE)
        # The reply is one callback: only a callback fault meets it; the others show no other endpoint is used.
        assert bool(injected.hits) == (endpoint == "callback")
        board = next(m for m in fake.channel_messages(fake.channel) if f"**{MOVE}**" in m.content)
        assert board.attachment().data.startswith(PNG_SIGNATURE)


@pytest.mark.parametrize("channel_fault", ["429", "503", "applied_but_lost", "applied_then_drop"])
async def test_a_reply_that_never_reaches_discord_is_posted_by_the_outbox_once(
    db: Database, fake: FakeDiscord, make_bot: Callable[..., GameBot], channel_fault: str
) -> None:
    """The callback outage outlasts the 3 s deadline, so the reply is lost; the outbox then posts the board in
    the channel, itself through a fault on the channel endpoint (retried, and deduplicated by its nonce)."""
    async with fake.running_bot(make_bot(**FAST_OUTBOX)):
        game_id, _ = await challenge_and_accept(fake, "iago")
        # The short deadline is the move's: set before the challenge, it held the challenge and the accept to 0.3 s
        # too, which a busy machine does not always meet.
        fake.interaction_deadline = 0.3
        outage = fake.inject("callback", "outage")
        fake.inject("channel_message", channel_fault)
        await play_one_move_under(fake, db, game_id)
        assert outage.hits, "the reply did meet the outage"
        assert_once_and_never_try_again(fake, MOVE)


@pytest.mark.parametrize("edit_fault", ["503", "applied_but_lost"])
async def test_a_slow_board_is_deferred_then_filled_in_once_despite_a_fault(
    db: Database, fake: FakeDiscord, make_bot: Callable[..., GameBot], edit_fault: str
) -> None:
    """Past two seconds of drawing the reply is deferred, then completed by editing it (the webhook endpoint)."""
    async with fake.running_bot(make_bot(**FAST_OUTBOX)) as bot:
        game_id, _ = await challenge_and_accept(fake, "iago")
        draw = bot.service.boards.board_picture

        async def slow_draw(*args: object, **marks: object) -> tuple[bytes, str]:
            await asyncio.sleep(2.3)
            return await draw(*args, **marks)  # type: ignore[arg-type]

        bot.service.boards.board_picture = slow_draw  # type: ignore[method-assign]
        injected = fake.inject("webhook_edit", edit_fault)
        await play_one_move_under(fake, db, game_id)
        assert injected.hits
        assert_once_and_never_try_again(fake, MOVE)


async def test_a_move_costs_one_discord_request(
    db: Database, fake: FakeDiscord, make_bot: Callable[..., GameBot]
) -> None:
    """With the bot's defaults, threads on and boards drawn by worker processes: the game's header in the channel
    is not edited per move."""
    mirror = Mirror("iago", {}, seed=5)
    async with fake.running_bot(make_bot(game_threads=True, render_workers=2)):
        game_id, _, thread, _ = await challenge_and_accept_in_thread(fake, "iago")
        for _ in range(3):
            move, mover = mirror.choose(), (fake.alice, fake.bob)[mirror.state.turn]
            mark = fake.mark()
            sent = await fake.slash(mover, "iago", "move", options={"move": move}, channel=thread)
            reply = await sent.final()
            assert f"**{move}**" in reply.content and reply.attachment().data.startswith(PNG_SIGNATURE)
            await asyncio.sleep(0.2)  # time for a second request that must not come
            requests = fake.requests_since(mark)
            assert [r.route for r in requests] == ["POST /interactions/{interaction_id}/{interaction_token}/callback"]
            mirror.state.play(move)
        assert await db.games.moves(game_id) == mirror.state.moves
