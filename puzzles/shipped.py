"""The puzzles that ship with the bot: one gzip'd JSON-lines file per game in ``puzzles/data/``, loaded here.

Pure (the standard library and nothing else: no discord, no database, no Pillow, no engine), so the service, a
bench or a test loads the set the same way::

    from puzzles import shipped
    for puzzle in shipped.load(game):
        puzzle.id, puzzle.options, puzzle.moves, puzzle.solution, puzzle.rating, puzzle.themes

A file's first line is its header (``{"format": FORMAT, "game": ..., "count": ...}``); each further line is one
puzzle (``ShippedPuzzle.to_dict``), sorted by id so that a re-mined file changes only where its puzzles do. A file
of another format is refused (ValueError), never half read.
"""

from __future__ import annotations

import gzip
import hashlib
import io
import json
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

FORMAT = "abstract-games-bot/puzzle-set/1"
DATA_DIR = Path(__file__).resolve().parent / "data"


def puzzle_id(game: str, options: dict[str, Any], moves: list[str] | tuple[str, ...]) -> str:
    """A stable id: the start of the position key the service stores (``sessions.puzzle_mining.position_key``,
    the same hash of game, options and record), so a shipped puzzle and its stored copy are found by either."""
    return position_key(game, options, moves)[:16]


def position_key(game: str, options: dict[str, Any], moves: list[str] | tuple[str, ...]) -> str:
    text = json.dumps([game, options, list(moves)], sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


@dataclass(frozen=True)
class ShippedPuzzle:
    """One shipped puzzle. The position is ``moves`` played from the start of ``game`` with ``options``;
    ``solution`` alternates the solver's moves and the bot's replies and ends with the solver's; ``steps`` holds,
    per solver's move, ``(move, value, closest rival, its value)`` by the proving search (``search``), on the AI's
    -1..+1 scale for the solver; ``found`` is how many of three tries each level 1..4 found the first move."""

    id: str
    game: str
    options: dict[str, Any]
    moves: tuple[str, ...]
    solver: int
    solution: tuple[str, ...]
    steps: tuple[tuple[str, float, str | None, float], ...]
    rating: int
    themes: tuple[str, ...]
    found: tuple[int, ...] = ()
    legal: int = 0  # legal moves at the position
    search: str = ""
    source: dict[str, Any] = field(default_factory=dict)  # {"seed": ..., "levels": [...]} of the self-play game

    @property
    def position_key(self) -> str:
        return position_key(self.game, self.options, self.moves)

    @property
    def ply(self) -> int:
        return len(self.moves)

    @property
    def solver_moves(self) -> int:
        return (len(self.solution) + 1) // 2

    @property
    def margin(self) -> float:
        """The least of the steps' margins (the solution's value above its closest rival's)."""
        return min(value - rival_value for _, value, _, rival_value in self.steps)

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "game": self.game,
            "options": self.options,
            "moves": list(self.moves),
            "solver": self.solver,
            "solution": list(self.solution),
            "steps": [[m, round(v, 4), r, round(rv, 4)] for m, v, r, rv in self.steps],
            "rating": self.rating,
            "themes": list(self.themes),
            "found": list(self.found),
            "legal": self.legal,
            "search": self.search,
            "source": self.source,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ShippedPuzzle:
        moves = tuple(data["moves"])
        options = dict(data["options"])
        return cls(
            id=data.get("id") or puzzle_id(data["game"], options, moves),
            game=data["game"],
            options=options,
            moves=moves,
            solver=int(data["solver"]),
            solution=tuple(data["solution"]),
            steps=tuple((m, float(v), r, float(rv)) for m, v, r, rv in data["steps"]),
            rating=int(data["rating"]),
            themes=tuple(data["themes"]),
            found=tuple(data.get("found", ())),
            legal=int(data.get("legal", 0)),
            search=str(data.get("search", "")),
            source=dict(data.get("source") or {}),
        )


def path_of(game: str, directory: Path = DATA_DIR) -> Path:
    return directory / f"{game}.jsonl.gz"


def games(directory: Path = DATA_DIR) -> list[str]:
    """The games that have a shipped set."""
    return sorted(p.name.removesuffix(".jsonl.gz") for p in directory.glob("*.jsonl.gz"))


def load(game: str, directory: Path = DATA_DIR) -> list[ShippedPuzzle]:
    """Every shipped puzzle of ``game``, sorted by id; [] when the game has none."""
    return list(_load(game, directory))


@cache
def _load(game: str, directory: Path) -> tuple[ShippedPuzzle, ...]:
    path = path_of(game, directory)
    if not path.is_file():
        return ()
    with gzip.open(path, "rt", encoding="utf-8") as lines:
        header = json.loads(next(lines))
        if header.get("format") != FORMAT or header.get("game") != game:
            raise ValueError(f"{path} is not a {FORMAT} file of {game}: {header}")
        return tuple(ShippedPuzzle.from_dict(json.loads(line)) for line in lines if line.strip())


def header(game: str, directory: Path = DATA_DIR) -> dict[str, Any]:
    """The first line of ``game``'s file: its format, count and how it was mined (``mining``: per options, the
    self-play games, CPU hours and puzzles found); {} when the game has no file."""
    path = path_of(game, directory)
    if not path.is_file():
        return {}
    with gzip.open(path, "rt", encoding="utf-8") as lines:
        return dict(json.loads(next(lines)))


def dumps(game: str, puzzles: list[ShippedPuzzle], mining: dict[str, Any] | None = None) -> bytes:
    """The file's bytes: gzip with no time stamp, so the same puzzles always make the same file."""
    ordered = sorted(puzzles, key=lambda p: p.id)
    text = io.StringIO()
    head = {"format": FORMAT, "game": game, "count": len(ordered), "mining": mining or {}}
    text.write(json.dumps(head, sort_keys=True, separators=(",", ":")) + "\n")
    for puzzle in ordered:
        text.write(json.dumps(puzzle.to_dict(), sort_keys=True, separators=(",", ":"), ensure_ascii=False) + "\n")
    buffer = io.BytesIO()
    with gzip.GzipFile(fileobj=buffer, mode="wb", mtime=0, filename="") as out:
        out.write(text.getvalue().encode("utf-8"))
    return buffer.getvalue()


def write(
    game: str, puzzles: list[ShippedPuzzle], directory: Path = DATA_DIR, mining: dict[str, Any] | None = None
) -> Path:
    """Replace ``game``'s shipped file with ``puzzles`` (and what their mining cost, for the bench)."""
    directory.mkdir(parents=True, exist_ok=True)
    path = path_of(game, directory)
    path.write_bytes(dumps(game, puzzles, mining))
    _load.cache_clear()
    return path
