"""Render time and PNG size per board: `python bench/render.py`.

Positions come from seeded random games (start, middle, end) so runs are comparable.
"""

from __future__ import annotations

import importlib
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engines

OPTIONS = {"iago": {}, "isaac": {}, "polygo": {"size": 19}}
NAMES = ("Alice", "Bob")
RUNS = 15


def positions(game: str, seed: int = 1) -> dict[str, object]:
    rng = random.Random(seed)
    state = engines.get(game).new_game(**OPTIONS[game])
    history = [state.copy()]
    while not state.is_over:
        state.play(rng.choice(state.legal_moves()))
        history.append(state.copy())
    return {"start": history[0], "middle": history[len(history) // 2], "end": history[-1]}


def main() -> None:
    print(f"{'board':<16}{'median ms':>10}{'p95 ms':>10}{'PNG KB':>10}")
    for game in engines.NAMES:
        renderer = importlib.import_module(f"render.{game}")
        for label, state in positions(game).items():
            times = []
            for _ in range(RUNS):
                started = time.perf_counter()
                png = renderer.render(state, NAMES)
                times.append((time.perf_counter() - started) * 1000)
            times.sort()
            p95 = times[min(len(times) - 1, round(0.95 * (len(times) - 1)))]
            print(f"{game + ' ' + label:<16}{statistics.median(times):>10.1f}{p95:>10.1f}{len(png) / 1024:>10.1f}")


if __name__ == "__main__":
    main()
