"""Players for the arena, built from short specs (docs/arena.md):

    random            a uniformly random legal move
    greedy            the best immediate score margin by ``scores()`` for the mover, a win first, ties at random
    L1 .. L4          the project's AI through ``ai.choose_move(state, level, seed=...)``
    L4:budget=0.5     ... with its time budget overridden (seconds)
    L4:depth=3        ... a fixed depth with no clock (budget_s=inf, max_depth=3): fixed work for dev runs
    L4:clock=cpu      ... its deadline read on this process's CPU clock: on a busy machine it still thinks its
                      full budget (as on a quiet one) instead of losing it to other work; times reported stay wall
    uct:5000          the UCT reference (bench/uct.py) with 5000 iterations a move
    uct@1.2           the UCT reference with the iterations that take 1.2 s a move on average here (calibrated)
    uct-ply:200000    the UCT reference searching until it has played that many moves on its copies, tree and
                      playouts together: about the same time at every stage of a game, where a fixed iteration
                      count spends most of its time on the opening (long playouts) and little on the end
    uct-ply@1.2       the same, calibrated to 1.2 s a move
    uct-time:1.6      the UCT reference under a time control: every move with a choice searched until 1.6 s have
                      passed since it was asked (the same budget on every move, as a level on its clock thinks)
    uct-time:1.6,clock=cpu   ... the 1.6 s read on this process's CPU clock, as ``L4:clock=cpu`` reads its own

Every player is called as ``player.choose(state, rng)`` and must return one of ``state.legal_moves()``; it is
only asked when a player is to act (the arena draws chance moves).
"""

from __future__ import annotations

import contextlib
import math
import random
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import ai
import games
from bench import uct

Chooser = Callable[[Any, random.Random], str]
# The clocks a time control can read: wall seconds, or this process's CPU seconds (a busy machine then takes
# nothing from the player's budget, only stretches its wall time)
CLOCKS: dict[str, uct.Clock] = {"wall": time.perf_counter, "cpu": time.process_time}


@dataclass
class Player:
    """A named chooser. ``spec`` is what was asked for, ``resolved`` a spec that replays it exactly (a calibrated
    UCT resolves to its iteration count, so workers and resumed runs use the same strength)."""

    spec: str
    resolved: str
    chooser: Chooser
    notes: list[str] = field(default_factory=list)

    def choose(self, state: Any, rng: random.Random) -> str:
        return self.chooser(state, rng)


def random_move(state: Any, rng: random.Random) -> str:
    return rng.choice(state.legal_moves())


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
            scores = after.scores()
            value = scores[me] - scores[1 - me]
        if value > best_value:
            best, best_value = [move], value
        elif value == best_value:
            best.append(move)
    return rng.choice(best)


def level_chooser(level: int, params: dict[str, str]) -> Chooser:
    overrides: dict[str, Any] = {}
    clock = "wall"
    for key, value in params.items():
        if key == "clock" and value in ("wall", "cpu"):
            clock = value
        elif key == "budget":
            overrides["budget_s"] = math.inf if value == "inf" else float(value)
        elif key == "depth":
            overrides["max_depth"] = int(value)
            overrides.setdefault("budget_s", math.inf)
        else:
            raise ValueError(
                f"Unknown level parameter {key}={value}: use budget=<seconds>, depth=<plies> or clock=cpu."
            )

    def choose(state: Any, rng: random.Random) -> str:
        with cpu_clock() if clock == "cpu" else contextlib.nullcontext():
            return ai.choose_move(state, level, seed=rng.randrange(1 << 30), **overrides)

    return choose


@contextlib.contextmanager
def cpu_clock() -> Iterator[None]:
    """While inside, ``time.perf_counter`` reads this process's CPU time: the AI's deadlines (which read
    ``time.perf_counter()`` from the ``time`` module) then count only the work done for them. The arena reads
    the wall clock before entering and after leaving, so its times stay wall-clock seconds."""
    wall = time.perf_counter
    time.perf_counter = time.process_time
    try:
        yield
    finally:
        time.perf_counter = wall


