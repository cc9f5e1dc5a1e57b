"""The learned evaluation: pattern tables and global terms read from ``weights.bin``, loaded once per process.

The value of a position for the player to move is ``tanh(x)``, where ``x`` is the sum of the pattern entries
(``patterns.py``) plus global terms of its stage: a bias (the tempo), the share of the product scores, and the
differences of inner, outer and captive disks. The weights are trained by ``bench/train_iago.py`` to predict the
result of the game (win or loss, nudged by the final margin), not disk counts: the product score makes a disk's
worth depend on everything else.

File format (``FORMAT_VERSION``): the line ``MAGIC``, then one line of JSON (the format version, the
definitions' hash from ``patterns.definition_hash``, the scale, the global weights and how the file was made),
then the pattern tables as zlib-compressed little-endian int16 (entry = value / scale), stage by stage, class by
class. A file whose version or hash does not match the code is refused with a message that says which.
"""

from __future__ import annotations

import functools
import json
import math
import sys
import zlib
from array import array
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ai.iago import patterns as P
from ai.iago.board import Board, terminal_value

MAGIC = b"IAGO-PATTERN-WEIGHTS\n"
FORMAT_VERSION = 1
WEIGHTS_PATH = Path(__file__).with_name("weights.bin")
STAGES = len(P.PATTERN_STAGE_BOUNDS) + 1
HEURISTIC_CAP = 0.95  # a heuristic value never reaches an exact result (+-0.98 and beyond)


class WeightsError(ValueError):
    """The weights file does not fit this code (another format or other pattern definitions) or is damaged."""


@dataclass
class Weights:
    """Pattern tables ``tables[stage][class]`` and global weights ``globals_[stage][feature]``, for the player to
    move; ``meta`` says how they were made."""

    tables: list[list[list[float]]]
    globals_: list[list[float]]
    meta: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def zero(cls) -> Weights:
        tables = [[[0.0] * size for size in P.TABLE_SIZES] for _ in range(STAGES)]
        return cls(tables, [[0.0] * len(P.GLOBAL_FEATURES) for _ in range(P.GLOBAL_STAGES)])


def global_features(board: Board) -> tuple[float, ...]:
    """The global terms for the player to move (``patterns.GLOBAL_FEATURES``)."""
    me = board.turn
    face, captive = board.face, board.captive
    mine, theirs = face[me], face[1 - me]
    s = board.scores()
    share = (s[me] - s[1 - me]) / (s[0] + s[1] + 20)
    return (
        1.0,
        share,
        (mine[0] - theirs[0]) / 8,
        (mine[1] - theirs[1]) / 8,
        (captive[me] - captive[1 - me]) / 8,
    )


def relative_indices(board: Board) -> tuple[int, ...]:
    """Each instance's table index, the cells seen by the player to move (what training updates)."""
    cells = board.cells
    if board.turn == 1:
        swap = P.SWAP_COLOURS
        cells = [swap[v] for v in cells]
    return P.pattern_indices(cells)


class Evaluator:
    """Weights laid out for speed: per stage and per player to move, the tables indexed by the board's absolute
    codes (Light's are the learned tables with the colours swapped), so a leaf costs one generated expression."""

    def __init__(self, weights: Weights) -> None:
        self.weights = weights
        swap_maps = {size: P.swapped_index_map(round(math.log(size, P.STATES))) for size in set(P.TABLE_SIZES)}
        self.tables: list[tuple[tuple[list[float], ...], tuple[list[float], ...]]] = []
        for stage_tables in weights.tables:
            for_dark = tuple(stage_tables)
            for_light = tuple([table[j] for j in swap_maps[len(table)]] for table in stage_tables)
            self.tables.append((for_dark, for_light))
        self.globals_ = weights.globals_
        self.stage_of = [P.pattern_stage(e) for e in range(P.INNER_CELLS + 1)]
        self.global_stage_of = [P.global_stage(e) for e in range(P.INNER_CELLS + 1)]

    def raw(self, board: Board) -> float:
        """The sum inside the tanh, for the player to move."""
        empty = board.empty_inner
        x = P.pattern_sum(board.cells, self.tables[self.stage_of[empty]][board.turn])
        g = self.globals_[self.global_stage_of[empty]]
        return x + sum(w * f for w, f in zip(g, global_features(board), strict=True))

    def value(self, board: Board) -> float:
        """The value for the player to move: exact once the game is over, else below the exact results."""
        if board.empty_inner == 0:
            return terminal_value(board, board.turn)
        return HEURISTIC_CAP * math.tanh(self.raw(board))


