"""Playing the bot itself: a whole game at every level of every game, hints, analysis, and a bot turn that
survives the process being killed while it thinks.

The bot's thinking time is capped (``AI_MOVE_SECONDS``) so the suite stays quick; the same search code runs at
every level, only for less time.
"""

from __future__ import annotations

import asyncio
import io
import random
import re
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

import games
from bot import GameBot
from engines import GameState
from render.base import PLAYED, SUGGESTED
from sessions.move_log import replay as replay_log
from storage.database import Database, GameRow
from tests.e2e.child import FAST, ChildBot
from tests.e2e.driver import PNG_SIGNATURE, private_reply, public_reply
from tests.e2e.fake_discord import FakeDiscord
from tests.e2e.harness import FakeUser

QUICK_AI = {"ai_move_seconds": 0.05, "analysis_seconds": 0.02, "announce_seconds": 0.2, "announce_grace_seconds": 0.3}
SMALL = {"polygo": {"size": 9}}  # a full Polygo game on 9x9 keeps the suite fast; 19x19 is the same code


async def eventually(check: Callable[[], Awaitable[bool]], what: str, timeout: float = 60) -> None:
    for _ in range(int(timeout / 0.05)):
        if await check():
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


async def start_against_bot(fake: FakeDiscord, db: Database, member: FakeUser, game: str, level: int) -> GameRow:
    options: dict[str, Any] = {"opponent": fake.bot_user.id, "level": level, "side": 0, **SMALL.get(game, {})}
    first = await public_reply(await fake.slash(member, game, "challenge", options=options))
    assert "accepted" in first.content and first.attachment().data.startswith(PNG_SIGNATURE)
    (row,) = await db.games.active_games_of(member.id)
    assert row.against_bot and row.ai_level == level and not row.rated
    return row


async def replay(db: Database, row: GameRow) -> GameState:
    return replay_log(games.find(row.game), row.options, await db.games.moves(row.id), member_side=0)


async def play_to_the_end(fake: FakeDiscord, db: Database, row: GameRow, member: FakeUser, seed: int) -> GameState:
    """The member plays random legal moves; the bot answers by itself, until the game is over."""
    rng = random.Random(seed)
    while True:

        async def members_turn() -> bool:
            state = await replay(db, row)
            return state.is_over or state.to_act == 0

        await eventually(members_turn, f"the bot's move in game {row.id}")
        state = await replay(db, row)
        if state.is_over:
            return state
        if state.chance:
            await public_reply(await fake.slash(member, row.game, "roll", options={"game": row.id}))
        else:
            move = rng.choice(state.legal_moves())
            await public_reply(await fake.slash(member, row.game, "move", options={"move": move, "game": row.id}))


@pytest.mark.parametrize("game", ["iago", "isaac", "polygo"])
async def test_a_whole_game_against_every_level_ends_with_legal_moves_and_no_rating(
    db: Database, fake: FakeDiscord, make_bot: Callable[..., GameBot], game: str
) -> None:
    async with fake.running_bot(make_bot(**QUICK_AI)):
        for level in (1, 2, 3, 4):
            member = fake.add_member(name=f"{game}-learner-{level}").user
            row = await start_against_bot(fake, db, member, game, level)
            final = await play_to_the_end(fake, db, row, member, seed=level)
            finished = await db.games.game(row.id)
            assert finished is not None and finished.status == "finished" and not finished.rated
            assert finished.scores == tuple(final.result().scores)
            assert await db.ratings.rating(fake.guild.id, game, member.id) is None  # practice is never rated
            await eventually(lambda game_id=row.id: _nothing_pending(db, game_id), "every move to be announced")
            stats = await private_reply(await fake.slash(member, "stats"))
            assert f"level {level}" in stats.embeds[0]["description"]


async def replay_with_takebacks(bot: GameBot, row: GameRow) -> GameState:
    return await bot.service.finder.state(await bot.service.finder.game(row.id))


async def _nothing_pending(db: Database, game_id: int) -> bool:
    return not await db.outbox.pending_for_game(game_id)


