"""Mine the shipped puzzle set from seeded self-play, and write the shipped files: the command of ``puzzles.miner``.

    nice -n 19 python bench/mine_puzzles.py mine --game iago --seeds 1-600 --jobs 2
    nice -n 19 python bench/mine_puzzles.py mine --game polygo --option size=19 --seeds 1-400 --jobs 2
    python bench/mine_puzzles.py ship --game iago      # work file(s) -> puzzles/data/iago.jsonl.gz
    python bench/mine_puzzles.py ship                  # every game with a puzzle module
    nice -n 19 python bench/mine_puzzles.py recheck --game polygo --jobs 2   # after a change of the game's AI

A game's puzzle module is the one its registry entry names (``GameEntry.puzzles``); the mining itself is
``puzzles.miner``, given that import path (a worker process gets the path, as it gets the AI's). ``mine`` plays one
self-play game per seed and proves its candidates, appending one line per seed to ``puzzles/work/<game>[-<options>]
.jsonl``; run again, it skips the seeds done (an interrupted run resumes), and it prints each seed's puzzles and the
puzzles per CPU hour. ``ship`` builds ``puzzles/data/<game>.jsonl.gz`` from the work files. ``recheck`` proves the
shipped puzzles again with the current AI and drops those whose answer is no longer the only move (and keeps them
out of later ships). docs/puzzles.md.
"""

from __future__ import annotations

import argparse
import multiprocessing
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import games
from puzzles import miner, recheck


def puzzle_module(name: str) -> str:
    """The import path of the game's puzzle module, as its registry entry names it."""
    path = games.find(name).puzzles
    if path is None:
        raise SystemExit(f"{name} has no puzzle module (its registry entry names none)")
    return path


def main(argv: list[str] | None = None) -> None:
    with_puzzles = [entry.name for entry in games.entries() if entry.puzzles]
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    mining = commands.add_parser("mine", help="mine seeds into the game's work file (resumes)")
    mining.add_argument("--game", required=True, choices=with_puzzles)
    mining.add_argument("--option", action="append", default=[], help="a game option, name=value")
    mining.add_argument("--seeds", required=True, help="e.g. 1-400 or 1-50,90")
    mining.add_argument("--jobs", type=int, default=multiprocessing.cpu_count(), help="worker processes")
    shipping = commands.add_parser("ship", help="write the shipped file from the game's work files")
    shipping.add_argument("--game", action="append", choices=with_puzzles, help="default: every game")
    rechecking = commands.add_parser("recheck", help="prove the shipped set again, drop what no longer proves")
    rechecking.add_argument("--game", required=True, choices=with_puzzles)
    rechecking.add_argument("--jobs", type=int, default=multiprocessing.cpu_count(), help="worker processes")
    args = parser.parse_args(argv)
    if args.command == "recheck":
        recheck.recheck(puzzle_module(args.game), args.jobs)
    elif args.command == "mine":
        miner.mine(puzzle_module(args.game), miner.parse_options(args.option), miner.parse_seeds(args.seeds), args.jobs)
    else:
        for name in args.game or with_puzzles:
            miner.ship(puzzle_module(name))


if __name__ == "__main__":
    main()
