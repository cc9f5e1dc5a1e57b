"""Puzzles through the real discord.py client against the fake Discord: a member solves privately with
/<game> puzzle-move (autocomplete, the bot's replies, a wrong move explained), is rated, sees it in /stats; the
buttons work after a restart; the daily puzzle is posted once a day, solved from its button, and its solution
posted the next day, exactly once across a restart and across two bot processes on one database."""

from __future__ import annotations

import asyncio
import json
import signal
import time
from collections.abc import Awaitable, Callable
from contextlib import AsyncExitStack
from pathlib import Path

from bot import GameBot
from puzzles.mining import Puzzle
from sessions.model.puzzles import DAY
from sessions.puzzles.mining import puzzle_row
from storage.database import Database
from tests.e2e.child import FAST, ChildBot
from tests.e2e.driver import PNG_SIGNATURE, private_reply
from tests.e2e.fake_discord import FakeDiscord, start_fake_discord
from tests.e2e.harness import FakeChannel, FakeUser, StoredMessage

DATA = Path(__file__).resolve().parent.parent / "data" / "puzzles.json"
NO_MINING = {"puzzle_mining": False, "shipped_puzzles": False}  # the tests' own puzzles only


def test_puzzles(game: str | None = None) -> list[Puzzle]:
    found = [Puzzle.from_dict(item) for item in json.loads(DATA.read_text())["puzzles"]]
    return [p for p in found if game is None or p.game == game]


test_puzzles.__test__ = False  # type: ignore[attr-defined]  # a helper, not a test


async def store(db: Database, found: list[Puzzle]) -> None:
    await db.puzzle_mining.insert_puzzles(
        [puzzle_row(p, guild_id=None, game_id=None, seed=0) for p in found], time.time()
    )


async def eventually(check: Callable[[], Awaitable[bool] | bool], what: str, timeout: float = 30) -> None:
    for _ in range(int(timeout / 0.05)):
        result = check()
        if result if isinstance(result, bool) else await result:
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


async def solve(fake: FakeDiscord, member: FakeUser, puzzle: Puzzle) -> StoredMessage:
    """Play the solution's moves; each answer is private, with a board. Returns the last answer."""
    last = None
    for index in range(0, len(puzzle.solution), 2):
        move = puzzle.solution[index]
        choices = await fake.autocomplete(member, puzzle.game, "puzzle-move", focused="move", value=move[:2])
        assert move in [c["value"] for c in choices]
        last = await private_reply(await fake.slash(member, puzzle.game, "puzzle-move", options={"move": move}))
        assert f"**{move}** is right!" in last.content and last.attachment().data.startswith(PNG_SIGNATURE)
        if index + 1 < len(puzzle.solution):
            assert f"I answer **{puzzle.solution[index + 1]}**" in last.content
    assert last is not None
    return last