def uct_chooser(
    iterations: int, plies: int | None = None, seconds: float | None = None, clock: str = "wall"
) -> Chooser:
    searcher = uct.UCT(iterations, plies=plies, seconds=seconds, clock=CLOCKS[clock])

    def choose(state: Any, rng: random.Random) -> str:
        searcher.rng.seed(rng.randrange(1 << 62))
        return searcher.choose(state)

    return choose


def timed_uct(spec: str, rest: str) -> Player:
    """``uct-time:SECONDS[,clock=wall|cpu]``: the reference on a per-move time control."""
    seconds_text, *params = rest.split(",")
    clock = "wall"
    for param in params:
        key, _, value = param.partition("=")
        if key != "clock" or value not in CLOCKS:
            raise ValueError(f"Unknown UCT parameter {param!r}: use clock=wall or clock=cpu.")
        clock = value
    seconds = float(seconds_text.removesuffix("s"))
    if not seconds > 0:
        raise ValueError(f"A time control needs a positive budget, not {seconds_text!r}.")
    return Player(spec, spec, uct_chooser(1, seconds=seconds, clock=clock))


def level_budget(game: str, level: int) -> float:
    """The time budget of a level of ``game``'s AI (``LEVELS[level]``'s ``budget_s`` or ``seconds``, whichever
    the AI names it): the per-move time control its reference gets."""
    entry = games.find(game)
    levels = getattr(ai.load(entry.ai), "LEVELS", None) if entry.ai else None
    config = levels.get(level) if isinstance(levels, dict) else None
    budget = getattr(config, "budget_s", getattr(config, "seconds", None))
    if budget is None:
        raise ValueError(f"{entry.title}'s AI declares no time budget for level {level}: give one (--level4-budget).")
    return float(budget)


def make_player(
    spec: str,
    new_game: Callable[[], Any] | None = None,
    calibration_seed: int = 0,
    calibration_positions: list[Any] | None = None,
) -> Player:
    """The player a spec names. ``new_game`` makes a fresh game of the match, needed to calibrate ``uct@S``
    (on positions of random games of it, or on ``calibration_positions``)."""
    name, _, rest = spec.partition(":")
    if spec == "random":
        return Player(spec, spec, random_move)
    if spec == "greedy":
        return Player(spec, spec, greedy_move)
    if name in ("L1", "L2", "L3", "L4"):
        params = dict(item.split("=", 1) for item in rest.split(",")) if rest else {}
        return Player(spec, spec, level_chooser(int(name[1]), params))
    if name == "uct" and rest:
        return Player(spec, spec, uct_chooser(int(rest)))
    if name == "uct-ply" and rest:
        return Player(spec, spec, uct_chooser(1, plies=int(rest)))
    if name == "uct-time" and rest:
        return timed_uct(spec, rest)
    if spec.startswith(("uct@", "uct-ply@")):
        if new_game is None:
            raise ValueError("A timed UCT needs the game to calibrate on.")
        kind, _, time_text = spec.partition("@")
        unit = "plies" if kind == "uct-ply" else "iterations"
        seconds = float(time_text.removesuffix("s"))
        calibration = uct.calibrate(new_game, seconds, calibration_seed, positions=calibration_positions, unit=unit)
        resolved = f"{kind}:{calibration.iterations}"
        budget = (calibration.iterations, None) if unit == "iterations" else (1, calibration.iterations)
        return Player(spec, resolved, uct_chooser(*budget), [calibration.describe()])
    raise ValueError(
        f"Unknown player {spec!r}: use random, greedy, L1..L4 (L4:budget=0.5, L4:depth=3, L4:clock=cpu), "
        "uct:<iterations>, uct@<seconds>, uct-ply:<plies>, uct-ply@<seconds> or uct-time:<seconds>[,clock=cpu]."
    )
