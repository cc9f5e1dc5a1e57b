"""Time from a move's interaction to the bot's reply, through the fake Discord server:
`python bench/interaction.py [moves] [--count]`. Prints the median and p95 per game; with ``--count``, also
the SQL statements and the hops from the event loop to another thread (the database's, the renderer's) per move.

The real discord.py client runs against the loopback fake from tests/e2e, so the figure covers
parsing, the service, the SQLite commit, rendering in a worker thread and the HTTP reply.
"""

from __future__ import annotations

import asyncio
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

from sqlalchemy import event
from sqlalchemy.engine import Engine

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import games
from bot import Settings, create_bot
from tests.e2e.fake_discord import start_fake_discord


class Counts:
    """SQL statements (a SQLAlchemy event) and thread hops (every result a thread hands back to the event loop
    goes through ``call_soon_threadsafe``: aiosqlite's thread, executors, ``to_thread``)."""

    def __init__(self) -> None:
        self.statements = 0
        self.hops = 0

    def attach(self) -> None:
        # Every engine of this process (the bot's: the async one, and the sync one SQLite's threads use); the fake
        # Discord server runs no SQL. Listened to as long as the process lives: a bench runs once.
        @event.listens_for(Engine, "before_cursor_execute")
        def count(*_: object) -> None:
            self.statements += 1

        loop = asyncio.get_running_loop()
        original = loop.call_soon_threadsafe

        def counted(*args: object, **kwargs: object) -> object:
            self.hops += 1
            return original(*args, **kwargs)  # type: ignore[arg-type]

        loop.call_soon_threadsafe = counted  # type: ignore[method-assign]


COUNTS: dict[str, tuple[int, int, int]] = {}  # game -> (moves, statements, hops)


async def measure(game: str, options: dict, moves: int, folder: Path, count: bool = False) -> list[float]:
    async with start_fake_discord(timeout=30.0) as fake:
        settings = Settings(
            _env_file=None,
            discord_token="bench",
            database_path=folder / f"{game}.sqlite3",
            dev_guild_id=fake.guild.id,
            game_threads=False,  # the move path itself; threads add a header edit (docs/performance.md)
        )
        async with fake.running_bot(create_bot(settings, guild_ready_timeout=0.05)) as bot:
            if bot._warm_up is not None:  # the drawing processes start and draw each game once: not the moves' cost
                await bot._warm_up
            challenge = await fake.slash(fake.alice, game, "challenge", options={"opponent": fake.bob.id, "side": 0})
            message = await challenge.final()
            accept = next(cid for cid in message.custom_ids() if cid.startswith("challenge:accept:"))
            await (await fake.click(fake.bob, message, accept)).final()
            game_id = int(accept.rsplit(":", 1)[1])
            state = games.find(game).new_game(**options)
            rng = random.Random(3)
            players = (fake.alice, fake.bob)
            timings = []
            counts = Counts()
            if count:
                counts.attach()
            while len(timings) < moves:
                for move in (await bot.service.finder.moves(game_id))[len(state.moves) :]:
                    state.play(move)
                if state.is_over:
                    break
                assert state.to_act is not None
                if state.chance:  # a die the player rolls by command
                    user, path, opts = players[state.to_act], ("roll",), {}
                else:
                    user, path, opts = players[state.to_act], ("move",), {"move": rng.choice(state.legal_moves())}
                started = time.perf_counter()
                reply = await fake.slash(user, game, *path, options=opts)
                await reply.final()
                timings.append((time.perf_counter() - started) * 1000)
            await asyncio.sleep(0.2)  # the last reply's bookkeeping (its delivery mark) is counted too
            COUNTS[game] = (len(timings), counts.statements, counts.hops)
            return timings


async def main(moves: int, count: bool) -> None:
    counted = f"{'SQL/move':>10}{'hops/move':>11}" if count else ""
    print(f"{'game':<8}{'moves':>6}{'median ms':>11}{'p95 ms':>9}{counted}")
    with tempfile.TemporaryDirectory() as folder:
        for entry in games.entries():
            game, options = entry.name, {option.name: option.default for option in entry.options}
            timings = sorted(await measure(game, options, moves, Path(folder), count))
            p95 = timings[min(len(timings) - 1, round(0.95 * (len(timings) - 1)))]
            line = f"{game:<8}{len(timings):>6}{statistics.median(timings):>11.1f}{p95:>9.1f}"
            if count:
                n, statements, hops = COUNTS[game]
                line += f"{statements / n:>10.1f}{hops / n:>11.1f}"
            print(line)


if __name__ == "__main__":
    numbers = [arg for arg in sys.argv[1:] if arg.isdigit()]
    asyncio.run(main(int(numbers[0]) if numbers else 40, "--count" in sys.argv))
