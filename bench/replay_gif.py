"""Replay GIF cost: frames, drawing and encoding time, and size, of one game drawn a frame per log entry (as before
issue 24: every die roll its own frame) and a frame per move with its roll (now), in the same run.

    python bench/replay_gif.py [--game polygo] [--size 19] [--plies 101] [--seed 1]

The game is random legal play, seeded; the boards are drawn in this process, one after another, as one drawing
worker would.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the project's render, not bench/render.py

import games
from render.animation import animated_gif
from sessions.boards import frames_of
from sessions.drawing import frame_labels

NAMES = ("Alice", "Bob")


def every_entry(entry: games.GameEntry, options: dict[str, Any], moves: list[str]) -> list[Any]:
    """Before: the start and the position after every entry of the log, die rolls included."""
    state = entry.new_game(**options)
    frames = [state.copy()]
    for move in moves:
        state.play(move)
        frames.append(state.copy())
    return frames


def measure(entry: games.GameEntry, states: list[Any], labels: list[str]) -> tuple[int, float, int]:
    started = time.perf_counter()
    boards = [entry.render(state, NAMES, "en") for state in states]
    gif = animated_gif(boards, labels)
    return len(states), time.perf_counter() - started, len(gif)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="polygo")
    parser.add_argument("--size", type=int, default=19, help="Polygo's board size")
    parser.add_argument("--plies", type=int, default=101, help="log entries of the game (fewer if it ends)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    entry = games.find(args.game)
    options: dict[str, Any] = {"size": args.size} if args.game == "polygo" else {}
    rng = random.Random(args.seed)
    state = entry.new_game(**options)
    while not state.is_over and len(state.moves) < args.plies:
        state.play(rng.choice(state.legal_moves()))
    moves = state.moves
    print(f"{args.game} {options or ''}: {len(moves)} log entries")
    before = every_entry(entry, options, moves)
    labels = [f"{ply}/{len(before) - 1}" for ply in range(len(before))]
    after = frames_of(entry, options, moves)
    for name, states, words in (
        ("a frame per entry", before, labels),
        ("a frame per move", after, frame_labels(after)),
    ):
        frames, seconds, size = measure(entry, states, words)
        print(f"{name:>18}: {frames:4d} frames, {seconds:6.1f} s, {size / 1e6:5.2f} MB")


if __name__ == "__main__":
    main()
