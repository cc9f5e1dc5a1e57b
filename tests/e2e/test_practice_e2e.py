"""Games against the bot, as members play them (issue 24): a thread like any game, one public message a turn (the
member's move and the bot's reply in one board; in Polygo the placement, the bot's roll and its placement), and a
Rematch button under the end that starts the next game against the bot at once."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from bot import GameBot
from storage.database import Database, GameRow
from tests.e2e.driver import PNG_SIGNATURE, public_reply
from tests.e2e.fake_discord import FakeChannel, FakeDiscord
from tests.e2e.harness import FakeUser, StoredMessage
from tests.e2e.test_computer_e2e import QUICK_AI, SMALL, eventually, replay


async def start_in_thread(
    fake: FakeDiscord, db: Database, member: FakeUser, game: str, level: int
) -> tuple[GameRow, FakeChannel, StoredMessage]:
    options: dict[str, Any] = {"opponent": fake.bot_user.id, "level": level, "side": 0, **SMALL.get(game, {})}
    header = await public_reply(await fake.slash(member, game, "challenge", options=options))
    (row,) = await db.games.active_games_of(member.id)
    assert row.thread_id is not None, "a game against the bot gets its thread, like any game"
    thread = next(t for t in fake.threads() if t.id == row.thread_id)
    assert header.channel_id == fake.channel.id and not header.attachments
    assert f"<#{thread.id}>" in header.content and member.mention in header.content

    async def header_recorded() -> bool:
        return (await db.games.game(row.id)).challenge_message_id == header.id  # type: ignore[union-attr]

    await eventually(header_recorded, "the header to be recorded")
    return row, thread, header


def boards(fake: FakeDiscord, thread: FakeChannel) -> list[StoredMessage]:
    return [m for m in fake.channel_messages(thread) if m.attachments]


@pytest.mark.parametrize("game", ["iago", "isaac", "polygo"])
async def test_a_game_against_the_bot_has_a_thread_one_message_a_turn_and_a_rematch(
    db: Database, fake: FakeDiscord, make_bot: Callable[..., GameBot], game: str
) -> None:
    rng = random.Random(24)
    async with fake.running_bot(make_bot(game_threads=True, **QUICK_AI)):
        row, thread, header = await start_in_thread(fake, db, fake.alice, game, level=1)
        first = await fake.wait_for_message(thread, lambda m: m.attachments)
        assert "accepted" in first.content and first.attachment().data.startswith(PNG_SIGNATURE)
        commands = 0  # the member's commands: each is answered by one public message, the bot's reply in it
        while True:

            async def members_turn() -> bool:
                state = await replay(db, row)
                return state.is_over or state.to_act == 0

            await eventually(members_turn, "the member's turn")
            state = await replay(db, row)
            if state.is_over:
                break
            if state.chance:
                reply = await public_reply(await fake.slash(fake.alice, game, "roll", channel=thread))
                commands += 1
                continue
            move = rng.choice(state.legal_moves())
            reply = await public_reply(
                await fake.slash(fake.alice, game, "move", options={"move": move}, channel=thread)
            )
            commands += 1
            assert reply.channel_id == thread.id and reply.attachments
            after = await replay(db, row)
            if after.is_over or len(after.moves) == len(state.moves) + 1:
                continue  # the move ended the game, or needed no answer of the bot
            bot_moves = after.moves[len(state.moves) + 1 :]
            assert f"**{move}**" in reply.content, reply.content
            placed = [m for m in bot_moves if m.split()[0] not in ("roll", "pass")]
            told = [m for m in placed if f"**{m}**" in reply.content] or ("passed" in reply.content and not placed)
            assert told, f"the bot's reply {bot_moves} is not in the member's message: {reply.content}"

        await eventually(lambda: _nothing_pending(db, row.id), "every announcement to be delivered")
        assert len(boards(fake, thread)) == 1 + commands, "one public board a turn, the start's included"
        last = boards(fake, thread)[-1]
        assert "Game over" in last.content and f"rematch:{row.id}" in last.custom_ids()
        await fake.wait_until(lambda: "Game over" in fake.messages[header.id].content, what="the header's result")

        rematch = await fake.click(fake.alice, last, f"rematch:{row.id}")
        again = await rematch.final()
        assert again.channel_id == thread.id and not again.ephemeral  # played on in the same thread
        (new,) = await db.games.active_games_of(fake.alice.id)
        assert new.rematch_of == row.id and new.ai_level == 1 and new.against_bot
        assert new.players == (row.players[1], row.players[0])  # sides swapped
        twice = await (await fake.click(fake.alice, last, f"rematch:{row.id}")).final()
        assert twice.ephemeral and "already" in twice.content


async def _nothing_pending(db: Database, game_id: int) -> bool:
    return not await db.outbox.pending_for_game(game_id)
