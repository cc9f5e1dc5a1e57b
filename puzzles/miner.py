"""Mining the shipped puzzle set: seeded self-play between the levels, then every candidate position proven.

The command is ``bench/mine_puzzles.py`` (it finds a game's puzzle module through the registry); this module is the
mining itself and names no game: it is given the import path of a game's puzzle module (``GameEntry.puzzles``),
whose ``ORACLE`` (``puzzles.oracle``) holds what is particular to the game.

A seed names one game: its level pair (a weaker level against a stronger one, both ways round, as lichess-puzzler
mines games where a weaker player meets a stronger one), its opening (``Oracle.opening`` random moves, so the
levels meet in varied positions), its dice and the levels' seeds. Every search is fixed work (``puzzles.oracle``),
so a seed gives the same puzzles on any machine. The candidates of a game are its positions that the game's oracle
deems worth proving, and the positions one move away from them where the mover erred (``Oracle.deviations``: the
mover's other moves, or another face of the die): lichess-puzzler's "the opponent just blundered", without waiting
for the players to blunder. Each candidate is solved (``puzzles.prove``); each puzzle found is rated (``rating``)
and given its themes (``themes``).

``mine`` appends one JSON line per seed to ``puzzles/work/<game>[-<options>].jsonl`` as the seeds finish (in a
pool of ``jobs`` processes), and skips the seeds already there: an interrupted run resumes where it stopped. It
prints each seed's line and, at the end, the puzzles per CPU hour over the whole work file. ``ship`` keeps one
puzzle per position across a game's work files and writes the shipped file (``puzzles.shipped``).
"""

from __future__ import annotations

import hashlib
import json
import multiprocessing
import random
import signal
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any

import ai
from engines import GameState
from puzzles import shipped
from puzzles.oracle import FULL, Oracle, TooLong, after, load
from puzzles.prove import MIN_MOVES, solve
from puzzles.rating import TRIES, rating
from puzzles.themes import themes

WORK_DIR = Path(__file__).resolve().parent / "work"
# (player 0's level, player 1's): a weaker level against a stronger one, both ways round, and equals
PAIRS: tuple[tuple[int, int], ...] = ((1, 4), (4, 1), (2, 4), (4, 2), (3, 4), (4, 3), (2, 3), (3, 2), (4, 4))
MAX_PER_GAME = 6  # puzzles kept from one self-play game (its candidates are alike)
# Shipped from one self-play game with the same first move at most: the positions a move or two apart in one game
# often share their answer (the same corner, the same closing block), and a member should not meet it twice
SAME_MOVE_PER_GAME = 1
CANDIDATE_CPU_S = 20.0  # CPU seconds a candidate's proof, rating and themes may take before it is skipped
Job = tuple[str, dict[str, Any], int]  # the puzzle module's import path, the game's options, the seed


def parse_options(items: list[str]) -> dict[str, Any]:
    options: dict[str, Any] = {}
    for item in items:
        key, _, text = item.partition("=")
        options[key] = int(text) if text.lstrip("-").isdigit() else text
    return options


def work_path(game: str, options: dict[str, Any], directory: Path = WORK_DIR) -> Path:
    suffix = "".join(f"-{value}" for _, value in sorted(options.items()))
    return directory / f"{game}{suffix}.jsonl"


def self_play(oracle: Oracle, options: dict[str, Any], seed: int) -> tuple[GameState, tuple[int, int]]:
    """The finished game of ``seed``: its level pair, random opening, dice and level seeds all from the seed."""
    rng = random.Random(f"{oracle.game}:{seed}")
    levels = PAIRS[seed % len(PAIRS)]
    state = oracle.engine.new_game(**options)
    chosen = 0
    while not state.is_over:
        legal = state.legal_moves()
        if state.chance or state.turn is None:
            state.play(rng.choice(legal))
            continue
        if chosen < oracle.opening:
            move = rng.choice(legal)
        else:
            move = level_move(oracle, state, levels[state.turn], rng.randrange(2**32))
        chosen += 1
        state.play(move)
    return state, levels


