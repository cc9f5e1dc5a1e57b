"""Round robin of the computer players: ``python bench/ai_ladder.py [--games 10] [--only iago] [--workers 2]``.

Players: ``random``, ``greedy`` (the move with the best immediate score by the engine's ``scores()``, a win
first) and ``ai`` levels 1-4. Every pair plays ``--games`` games per game type, sides swapped in pairs. Both games
of a pair share their luck: in Polygo they roll the same seeded dice, in Iago and ISAAC they start from the same
seeded random opening (4 and 2 plies), so that the levels that draw no lots still vary their games. Ratings are
Bradley-Terry on the Elo scale with ``random`` fixed at 0 (one virtual draw per pair keeps clean sweeps finite),
with 95% intervals from a bootstrap over games. Prints Markdown tables: ratings, scores against random, greedy
and the player below, and seconds per move per level.
"""

from __future__ import annotations

import argparse
import itertools
import math
import multiprocessing
import random
import statistics
import sys
import time
import zlib
from collections import defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import ai
import engines

PLAYERS = ("random", "greedy", "L1", "L2", "L3", "L4")
OPTIONS: dict[str, dict[str, Any]] = {"iago": {}, "isaac": {}, "polygo": {"size": 19}}
# Seeded random plies that open both games of a pair: without them the strong levels, which do not draw lots,
# would replay the same game over and over in the games without dice.
OPENING = {"iago": 4, "isaac": 2, "polygo": 0}
BOOTSTRAP = 200


def greedy_move(state: Any, rng: random.Random) -> str:
    """The move with the best immediate score margin for the mover (a win above all), ties at random."""
    me = state.turn
    best: list[str] = []
    best_value = -math.inf
    for move in state.legal_moves():
        after = state.copy()
        after.play(move)
        if after.is_over:
            winner = after.result().winner
            value = 1e9 if winner == me else (-1e9 if winner is not None else 0.0)
        else:
            s = after.scores()
            value = s[me] - s[1 - me]
        if value > best_value:
            best, best_value = [move], value
        elif value == best_value:
            best.append(move)
    return rng.choice(best)


def play_game(task: tuple[str, str, str, int]) -> dict[str, Any]:
    """One game: players (p0, p1) as sides 0 and 1; ``seed`` drives the dice and the players' choices."""
    game, p0, p1, seed = task
    state = engines.get(game).new_game(**OPTIONS[game])
    dice = random.Random(seed)  # the same seed for both games of a pair: the same dice in the same order
    rng = random.Random(seed * 7 + 1)
    players = (p0, p1)
    times: dict[str, list[float]] = defaultdict(list)
    opening = random.Random(seed + 1)
    while not state.is_over:
        if state.chance:
            state.play(dice.choice(state.legal_moves()))
            continue
        if len(state.moves) < OPENING[game]:
            state.play(opening.choice(state.legal_moves()))
            continue
        who = players[state.turn]
        start = time.perf_counter()
        if who == "random":
            move = rng.choice(state.legal_moves())
        elif who == "greedy":
            move = greedy_move(state, rng)
        else:
            move = ai.choose_move(state, int(who[1]), seed=rng.randrange(1 << 30))
            times[who].append(time.perf_counter() - start)
        state.play(move)
    result = state.result()
    return {"game": game, "players": players, "winner": result.winner, "scores": result.scores, "times": times}


def schedule(games: list[str], per_pair: int, seed: int) -> list[tuple[str, str, str, int]]:
    tasks = []
    for game in games:
        for a, b in itertools.combinations(PLAYERS, 2):
            for k in range(0, per_pair, 2):
                pair_seed = zlib.crc32(f"{game} {a} {b} {k} {seed}".encode())
                tasks.append((game, a, b, pair_seed))
                if k + 1 < per_pair:
                    tasks.append((game, b, a, pair_seed))
    # the slow games first, so the two workers finish together
    return sorted(tasks, key=lambda t: -max(_cost(t[1]), _cost(t[2])))


def _cost(player: str) -> float:
    return {"L4": 4.0, "L3": 3.0}.get(player, 1.0)


