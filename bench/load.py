"""Many games at once through the fake Discord server: `python bench/load.py [--games 50] [--seconds 30]`.

The bot runs in its own process (as in production; the fake server and the simulated members run in this one,
so they do not steal the bot's event loop). It prints:

- paced play: ``--games`` games in play at once (every registered game in turn, default options), each member thinking
  0.5-2 s between moves, with the move -> reply time per game (p50/p95/p99) and, in the same run, a trivial
  command (``/<game> rules``) as the floor;
- the bot's event-loop lag per phase (a 10 ms ticker inside the bot process: max and p99);
- the throughput ceiling: ``--ceiling-games`` fresh games (default: as many) with no think time, actions a second,
  and the CPU time an action took there in the bot's process, in its workers (drawing, mining) and in this one;
- with ``--profile FILE``: cProfile of the bot's event loop during the ceiling, written to FILE (``pstats``);
- with ``--postgres URL``: the ceiling of one process and of two processes (a shard each) on that database.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import signal
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import games
from engines import GameState
from sessions.service import GameService
from tests.e2e.child import ChildBot
from tests.e2e.fake_discord import FakeDiscord, start_fake_discord
from tests.e2e.harness import FakeChannel, FakeGuild, FakeUser

LOST: list[str] = []  # actions whose reply missed Discord's 3 s deadline
# Games in their channel (no thread per game): the figures stay comparable with the earlier runs.
SETTINGS = {
    "ANNOUNCE_GRACE_SECONDS": "10",
    "ANNOUNCE_SECONDS": "5",
    "SWEEP_SECONDS": "3600",
    "LOG_LEVEL": "WARNING",
    "GAME_THREADS": "false",
    "RENDER_WORKERS": str(os.cpu_count() or 1),  # the bot's default (tests/e2e/child.py draws in threads)
    # Mining a finished game for puzzles is what follows a game's end, not a move's cost: a niced worker that
    # searches for minutes would share the cores with the moves from the first finished game on (--mining).
    "PUZZLE_MINING": "false",
}


class Table:
    """One game between two members, played by the driver through slash commands."""

    def __init__(self, fake: FakeDiscord, game: str, channel: FakeChannel, players: tuple[FakeUser, FakeUser]) -> None:
        self.fake, self.game, self.channel, self.players = fake, game, channel, players
        entry = games.find(game)
        self.state: GameState = entry.new_game(**{option.name: option.default for option in entry.options})
        self.game_id = 0

    async def start(self) -> None:
        options = {"opponent": self.players[1].id, "side": 0}
        sent = await self.fake.slash(self.players[0], self.game, "challenge", options=options, channel=self.channel)
        message = await sent.final()
        accept = next(cid for cid in message.custom_ids() if cid.startswith("challenge:accept:"))
        self.game_id = int(accept.rsplit(":", 1)[1])
        await (await self.fake.click(self.players[1], message, accept)).final()

    async def act(self, rng: random.Random, reader: GameService) -> float | None:
        """One action by the member to act; returns the seconds until the reply, or None when the game is over."""
        # dice and passes the bot played
        for move in (await reader.finder.moves(self.game_id))[len(self.state.moves) :]:
            self.state.play(move)
        if self.state.is_over or self.state.to_act is None:
            return None
        user = self.players[self.state.to_act]
        if self.state.chance:
            path, options = ("roll",), {"game": self.game_id}
        else:
            path, options = ("move",), {"move": rng.choice(self.state.legal_moves()), "game": self.game_id}
        started = time.perf_counter()
        sent = await self.fake.slash(user, self.game, *path, options=options, channel=self.channel)
        try:
            reply = await sent.final(timeout=5.0)
        except AssertionError:  # no answer within Discord's deadline: the outbox announces it later
            LOST.append(self.game)
            return float("nan")
        return time.perf_counter() - started if not reply.ephemeral else None


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))] if ordered else float("nan")


async def tables_for(fake: FakeDiscord, count: int, guilds: list[FakeGuild] | None = None) -> list[Table]:
    """``count`` games, spread over ``guilds`` (default: the fake's own server), each between two new members."""
    kinds = [entry.name for entry in games.entries()]
    servers = guilds or [fake.guild]
    tables = []
    for n in range(count):
        guild = servers[n % len(servers)]
        channel = fake.add_text_channel(f"table-{n}", guild=guild)
        players = (fake.add_member(name=f"p{n}a", guild=guild).user, fake.add_member(name=f"p{n}b", guild=guild).user)
        tables.append(Table(fake, kinds[n % len(kinds)], channel, players))
    for table in tables:
        await table.start()
    return tables


async def play(
    reader: GameService, tables: list[Table], seconds: float, think: tuple[float, float]
) -> dict[str, list[float]]:
    timings: dict[str, list[float]] = {table.game: [] for table in tables}
    deadline = time.perf_counter() + seconds

    async def run(table: Table, seed: int) -> None:
        rng = random.Random(seed)
        while time.perf_counter() < deadline:
            if think[1] > 0:
                await asyncio.sleep(rng.uniform(*think))
            took = await table.act(rng, reader)
            if took is None:
                return
            if took == took:  # not NaN: the reply came
                timings[table.game].append(took)

    await asyncio.gather(*(run(table, n) for n, table in enumerate(tables)))
    return timings


async def floor(fake: FakeDiscord, tables: list[Table], seconds: float) -> list[float]:
    timings = []
    deadline = time.perf_counter() + seconds
    while time.perf_counter() < deadline:
        started = time.perf_counter()
        await (await fake.slash(tables[0].players[0], tables[0].game, "rules", channel=tables[0].channel)).final()
        timings.append(time.perf_counter() - started)
        await asyncio.sleep(0.2)
    return timings


def stat_fields(pid: int) -> list[str]:
    """The fields of ``/proc/<pid>/stat`` after the command's name (the state first)."""
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()


def cpu_seconds(fields: list[str]) -> float:
    """The CPU time (user and system) a process used so far, from its :func:`stat_fields`."""
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def descendants(pid: int) -> list[int]:
    """The processes started by ``pid`` and by them in turn (the fork server and the workers it starts)."""
    parents: dict[int, int] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError, ValueError):  # ended meanwhile
            parents[int(stat.parent.name)] = int(stat.read_text().rsplit(")", 1)[1].split()[1])
    found, frontier = [], [pid]
    while frontier:
        children = [child for child, parent in parents.items() if parent in frontier]
        found += children
        frontier = children
    return found