async def test_a_member_solves_a_puzzle_privately_is_rated_and_sees_it_in_stats(
    db: Database, fake: FakeDiscord, make_bot: Callable[..., GameBot]
) -> None:
    puzzle = max(test_puzzles(), key=lambda p: len(p.solution))  # one with the bot's replies, if there is one
    await store(db, [puzzle, *[p for p in test_puzzles(puzzle.game) if p != puzzle][:2]])
    async with fake.running_bot(make_bot(**NO_MINING)):
        shown = await private_reply(await fake.slash(fake.alice, puzzle.game, "puzzle"))
        assert "puzzle #" in shown.content and "puzzle-move" in shown.content
        assert shown.attachment().data.startswith(PNG_SIGNATURE)
        assert any(cid.startswith("puzzle:solution:") for cid in shown.custom_ids())
        (row,) = [p for p in [await db.puzzles.puzzle(n) for n in range(1, 4)] if p and f"#{p.id}" in shown.content]
        mine = Puzzle.from_dict({**puzzle.to_dict(), "moves": row.moves, "solution": row.solution})
        # A wrong move is explained, not played, and counts as a miss.
        from_state = await db.puzzles.attempt_of(fake.guild.id, fake.alice.id, row.id)
        assert from_state is not None and from_state.step == 0
        wrong = next(m for m in await legal(fake, fake.alice, mine) if m != row.solution[0])
        missed = await private_reply(await fake.slash(fake.alice, row.game, "puzzle-move", options={"move": wrong}))
        assert f"**{wrong}** is not it" in missed.content and "counts as missed" in missed.content
        last = await solve(fake, fake.alice, mine)
        assert "after a mistake" in last.content and any(c.startswith("puzzle:next:") for c in last.custom_ids())
        stats = await private_reply(await fake.slash(fake.alice, "stats"))
        assert "puzzles: rating" in stats.embeds[0]["description"] and "0 of 1 solved" in stats.embeds[0]["description"]
        # Bob solves his first puzzle cleanly: his rating rises.
        shown = await private_reply(await fake.slash(fake.bob, puzzle.game, "puzzle"))
        (row,) = [p for p in [await db.puzzles.puzzle(n) for n in range(1, 4)] if p and f"#{p.id}" in shown.content]
        mine = Puzzle.from_dict({**puzzle.to_dict(), "moves": row.moves, "solution": row.solution})
        done = await solve(fake, fake.bob, mine)
        assert "Solved! Your puzzle rating: 1500 →" in done.content
        rating = await db.puzzles.puzzle_rating(fake.guild.id, row.game, fake.bob.id)
        assert rating is not None and rating.mu > 1500 and rating.solved == 1
    # After a restart the buttons still work: Next puzzle, then Show solution.
    async with fake.running_bot(make_bot(**NO_MINING)):
        following = await (await fake.click(fake.bob, done, next(c for c in done.custom_ids()))).final()
        assert "puzzle #" in following.content and following.id == done.id
        give_up = next(c for c in following.custom_ids() if c.startswith("puzzle:solution:"))
        solution = await (await fake.click(fake.bob, following, give_up)).final()
        assert "The solution:" in solution.content and "Puzzle rating" in solution.content


async def legal(fake: FakeDiscord, member: FakeUser, puzzle: Puzzle) -> list[str]:
    """The legal moves of the member's puzzle, as the autocomplete lists them (at most 25)."""
    choices = await fake.autocomplete(member, puzzle.game, "puzzle-move", focused="move", value="")
    return [c["value"] for c in choices]


async def test_no_puzzle_open_and_a_bad_move_are_answered_privately(
    db: Database, fake: FakeDiscord, make_bot: Callable[..., GameBot]
) -> None:
    puzzle = test_puzzles()[0]
    await store(db, [puzzle])
    async with fake.running_bot(make_bot(**NO_MINING)):
        none = await private_reply(await fake.slash(fake.carol, puzzle.game, "puzzle-move", options={"move": "x"}))
        assert "You have no Iago puzzle open" in none.content  # the game's title, not its registry name
        await private_reply(await fake.slash(fake.carol, puzzle.game, "puzzle"))
        bad = await private_reply(await fake.slash(fake.carol, puzzle.game, "puzzle-move", options={"move": "zz99"}))
        assert "not legal" in bad.content
        attempt = await db.puzzles.open_attempt(fake.guild.id, fake.carol.id, puzzle.game)
        assert attempt is not None and (attempt.step, attempt.mistakes, attempt.rated) == (0, 0, False)


def on_clock(bot: GameBot, clock: Callable[[], float]) -> GameBot:
    """The bot with its service on ``clock`` from the start, before any background loop reads the time."""
    set_up = bot.setup_hook

    async def setup_hook() -> None:
        await set_up()
        bot.service.clock = clock

    bot.setup_hook = setup_hook  # type: ignore[method-assign]
    return bot