def bradley_terry(records: list[dict[str, Any]]) -> dict[str, float]:
    """Elo-scale ratings (random = 0) by the MM algorithm; a draw is half a win each way."""
    wins: dict[tuple[str, str], float] = defaultdict(float)
    for a, b in itertools.combinations(PLAYERS, 2):  # the virtual draw
        wins[(a, b)] += 0.5
        wins[(b, a)] += 0.5
    for r in records:
        p0, p1 = r["players"]
        if r["winner"] is None:
            wins[(p0, p1)] += 0.5
            wins[(p1, p0)] += 0.5
        else:
            wins[(r["players"][r["winner"]], r["players"][1 - r["winner"]])] += 1
    strength = dict.fromkeys(PLAYERS, 1.0)
    for _ in range(500):
        new = {}
        for i in PLAYERS:
            won = sum(wins[(i, j)] for j in PLAYERS if j != i)
            denom = sum((wins[(i, j)] + wins[(j, i)]) / (strength[i] + strength[j]) for j in PLAYERS if j != i)
            new[i] = won / denom
        base = new["random"]
        strength = {p: v / base for p, v in new.items()}
    return {p: 400 * math.log10(v) for p, v in strength.items()}


def report(game: str, records: list[dict[str, Any]], seed: int) -> None:
    ratings = bradley_terry(records)
    rng = random.Random(seed)
    samples: dict[str, list[float]] = defaultdict(list)
    for _ in range(BOOTSTRAP):
        resampled = [rng.choice(records) for _ in records]
        for p, v in bradley_terry(resampled).items():
            samples[p].append(v)
    print(f"\n### {game} ({len(records)} games)\n")
    print("| player | rating | 95% interval | vs random | vs greedy | vs player below |")
    print("|---|---:|---:|---:|---:|---:|")
    for below, p in itertools.pairwise(("", *PLAYERS)):
        lo, hi = _percentile(samples[p], 2.5), _percentile(samples[p], 97.5)
        vs_random = _score(records, p, "random") if p != "random" else "-"
        vs_greedy = _score(records, p, "greedy") if p != "greedy" else "-"
        vs_below = _score(records, p, below) if below else "-"
        print(f"| {p} | {ratings[p]:.0f} | {lo:.0f} .. {hi:.0f} | {vs_random} | {vs_greedy} | {vs_below} |")
    print("\n| level | moves | median s | p95 s | max s |")
    print("|---|---:|---:|---:|---:|")
    for p in PLAYERS[2:]:
        times = sorted(t for r in records for t in r["times"].get(p, []))
        if times:
            p95 = times[min(len(times) - 1, int(0.95 * len(times)))]
            print(f"| {p} | {len(times)} | {statistics.median(times):.3f} | {p95:.3f} | {times[-1]:.3f} |")


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q / 100 * len(ordered)))]


def _score(records: list[dict[str, Any]], p: str, q: str) -> str:
    points = games = 0.0
    for r in records:
        if set(r["players"]) != {p, q}:
            continue
        games += 1
        if r["winner"] is None:
            points += 0.5
        elif r["players"][r["winner"]] == p:
            points += 1
    return f"{points:g}/{games:g} ({100 * points / games:.0f}%)" if games else "-"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10, help="games per pair of players and game type")
    parser.add_argument("--only", action="append", choices=engines.NAMES, help="game(s) to play (default all)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    games = args.only or list(engines.NAMES)
    tasks = schedule(games, args.games, args.seed)
    start = time.perf_counter()
    records: dict[str, list[dict[str, Any]]] = defaultdict(list)
    with multiprocessing.Pool(args.workers) as pool:
        for done, record in enumerate(pool.imap_unordered(play_game, tasks), 1):
            records[record["game"]].append(record)
            if done % 10 == 0 or done == len(tasks):
                elapsed = time.perf_counter() - start
                print(f"{done}/{len(tasks)} games, {elapsed:.0f} s", file=sys.stderr, flush=True)
    print(f"Command: python bench/ai_ladder.py {' '.join(sys.argv[1:])}")
    print(f"Wall time: {time.perf_counter() - start:.0f} s with {args.workers} workers")
    for game in games:
        report(game, records[game], args.seed)


if __name__ == "__main__":
    main()
