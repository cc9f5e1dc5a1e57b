"""Render time and PNG size per board: `python bench/render.py`.

The boards are every registered game's, with its default options and then each other value of each option (a
variant, a board size), from the registry; positions come from seeded random games (start, middle, end) so runs
are comparable. `python bench/render.py --levels` prints instead what each level of Pillow's zlib (and PNG
optimisation) and of ISA-L (what boards use) costs and saves on the last board of each game; `--ja` draws the
boards in Japanese, with Japanese names. `--sequence` draws every position of one seeded game of each kind once, in
order, as a game in play does: what a board costs when its words (move number, scores) are new to the process's
caches, where the default repeats each board. `--portrait` draws the phone layout (a game
with a single layout draws it as always), `--marks` each board with a suggestion, a played move and up to 40
candidates marked (a hint or an analysis).

"cpu" columns are the rendering thread's own CPU time: on a machine shared with other work, wall-clock p95 also
counts the time the thread waited for a core.
"""

from __future__ import annotations

import importlib
import io
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from PIL import Image

import games
from render import base


def boards() -> list[tuple[str, str, dict[str, object]]]:
    """(game, title, options) for every registered game: its default board, then each other value of each option
    (a board size, a variant), from the registry."""
    found: list[tuple[str, str, dict[str, object]]] = []
    for entry in games.entries():
        found.append((entry.name, entry.name, {}))
        for option in entry.options:
            found += [
                (entry.name, f"{entry.name} {value}", {option.name: value})
                for value in option.values
                if value != option.default
            ]
    return found


BOARDS = boards()
NAMES = ("Alice", "Bob")
JAPANESE_NAMES = ("山田 たろう", "ミナ")
RUNS = 30
WARMUP = 2  # the first render fills caches (fonts, static layers) once per process; a bot renders many boards


def positions(game: str, options: dict[str, object], seed: int = 1) -> dict[str, object]:
    rng = random.Random(seed)
    state = games.find(game).new_game(**options)
    history = [state.copy()]
    while not state.is_over:
        state.play(rng.choice(state.legal_moves()))
        history.append(state.copy())
    return {"start": history[0], "middle": history[len(history) // 2], "end": history[-1]}


def renderer_of(game: str) -> Any:
    """The renderer module the game's registry entry names (called directly: the figures are the drawing's)."""
    return importlib.import_module(games.find(game).renderer)


def percentile(times: list[float], fraction: float) -> float:
    ordered = sorted(times)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def encode_ms(image: Image.Image, **options: object) -> tuple[float, int]:
    times, size = [], 0
    for _ in range(RUNS // 3):
        started = time.perf_counter()
        if "isal" in options:
            size = len(_isal_png(image, int(options["isal"])))  # type: ignore[call-overload]
        else:
            buffer = io.BytesIO()
            image.save(buffer, format="PNG", **options)
            size = buffer.tell()
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times), size


def _isal_png(image: Image.Image, level: int) -> bytes:
    saved, base.COMPRESS_LEVEL = base.COMPRESS_LEVEL, level
    try:
        return base.encode_indexed(image)
    finally:
        base.COMPRESS_LEVEL = saved


def levels() -> None:
    """The encoding trade-off behind render.base.COMPRESS_LEVEL."""
    settings: list[tuple[str, dict[str, object]]] = [(f"level {n}", {"compress_level": n}) for n in range(1, 10)]
    settings.append(("optimize", {"optimize": True}))
    settings += [(f"isal {n}", {"isal": n}) for n in range(4)]
    print(f"{'board':<20}" + "".join(f"{label:>16}" for label, _ in settings))
    for game, title, options in BOARDS:
        state = positions(game, options)["end"]
        png = renderer_of(game).render(state, NAMES)
        indexed = Image.open(io.BytesIO(png))
        indexed.load()
        cells = []
        for _, setting in settings:
            ms, size = encode_ms(indexed, **setting)
            cells.append(f"{ms:.1f} ms {size / 1024:.0f} KB")
        print(f"{title + ' end':<20}" + "".join(f"{cell:>16}" for cell in cells))


def sequence(names: tuple[str, str], language: str) -> None:
    print(f"{'game':<20}{'boards':>10}{'cpu med':>10}{'cpu p95':>10}{'cpu max':>10}")
    for game, title, options in BOARDS:
        renderer = renderer_of(game)
        fresh = games.find(game).new_game(**options)
        renderer.render(fresh, names, language, **render_options(fresh))  # the static layers, once
        rng = random.Random(7)
        state = games.find(game).new_game(**options)
        cpu_times = []
        while True:
            extra = render_options(state)
            cpu_started = time.thread_time()
            renderer.render(state, names, language, **extra)
            cpu_times.append((time.thread_time() - cpu_started) * 1000)
            if state.is_over:
                break
            state.play(rng.choice(state.legal_moves()))
        median, p95 = statistics.median(cpu_times), percentile(cpu_times, 0.95)
        print(f"{title:<20}{len(cpu_times):>10}{median:>10.1f}{p95:>10.1f}{max(cpu_times):>10.1f}")


def render_options(state: object) -> dict[str, object]:
    """The renderer's keyword arguments the command line asks for."""
    chosen: dict[str, object] = {"layout": "portrait"} if "--portrait" in sys.argv else {}
    legal = [] if state.chance else state.legal_moves()  # type: ignore[attr-defined]
    if "--marks" in sys.argv and legal:
        chosen.update(highlight=legal[:40], suggestion=legal[-1], played=legal[0])
    return chosen


def main() -> None:
    if "--levels" in sys.argv:
        levels()
        return
    names, language = (JAPANESE_NAMES, "ja") if "--ja" in sys.argv else (NAMES, "en")
    if "--sequence" in sys.argv:
        sequence(names, language)
        return
    print(f"{'board':<20}{'median ms':>10}{'p95 ms':>10}{'PNG KB':>10}{'cpu med':>10}{'cpu p95':>10}")
    for game, title, options in BOARDS:
        renderer = renderer_of(game)
        for label, state in positions(game, options).items():
            extra = render_options(state)
            for _ in range(WARMUP):
                renderer.render(state, names, language, **extra)
            times, cpu_times = [], []
            for _ in range(RUNS):
                started, cpu_started = time.perf_counter(), time.thread_time()
                png = renderer.render(state, names, language, **extra)
                times.append((time.perf_counter() - started) * 1000)
                cpu_times.append((time.thread_time() - cpu_started) * 1000)
            median, p95 = statistics.median(times), percentile(times, 0.95)
            cpu_median, cpu_p95 = statistics.median(cpu_times), percentile(cpu_times, 0.95)
            print(
                f"{title + ' ' + label:<20}{median:>10.1f}{p95:>10.1f}{len(png) / 1024:>10.1f}"
                f"{cpu_median:>10.1f}{cpu_p95:>10.1f}"
            )


if __name__ == "__main__":
    main()
