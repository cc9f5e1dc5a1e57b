"""The shipped puzzle set, game by game: how many, their ratings and themes, and what mining them cost.

    python bench/puzzle_set.py            # every game with a shipped file
    python bench/puzzle_set.py --game <name>

Reads ``puzzles/data/<game>.jsonl.gz`` through ``puzzles.shipped`` (its header keeps the mining figures that
``python bench/mine_puzzles.py ship`` wrote: per work file, the self-play games, CPU hours and puzzles found). Prints,
per game: the puzzles shipped (per board size for Polygo), the rating spread (lowest, quartiles, highest, and a
histogram by 200 points), the themes with their counts, the solution lengths, and the puzzles per CPU hour.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import games
from puzzles import shipped
from puzzles.oracle import load
from puzzles.themes import names


def report(game: str) -> None:
    puzzles = shipped.load(game)
    head = shipped.header(game)
    print(f"== {game}: {len(puzzles)} puzzles shipped ({head.get('format')})")
    if not puzzles:
        return
    by_options = Counter(" ".join(f"{k}={v}" for k, v in sorted(p.options.items())) or "default" for p in puzzles)
    if len(by_options) > 1 or "default" not in by_options:
        print("   by options: " + ", ".join(f"{name} {count}" for name, count in sorted(by_options.items())))
    ratings = sorted(p.rating for p in puzzles)
    quartiles = statistics.quantiles(ratings, n=4) if len(ratings) > 1 else [ratings[0]] * 3
    print(
        f"   rating: lowest {ratings[0]}, quartiles {quartiles[0]:.0f} / {quartiles[1]:.0f} / {quartiles[2]:.0f}, "
        f"highest {ratings[-1]}, mean {statistics.mean(ratings):.0f}"
    )
    bands = Counter(r // 200 * 200 for r in ratings)
    print("   by rating: " + ", ".join(f"{band}-{band + 199} {bands[band]}" for band in sorted(bands)))
    themes = Counter(theme for p in puzzles for theme in p.themes)
    named = names(load(games.find(game).puzzles or ""))
    print("   themes: " + ", ".join(f"{named.get(t, t)} {n}" for t, n in themes.most_common()))
    lengths = Counter(p.solver_moves for p in puzzles)
    print("   solver's moves: " + ", ".join(f"{n} move{'s' if n > 1 else ''}: {c}" for n, c in sorted(lengths.items())))
    margins = [p.margin for p in puzzles]
    print(f"   margin (value over the closest rival): median {statistics.median(margins):.2f}, min {min(margins):.2f}")
    mining = head.get("mining") or {}
    total_cpu = sum(m["cpu_hours"] for m in mining.values())
    total = sum(m["shipped"] for m in mining.values())
    for name, figures in sorted(mining.items()):
        print(
            f"   mined {name}: seeds {figures['seeds']}, {figures['games']} games, {figures['found']} found, "
            f"{figures['shipped']} shipped, {figures['cpu_hours']:.2f} CPU hours, "
            f"{figures['per_cpu_hour']:.0f} shipped puzzles per CPU hour ({figures['skipped']} candidates too long)"
        )
    if total_cpu:
        print(f"   mining in all: {total} shipped from {total_cpu:.2f} CPU hours, {total / total_cpu:.0f} per CPU hour")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", action="append", help="a game (default: every game with a shipped set)")
    args = parser.parse_args()
    for game in args.game or shipped.games():
        report(game)


if __name__ == "__main__":
    main()
