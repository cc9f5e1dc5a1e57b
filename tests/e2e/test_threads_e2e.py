"""A thread per game: the game is played and followed in its thread, the challenge message keeps the players and a
link and ends with the result; a replay of it; what an accept and a move cost in requests; the outbox posts in
the thread; and a server where the bot may not open threads plays in the channel and is told why once."""

from __future__ import annotations

import asyncio
import io
import time
from collections.abc import Callable

import discord
from PIL import Image

from bot import GameBot
from cogs.presentation import game_text as present
from storage.database import Database
from tests.e2e.driver import (
    PNG_SIGNATURE,
    Mirror,
    challenge_and_accept,
    challenge_and_accept_in_thread,
    private_reply,
    public_reply,
)
from tests.e2e.fake_discord import FakeDiscord


async def test_a_game_is_played_in_its_thread_and_the_challenge_message_shows_the_result(
    db: Database, fake: FakeDiscord, make_bot: Callable[..., GameBot]
) -> None:
    mirror = Mirror("iago", {"variant": "standard"}, seed=7)
    players = (fake.alice, fake.bob)
    async with fake.running_bot(make_bot(game_threads=True)) as bot:
        with fake.count_requests() as accepting:
            game_id, header, thread, first = await challenge_and_accept_in_thread(fake, "iago", {"variant": "standard"})
        # The click's one answer edits the challenge into the header; then the thread, then the first board.
        assert accepting.count("callback") == 2  # the challenge command's answer and the click's
        assert accepting.count("thread") == 1
        assert accepting.count("channel_message", method="POST") == 1  # the first board, in the thread
        assert thread.name == f"Iago #{game_id}: alice vs bob" and thread.parent_id == fake.channel.id
        assert (await db.games.game(game_id)).thread_id == thread.id
        assert f"<#{thread.id}>" in header.content and fake.alice.mention in header.content
        assert "Score" not in header.content  # not edited per move, so it shows no score that would go stale
        assert first.channel_id == thread.id and fake.alice.mention in first.content

        with fake.count_requests() as playing:
            for ply in range(8):
                move = mirror.choose()
                mover = players[mirror.state.turn]
                if ply == 3:  # played from the channel: a private pointer there, the board in the thread
                    pointer = await private_reply(
                        await fake.slash(mover, "iago", "move", options={"move": move}, channel=fake.channel)
                    )
                    assert f"<#{thread.id}>" in pointer.content
                    board = await fake.wait_for_message(thread, lambda m, move=move: f"**{move}**" in m.content)
                else:
                    board = await public_reply(
                        await fake.slash(mover, "iago", "move", options={"move": move}, channel=thread)
                    )
                mirror.state.play(move)
                assert board.channel_id == thread.id and board.attachment().data.startswith(PNG_SIGNATURE)
                score = present.score_line(None, await bot.service.finder.game(game_id), mirror.state)
                assert score in board.content  # the running score is on every board, in the thread
            await asyncio.sleep(0.2)  # time for an edit that must not come
        # A move in the thread costs its reply only; the one typed in the channel, its pointer and its board.
        assert playing.count("callback") == 8 and playing.count("channel_message", method="POST") == 1
        assert playing.count("channel_message", method="PATCH") == 0  # the header is not edited per move
        assert fake.messages[header.id].content == header.content
        assert [m for m in fake.channel_messages() if m.attachments] == []  # no board in the channel

        await public_reply(await fake.slash(fake.alice, "iago", "resign", channel=thread))
        await fake.wait_until(lambda: "Game over" in fake.messages[header.id].content)
        final = fake.messages[header.id]
        assert "resigned" in final.content and f"<#{thread.id}>" in final.content
        last = fake.channel_messages(thread)[-1]
        assert "Game over" in last.content and f"rematch:{game_id}" in last.custom_ids()

        # Replay it from inside the thread: steps, then the animation (a frame per ply and the start).
        replay = await private_reply(
            await fake.slash(fake.carol, "iago", "replay", options={"game": game_id}, channel=thread)
        )
        assert "move 8 of 8" in replay.content
        step = await (await fake.click(fake.carol, replay, f"replay:{game_id}:0:first")).final()
        assert "the start (8 moves in all)" in step.content
        animated = await public_reply(
            await fake.slash(fake.carol, "iago", "replay", options={"game": game_id, "animated": True}, channel=thread)
        )
        assert animated.channel_id == thread.id
        assert Image.open(io.BytesIO(animated.attachment().data)).n_frames == len(mirror.state.moves) + 1


async def test_the_outbox_posts_a_lost_first_board_in_the_thread_once(
    fake: FakeDiscord, make_bot: Callable[..., GameBot]
) -> None:
    async with fake.running_bot(make_bot(game_threads=True, announce_grace_seconds=0.3, announce_seconds=0.2)):
        fault = fake.inject("channel_message", "drop", method="POST")
        challenge = await fake.slash(fake.alice, "iago", "challenge", options={"opponent": fake.bob.id, "side": 0})
        message = await challenge.final()
        await (await fake.click(fake.bob, message, next(c for c in message.custom_ids() if "accept" in c))).final()
        await fake.wait_until(lambda: fault.hits)  # the first board's post was lost
        thread = fake.threads()[0]
        board = await fake.wait_for_message(thread, lambda m: m.attachments, timeout=10)
        assert "accepted" in board.content
        await asyncio.sleep(1.0)  # several outbox rounds: a second post would show by now
        assert len([m for m in fake.channel_messages(thread) if m.attachments]) == 1


async def test_without_thread_permission_games_stay_in_the_channel_and_it_is_said_once(
    fake: FakeDiscord, make_bot: Callable[..., GameBot]
) -> None:
    no_threads = discord.Permissions(
        view_channel=True, send_messages=True, embed_links=True, attach_files=True, read_message_history=True
    )
    fake.set_bot_permissions(no_threads)
    async with fake.running_bot(make_bot(game_threads=True)):
        await challenge_and_accept(fake, "iago", {"variant": "standard"})  # the challenge becomes the first board
        await fake.wait_until(lambda: any("cannot open a thread" in m.content for m in fake.channel_messages()))
        notes = [m for m in fake.channel_messages() if "cannot open a thread" in m.content]
        assert len(notes) == 1 and "Create Public Threads" in notes[0].content
        carol_game = await fake.slash(fake.carol, "iago", "challenge", options={"opponent": fake.bob.id})
        message = await carol_game.final()
        accepted = await (
            await fake.click(fake.bob, message, next(c for c in message.custom_ids() if "accept" in c))
        ).final()
        assert accepted.attachment().data.startswith(PNG_SIGNATURE)
        assert fake.threads() == []
        assert len([m for m in fake.channel_messages() if "cannot open a thread" in m.content]) == 1


async def test_a_reminder_goes_to_the_thread(fake: FakeDiscord, make_bot: Callable[..., GameBot]) -> None:
    async with fake.running_bot(make_bot(game_threads=True)) as bot:
        _, header, thread, first = await challenge_and_accept_in_thread(fake, "iago", {"variant": "standard"})
        bot.service.clock = lambda: time.time() + 25 * 3600
        await bot.get_cog("HousekeepingCog").sweep()
        reminder = await fake.wait_for_message(thread, lambda m: "waiting for your move" in m.content, after=first)
        assert fake.alice.mention in reminder.content
        assert not any("waiting for your move" in m.content for m in fake.channel_messages())
        assert fake.messages[header.id].custom_ids() == []
