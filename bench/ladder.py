"""The goal table of one game (docs/arena.md): every pairing the goals name, played by the arena.

    python bench/ladder.py --game iago --games 40 --out ladder-runs

Plays, one game at a time: L4 vs L3 first (it also measures level 4's mean CPU time per move with a choice, T,
equal to its wall time on a quiet machine and fairer to the UCT's calibration when other work shares the core),
then L4 vs the UCT reference under a time control of level 4's own budget B on every move with a choice
(``uct-time:B``) and of 4B, L4 vs the UCT calibrated to level 4's mean time T (``uct@T``, on positions of the L4
vs L3 games), L3 vs L2, L2 vs L1 and L1 vs random. Prints each match as it ends and then a Markdown table with
the goal each line meets. With ``--out`` every match is a JSON-lines file in that folder, and ``--resume``
finishes an interrupted ladder; ``--only L4-L3,L4-uct`` plays a subset.
"""

from __future__ import annotations

import argparse
import math
import re
import shlex
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import games
from bench.arena import (
    Match,
    Run,
    TimeStats,
    default_opening,
    format_summary,
    parse_options,
    read_records,
    run_match,
    signed,
)
from bench.players import Player, level_budget

MIN_GAMES = 40  # the "at least 40 games a pair"
PAIRINGS = ("L4-L3", "L4-uct", "L4-uct4x", "L4-uct-mean", "L3-L2", "L2-L1", "L1-random")
MEAN_TIME_PAIRINGS = {"L4-uct-mean"}  # calibrated to level 4's mean time: need L4-L3 or --level4-time
LEVEL4_P95_S = 2.0


@dataclass(frozen=True)
class Goal:
    text: str
    score: float  # the least score of A that meets it


SAME_TIME = Goal(">= 90% vs UCT with the same budget a move", 0.90)
FOUR_TIMES = Goal(">= 75% vs UCT with 4x the budget a move", 0.75)
STEP = Goal(">= 65% vs the level below", 0.65)
BEGINNER = Goal(">= 80% vs random", 0.80)


@dataclass
class Line:
    label: str
    match: Match
    run: Run
    goal: Goal | None