def candidates(oracle: Oracle, options: dict[str, Any], moves: list[str]) -> Iterator[list[str]]:
    """Positions worth proving (as records): the game's own, and those one erring move or die face away (or up to
    ``Oracle.deviation_plies`` of them, each after the one before)."""
    state = oracle.engine.new_game(**options)
    for ply, played in enumerate(moves):
        record = moves[:ply]
        if _worth(oracle, state):
            yield record
        yield from _deviations(oracle, state, record, played, oracle.deviation_plies)
        state.play(played)


def _deviations(
    oracle: Oracle, state: GameState, record: list[str], played: str | None, plies: int
) -> Iterator[list[str]]:
    for move in oracle.deviations(state):
        if move == played:
            continue
        deviated = after(state, move)
        if _worth(oracle, deviated):
            yield [*record, move]
        if plies > 1 and not deviated.is_over:
            yield from _deviations(oracle, deviated, [*record, move], None, plies - 1)


def _worth(oracle: Oracle, state: GameState) -> bool:
    return (
        not state.is_over
        and not state.chance
        and state.turn is not None
        and len(state.legal_moves()) >= MIN_MOVES
        and oracle.gate(state)
    )


def level_move(oracle: Oracle, state: GameState, level: int, seed: int) -> str:
    """``level``'s move with no clock, its work bounded where the level's own bound is the clock
    (``Oracle.level_work``)."""
    depth = oracle.level_work.get(level)
    return ai.choose_move(state, level, seed=seed, budget_s=FULL, max_depth=depth, game_ai=oracle.game_ai)


def found_by(oracle: Oracle, state: GameState, move: str) -> list[int]:
    """In how many of ``TRIES`` seeded tries each level plays ``move`` here (as it plays in self-play)."""
    return [sum(level_move(oracle, state, level, seed) == move for seed in range(TRIES)) for level in ai.LEVELS]


@contextmanager
def cpu_limit(seconds: float) -> Iterator[None]:
    """Raise TooLong in this (main) thread once it has used ``seconds`` of CPU. Every search here is fixed work,
    but an exact endgame solve or a long game can be very long fixed work: a candidate whose proof would take
    minutes is skipped (and counted), on any machine alike unless it is near the allowance."""

    def expire(signum: int, frame: Any) -> None:
        raise TooLong

    previous = signal.signal(signal.SIGPROF, expire)
    signal.setitimer(signal.ITIMER_PROF, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, previous)


def mine_seed(job: Job) -> dict[str, Any]:
    """Runs in a worker: play the seed's game, prove its candidates, and return the seed's work line."""
    path, options, seed = job
    started = time.process_time()
    oracle = load(path)
    levels = PAIRS[seed % len(PAIRS)]
    line: dict[str, Any] = {"seed": seed, "levels": list(levels), "plies": 0, "candidates": 0, "skipped": 0}
    try:
        with cpu_limit(oracle.game_cpu_s):
            final, _ = self_play(oracle, options, seed)
    except TooLong:
        return {**line, "skipped": 1, "play_s": 0.0, "cpu_s": round(time.process_time() - started, 2), "puzzles": []}
    line["plies"] = len(final.moves)
    line["play_s"] = round(time.process_time() - started, 2)
    seen: set[str] = set()
    found: list[dict[str, Any]] = []
    for record in candidates(oracle, options, final.moves):
        state = oracle.position(options, record)
        key = oracle.key(state)
        if key in seen:
            continue
        seen.add(key)
        line["candidates"] += 1
        try:
            with cpu_limit(CANDIDATE_CPU_S):
                puzzle = prove_candidate(oracle, state, options, record, {"seed": seed, "levels": list(levels)})
        except TooLong:
            line["skipped"] += 1
            continue
        if puzzle is not None:
            found.append({**puzzle.to_dict(), "position": _digest(key)})
            if len(found) >= MAX_PER_GAME:
                break
    return {**line, "cpu_s": round(time.process_time() - started, 2), "puzzles": found}


