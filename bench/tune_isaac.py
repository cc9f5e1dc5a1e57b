"""Fixed-work matches between ISAAC searches, through the arena: ``python bench/tune_isaac.py A B --games 20``.

Besides the arena's players (``bench/players.py``) it knows ``mcts:it=N`` (ai/isaac/mcts.py with N iterations;
knobs ``c=`` exploration, ``w=`` placement width, ``pt=`` / ``rt=`` the placement and removal prior temperatures,
``cost=`` the share of stranded points, ``noise=`` and ``samples=`` of the playout policy) and ``beam:d=D`` (the
earlier beam alpha-beta, ai/isaac/beam.py, D plies). The knobs are module settings of ``ai.isaac.mcts``, set
before each move of the player that names them. Other options are the arena's (``--jobs 2`` for these fixed-work
players).
"""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import bench.arena as arena
import bench.players as players
from ai import isaac
from ai.isaac import beam, mcts
from ai.search import think

KNOBS = {
    "c": "EXPLORATION",
    "w": "PLACEMENT_WIDTH",
    "pt": "PLACEMENT_TEMPERATURE",
    "rt": "REMOVAL_TEMPERATURE",
    "cost": "SHORTER_COST",
    "noise": "PLAYOUT_NOISE",
    "samples": "PLAYOUT_SAMPLES",
}
DEFAULTS = {name: getattr(mcts, name) for name in KNOBS.values()}
_make_player = players.make_player


def make_player(spec: str, *args: Any, **kwargs: Any) -> players.Player:
    name, _, rest = spec.partition(":")
    if name not in ("mcts", "beam"):
        return _make_player(spec, *args, **kwargs)
    params = dict(item.split("=", 1) for item in rest.split(","))
    if name == "mcts":
        iterations = int(params.pop("it"))
        knobs = {KNOBS[k]: (float(v) if "." in v else int(v)) for k, v in params.items()}

        def choose_mcts(state: Any, rng: random.Random) -> str:
            for knob, value in {**DEFAULTS, **knobs}.items():
                setattr(mcts, knob, value)
            moves = state.legal_moves()
            if len(moves) == 1:
                return moves[0]
            return isaac.best(isaac.search(state, iterations, None, rng))[0]

        return players.Player(spec, spec, choose_mcts)
    depth = int(params["d"])

    def choose_beam(state: Any, rng: random.Random) -> str:
        return think(beam.IsaacSearch(full_width_root=False), state, depth, None).best()[0]

    return players.Player(spec, spec, choose_beam)


players.make_player = make_player
arena.make_player = make_player

if __name__ == "__main__":
    arena.main([*sys.argv[1:3], "--game", "isaac", *sys.argv[3:]])