async def test_a_hint_suggests_a_legal_move_and_analysis_names_the_costly_moves(
    db: Database, fake: FakeDiscord, make_bot: Callable[..., GameBot]
) -> None:
    async with fake.running_bot(make_bot(**QUICK_AI)) as bot:
        row = await start_against_bot(fake, db, fake.alice, "iago", 2)
        state = await replay(db, row)
        hint = await private_reply(await fake.slash(fake.alice, "iago", "hint"))
        suggested = hint.content.split("**")[1]
        assert suggested in state.legal_moves() and hint.attachment().data.startswith(PNG_SIGNATURE)
        assert marked(hint.attachment().data) == {SUGGESTED}  # a star on the member's position, nothing played
        assert await db.games.moves(row.id) == state.moves  # a hint plays nothing

        await public_reply(await fake.slash(fake.alice, "iago", "move", options={"move": suggested}))

        async def bot_replied() -> bool:
            return len(await db.games.moves(row.id)) == len(state.moves) + 2

        await eventually(bot_replied, "the bot's reply")
        taken = await public_reply(await fake.slash(fake.alice, "iago", "takeback"))
        assert "took back" in taken.content and fake.alice.mention in taken.content
        log = await db.games.moves(row.id)
        assert log[-1] == "takeback"  # the log stays append-only: the takeback is an entry of its own
        assert (await replay_with_takebacks(bot, row)).moves == state.moves  # back where the hint was asked
        history = await private_reply(await fake.slash(fake.alice, "iago", "history"))
        assert "takeback" in history.content

        stranger = await private_reply(await fake.slash(fake.carol, "iago", "hint", options={"game": row.id}))
        assert "not one of your" in stranger.content or "not playing" in stranger.content

        await play_to_the_end(fake, db, row, fake.alice, seed=3)
        analysis = await private_reply(await fake.slash(fake.alice, "iago", "analyse"))
        assert f"#{row.id}" in analysis.content
        reviewed = re.findall(r"Move (\d+): \*\*(\S+)\*\*", analysis.content)
        assert reviewed, "random play against the bot always leaves something to learn"
        history = (
            await private_reply(await fake.slash(fake.alice, "iago", "history", options={"game": row.id}))
        ).content
        log = await db.games.moves(row.id)
        for number, played in reviewed:  # numbered as /history numbers it, after the takeback too
            assert f"{number}. {played}" in history and log[int(number) - 1] == played
            side = replay_log(games.find("iago"), row.options, log[: int(number) - 1], member_side=0).to_act
            assert side == 0, "only the member's own moves are reviewed"
        assert len(analysis.attachments) == len(reviewed)
        for attachment in analysis.attachments:  # each: the move played (a cross) and the better one (a star)
            assert marked(attachment.data) == {PLAYED, SUGGESTED}
        other = await private_reply(await fake.slash(fake.bob, "iago", "analyse", options={"game": row.id}))
        assert "not one of your" in other.content
        dice = await start_against_bot(fake, db, fake.bob, "polygo", 1)
        refused = await private_reply(await fake.slash(fake.bob, "polygo", "takeback", options={"game": dice.id}))
        assert "dice" in refused.content


def marked(png: bytes) -> set[tuple[int, int, int]]:
    """Which of the analysis marks' colours a board shows (on at least a few dozen pixels)."""
    image = Image.open(io.BytesIO(png)).convert("RGB")
    colours = image.getcolors(maxcolors=1 << 20) or []
    return {mark for mark in (PLAYED, SUGGESTED) if sum(n for n, colour in colours if colour == mark) >= 30}


async def test_the_bot_killed_while_it_thinks_announces_the_move_and_its_reply_in_one_message_after_relaunch(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    """Exactly once through the outbox: the member's move is committed and its reply is "thinking" when the process
    dies; the relaunched bot takes its turn and completes that same reply with both moves: one message, in the
    game's thread."""
    url = f"sqlite+aiosqlite:///{tmp_path / 'games.sqlite3'}"
    base = {**FAST, "DATABASE_URL": url, "DEV_GUILD_ID": str(fake.guild.id), "SWEEP_SECONDS": "0.5"}
    child = ChildBot(fake, {**base, "AI_MOVE_SECONDS": "30"})  # it will still be thinking when it dies
    child.env["GAME_THREADS"] = "true"
    await child.start()
    db = await Database.open(url)
    try:
        options = {"opponent": fake.bot_user.id, "level": 4, "side": 0}
        header = await public_reply(await fake.slash(fake.alice, "iago", "challenge", options=options))
        (row,) = await db.games.active_games_of(fake.alice.id)
        thread = next(t for t in fake.threads() if t.id == row.thread_id)
        assert f"<#{thread.id}>" in header.content and not header.attachments
        move = await fake.slash(fake.alice, "iago", "move", options={"move": "D4"}, channel=thread)
        await move.response()
        assert move.original is not None and move.original.loading  # held for the bot's reply
        await asyncio.sleep(0.5)
        await child.kill()
        assert await db.games.moves(row.id) == ["D4"]  # the bot's move was never made

        child.env["AI_MOVE_SECONDS"] = "0.05"
        await child.start()

        async def bot_moved() -> bool:
            return len(await db.games.moves(row.id)) == 2 and not await db.outbox.pending_for_game(row.id)

        await eventually(bot_moved, "the relaunched bot to take its turn")
        bot_move = (await db.games.moves(row.id))[1]
        board = await move.final()
        assert "**D4**" in board.content and f"**{bot_move}**" in board.content and board.attachments
        for played in ("**D4**", f"**{bot_move}**"):
            assert [m.id for m in fake.channel_messages(thread) if played in m.content] == [board.id]
        assert fake.alice.mention in board.content  # the member's turn again
    finally:
        await db.close()
        await child.stop()
