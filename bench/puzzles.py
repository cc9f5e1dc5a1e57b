"""How many puzzles the miner finds per 100 games, and how long mining takes (docs/learn.md, "Puzzles").

    python bench/puzzles.py --game iago --games 40
    python bench/puzzles.py --game polygo --option size=13 --games 20 --scale 0.25 --jobs 2
    python bench/puzzles.py --game isaac --games 20 --ship puzzles/self_play.json --records records.jsonl

Plays seeded self-play games between the bot's levels (the pairs cycle through every ordered pair of different
levels), then mines each record as the bot mines a finished game (``puzzles.mining.mine_record``). ``--scale``
multiplies every mining budget (1 is the bot's: 16 s for the strongest search), so a quick run says so.
``--move-seconds`` caps the players' thinking in the self-play games (their levels' own time when 0).
``--ship`` adds the puzzles found to the file the bot ships (one copy of each position); ``--records`` writes the
self-play records, for tests. Prints a line per game and a summary.
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import multiprocessing
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import ai
import games
from puzzles.mining import Budgets, Miner, Puzzle
from puzzles.selfplay import self_play
from sessions.puzzles.mining import position_key

PAIRS = [pair for pair in itertools.permutations(ai.LEVELS, 2)]


def one_game(job: tuple[str, dict[str, Any], int, float | None, float]) -> dict[str, Any]:
    """Play and mine one game (in a worker process with ``--jobs``)."""
    name, options, seed, move_seconds, scale = job
    entry = games.find(name)
    assert entry.ai is not None
    levels = PAIRS[seed % len(PAIRS)]
    started = time.perf_counter()
    state = self_play(lambda: entry.new_game(**options), levels, seed, budget_s=move_seconds or None)
    played = time.perf_counter() - started
    miner = Miner(entry.ai, Budgets().scaled(scale))
    started = time.perf_counter()
    found = miner.mine(name, entry.engine.__name__, options, state.moves)  # type: ignore[attr-defined]
    mined = time.perf_counter() - started
    for puzzle in found:
        object.__setattr__(puzzle, "source", {"self_play": seed, "levels": list(levels)})
    return {
        "seed": seed,
        "levels": list(levels),
        "moves": state.moves,
        "play_s": played,
        "mine_s": mined,
        "puzzles": [p.to_dict() for p in found],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", required=True, choices=[e.name for e in games.entries() if e.ai])
    parser.add_argument("--option", action="append", default=[], help="a game option, name=value")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--first-seed", type=int, default=1)
    parser.add_argument("--scale", type=float, default=1.0, help="times the bot's mining budgets")
    parser.add_argument("--move-seconds", type=float, default=0.2, help="self-play thinking cap; 0: the levels'")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--ship", type=Path, help="add the puzzles found to this JSON file (the shipped set)")
    parser.add_argument("--records", type=Path, help="write the self-play records here (JSON lines)")
    args = parser.parse_args()
    options: dict[str, Any] = {}
    for option in args.option:
        key, _, value = option.partition("=")
        options[key] = int(value) if value.isdigit() else value
    jobs = [
        (args.game, options, seed, args.move_seconds, args.scale)
        for seed in range(args.first_seed, args.first_seed + args.games)
    ]
    budgets = Budgets().scaled(args.scale)
    print(f"{args.game} {options or ''}: {args.games} self-play games, mining budgets {budgets}, jobs {args.jobs}")
    results = []
    started = time.perf_counter()
    if args.jobs > 1:
        with multiprocessing.get_context("spawn").Pool(args.jobs) as pool:
            iterator = pool.imap(one_game, jobs)
            for result in iterator:
                results.append(report(result))
    else:
        for job in jobs:
            results.append(report(one_game(job)))
    wall = time.perf_counter() - started
    summary(results, wall)
    if args.records:
        with args.records.open("a") as out:
            for result in results:
                record = {"game": args.game, "options": options, **{k: result[k] for k in ("seed", "levels", "moves")}}
                out.write(json.dumps(record) + "\n")
    if args.ship:
        ship(args.ship, [Puzzle.from_dict(p) for result in results for p in result["puzzles"]], args.scale)


def report(result: dict[str, Any]) -> dict[str, Any]:
    found = result["puzzles"]
    lines = [
        f"{len(p['moves'])}: {' '.join(p['solution'])} (margin {min(s[1] - s[3] for s in p['steps']):.2f})"
        for p in found
    ]
    print(
        f"seed {result['seed']} L{result['levels'][0]}-L{result['levels'][1]}: {len(result['moves'])} plies, "
        f"mined in {result['mine_s']:.1f} s, {len(found)} puzzles {'; '.join(lines)}",
        flush=True,
    )
    return result


def summary(results: list[dict[str, Any]], wall: float) -> None:
    count = sum(len(r["puzzles"]) for r in results)
    n = len(results)
    per_100 = 100 * count / n
    # A Poisson count's 95% interval (normal approximation on the square root), scaled to 100 games.
    low = max(0.0, math.sqrt(count) - 0.98) ** 2 * 100 / n
    high = (math.sqrt(count + 1) + 0.98) ** 2 * 100 / n
    mine = [r["mine_s"] for r in results]
    plies = sum(len(r["moves"]) for r in results)
    with_one = sum(1 for r in results if r["puzzles"])
    lengths = [len(p["solution"]) // 2 + 1 for r in results for p in r["puzzles"]]
    print(
        f"\n{count} puzzles in {n} games: {per_100:.0f} per 100 games (95% about {low:.0f} .. {high:.0f}); "
        f"{with_one} games gave at least one; solver's moves a puzzle {statistics.mean(lengths) if lengths else 0:.2f}"
    )
    print(
        f"mining: mean {statistics.mean(mine):.1f} s a game, median {statistics.median(mine):.1f} s, "
        f"max {max(mine):.1f} s, {sum(mine) / plies:.2f} s a ply; wall {wall:.0f} s"
    )


def ship(path: Path, found: list[Puzzle], scale: float) -> None:
    """Add ``found`` to the shipped set (keyed by position), recording the scale they were mined at."""
    data = json.loads(path.read_text()) if path.exists() else {"format": "abstract-games-bot/puzzles/1", "puzzles": []}
    known = {position_key(Puzzle.from_dict(p)) for p in data["puzzles"]}
    added = 0
    for puzzle in found:
        if position_key(puzzle) not in known:
            item = puzzle.to_dict()
            item["source"] = {**item["source"], "scale": scale}
            data["puzzles"].append(item)
            known.add(position_key(puzzle))
            added += 1
    path.write_text(json.dumps(data, indent=1) + "\n")
    print(f"{added} new puzzles added to {path} ({len(data['puzzles'])} in all)")


if __name__ == "__main__":
    main()
