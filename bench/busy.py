"""Many members playing the bot's level 4 at once: ``python bench/busy.py [--games 20] [--seconds 120]``.

The bot runs in its own process with its real worker pool (one search worker per core) and its own thinking
times, against the fake Discord server of this process (as ``bench/load.py``). ``--games`` members each challenge
the bot at ``--level`` (every registered game with a computer player in turn, default options) and play random
legal moves, thinking ``--think`` seconds (a range) before each. For every move that hands the turn to the bot it
prints the time from the member's command to the bot's board (the announcement of the bot's move in the channel),
per game and overall (p50, p95, max), and how many of the bot's replies said it thought less than usual. The
issue's goal: p95 at most 3 s with 20 games against level 4 on this 2-core machine. ``--pool-only`` measures the
search pool alone (``Thinker``, in this process): the part of that time the bot's thinking takes, with its
deadline of ``THINK_DEADLINE`` (``sessions/pace.py``).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import re
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import games
from bench.load import SETTINGS, percentile
from sessions.pace import Booking, Pace
from sessions.service import GameService
from sessions.thinking import Thinker
from tests.e2e.child import ChildBot
from tests.e2e.fake_discord import FakeDiscord, start_fake_discord
from tests.e2e.harness import FakeChannel, FakeUser, StoredMessage

HURRIED = "thought less than usual"
BOT_TURN_LIMIT = 90.0  # a bot turn not in the log by then is reported and its table stops (the bench never hangs)


class Table:
    """One member against the bot, in a channel of its own."""

    def __init__(self, fake: FakeDiscord, game: str, channel: FakeChannel, member: FakeUser, level: int) -> None:
        self.fake, self.game, self.channel, self.member, self.level = fake, game, channel, member, level
        self.game_id = 0
        self.times: list[float] = []
        self.hurried = 0
        self.replies = 0
        self.late = 0  # commands whose reply took more than 30 s
        self.missing: list[str] = []  # bot turns not played within BOT_TURN_LIMIT
        self.abandoned = False

    async def start(self) -> None:
        options = {"opponent": self.fake.bot_user.id, "level": self.level, "side": 0}
        sent = await self.fake.slash(self.member, self.game, "challenge", options=options, channel=self.channel)
        accepted = (await sent.final(timeout=60.0)).content  # "... accepted: <game> game #12 begins!"
        found = re.search(r"game #(\d+)", accepted)
        assert found, "the bot did not accept the challenge"
        self.game_id = int(found.group(1))

    async def play(self, reader: GameService, rng: random.Random, until: float, think: tuple[float, float]) -> None:
        while time.perf_counter() < until and not self.abandoned:
            state = await self._state(reader)
            if state.is_over:
                return
            await asyncio.sleep(rng.uniform(*think))
            path, options = ("roll",), {"game": self.game_id}
            if not state.chance:
                path, options = ("move",), {"move": rng.choice(state.legal_moves()), "game": self.game_id}
            before = max((m.id for m in self.fake.channel_messages(self.channel)), default=0)
            started = time.perf_counter()
            sent = await self.fake.slash(self.member, self.game, *path, options=options, channel=self.channel)
            try:
                reply = await sent.final(timeout=30.0)
            except AssertionError:  # no answer in 30 s: the bot's board is still waited for
                self.late += 1
            else:
                if reply.ephemeral:
                    continue
            if state.chance:
                continue
            board = await self._bots_board(reader, before)
            if board is None:
                continue
            self.times.append(time.perf_counter() - started)
            self.replies += 1
            self.hurried += HURRIED in board.content

    async def _state(self, reader: GameService) -> Any:
        game = await reader.finder.game(self.game_id)
        state = games.find(self.game).new_game(**game.options)
        for move in await reader.finder.moves(self.game_id):
            state.play(move)
        return state

    async def _bots_board(self, reader: GameService, before: int) -> StoredMessage | None:
        """The board that announces the bot's move (in Polygo, its roll and placement): once the game's log has
        the bot's reply, the first message since the member's command (the member's reply itself when the bot's
        move is announced in it) that shows that move on a board. None if it never shows (a forced pass reads
        otherwise)."""
        waited_since = time.perf_counter()
        while True:
            state = await self._state(reader)
            if state.is_over or state.to_act == 0:
                break
            if time.perf_counter() - waited_since > BOT_TURN_LIMIT:
                self.missing.append(f"game #{self.game_id} after {' '.join(state.moves[-4:])}")
                self.abandoned = True
                return None
            await asyncio.sleep(0.05)
        shown = f"**{state.moves[-1]}**"
        try:
            return await self.fake.wait_for_message(
                self.channel, lambda m: bool(m.attachments) and shown in m.content, after=before, timeout=30
            )
        except AssertionError:
            return None


async def measure(args: argparse.Namespace) -> None:
    kinds = [entry.name for entry in games.entries() if entry.ai is not None and entry.name in args.only]
    with tempfile.TemporaryDirectory() as folder:
        async with start_fake_discord(timeout=30.0) as fake:
            settings = {
                **SETTINGS,
                "DATABASE_URL": f"sqlite+aiosqlite:///{folder}/busy.sqlite3",
                "DEV_GUILD_ID": str(fake.guild.id),
                "RENDER_WORKERS": str(os.cpu_count() or 1),
            }
            child = ChildBot(fake, settings)
            await child.start()
            reader = await GameService.open(settings["DATABASE_URL"])
            try:
                tables = []
                for n in range(args.games):
                    channel = fake.add_text_channel(f"bot-table-{n}")
                    member = fake.add_member(name=f"learner{n}").user
                    tables.append(Table(fake, kinds[n % len(kinds)], channel, member, args.level))
                for table in tables:
                    await table.start()
                until = time.perf_counter() + args.seconds
                think = (args.think[0], args.think[1])
                await asyncio.gather(
                    *(table.play(reader, random.Random(n), until, think) for n, table in enumerate(tables))
                )
            finally:
                await reader.close()
                await child.stop()
    print(
        f"{args.games} games against level {args.level} at once on {os.cpu_count()} cores, members thinking "
        f"{args.think[0]:g}-{args.think[1]:g} s, {args.seconds:.0f} s: member's move -> the bot's board (s)"
    )
    print(f"{'game':<10}{'moves':>7}{'p50':>8}{'p95':>8}{'max':>8}{'thought less':>15}")
    everything: list[float] = []
    for kind in kinds:
        mine = [t for t in tables if t.game == kind]
        times = [x for t in mine for x in t.times]
        everything += times
        hurried, replies = sum(t.hurried for t in mine), sum(t.replies for t in mine)
        print(_row(kind, times, hurried, replies))
    print(_row("all", everything, sum(t.hurried for t in tables), sum(t.replies for t in tables)))
    print(f"replies to the member's command later than 30 s: {sum(t.late for t in tables)}")
    missing = [line for t in tables for line in t.missing]
    print(f"bot turns not played within {BOT_TURN_LIMIT:.0f} s: {len(missing)}" + "".join(f"\n  {m}" for m in missing))
    p95 = percentile(everything, 0.95)
    print(f"goal p95 <= 3 s: {'met' if p95 <= 3.0 else f'missed by {p95 - 3.0:.2f} s'} ({p95:.2f} s)")


class Unhurried(Pace):
    def book(self, usual: float | None, deadline: float | None = None) -> Booking:
        return super().book(usual, None)


async def measure_pool(args: argparse.Namespace) -> None:
    """The search pool alone (``sessions.thinking.Thinker``, as the bot makes it): from asking for the bot's move
    to having it, with no Discord, drawing or database around it."""
    kinds = [entry.name for entry in games.entries() if entry.ai is not None and entry.name in args.only]
    thinker = Thinker()
    if args.without_pace:  # the comparison: every search thinks its own time, however long the queue
        thinker.pace = Unhurried(thinker.workers)
    times: dict[str, list[float]] = {kind: [] for kind in kinds}
    cut: dict[str, int] = dict.fromkeys(kinds, 0)
    until = time.perf_counter() + args.seconds

    async def member(n: int) -> None:
        rng, entry = random.Random(n), games.find(kinds[n % len(kinds)])
        state = entry.new_game()
        while time.perf_counter() < until:
            await asyncio.sleep(rng.uniform(*args.think))
            while state.chance or (not state.is_over and state.to_act == 0):  # the member's dice and moves
                state.play(rng.choice(state.legal_moves()))
            if state.is_over:
                state = entry.new_game()
                continue
            started = time.perf_counter()
            thought = await thinker.think(entry, {}, state.moves, args.level, rng.randrange(1 << 30))
            times[entry.name].append(time.perf_counter() - started)
            cut[entry.name] += thought.cut_short
            state.play(thought.move)

    try:
        await asyncio.gather(*(member(n) for n in range(args.games)))
    finally:
        thinker.close()
    pace = "without the pace (every search its own time)" if args.without_pace else "with sessions/pace.py"
    print(f"{args.games} games against level {args.level}, the search pool alone ({thinker.workers} workers), {pace}:")
    print("asking for the bot's move -> having it (s)")
    print(f"{'game':<10}{'moves':>7}{'p50':>8}{'p95':>8}{'max':>8}{'thought less':>15}")
    for kind in kinds:
        print(_row(kind, times[kind], cut[kind], len(times[kind])))
    everything = [t for kind in kinds for t in times[kind]]
    print(_row("all", everything, sum(cut.values()), len(everything)))


def _row(name: str, times: list[float], hurried: int, replies: int) -> str:
    cells = "".join(f"{percentile(times, q):>8.2f}" for q in (0.5, 0.95)) + f"{max(times, default=float('nan')):>8.2f}"
    return f"{name:<10}{len(times):>7}{cells}{f'{hurried}/{replies}':>15}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--level", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=120.0)
    parser.add_argument("--think", type=float, nargs=2, default=(0.5, 2.0), help="a member's thinking, min and max")
    parser.add_argument("--only", nargs="*", default=games.names(), help="which games (default: every one with an AI)")
    parser.add_argument("--pool-only", action="store_true", help="the search pool alone, without the bot around it")
    parser.add_argument("--without-pace", action="store_true", help="with --pool-only: no search thinks less")
    args = parser.parse_args()
    asyncio.run(measure_pool(args) if args.pool_only else measure(args))


if __name__ == "__main__":
    main()