def prove_candidate(
    oracle: Oracle, state: GameState, options: dict[str, Any], record: list[str], source: dict[str, Any]
) -> shipped.ShippedPuzzle | None:
    """The puzzle at ``state`` (proven, rated, with its themes), or None when it has no only move."""
    line = solve(oracle, state)
    if line is None:
        return None
    first = line.steps[0]
    hits = found_by(oracle, state, first.move)
    legal = len(state.legal_moves())
    return shipped.ShippedPuzzle(
        id=shipped.puzzle_id(oracle.game, options, record),
        game=oracle.game,
        options=dict(options),
        moves=tuple(record),
        solver=state.turn or 0,
        solution=line.solution,
        steps=tuple((s.move, s.value, s.rival, s.rival_value) for s in line.steps),
        rating=rating(hits, len(line.steps), legal),
        themes=tuple(themes(oracle, options, record, list(line.solution), first.value)),
        found=tuple(hits),
        legal=legal,
        search=oracle.search,
        source=source,
    )


def _digest(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()[:20]


def parse_seeds(text: str) -> list[int]:
    seeds: list[int] = []
    for part in text.split(","):
        first, _, last = part.partition("-")
        seeds.extend(range(int(first), int(last or first) + 1))
    return seeds


def read_work(path: Path) -> list[dict[str, Any]]:
    """A work file's seeds, the first line of each (two runs on one file may both have finished a seed)."""
    if not path.is_file():
        return []
    lines: dict[int, dict[str, Any]] = {}
    for text in path.read_text().splitlines():
        try:
            line = json.loads(text)
        except json.JSONDecodeError:  # a line cut by an interruption: that seed runs again
            continue
        lines.setdefault(line["seed"], line)
    return list(lines.values())


def yield_line(name: str, done: list[dict[str, Any]]) -> str:
    """Puzzles per CPU hour (and per game) over a work file's seeds."""
    cpu = sum(d["cpu_s"] for d in done)
    count = sum(len(d["puzzles"]) for d in done)
    rate = count / (cpu / 3600) if cpu else 0.0
    return (
        f"{name}: {len(done)} games, {count} puzzles ({count / max(1, len(done)):.2f} a game), "
        f"{cpu / 3600:.2f} CPU hours, {rate:.0f} puzzles per CPU hour"
    )


def mine(path: str, options: dict[str, Any], seeds: list[int], jobs: int, directory: Path = WORK_DIR) -> Path:
    """Mine ``seeds`` of the game whose puzzle module is at import path ``path`` into its work file (resumes)."""
    oracle = load(path)
    work = work_path(oracle.game, options, directory)
    work.parent.mkdir(parents=True, exist_ok=True)
    done = {d["seed"] for d in read_work(work)}
    todo: list[Job] = [(path, options, seed) for seed in seeds if seed not in done]
    print(f"{work.name}: {len(todo)} seeds to mine ({len(seeds) - len(todo)} done), {jobs} jobs", flush=True)
    with work.open("a") as out:
        results: Iterator[dict[str, Any]]
        if jobs > 1:
            pool = multiprocessing.get_context("spawn").Pool(jobs)
            results = pool.imap_unordered(mine_seed, todo)
        else:
            pool = None
            results = map(mine_seed, todo)
        try:
            for result in results:
                out.write(json.dumps(result, separators=(",", ":")) + "\n")
                out.flush()
                solutions = "; ".join(f"{len(p['moves'])}: {' '.join(p['solution'])}" for p in result["puzzles"])
                print(
                    f"seed {result['seed']} L{result['levels'][0]}-L{result['levels'][1]}: {result['plies']} plies, "
                    f"{result['candidates']} candidates ({result.get('skipped', 0)} too long), "
                    f"{result['cpu_s']:.1f} CPU s, "
                    f"{len(result['puzzles'])} puzzles {solutions}",
                    flush=True,
                )
        finally:
            if pool is not None:
                pool.terminate()
    print(yield_line(work.stem, read_work(work)), flush=True)
    return work


def ship(path: str, directory: Path = WORK_DIR, data: Path = shipped.DATA_DIR) -> Path:
    """One puzzle per position across the game's work files (the first seed's), at most ``Oracle.ship_per_game``
    of a theme and ``SAME_MOVE_PER_GAME`` with one first move from one game, written as the shipped file with what
    the mining cost (per work file: games, CPU hours, puzzles found and shipped, candidates skipped as too long; per
    CPU hour counts the shipped ones)."""
    oracle = load(path)
    kept: dict[str, shipped.ShippedPuzzle] = {}
    positions: set[str] = set()
    mining: dict[str, Any] = {}
    dropped = set(read_dropped(oracle.game, directory))
    for work in work_files(oracle.game, directory):
        done = sorted(read_work(work), key=lambda d: d["seed"])
        before = len(kept)
        for line in done:
            per_theme: dict[str, int] = {}
            per_move: dict[str, int] = {}
            for item in line["puzzles"]:
                if item["position"] in positions or item["id"] in dropped:
                    continue
                puzzle = refreshed(oracle, shipped.ShippedPuzzle.from_dict(item))
                if any(per_theme.get(t, 0) >= oracle.ship_per_game.get(t, MAX_PER_GAME) for t in puzzle.themes):
                    continue
                if per_move.get(puzzle.solution[0], 0) >= SAME_MOVE_PER_GAME:
                    continue
                per_move[puzzle.solution[0]] = per_move.get(puzzle.solution[0], 0) + 1
                for theme in puzzle.themes:
                    per_theme[theme] = per_theme.get(theme, 0) + 1
                positions.add(item["position"])
                kept[puzzle.id] = puzzle
        cpu = sum(d["cpu_s"] for d in done) / 3600
        seeds = [d["seed"] for d in done]
        mining[work.stem] = {
            "games": len(done),
            "seeds": f"{min(seeds)}-{max(seeds)}" if seeds else "",
            "cpu_hours": round(cpu, 4),
            "found": sum(len(d["puzzles"]) for d in done),
            "shipped": len(kept) - before,
            "skipped": sum(d.get("skipped", 0) for d in done),
            "per_cpu_hour": round((len(kept) - before) / cpu, 1) if cpu else 0.0,
        }
    written = shipped.write(oracle.game, list(kept.values()), data, mining)
    print(f"{written}: {len(kept)} puzzles", flush=True)
    for name, figures in mining.items():
        print(f"  {name}: {figures}", flush=True)
    return written


def work_files(game: str, directory: Path = WORK_DIR) -> list[Path]:
    """The work files of ``game`` (one per set of options), by name."""
    return sorted(p for p in directory.glob(f"{game}*.jsonl") if p.stem == game or p.stem.startswith(f"{game}-"))


def refreshed(oracle: Oracle, puzzle: shipped.ShippedPuzzle) -> shipped.ShippedPuzzle:
    """The puzzle with its rating and themes computed again by the current (pure) code, from what mining stored:
    a change of the rating or the themes needs a ship, not a new mining run."""
    first_value = puzzle.steps[0][1]
    return replace(
        puzzle,
        rating=rating(puzzle.found, puzzle.solver_moves, puzzle.legal),
        themes=tuple(themes(oracle, puzzle.options, puzzle.moves, list(puzzle.solution), first_value)),
    )


def dropped_path(game: str, directory: Path = WORK_DIR) -> Path:
    return directory / f"{game}.dropped.json"


def read_dropped(game: str, directory: Path = WORK_DIR) -> dict[str, str]:
    """Puzzle id -> why a recheck dropped it (``ship`` leaves these out)."""
    path = dropped_path(game, directory)
    return json.loads(path.read_text()) if path.exists() else {}
