"""Polygo engine timings: legal-move listing and polygon checks on a crowded 19x19 board, full random games.

Run from the repository root: ``python bench/polygo_engine.py``. Prints figures only.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engines import polygo

RUNS = 2000


def crowded_game(placements: int, seed: int) -> polygo.PolygoGame:
    """A 19x19 game after ``placements`` random placements that close no loop, stopped at a face-5 placement."""
    rng = random.Random(seed)
    game = polygo.new_game(size=19)
    placed = 0
    while placed < placements:
        legal = game.legal_moves()
        rng.shuffle(legal)
        for move in legal:
            trial = game.copy()
            trial.play(move)
            if not any(trial.finished):  # random play would finish long before the board is crowded
                game = trial
                placed += not game.chance
                break
        else:
            break
    if game.chance:
        game.play("roll 5")  # the face with the most orientations: the slowest listing
    return game


def timings(action: Callable[[], object], runs: int = RUNS) -> tuple[float, float]:
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        action()
        samples.append(time.perf_counter() - start)
    samples.sort()
    return statistics.median(samples) * 1e3, samples[int(0.95 * (len(samples) - 1))] * 1e3


def report(label: str, median_ms: float, p95_ms: float) -> None:
    print(f"{label:<46} median {median_ms:8.3f} ms   p95 {p95_ms:8.3f} ms")


def main() -> None:
    game = crowded_game(70, seed=1)
    stones = bin(game._stones[0]).count("1") + bin(game._stones[1]).count("1")
    print(f"crowded 19x19 board: {len(game.moves)} moves, {stones} stones, over={game.is_over}")

    def fresh_listing() -> list[str]:
        game._legal_cache = None  # time the listing itself, not the per-state cache
        return game.legal_moves()

    report("legal_moves() (uncached, face 5)", *timings(fresh_listing))
    empty = polygo.new_game(size=19)
    empty.play("open 5 6")

    def empty_listing() -> list[str]:
        empty._legal_cache = None
        return empty.legal_moves()

    report("legal_moves() empty 19x19 (uncached, face 5)", *timings(empty_listing))
    geo = polygo._geometry(19)
    for player in (0, 1):
        own = game._stones[player]
        report(f"polygon check, player {player} (no polygon)", *timings(lambda own=own: polygo.find_polygon(own, geo)))
    # a board where the check finds a polygon, so the cell geometry and outline run too
    big = [f"{c}{r}" for c in "CDEFGHJKLMNOPQR" for r in (3, 17)] + [f"{c}{r}" for c in "CR" for r in range(4, 17)]
    own = 0
    for name in big:
        col, row = polygo.parse_point(name)
        own |= geo.bit(col, row)
    report("polygon check, 13x15 ring (polygon found)", *timings(lambda: polygo.find_polygon(own, geo), 300))

    for size in (9, 13, 19):
        samples = []
        lengths = []
        for seed in range(60 if size == 19 else 200):
            rng = random.Random(seed)
            start = time.perf_counter()
            g = polygo.new_game(size=size)
            while not g.is_over:
                g.play(rng.choice(g.legal_moves()))
            samples.append(time.perf_counter() - start)
            lengths.append(len(g.moves))
        samples.sort()
        report(
            f"random full game {size}x{size} (avg {statistics.mean(lengths):.0f} moves)",
            statistics.median(samples) * 1e3,
            samples[int(0.95 * (len(samples) - 1))] * 1e3,
        )


if __name__ == "__main__":
    main()
