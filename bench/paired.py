"""Two codes' games of one match on the same seeds, compared game by game: ``python bench/paired.py BEFORE AFTER``.

BEFORE and AFTER are arena or ladder game files (JSON lines, ``--out``) of the same match and seed, played by two
versions of the code; the compared player is the match's A (``L4:clock=cpu`` in the ladder's lines). Game i
of both files had the same opening, sides and dice, so the difference of the two scores is taken game by game: its
mean, with a 95% normal interval, says whether the change moved the score more than the dice did. Several pairs of
files (``B1 A1 B2 A2 ...``, e.g. two seeds) are pooled.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.arena import Z95, wilson


def scores(path: Path) -> dict[int, float]:
    """Game index -> A's score (1 a win, 1/2 a draw, 0 a loss), from the side the arena recorded for A."""
    out: dict[int, float] = {}
    for line in path.read_text().splitlines():
        game = json.loads(line)
        if game.get("error"):
            continue
        winner = game["result"]["winner"]
        out[game["index"]] = 0.5 if winner is None else float(winner == game["a_side"])
    return out


def paired(before: list[float], after: list[float]) -> tuple[float, float, float]:
    """The mean of after - before, game by game, and its 95% normal interval."""
    n = len(before)
    diffs = [a - b for a, b in zip(after, before, strict=True)]
    mean = sum(diffs) / n
    if n < 2:
        return mean, -math.inf, math.inf
    sd = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1))
    half = Z95 * sd / math.sqrt(n)
    return mean, mean - half, mean + half


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("files", nargs="+", type=Path, help="BEFORE AFTER [BEFORE AFTER ...]")
    args = parser.parse_args(argv)
    if len(args.files) % 2:
        parser.error("give the files in pairs: BEFORE AFTER")
    before: list[float] = []
    after: list[float] = []
    for old, new in zip(args.files[::2], args.files[1::2], strict=True):
        old_scores, new_scores = scores(old), scores(new)
        common = sorted(set(old_scores) & set(new_scores))
        before += [old_scores[i] for i in common]
        after += [new_scores[i] for i in common]
    n = len(before)
    if n == 0:
        raise SystemExit("no game is in both files of a pair")
    for name, values in (("before", before), ("after", after)):
        low, high = wilson(sum(values) / n, n)
        print(f"{name}: {sum(values):g} of {n}, {100 * sum(values) / n:.1f}% ({100 * low:.1f}..{100 * high:.1f})")
    mean, low, high = paired(before, after)
    print(f"after - before, game by game: {100 * mean:+.1f} points (95% {100 * low:+.1f}..{100 * high:+.1f})")


if __name__ == "__main__":
    main()
