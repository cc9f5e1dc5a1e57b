"""Time from a move's interaction to the bot's reply, through the fake Discord server:
`python bench/interaction.py [moves]`. Prints the median and p95 per game.

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

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import games
from bot import Settings, create_bot
from tests.e2e.fake_discord import start_fake_discord


async def measure(game: str, options: dict, moves: int, folder: Path) -> list[float]:
    async with start_fake_discord(timeout=30.0) as fake:
        settings = Settings(
            _env_file=None,
            discord_token="bench",
            database_path=folder / f"{game}.sqlite3",
            dev_guild_id=fake.guild.id,
            game_threads=False,  # the move path itself; threads add a header edit (docs/performance.md)
        )
        async with fake.running_bot(create_bot(settings, guild_ready_timeout=0.05)) as bot:
            challenge = await fake.slash(fake.alice, game, "challenge", options={"opponent": fake.bob.id, "side": 0})
            message = await challenge.final()
            accepted = await fake.click(fake.bob, message, message.custom_ids()[0])
            await accepted.final()
            (row,) = await bot.service.db.games_with_status("active")
            game_id = row.id
            state = games.find(game).new_game(**options)
            rng = random.Random(3)
            players = (fake.alice, fake.bob)
            timings = []
            while len(timings) < moves:
                for move in (await bot.service.db.moves(game_id))[len(state.moves) :]:
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
            return timings


async def main(moves: int) -> None:
    print(f"{'game':<8}{'moves':>6}{'median ms':>11}{'p95 ms':>9}")
    with tempfile.TemporaryDirectory() as folder:
        for entry in games.entries():
            game, options = entry.name, {option.name: option.default for option in entry.options}
            timings = sorted(await measure(game, options, moves, Path(folder)))
            p95 = timings[min(len(timings) - 1, round(0.95 * (len(timings) - 1)))]
            print(f"{game:<8}{len(timings):>6}{statistics.median(timings):>11.1f}{p95:>9.1f}")


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1]) if len(sys.argv) > 1 else 40))
