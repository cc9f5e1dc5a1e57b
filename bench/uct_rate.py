"""The reference's speed: ``python bench/uct_rate.py --game G [--option name=value]`` prints the UCT's iterations
per CPU second beside bare random playouts on the same positions (the tree's own cost on top of the engine's)."""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import games
from bench.arena import parse_options
from bench.uct import calibrate, playout_rate, sample_positions


def main() -> None:
    """The reference's rate against bare playouts."""

    parser = argparse.ArgumentParser(description=main.__doc__)
    parser.add_argument("--game", required=True, choices=games.names())
    parser.add_argument("--option", action="append", default=[])
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    entry, options = games.find(args.game), parse_options(args.option)

    def new_game() -> Any:
        return entry.new_game(**options)

    positions = sample_positions(new_game, random.Random(args.seed))
    calibration = calibrate(new_game, 1.0, seed=args.seed, positions=positions)
    bare = playout_rate(positions, seed=args.seed)
    print(calibration.describe())
    print(
        f"bare playouts on the same {len(positions)} positions: {bare:.1f} per CPU second; the tree costs "
        f"{100 * (bare / calibration.rate - 1):.0f}% on top"
    )


if __name__ == "__main__":
    main()