def cpu_of(pid: int) -> tuple[float, float, float, float]:
    """CPU seconds so far of the bot's process, of its workers at its own priority (drawing), of its niced
    workers (mining), and of this process (the fake Discord and the members)."""
    bot = stat_fields(pid)
    drawing = niced = 0.0
    for child in descendants(pid):
        with contextlib.suppress(OSError):
            fields = stat_fields(child)
            if fields[16] == bot[16]:
                drawing += cpu_seconds(fields)
            else:
                niced += cpu_seconds(fields)
    return cpu_seconds(bot), drawing, niced, cpu_seconds(stat_fields(os.getpid()))


async def stop(child: ChildBot) -> None:
    """Stop the bot; killed if it is not gone within 20 s (a process pool may wait for a long job to end)."""
    try:
        await asyncio.wait_for(child.stop(), 20)
    except TimeoutError:
        assert child.process is not None
        child.process.kill()
        await child.process.wait()


def phase(child: ChildBot, names: list[str], name: str) -> None:
    """Close a phase of the bot's event-loop lag report (its ticker keeps max and p99 per phase)."""
    assert child.process is not None
    child.process.send_signal(signal.SIGUSR1)
    names.append(name)


async def measure(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory() as folder:
        async with start_fake_discord(timeout=30.0) as fake:
            lag_file = Path(folder) / "lag.json"
            settings = {
                **SETTINGS,
                "DATABASE_URL": f"sqlite+aiosqlite:///{folder}/load.sqlite3",
                "DEV_GUILD_ID": str(fake.guild.id),
                "LAG_REPORT": str(lag_file),
            }
            if args.profile:  # the ceiling: it begins after the third phase closes (SIGUSR1)
                settings |= {"PROFILE": str(Path(args.profile).resolve()), "PROFILE_PHASE": "3"}
            child = ChildBot(fake, settings)
            await child.start()
            reader = await GameService.open(settings["DATABASE_URL"])  # to follow the games' logs
            phases: list[str] = []
            try:
                tables = await tables_for(fake, args.games)
                phase(child, phases, f"start-up, {args.games} challenges accepted")
                paced, floors = await asyncio.gather(
                    play(reader, tables, args.seconds, (0.5, 2.0)), floor(fake, tables, args.seconds)
                )
                phase(child, phases, "paced play")
                print(f"paced play, {args.games} games at once, {args.seconds:.0f} s (move -> reply, ms)")
                print(f"{'':<12}{'moves':>7}{'p50':>8}{'p95':>8}{'p99':>8}")
                for game, values in [*paced.items(), ("floor", floors)]:
                    ms = [1000 * v for v in values]
                    shares = "".join(f"{percentile(ms, share):>8.1f}" for share in (0.5, 0.95, 0.99))
                    print(f"{game:<12}{len(ms):>7}{shares}")
                print(f"replies past Discord's 3 s deadline: {len(LOST)}")
                LOST.clear()
                if args.ceiling_games:
                    fresh = await tables_for(fake, args.ceiling_games)
                    phase(child, phases, f"{args.ceiling_games} more challenges accepted")
                    assert child.process is not None
                    started, cpu = time.perf_counter(), cpu_of(child.process.pid)
                    flat = await play(reader, fresh, args.seconds / 2, (0.0, 0.0))
                    actions = sum(len(v) for v in flat.values())
                    rate = actions / (time.perf_counter() - started)
                    spent = [
                        1000 * (after - before) / max(1, actions)
                        for after, before in zip(cpu_of(child.process.pid), cpu, strict=True)
                    ]
                    phases.append(f"ceiling, {args.ceiling_games} games")
                    print(
                        f"ceiling, no think time, {args.ceiling_games} games: {rate:.1f} actions/s answered, "
                        f"{len(LOST)} past the deadline"
                    )
                    print(
                        f"CPU per action there: the bot's process {spent[0]:.1f} ms, its drawing workers "
                        f"{spent[1]:.1f} ms, its niced workers (mining) {spent[2]:.1f} ms, this process (the fake "
                        f"Discord and the members) {spent[3]:.1f} ms"
                    )
            finally:
                await reader.close()
                await stop(child)
            if lag_file.exists():
                print("bot event-loop lag (max / p99 ms):")
                for name, lag in zip([*phases, "the rest"], json.loads(lag_file.read_text()), strict=False):
                    pauses = ", ".join(f"gen{gen} {n} max {ms:.1f} ms" for gen, (n, ms) in lag.get("gc", {}).items())
                    print(f"  {name}: {lag['max_ms']:.1f} / {lag['p99_ms']:.1f}; collections: {pauses}")


async def empty_postgres(url: str) -> None:
    """Start each PostgreSQL run from an empty database (the bot migrates it)."""
    import asyncpg

    connection = await asyncpg.connect(url.replace("+asyncpg", ""))
    try:
        await connection.execute("DROP SCHEMA IF EXISTS public CASCADE; CREATE SCHEMA public")
    finally:
        await connection.close()


async def ceiling_on_postgres(url: str, processes: int, count: int, seconds: float) -> float:
    """Actions a second with no think time, ``processes`` bot processes (a shard each) on one PostgreSQL."""
    await empty_postgres(url)
    async with start_fake_discord(timeout=30.0, shard_count=processes) as fake:
        guilds = [fake.add_guild(f"shard {n}", shard=(n, processes)) for n in range(processes)]
        # The machine's cores shared between the processes' drawing workers, as docs/deploy.md advises.
        workers = (
            str(max(1, int(SETTINGS["RENDER_WORKERS"]) // processes)) if SETTINGS["RENDER_WORKERS"] != "0" else "0"
        )
        settings = {**SETTINGS, "DATABASE_URL": url, "RENDER_WORKERS": workers}
        children = [ChildBot(fake, settings, shard=(n, processes)) for n in range(processes)]
        for child in children:
            await child.start()
        reader = await GameService.open(url)
        try:
            tables = await tables_for(fake, count, guilds)
            started = time.perf_counter()
            flat = await play(reader, tables, seconds, (0.0, 0.0))
            return sum(len(v) for v in flat.values()) / (time.perf_counter() - started)
        finally:
            await reader.close()
            for child in children:
                await stop(child)


async def compare_processes(args: argparse.Namespace) -> None:
    rates = [await ceiling_on_postgres(args.postgres, n, args.games, args.seconds / 2) for n in (1, 2)]
    print(f"PostgreSQL ceiling, no think time: one process {rates[0]:.1f} actions/s, two processes {rates[1]:.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument(
        "--ceiling-games", type=int, help="games in the no-think-time ceiling run (default: --games; 0 skips it)"
    )
    parser.add_argument("--postgres", help="postgresql+asyncpg://... : also compare one and two processes there")
    parser.add_argument("--render-threads", action="store_true", help="draw in threads of the bot process")
    parser.add_argument("--only-postgres", action="store_true", help="skip the SQLite run")
    parser.add_argument("--mining", action="store_true", help="mine the games that end for puzzles, as by default")
    parser.add_argument("--profile", metavar="FILE", help="cProfile the bot's event loop in the ceiling, to FILE")
    args = parser.parse_args()
    if args.render_threads:
        SETTINGS["RENDER_WORKERS"] = "0"
    if args.mining:
        SETTINGS["PUZZLE_MINING"] = "true"
    if args.ceiling_games is None:
        args.ceiling_games = args.games
    if not args.only_postgres:
        asyncio.run(measure(args))
    if args.postgres:
        asyncio.run(compare_processes(args))


if __name__ == "__main__":
    main()
