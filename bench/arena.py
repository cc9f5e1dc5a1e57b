"""Play two players against each other in pairs with sides swapped, and say how they compare (docs/arena.md).

    python bench/arena.py L4 uct@1.2 --game iago --games 20 --out iago.jsonl
    python bench/arena.py L4:depth=3 uct:2000 --game polygo --option size=13 --games 40 --jobs 2

Both games of a pair share their luck: the same seeded random opening in games without dice, the same seeded
chance outcomes in games with dice (the arena draws every chance move from one seeded sequence per pair, so the
k-th roll of both games is the same). One game at a time by default, so players on a clock get their time;
``--jobs`` is for fixed-work players only. Every game is appended to ``--out`` as one JSON line; ``--resume``
skips the games already there, and Ctrl-C prints the summary so far.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import random
import statistics
import sys
import time
import zlib
from collections.abc import Callable, Iterable, Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import games
from bench.players import Player, make_player

# Random plies that open both games of a pair in the games without dice, so that players that draw no lots do
# not replay one game; the values the earlier ladder used. A game not listed opens with none.
OPENING_PLIES = {"iago": 4, "isaac": 2}
Z95 = 1.959963984540054


@dataclass(frozen=True)
class Match:
    """What identifies a run: the same match in the same ``--out`` file is resumed, never mixed with another."""

    a: str
    b: str
    game: str
    options: dict[str, Any] = field(default_factory=dict)
    seed: int = 1
    opening_plies: int = 0

    def key(self) -> dict[str, Any]:
        return asdict(self)

    def pair_seed(self, pair: int) -> int:
        return zlib.crc32(f"{self.game} {sorted(self.options.items())} {self.seed} {pair}".encode())

    def new_game(self) -> Any:
        return games.find(self.game).new_game(**self.options)


# ------------------------------------------------------------------------------------------------ one game


def play_game(match: Match, index: int, players: tuple[Player, Player]) -> dict[str, Any]:
    """Game ``index`` of the match: A plays side ``index % 2``; ``players`` is (A, B)."""
    pair = index // 2
    seed = match.pair_seed(pair)
    a_side = index % 2
    by_side = (players[0], players[1]) if a_side == 0 else (players[1], players[0])
    dice = random.Random(seed)  # every chance outcome of the pair, in order
    opening = random.Random(seed + 1)  # the random opening: the same plies in both games of the pair
    lots = random.Random(f"{seed} {index}")  # the players' own randomness
    state = match.new_game()
    times: list[list[float]] = [[], []]  # wall-clock seconds of each move with a choice, per side
    cpu: list[list[float]] = [[], []]  # the CPU seconds of the same moves (this process: players run in it)
    error = None
    opened = 0
    while not state.is_over:
        legal = state.legal_moves()
        if state.chance:
            state.play(dice.choice(legal))
            continue
        if opened < match.opening_plies:
            opened += 1
            state.play(opening.choice(legal))
            continue
        side = state.turn
        player = by_side[side]
        view = state.copy()
        start, cpu_start = time.perf_counter(), time.process_time()
        try:
            move = player.choose(view, lots)
        except Exception as exc:  # a crash loses the game and is reported, the match goes on
            move, error = None, f"side {side} ({player.spec}) raised {type(exc).__name__}: {exc}"
        if len(legal) > 1:
            times[side].append(time.perf_counter() - start)
            cpu[side].append(time.process_time() - cpu_start)
        if error is None and move not in legal:
            error = f"side {side} ({player.spec}) played {move!r}, not one of the {len(legal)} legal moves"
        if error is not None:
            result = {"winner": 1 - side, "scores": None, "reason": "error"}
            break
        state.play(move)
    else:
        final = state.result()
        result = {"winner": final.winner, "scores": list(final.scores), "reason": str(final.reason)}
    return {
        "match": match.key(),
        "index": index,
        "pair": pair,
        "seed": seed,
        "a_side": a_side,
        "players": [p.spec for p in by_side],
        "resolved": [p.resolved for p in by_side],
        "moves": list(state.moves),
        "result": result,
        "error": error,
        "times": times,
        "cpu": cpu,
    }


# ------------------------------------------------------------------------------------------------ statistics


def elo(score: float) -> float:
    """The Elo difference that expects ``score`` (0..1): 400 log10(s / (1 - s)); +-inf at 100% and 0%."""
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return 400.0 * math.log10(score / (1.0 - score))


def wilson(score: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson's score interval for a proportion (draws count half); it stays inside [0, 1] at 0% and 100%."""
    if n == 0:
        return 0.0, 1.0
    centre = (score + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(score * (1 - score) / n + z * z / (4 * n * n))
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass
class TimeStats:
    count: int
    mean: float
    median: float
    p95: float
    max: float

    @classmethod
    def of(cls, values: list[float]) -> TimeStats | None:
        if not values:
            return None
        ordered = sorted(values)
        p95 = ordered[max(0, math.ceil(0.95 * len(ordered)) - 1)]  # nearest rank
        return cls(len(ordered), statistics.fmean(ordered), statistics.median(ordered), p95, ordered[-1])


@dataclass
class Summary:
    games: int
    wins: int
    draws: int
    losses: int
    errors: list[str]
    times_a: TimeStats | None  # wall-clock seconds a move with a choice, player A
    times_b: TimeStats | None
    cpu_a: TimeStats | None  # CPU seconds of the same moves
    cpu_b: TimeStats | None

    @property
    def score(self) -> float:
        return (self.wins + 0.5 * self.draws) / self.games if self.games else math.nan

    def interval(self) -> tuple[float, float]:
        return wilson(self.score, self.games)

    def elo(self) -> float:
        return elo(self.score)

    def elo_interval(self) -> tuple[float, float]:
        low, high = self.interval()
        return elo(low), elo(high)


def summarise(records: Iterable[dict[str, Any]]) -> Summary:
    wins = draws = losses = 0
    errors: list[str] = []
    times: tuple[list[float], list[float]] = ([], [])
    cpu: tuple[list[float], list[float]] = ([], [])
    for record in records:
        a_side = record["a_side"]
        winner = record["result"]["winner"]
        if winner is None:
            draws += 1
        elif winner == a_side:
            wins += 1
        else:
            losses += 1
        if record["error"]:
            errors.append(f"game {record['index']}: {record['error']}")
        times[0].extend(record["times"][a_side])
        times[1].extend(record["times"][1 - a_side])
        if "cpu" in record:
            cpu[0].extend(record["cpu"][a_side])
            cpu[1].extend(record["cpu"][1 - a_side])
    return Summary(
        wins + draws + losses,
        wins,
        draws,
        losses,
        errors,
        *(TimeStats.of(values) for values in (*times, *cpu)),
    )


def signed(value: float) -> str:
    return f"{value:+.0f}" if math.isfinite(value) else ("+inf" if value > 0 else "-inf")


def format_summary(match: Match, summary: Summary, resolved: tuple[str, str] = ("", "")) -> str:
    names = [
        spec + (f" (= {res})" if res and res != spec else "")
        for spec, res in zip((match.a, match.b), resolved, strict=True)
    ]
    low, high = summary.interval()
    elo_low, elo_high = summary.elo_interval()
    lines = [
        f"{match.game} {match.options or ''} A = {names[0]}, B = {names[1]}; seed {match.seed}, "
        f"{match.opening_plies} random opening plies",
        f"games: {summary.games}; A: {summary.wins} wins, {summary.draws} draws, {summary.losses} losses",
    ]
    if summary.games:
        lines += [
            f"A's score: {100 * summary.score:.1f}% (95% interval {100 * low:.1f}% .. {100 * high:.1f}%, Wilson)",
            f"Elo A - B: {signed(summary.elo())} (95% interval {signed(elo_low)} .. {signed(elo_high)})",
        ]
    lines.append("seconds per move with a choice: player | moves | mean | median | p95 | max | CPU mean")
    for label, stats, cpu in ((names[0], summary.times_a, summary.cpu_a), (names[1], summary.times_b, summary.cpu_b)):
        if stats:
            cpu_mean = f"{cpu.mean:.3f}" if cpu else "-"  # records written before CPU times were kept have none
            lines.append(
                f"  {label} | {stats.count} | {stats.mean:.3f} | {stats.median:.3f} | {stats.p95:.3f} | {stats.max:.3f}"
                f" | {cpu_mean}"
            )
        else:
            lines.append(f"  {label} | 0 | - | - | - | - | -")
    if summary.errors:
        lines.append(f"ERRORS ({len(summary.errors)}, each counted as a loss of the side at fault):")
        lines += [f"  {error}" for error in summary.errors]
    return "\n".join(lines)


# ------------------------------------------------------------------------------------------------ a run


def read_records(path: Path | None, match: Match) -> list[dict[str, Any]]:
    """The games of ``match`` already in ``path`` (other matches in the same file are left alone)."""
    if path is None or not path.exists():
        return []
    key = match.key()
    records = []
    with path.open(encoding="utf-8") as lines:
        for line in lines:
            if line.strip():
                record = json.loads(line)
                if record["match"] == key:
                    records.append(record)
    return records


def resolve_players(
    match: Match,
    earlier: list[dict[str, Any]],
    log: Callable[[str], None],
    calibration_positions: list[Any] | None = None,
) -> tuple[Player, Player]:
    """Build A and B; a calibrated player of a resumed run keeps the strength it had in the games already played."""
    built = []
    for position, spec in enumerate((match.a, match.b)):
        previous = [r["resolved"][r["a_side"] if position == 0 else 1 - r["a_side"]] for r in earlier]
        if previous and previous[0] != spec:
            player = make_player(previous[0])
            player.spec = spec
            log(f"{spec}: resumed as {previous[0]}, as in the games already played")
        else:
            player = make_player(spec, match.new_game, match.seed, calibration_positions)
        for note in player.notes:
            log(f"{spec}: {note}")
        built.append(player)
    return built[0], built[1]


_worker_players: dict[tuple[str, str], tuple[Player, Player]] = {}


def _play_in_worker(task: tuple[Match, int, str, str]) -> dict[str, Any]:
    match, index, resolved_a, resolved_b = task
    players = _worker_players.get((resolved_a, resolved_b))
    if players is None:
        players = _worker_players[(resolved_a, resolved_b)] = (make_player(resolved_a), make_player(resolved_b))
    for player, spec in zip(players, (match.a, match.b), strict=True):
        player.spec = spec
    return play_game(match, index, players)


@dataclass
class Run:
    records: list[dict[str, Any]]  # every game of the match, by index
    players: tuple[Player, Player]
    interrupted: bool = False

    def summary(self) -> Summary:
        return summarise(self.records)

    def resolved(self) -> tuple[str, str]:
        return self.players[0].resolved, self.players[1].resolved


def run_match(
    match: Match,
    games_wanted: int,
    out: Path | None = None,
    resume: bool = False,
    jobs: int = 1,
    log: Callable[[str], None] = print,
    calibration_positions: list[Any] | None = None,
) -> Run:
    """Play the games of ``match`` not yet in ``out``. Ctrl-C stops after the games finished (all saved).

    A ``uct@S`` player is calibrated on ``calibration_positions`` when given, else on random games."""
    records = read_records(out, match)
    if records and not resume:
        raise SystemExit(f"{out} already holds {len(records)} games of this match: pass --resume or another --out.")
    run = Run(records, resolve_players(match, records, log, calibration_positions))
    done = {r["index"] for r in records}
    todo = [i for i in range(games_wanted) if i not in done]
    if done:
        log(f"resuming: {len(done)} games already played, {len(todo)} to play")
    try:
        for record in _play(match, todo, run.players, jobs):
            records.append(record)
            if out is not None:
                with out.open("a", encoding="utf-8") as file:
                    file.write(json.dumps(record) + "\n")
            summary = summarise(records)
            log(
                f"game {record['index'] + 1}/{games_wanted}: {match.a} "
                f"{_outcome(record)} as side {record['a_side']} ({len(record['moves'])} moves); "
                f"A so far {summary.wins}-{summary.draws}-{summary.losses}"
            )
    except KeyboardInterrupt:
        run.interrupted = True
        log("interrupted: the summary of the games finished so far")
    records.sort(key=lambda r: r["index"])
    return run


def _outcome(record: dict[str, Any]) -> str:
    winner = record["result"]["winner"]
    return "drew" if winner is None else ("won" if winner == record["a_side"] else "lost")


def _play(match: Match, todo: list[int], players: tuple[Player, Player], jobs: int) -> Iterator[dict[str, Any]]:
    if jobs <= 1:
        for index in todo:
            yield play_game(match, index, players)
        return
    tasks = [(match, index, players[0].resolved, players[1].resolved) for index in todo]
    with multiprocessing.Pool(jobs) as pool:
        yield from pool.imap_unordered(_play_in_worker, tasks)


def parse_options(items: list[str]) -> dict[str, Any]:
    options: dict[str, Any] = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep:
            raise SystemExit(f"An option is name=value, not {item!r}.")
        options[name] = int(value) if value.lstrip("-").isdigit() else value
    return options


def default_opening(game: str) -> int:
    return OPENING_PLIES.get(game, 0)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("a", help="player A (random, greedy, L1..L4, L4:budget=0.5, L4:depth=3, uct:N, uct@S)")
    parser.add_argument("b", help="player B")
    parser.add_argument("--game", required=True, choices=games.names())
    parser.add_argument("--option", action="append", default=[], help="a game option, e.g. size=13 (repeatable)")
    parser.add_argument("--games", type=int, default=40, help="games to play (pairs: an even number is best)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--opening-plies", type=int, help="random plies opening each pair (default: per game)")
    parser.add_argument("--out", type=Path, help="append each game here as a JSON line")
    parser.add_argument("--resume", action="store_true", help="play only the games not already in --out")
    parser.add_argument("--jobs", type=int, default=1, help="games at once: only for fixed-work players")
    args = parser.parse_args(argv)
    opening = default_opening(args.game) if args.opening_plies is None else args.opening_plies
    match = Match(args.a, args.b, args.game, parse_options(args.option), args.seed, opening)
    print("Command: python bench/arena.py " + " ".join(sys.argv[1:] if argv is None else argv), flush=True)
    run = run_match(match, args.games, args.out, args.resume, args.jobs, log=_log)
    print(format_summary(match, run.summary(), run.resolved()))


def _log(message: str) -> None:
    print(message, flush=True)


if __name__ == "__main__":
    main()