def positions_of(records: list[dict[str, Any]], match: Match, side_spec: str | None = None) -> list[Any]:
    """Positions of the recorded games where ``side_spec`` (None: either player) was to move with a choice."""
    positions = []
    for record in records:
        side = None if side_spec is None else record["players"].index(side_spec)
        state = match.new_game()
        plies = 0  # the random opening's plies were not the player's choice
        for move in record["moves"]:
            if not state.chance:
                mine = side is None or state.turn == side
                if plies >= match.opening_plies and mine and len(state.legal_moves()) > 1:
                    positions.append(state.copy())
                plies += 1
            state.play(move)
    step = max(1, len(positions) // 24)  # about 24 spread over the games, as the random-game calibration uses
    return positions[::step]


def verdict(score: float, interval: tuple[float, float], goal: Goal, games_played: int) -> str:
    low, high = interval
    met = score >= goal.score
    words = f"met ({100 * score:.0f}%)" if met else f"missed by {100 * (goal.score - score):.0f} points"
    if low >= goal.score:
        words += ", whole interval above"
    elif high < goal.score:
        words += ", whole interval below"
    else:
        words += ", not resolved"
    if games_played < MIN_GAMES:
        words += f"; {games_played} < {MIN_GAMES} games"
    return words


def times_cell(stats: TimeStats | None, cpu: TimeStats | None) -> str:
    if stats is None:
        return "-"
    cpu_mean = f"{cpu.mean:.2f}" if cpu else "-"
    return f"{stats.mean:.2f} ({cpu_mean}) / {stats.median:.2f} / {stats.p95:.2f} / {stats.max:.2f} ({stats.count})"


def table(lines: list[Line]) -> str:
    rows = [
        "| A vs B | games | A's score (95%) | Elo A - B (95%) | A s: mean (CPU) / median / p95 / max (moves) "
        "| B s: mean (CPU) / median / p95 / max (moves) | goal | verdict |",
        "|---|---:|---:|---:|---:|---:|---|---|",
    ]
    level4: list[float] = []
    level4_cpu: list[float] = []
    for line in lines:
        summary = line.run.summary()
        low, high = summary.interval()
        elo_low, elo_high = summary.elo_interval()
        goal = line.goal
        judged = verdict(summary.score, (low, high), goal, summary.games) if goal and summary.games else "-"
        rows.append(
            f"| {line.label} | {summary.games} | {100 * summary.score:.0f}% ({100 * low:.0f}..{100 * high:.0f}) "
            f"| {signed(summary.elo())} ({signed(elo_low)}..{signed(elo_high)}) "
            f"| {times_cell(summary.times_a, summary.cpu_a)} | {times_cell(summary.times_b, summary.cpu_b)} "
            f"| {goal.text if goal else '-'} | {judged} |"
        )
        if line.match.a.partition(":")[0] == "L4":
            level4 += [t for r in line.run.records for t in r["times"][r["a_side"]]]
            level4_cpu += [t for r in line.run.records for t in r.get("cpu", [[], []])[r["a_side"]]]
    for clock, times in (("wall", level4), ("CPU", level4_cpu)):
        stats = TimeStats.of(times)
        if stats is None:
            continue
        met = "met" if stats.p95 <= LEVEL4_P95_S else f"missed by {stats.p95 - LEVEL4_P95_S:.2f} s"
        rows.append(
            f"\nLevel 4, every move with a choice above ({stats.count}), {clock} seconds: mean {stats.mean:.2f}, "
            f"median {stats.median:.2f}, p95 {stats.p95:.2f}, max {stats.max:.2f}; goal p95 <= {LEVEL4_P95_S:g} s: "
            f"{met}"
        )
    return "\n".join(rows)


def file_for(out: Path | None, match: Match) -> Path | None:
    if out is None:
        return None
    options = "".join(f"-{k}{v}" for k, v in sorted(match.options.items()))
    name = re.sub(r"[^A-Za-z0-9.=_-]+", "_", f"{match.game}{options}-{match.a}-vs-{match.b}-seed{match.seed}")
    return out / f"{name}.jsonl"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", required=True, choices=games.names())
    parser.add_argument("--option", action="append", default=[], help="a game option, e.g. size=13 (repeatable)")
    parser.add_argument("--games", type=int, default=MIN_GAMES, help="games a pairing")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, help="a folder for the games of each match (JSON lines)")
    parser.add_argument("--resume", action="store_true", help="finish the matches already in --out")
    parser.add_argument(
        "--only",
        default=",".join(PAIRINGS),
        help=f"a comma-separated subset of {','.join(PAIRINGS)} (L4-uct-mean needs L4-L3 or --level4-time)",
    )
    parser.add_argument("--level4-time", type=float, help="level 4's mean CPU seconds a move, instead of measuring")
    parser.add_argument(
        "--level4-budget",
        type=float,
        help="the UCT's time control a move (default: level 4's own budget, LEVELS[4] of the game's AI)",
    )
    parser.add_argument(
        "--reference",
        choices=("uct", "uct-ply"),
        default="uct",
        help="L4-uct-mean's budget: a fixed iteration count (uct) or a fixed number of moves played (uct-ply)",
    )
    parser.add_argument(
        "--clock",
        choices=("wall", "cpu"),
        default="wall",
        help="cpu: the levels' deadlines and the UCT's time control count CPU seconds (L4:clock=cpu, "
        "uct-time:B,clock=cpu), for a busy machine; wall times then show the load, not the goal",
    )
    parser.add_argument(
        "--table-only",
        action="store_true",
        help="play nothing: the table of the games already in --out (each line with the games it has)",
    )
    args = parser.parse_args(argv)
    if args.table_only and not args.out:
        parser.error("--table-only reads the games in --out")
    selected = args.only.split(",")
    if unknown := set(selected) - set(PAIRINGS):
        parser.error(f"unknown pairings {', '.join(sorted(unknown))}: choose from {', '.join(PAIRINGS)}")
    if MEAN_TIME_PAIRINGS & set(selected) and "L4-L3" not in selected and args.level4_time is None:
        parser.error("L4-uct-mean is calibrated to level 4's mean time: add L4-L3 to --only or give --level4-time")
    budget = args.level4_budget
    if budget is None and {"L4-uct", "L4-uct4x"} & set(selected):
        budget = level_budget(args.game, 4)
    print("Command: python bench/ladder.py " + shlex.join(sys.argv[1:] if argv is None else argv), flush=True)
    if args.out:
        args.out.mkdir(parents=True, exist_ok=True)
    options = parse_options(args.option)
    opening = default_opening(args.game)
    lines: list[Line] = []

    def level(spec: str) -> str:
        if args.clock != "cpu":
            return spec
        if spec.startswith("uct-time:"):
            return f"{spec},clock=cpu"
        return f"{spec}:clock=cpu" if spec.startswith("L") else spec

    def play(label: str, a: str, b: str, goal: Goal | None, positions: list[Any] | None = None) -> Line:
        match = Match(level(a), level(b), args.game, options, args.seed, opening)
        print(f"\n## {label}", flush=True)
        if args.table_only:
            run = recorded(match, file_for(args.out, match))
        else:
            run = run_match(
                match, args.games, file_for(args.out, match), args.resume, log=_log, calibration_positions=positions
            )
        print(format_summary(match, run.summary(), run.resolved()), flush=True)
        lines.append(Line(label, match, run, goal))
        if run.interrupted:
            raise KeyboardInterrupt
        return lines[-1]

    try:
        level4_time, positions = args.level4_time, None
        if "L4-L3" in selected:
            top = play("L4 vs L3", "L4", "L3", STEP)
            summary = top.run.summary()
            level4 = summary.cpu_a or summary.times_a
            # The positions the UCT will face against level 4 are unknown before it plays them; in Iago level 4
            # meets dearer ones (more moves with a choice) than its opponent, so both sides' are the sample (also
            # when --level4-time keeps the time of an earlier run, so resumed games are calibrated the same way).
            positions = positions_of(top.run.records, top.match)
            if level4 is not None and summary.times_a is not None and level4_time is None:
                level4_time = round(level4.mean, 3)
                print(
                    f"\nLevel 4's mean time per move with a choice over {level4.count} moves: {level4_time:g} CPU "
                    f"seconds ({summary.times_a.mean:.3f} s wall); the UCT is calibrated in CPU seconds",
                    flush=True,
                )
        # The time control: the UCT may think level 4's whole budget on every move with a choice, as level 4 may
        if "L4-uct" in selected:
            play(f"L4 vs UCT, same budget a move ({budget:g} s)", "L4", f"uct-time:{budget:g}", SAME_TIME)
        if "L4-uct4x" in selected:
            play(f"L4 vs UCT, 4x the budget ({4 * budget:g} s)", "L4", f"uct-time:{4 * budget:g}", FOUR_TIMES)
        if level4_time is not None and "L4-uct-mean" in selected:
            label = f"L4 vs UCT at L4's mean time ({level4_time:g} s)"
            play(label, "L4", f"{args.reference}@{level4_time:g}", None, positions)
        for pairing, goal in (("L3-L2", STEP), ("L2-L1", STEP), ("L1-random", BEGINNER)):
            if pairing in selected:
                a, b = pairing.split("-")
                play(f"{a} vs {b}", a, b, goal)
    except KeyboardInterrupt:
        print("\ninterrupted: the table of the matches so far", flush=True)
    title = f"{args.game} {' '.join(args.option)}".strip()
    played = "the games played so far" if args.table_only else f"{args.games} games a pairing"
    print(f"\n### {title}: {played}, seed {args.seed}\n")
    print(table(lines))
    if args.clock == "cpu":
        print("The levels and uct-time ran with clock=cpu: their wall times above include waiting for a busy machine.")
    if any(math.isnan(line.run.summary().score) for line in lines):
        print("(a match without games shows nan)")


def recorded(match: Match, path: Path | None) -> Run:
    """The games of ``match`` in ``path`` as a run, without building its players (a calibrated UCT shows the
    iteration count it was resolved to)."""
    records = sorted(read_records(path, match), key=lambda r: r["index"])
    names = []
    for position, spec in enumerate((match.a, match.b)):
        resolved = [r["resolved"][r["a_side"] if position == 0 else 1 - r["a_side"]] for r in records]
        names.append(Player(spec, resolved[0] if resolved else spec, lambda state, rng: ""))
    return Run(records, (names[0], names[1]))


def _log(message: str) -> None:
    print(message, flush=True)


if __name__ == "__main__":
    main()
