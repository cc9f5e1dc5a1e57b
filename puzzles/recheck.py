"""Proving the shipped set again after a change of a game's AI: ``bench/mine_puzzles.py recheck --game G``.

A shipped puzzle was proven by the AI of the day it was mined. A better AI can show that its answer was not the
only good move (docs/puzzles.md has the example that made this command). ``recheck`` proves the first step of
every shipped puzzle again, by the game's own prover and by the generic one (as the shipped-set test does), keeps
what still has its only move, and records the others in the game's ``.dropped.json`` work file, which ``ship``
reads, so that they stay out.
"""

from __future__ import annotations

import json
import multiprocessing
from pathlib import Path
from typing import Any

from puzzles import shipped
from puzzles.miner import WORK_DIR, dropped_path, read_dropped, work_path
from puzzles.mining import is_only_move
from puzzles.oracle import load
from puzzles.prove import MIN_MOVES, prove_step


def recheck(path: str, jobs: int, directory: Path = WORK_DIR, data: Path = shipped.DATA_DIR) -> Path:
    """Keep the shipped puzzles of the game at ``path`` whose first move is still the only move by both provers;
    the others are dropped and recorded (with why) for later ships. The header's figures are counted again."""
    oracle = load(path)
    puzzles = shipped.load(oracle.game, data)
    jobs_list = [(path, puzzle.to_dict()) for puzzle in puzzles]
    if jobs > 1:
        with multiprocessing.get_context("fork").Pool(jobs) as pool:
            reasons = pool.map(_recheck_one, jobs_list, chunksize=1)
    else:
        reasons = [_recheck_one(job) for job in jobs_list]
    dropped = read_dropped(oracle.game, directory)
    kept = []
    for puzzle, reason in zip(puzzles, reasons, strict=True):
        if reason is None:
            kept.append(puzzle)
        else:
            dropped[puzzle.id] = reason
            print(f"dropped {puzzle.id}: {reason}", flush=True)
    dropped_path(oracle.game, directory).write_text(json.dumps(dropped, indent=0, sort_keys=True) + "\n")
    mining = shipped.header(oracle.game, data).get("mining") or {}
    for stem, figures in mining.items():  # what each work file still ships, per CPU hour of its mining
        figures["shipped"] = sum(1 for p in kept if work_path(oracle.game, p.options, directory).stem == stem)
        figures["per_cpu_hour"] = round(figures["shipped"] / figures["cpu_hours"], 1) if figures["cpu_hours"] else 0.0
    written = shipped.write(oracle.game, kept, data, mining)
    print(f"{written}: {len(kept)} of {len(puzzles)} puzzles kept", flush=True)
    return written


def _recheck_one(job: tuple[str, dict[str, Any]]) -> str | None:
    """None if the puzzle's first move is still the only move by both provers, else why not."""
    path, data = job
    oracle = load(path)
    puzzle = shipped.ShippedPuzzle.from_dict(data)
    for generic in (False, True):
        state = oracle.position(puzzle.options, puzzle.moves)
        step = prove_step(oracle, state, MIN_MOVES, generic=generic)
        prover = "the generic prover" if generic else "the game's prover"
        if step is None or step.move != puzzle.solution[0] or not is_only_move(step.value, step.margin):
            return f"{prover} finds no only move {puzzle.solution[0]!r}: {step}"
    return None
