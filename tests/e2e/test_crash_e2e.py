"""The bot killed with SIGKILL (a separate process) at the worst moments, then started again.

After every relaunch: nothing a member saw acknowledged is lost, nothing is applied or posted twice, every
committed action is announced exactly once, and every finished game is counted once in records and ratings.
The games are tic-tac-toe (tests/fourth_game), short enough to play many of them, through the same shared
code as every game.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path

import pytest

import games
from storage.database import Database
from tests.e2e.child import FAST, ChildBot
from tests.e2e.fake_discord import FakeDiscord, FakeInteraction, Fault
from tests.e2e.harness import FakeChannel, StoredMessage
from tests.fourth_game.entry import ENTRY

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def tictactoe() -> AsyncIterator[None]:
    games.register(ENTRY)
    yield
    games.unregister(ENTRY.name)


@asynccontextmanager
async def child_and_database(fake: FakeDiscord, tmp_path: Path) -> AsyncIterator[tuple[ChildBot, Database]]:
    url = f"sqlite+aiosqlite:///{tmp_path / 'games.sqlite3'}"
    child = ChildBot(fake, {**FAST, "DATABASE_URL": url, "DEV_GUILD_ID": str(fake.guild.id)})
    await child.start()
    db = await Database.open(url)
    try:
        yield child, db
    finally:
        await db.close()
        await child.stop()


async def eventually(check: Callable[[], Awaitable[bool]], what: str, timeout: float = 20) -> None:
    for _ in range(int(timeout / 0.05)):
        if await check():
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


async def start_game(fake: FakeDiscord, channel: FakeChannel) -> int:
    challenge = await fake.slash(
        fake.alice, "tictactoe", "challenge", options={"opponent": fake.bob.id, "side": 0}, channel=channel
    )
    message = await challenge.final()
    accept = next(cid for cid in message.custom_ids() if cid.startswith("challenge:accept:"))
    await (await fake.click(fake.bob, message, accept)).final()
    return int(accept.rsplit(":", 1)[1])


def public(fake: FakeDiscord, channel: FakeChannel, text: str) -> list[StoredMessage]:
    return [m for m in fake.channel_messages(channel) if text in m.content and not m.ephemeral]


async def nothing_pending(db: Database, game_ids: list[int]) -> bool:
    for game_id in game_ids:
        if await db.outbox.pending_for_game(game_id):
            return False
    return True


async def callback_in_flight(fake: FakeDiscord, interaction: FakeInteraction) -> None:
    """Wait until the bot sends the reply to ``interaction``: its action is committed by then."""
    await fake.wait_until(
        lambda: any(r.endpoint == "callback" and r.interaction_id == interaction.id for r in fake.request_log),
        timeout=10,
        what="the reply to be sent",
    )


async def test_killed_right_after_a_move_commit_the_move_is_announced_once_after_relaunch(
    fake: FakeDiscord, tmp_path: Path, tictactoe: None
) -> None:
    async with child_and_database(fake, tmp_path) as (child, db):
        game_id = await start_game(fake, fake.channel)
        fake.inject("callback", Fault.delay(5.0))  # the reply hangs: the process dies with it unsent
        move = await fake.slash(fake.alice, "tictactoe", "move", options={"move": "b2"})
        await callback_in_flight(fake, move)
        await child.kill()
        assert await db.games.moves(game_id) == ["b2"]  # committed before the reply was sent
        fake.clear_faults()
        await child.start()
        await eventually(lambda: nothing_pending(db, [game_id]), "the outbox to deliver")
        announced = public(fake, fake.channel, "**b2**")
        assert len(announced) == 1 and fake.bob.mention in announced[0].content


async def test_killed_right_after_the_winning_commit_the_result_counts_once(
    fake: FakeDiscord, tmp_path: Path, tictactoe: None
) -> None:
    async with child_and_database(fake, tmp_path) as (child, db):
        game_id = await start_game(fake, fake.channel)
        for user, cell in ((fake.alice, "a1"), (fake.bob, "b1"), (fake.alice, "a2"), (fake.bob, "b2")):
            await (await fake.slash(user, "tictactoe", "move", options={"move": cell})).final()
        fake.inject("callback", Fault.delay(5.0))
        winning = await fake.slash(fake.alice, "tictactoe", "move", options={"move": "a3"})
        await callback_in_flight(fake, winning)
        await child.kill()
        row = await db.games.game(game_id)
        assert row is not None and row.status == "finished" and row.winner == 0
        fake.clear_faults()
        await child.start()
        await eventually(lambda: nothing_pending(db, [game_id]), "the outbox to deliver")
        assert len(public(fake, fake.channel, "Game over")) == 1
        records = {r.game: r for r in await db.ratings.records_of(fake.guild.id, fake.alice.id)}
        assert (records["tictactoe"].wins, records["tictactoe"].losses) == (1, 0)
        rating = await db.ratings.rating(fake.guild.id, "tictactoe", fake.bob.id)
        assert rating is not None and rating.rated_games == 1


async def test_killed_at_random_moments_across_several_games_nothing_is_lost_or_doubled(
    fake: FakeDiscord, tmp_path: Path, tictactoe: None
) -> None:
    rng = random.Random(2026)
    channels = [fake.channel, *(fake.add_text_channel(f"table-{n}") for n in (2, 3))]
    players = (fake.alice, fake.bob)
    async with child_and_database(fake, tmp_path) as (child, db):
        game_ids = [await start_game(fake, channel) for channel in channels]
        seen: dict[int, list[str]] = {game_id: [] for game_id in game_ids}  # moves whose board a member saw
        kills = 0
        for _ in range(60):
            open_games = [g for g in game_ids if (await db.games.game(g)).status == "active"]  # type: ignore[union-attr]
            if not open_games:
                break
            game_id = rng.choice(open_games)
            channel = channels[game_ids.index(game_id)]
            state = ENTRY.new_game()
            for played in await db.games.moves(game_id):
                state.play(played)
            cell = rng.choice(state.legal_moves())
            sent = await fake.slash(
                players[state.turn or 0], "tictactoe", "move", options={"move": cell, "game": game_id}, channel=channel
            )
            if rng.random() < 0.3:  # die somewhere between receiving the command and finishing the reply
                await asyncio.sleep(rng.uniform(0.0, 0.08))
                await child.kill()
                kills += 1
                await child.start()
                continue
            reply = await sent.final()
            if f"**{cell}**" in reply.content and not reply.ephemeral:
                seen[game_id].append(cell)
        assert kills >= 3
        # A row whose delivery failed while the bot was being killed waits out its backoff (2 s, doubling): on a
        # loaded machine a few failed rounds add up to more than the default 20 s.
        await eventually(lambda: nothing_pending(db, game_ids), "the outbox to deliver everything", timeout=90)

        finished = 0
        for game_id, channel in zip(game_ids, channels, strict=True):
            logged = await db.games.moves(game_id)
            assert all(move in logged for move in seen[game_id]), "an acknowledged move was lost"
            assert len(logged) == len(set(logged)), "a move was applied twice"
            for move in logged:
                assert len(public(fake, channel, f"**{move}**")) == 1, f"{move} in game {game_id}"
            assert len(public(fake, channel, "accepted")) == 1
            row = await db.games.game(game_id)
            assert row is not None
            finished += row.status == "finished"
            assert len(public(fake, channel, "Game over")) == (1 if row.status == "finished" else 0)
        counted = {
            user.id: sum(r.wins + r.losses + r.draws for r in await db.ratings.records_of(fake.guild.id, user.id))
            for user in players
        }
        assert counted == {fake.alice.id: finished, fake.bob.id: finished}