def dailies(fake: FakeDiscord, channel: FakeChannel, words: str) -> list[StoredMessage]:
    return [m for m in fake.channel_messages(channel) if words in m.content]


async def test_the_daily_puzzle_is_posted_once_a_day_solved_and_revealed_across_a_restart(
    db: Database, fake: FakeDiscord, make_bot: Callable[..., GameBot]
) -> None:
    found = test_puzzles()
    game = found[0].game
    await store(db, [p for p in found if p.game == game])
    channel = fake.add_text_channel("puzzles")
    day = int(time.time() // DAY) + 10
    at_ten = day * DAY + 10 * 3600
    fast = {**NO_MINING, "daily_puzzle_seconds": 0.1}
    moment = [at_ten]
    async with fake.running_bot(on_clock(make_bot(**fast), lambda: moment[0])):
        saved = await private_reply(
            await fake.slash(
                fake.alice, "admin", "set", "daily-puzzle", options={"game": game, "channel": channel.id, "hour": 9}
            )
        )
        assert "at 9:00 UTC" in saved.embeds[0]["description"]
        post = await fake.wait_for_message(channel, lambda m: "**Daily" in m.content)
        assert post.attachment().data.startswith(PNG_SIGNATURE)
        solve_id = next(c for c in post.custom_ids() if c.startswith("puzzle:daily:"))
        opened = await private_reply(await fake.click(fake.bob, post, solve_id))
        assert "puzzle #" in opened.content
        row = await db.puzzles.puzzle(int(solve_id.rsplit(":", 1)[1]))
        assert row is not None
        await solve(
            fake, fake.bob, Puzzle.from_dict({**found[0].to_dict(), "moves": row.moves, "solution": row.solution})
        )
        await asyncio.sleep(0.5)  # several rounds of the loop
        assert len(dailies(fake, channel, "**Daily")) == 1
    moment[0] = at_ten + 3600
    async with fake.running_bot(on_clock(make_bot(**fast), lambda: moment[0])):  # a restart, the same day
        await asyncio.sleep(0.8)
        assert len(dailies(fake, channel, "**Daily")) == 1
        moment[0] = at_ten + DAY  # the next day
        revealed = await fake.wait_for_message(channel, lambda m: "**Solution of the daily" in m.content)
        assert fake.bob.mention in revealed.content and "1 of 1 who tried" in revealed.content
        assert revealed.pings.users == set()  # named, never pinged
        await eventually(lambda: len(dailies(fake, channel, "**Daily")) == 2, "the next day's puzzle")
        second = dailies(fake, channel, "**Daily")[1]
        assert second.custom_ids() != post.custom_ids()  # a puzzle the server has not seen
        # Yesterday's button now says the puzzle is over.
        over = await private_reply(await fake.click(fake.carol, post, solve_id))
        assert "solution is posted" in over.content
        await asyncio.sleep(0.5)
    assert len(dailies(fake, channel, "**Solution of the daily")) == 1
    assert len(dailies(fake, channel, "**Daily")) == 2


async def test_two_processes_post_each_daily_puzzle_once(tmp_path: Path) -> None:
    """Two bot processes serving the same server (as during a rolling restart) on one database, each with the
    daily loop running every 0.1 s: one post a day and one solution, whoever gets there first; one is killed
    mid-way and started again."""
    database = tmp_path / "games.sqlite3"
    clock = tmp_path / "clock"
    found = test_puzzles()
    game = found[0].game
    async with start_fake_discord(timeout=15.0) as fake, AsyncExitStack() as stack:
        channel = fake.add_text_channel("puzzles")
        db = await Database.open(database)
        stack.push_async_callback(db.close)
        await store(db, [p for p in found if p.game == game])
        day = int(time.time() // DAY) + 20
        clock.write_text(str(day * DAY + 12 * 3600 - time.time()))
        settings = {
            **FAST,
            "DATABASE_URL": f"sqlite+aiosqlite:///{database}",
            "DAILY_PUZZLE_SECONDS": "0.1",
            "PUZZLE_MINING": "false",
            "CLOCK_FILE": str(clock),
            "DEV_GUILD_ID": str(fake.guild.id),
        }
        children = [ChildBot(fake, settings) for _ in range(2)]
        for child in children:
            await child.start()
            stack.push_async_callback(child.stop)
        # Both processes have the server: its daily puzzle is in both loops.
        await (
            await fake.slash(
                fake.alice, "admin", "set", "daily-puzzle", options={"game": game, "channel": channel.id, "hour": 6}
            )
        ).final()
        await eventually(lambda: len(dailies(fake, channel, "**Daily")) == 1, "the day's puzzle")

        async def marked() -> bool:
            row = await db.daily_puzzles.daily(fake.guild.id, game, day)
            return row is not None and row.posted_at is not None

        await eventually(marked, "the post marked done")
        killed = children[0].process
        assert killed is not None
        killed.send_signal(signal.SIGKILL)  # mid-way, as a crash: the other process carries on
        await killed.wait()
        await eventually(lambda: len(fake.connected_shards) == 1, "the killed process's gateway to close")
        await children[0].start()
        await asyncio.sleep(1.5)
        assert len(dailies(fake, channel, "**Daily")) == 1
        clock.write_text(str((day + 1) * DAY + 12 * 3600 - time.time()))
        await eventually(lambda: len(dailies(fake, channel, "**Daily")) == 2, "the next day's puzzle")
        # The solution is a post of its own, in no set order with the next puzzle: waited for, then 1.5 s in which
        # no second one may come.
        await eventually(lambda: bool(dailies(fake, channel, "**Solution of the daily")), "the first day's solution")
        await asyncio.sleep(1.5)
        assert len(dailies(fake, channel, "**Solution of the daily")) == 1
        assert len(dailies(fake, channel, "**Daily")) == 2

        async def both_marked() -> bool:
            first = await db.daily_puzzles.daily(fake.guild.id, game, day)
            second = await db.daily_puzzles.daily(fake.guild.id, game, day + 1)
            revealed = first is not None and first.revealed_at is not None
            return revealed and second is not None and second.posted_at is not None

        # A post is marked done once Discord has taken it, as for the first day's above: waited for, not assumed.
        await eventually(both_marked, "the second day's post and the first day's solution marked done")
        rows = [await db.daily_puzzles.daily(fake.guild.id, game, d) for d in (day, day + 1)]
        assert all(r is not None and r.posted_at is not None for r in rows)
        assert rows[0] is not None and rows[0].revealed_at is not None


async def test_a_puzzle_in_a_group_dm_is_rated_apart_from_the_servers(
    db: Database, fake: FakeDiscord, make_bot: Callable[..., GameBot]
) -> None:
    puzzle = min(test_puzzles(), key=lambda p: len(p.solution))
    await store(db, [puzzle])  # a self-play puzzle (no server's): offered everywhere
    alice = fake.install_for_user(fake.alice)
    group = fake.add_group_dm(alice, fake.bob, name="puzzlers")
    async with fake.running_bot(make_bot(dev_guild_id=None, **NO_MINING)):
        shown = await private_reply(await fake.slash(alice, puzzle.game, "puzzle", channel=group))
        assert "puzzle #" in shown.content and shown.attachment().description
        move = puzzle.solution[0]
        done = await private_reply(
            await fake.slash(alice, puzzle.game, "puzzle-move", options={"move": move}, channel=group)
        )
        assert f"**{move}** is right!" in done.content
        assert not [r for r in fake.request_log if r.path.startswith(f"/channels/{group.id}")]
    # The conversation is a scope of its own, as its games are: no server's puzzle rating moved.
    assert await db.puzzles.puzzle_rating(-group.id, puzzle.game, alice.id) is not None
    assert await db.puzzles.puzzle_rating(fake.guild.id, puzzle.game, alice.id) is None