def save(path: Path, weights: Weights, scale: float = 1 / 4096) -> None:
    """Write ``weights`` in the current format (entries are rounded to ``scale`` and clipped to int16)."""
    flat = array("h")
    for stage_tables in weights.tables:
        for table in stage_tables:
            flat.extend(max(-32768, min(32767, round(v / scale))) for v in table)
    if sys.byteorder != "little":
        flat.byteswap()
    header = {
        "format": FORMAT_VERSION,
        "definitions": P.definition_hash(),
        "scale": scale,
        "globals": weights.globals_,
        "meta": weights.meta,
    }
    path.write_bytes(MAGIC + json.dumps(header, sort_keys=True).encode() + b"\n" + zlib.compress(flat.tobytes(), 9))


def load(path: Path) -> Weights:
    """Read a weights file, refusing one made for another format or other pattern definitions."""
    data = path.read_bytes()
    if not data.startswith(MAGIC):
        raise WeightsError(f"{path} is not an Iago weights file.")
    header_line, _, body = data[len(MAGIC) :].partition(b"\n")
    header = json.loads(header_line)
    if header.get("format") != FORMAT_VERSION:
        raise WeightsError(f"{path} has format {header.get('format')}, this code reads format {FORMAT_VERSION}.")
    if header.get("definitions") != P.definition_hash():
        raise WeightsError(
            f"{path} was trained for other pattern definitions (hash {str(header.get('definitions'))[:12]}, "
            f"the code's is {P.definition_hash()[:12]}): retrain with bench/train_iago.py."
        )
    flat = array("h")
    flat.frombytes(zlib.decompress(body))
    if sys.byteorder != "little":
        flat.byteswap()
    if len(flat) != STAGES * sum(P.TABLE_SIZES):
        raise WeightsError(
            f"{path} holds {len(flat)} pattern entries, the definitions need {STAGES * sum(P.TABLE_SIZES)}."
        )
    scale = float(header["scale"])
    tables: list[list[list[float]]] = []
    offset = 0
    for _ in range(STAGES):
        stage_tables = []
        for size in P.TABLE_SIZES:
            stage_tables.append([v * scale for v in flat[offset : offset + size]])
            offset += size
        tables.append(stage_tables)
    globals_ = [[float(v) for v in row] for row in header["globals"]]
    if len(globals_) != P.GLOBAL_STAGES or any(len(row) != len(P.GLOBAL_FEATURES) for row in globals_):
        raise WeightsError(f"{path} has global weights of the wrong shape.")
    return Weights(tables, globals_, dict(header.get("meta", {})))


@functools.cache
def default_evaluator() -> Evaluator:
    """The shipped weights, loaded on first use (not at import of ``ai``), once per process."""
    return Evaluator(load(WEIGHTS_PATH))


def evaluate(board: Board, evaluator: Evaluator | None = None) -> float:
    """The learned value of ``board`` for the player to move, in [-1, 1]."""
    return (evaluator or default_evaluator()).value(board)


def fitted_sum(weights: Weights, stage: int, indices: Sequence[int], gstage: int, feats: Sequence[float]) -> float:
    """The sum inside the tanh from features as training sees them (must agree with ``Evaluator.raw``)."""
    stage_tables = weights.tables[stage]
    x = 0.0
    for (k, _), j in zip(P.INSTANCES, indices, strict=True):
        x += stage_tables[k][j]
    return x + sum(w * f for w, f in zip(weights.globals_[gstage], feats, strict=True))
