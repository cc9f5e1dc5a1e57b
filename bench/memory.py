"""Memory across many finished games: `python bench/memory.py [games]` (default 5,000).

Plays games through the session service on a SQLite file (challenge, accept, a few moves, resign, all
announced and marked delivered as the bot would), and prints the process's resident memory and the size of the
service's per-game state cache and lock table every tenth of the run. Bounded memory shows as a flat RSS.
"""

from __future__ import annotations

import asyncio
import gc
import os
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import games
from sessions.model import ReplyTo
from sessions.service import GameService

GUILD, CHANNEL = 1, 2
PAGE = os.sysconf("SC_PAGE_SIZE")


def rss_mb() -> float:
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * PAGE / 2**20


async def one_game(service: GameService, rng: random.Random, n: int) -> None:
    entry = games.entries()[n % len(games.entries())]
    alice, bob = 10_000 + 2 * n, 10_001 + 2 * n  # new members each game: nothing is reused by luck
    options = {option.name: option.default for option in entry.options}
    offered = await service.challenges.challenge(
        game=entry.name,
        guild_id=GUILD,
        channel_id=CHANNEL,
        challenger_id=alice,
        opponent_id=bob,
        opponent_is_bot=False,
        options=options,
        side=0,
        rated=True,
    )
    reply = ReplyTo(1, "token", time.time())
    report = await service.open_challenges.accept(offered.id, bob, guild_id=GUILD, reply=reply)
    service.announcements.delivered(report.game.id, report.announcement_id or 0, 1)
    for _ in range(6):
        state = report.state
        if state.is_over or state.to_act is None:
            break
        user = report.game.players[state.to_act]
        if state.chance:
            report = await service.turns.roll(offered.id, user, reply=reply)
        else:
            report = await service.turns.play(offered.id, user, rng.choice(state.legal_moves()), reply=reply)
        service.announcements.delivered(report.game.id, report.announcement_id or 0, 1)
    if not report.state.is_over:
        report = await service.turns.resign(offered.id, alice, reply=reply)
        service.announcements.delivered(report.game.id, report.announcement_id or 0, 1)


async def main(total: int) -> None:
    rng = random.Random(1)
    with tempfile.TemporaryDirectory() as folder:
        service = await GameService.open(f"sqlite+aiosqlite:///{folder}/memory.sqlite3")
        print(f"{'games':>7}{'RSS MB':>9}{'cached states':>15}{'locks':>7}{'s':>7}")
        started = time.perf_counter()
        for n in range(total):
            await one_game(service, rng, n)
            if (n + 1) % max(1, total // 10) == 0:
                gc.collect()
                states, locks = service.held()
                print(f"{n + 1:>7}{rss_mb():>9.1f}{states:>15}{locks:>7}{time.perf_counter() - started:>7.0f}")
        await service.close()


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1]) if len(sys.argv) > 1 else 5000))
