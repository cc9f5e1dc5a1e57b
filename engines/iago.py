"""Iago (Kanare Kato): Othello on a 61-hex board where captured disks turn red instead of changing sides.

The rules and the notation are fixed in ``shared/rules/iago.md``; this module follows them exactly.

- Cells are named like Abalone: rows ``A``..``I`` from Dark's side, numbers ``1``..``9``. A move is a cell
  name (``E5``); in the ``penalty`` variant a player who is owed a call may also play ``call E5``.
- Player 0 is Dark (moves first), player 1 is Light.
- Variants (option ``variant``): ``standard``, ``loose``, ``simple``, ``penalty``.
- ``Result.scores`` are the two products (inner x outer face-up disks, a factor of 0 counting as 1), or plain
  face-up counts in ``simple``. There are no draws: ``Result.reason`` is ``"score"`` when the scores differ and
  ``"centre"`` when the disk on the centre (E5) decided a tie.

Extra API used by the bot and the renderer: ``game.variant``, ``game.scores()``, ``game.last_flips``,
``game.last_cell``, ``game.cell(name)``, ``game.area_counts()``, ``game.call_owed``, ``game.forced_capture()``,
and the module constants
``CELLS``, ``CENTRE``, ``OUTER``, ``INNER`` and ``cell_coords(name)``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from enum import StrEnum
from typing import Any

from engines import IllegalMove, Phrase, Refusal, Result

NAME = "iago"  # how the game is known everywhere: the registry, the stored games, engines.get

OPTIONS: dict[str, tuple[str, ...]] = {"variant": ("standard", "loose", "simple", "penalty")}
SIDES = ("Dark", "Light")


class Reason(StrEnum):
    """Why a game ended (``Result.reason``)."""

    SCORE = "score"
    CENTRE = "centre"


ROWS = "ABCDEFGHI"
RADIUS = 4


def _exists(a: int, b: int) -> bool:
    return max(abs(a), abs(b), abs(a - b)) <= RADIUS


def _name(a: int, b: int) -> str:
    return f"{ROWS[a + RADIUS]}{b + 5}"


# Board order: row by row from A, then by number; for single-digit numbers this is also string order.
CELLS: tuple[str, ...] = tuple(
    _name(a, b) for a in range(-RADIUS, RADIUS + 1) for b in range(-RADIUS, RADIUS + 1) if _exists(a, b)
)
CENTRE = "E5"
_INDEX: dict[str, int] = {name: i for i, name in enumerate(CELLS)}
_COORDS: tuple[tuple[int, int], ...] = tuple((ROWS.index(n[0]) - RADIUS, int(n[1]) - 5) for n in CELLS)


def _distance(a: int, b: int) -> int:
    return max(abs(a), abs(b), abs(a - b))


OUTER: frozenset[str] = frozenset(n for n, (a, b) in zip(CELLS, _COORDS, strict=True) if _distance(a, b) == 4)
INNER: frozenset[str] = frozenset(CELLS) - OUTER

# The six directions (da, db) of the rulings: (row, n-1), (row, n+1), (row-1, n-1), (row-1, n), (row+1, n),
# (row+1, n+1).
DIRECTIONS = ((0, -1), (0, 1), (-1, -1), (-1, 0), (1, 0), (1, 1))


def cell_coords(name: str) -> tuple[int, int]:
    """Axial coordinates (a, b) of a cell: a = row index - 4 (A = -4), b = number - 5; E5 is (0, 0)."""
    return _COORDS[_INDEX[name.strip().upper()]]


def _build_rays() -> tuple[tuple[tuple[int, ...], ...], ...]:
    rays = []
    for a, b in _COORDS:
        cell_rays = []
        for da, db in DIRECTIONS:
            ray = []
            x, y = a + da, b + db
            while _exists(x, y):
                ray.append(_INDEX[_name(x, y)])
                x, y = x + da, y + db
            if ray:
                cell_rays.append(tuple(ray))
        rays.append(tuple(cell_rays))
    return tuple(rays)


_RAYS = _build_rays()
_CENTRE = _INDEX[CENTRE]
# A release needs one of its two bracketing disks on one of these cells.
_SPECIAL: tuple[bool, ...] = tuple(n in OUTER or n == CENTRE for n in CELLS)
_IS_INNER: tuple[bool, ...] = tuple(n in INNER for n in CELLS)
_INNER_PLAIN: tuple[int, ...] = tuple(i for i, n in enumerate(CELLS) if n in INNER and n != CENTRE)

# Cell contents. A face-up disk of player p is p + 1, a captive whose original colour is p is p + 3,
# so capturing adds 2 and releasing subtracts 2.
EMPTY, DARK, LIGHT, CAPTIVE_DARK, CAPTIVE_LIGHT = 0, 1, 2, 3, 4
_SYMBOLS = ".DLdl"
_CELL_LABELS: tuple[str | None, ...] = (None, "D", "L", "xD", "xL")
_FROM_LABEL = {"D": DARK, "L": LIGHT, "xD": CAPTIVE_DARK, "xL": CAPTIVE_LIGHT}

_CELL_RE = re.compile(r"^([A-Z])(\d{1,3})$")
_CALL = "CALL"


def _captures(board: list[int], i: int, player: int) -> int:
    """How many opponent disks a placement by player at empty cell i would capture."""
    me = player + 1
    opp = 2 - player
    total = 0
    for ray in _RAYS[i]:
        if board[ray[0]] != opp:
            continue
        k = 1
        length = len(ray)
        while k < length and board[ray[k]] == opp:
            k += 1
        if k < length and board[ray[k]] == me:
            total += k
    return total


def _releases(board: list[int], i: int, player: int) -> int:
    """How many captives a placement by player at empty cell i would release (rules with release)."""
    me = player + 1
    here_special = _SPECIAL[i]
    total = 0
    for ray in _RAYS[i]:
        if board[ray[0]] < CAPTIVE_DARK:
            continue
        k = 1
        length = len(ray)
        while k < length and board[ray[k]] >= CAPTIVE_DARK:
            k += 1
        if k < length and board[ray[k]] == me and (here_special or _SPECIAL[ray[k]]):
            total += k
    return total


def _flipped(board: list[int], i: int, player: int, release: bool) -> tuple[list[int], list[int]]:
    """Cells captured and cells released by a placement at i; every direction is read on the board before it."""
    me = player + 1
    opp = 2 - player
    captured: list[int] = []
    released: list[int] = []
    for ray in _RAYS[i]:
        first = board[ray[0]]
        if first == opp:
            run = _run(board, ray, lambda v: v == opp)
            if run < len(ray) and board[ray[run]] == me:
                captured.extend(ray[:run])
        elif first >= CAPTIVE_DARK and release:
            run = _run(board, ray, lambda v: v >= CAPTIVE_DARK)
            if run < len(ray) and board[ray[run]] == me and (_SPECIAL[i] or _SPECIAL[ray[run]]):
                released.extend(ray[:run])
    return captured, released


def _run(board: list[int], ray: tuple[int, ...], inside: Any) -> int:
    k = 0
    while k < len(ray) and inside(board[ray[k]]):
        k += 1
    return k


def _forced_cells(board: list[int], player: int) -> tuple[int, list[int]]:
    """Standard rule 1: the largest capture available and the empty cells that achieve it (none when 0)."""
    best = 0
    cells: list[int] = []
    for i in range(len(board)):
        if board[i] != EMPTY:
            continue
        n = _captures(board, i, player)
        if n > best:
            best = n
            cells = [i]
        elif n == best and n:
            cells.append(i)
    return best, cells


def _parse(text: str) -> tuple[bool, str]:
    """(is_call, cell name) from player input; the cell is upper-case but not yet checked against the board."""
    if not isinstance(text, str):
        raise IllegalMove("A move is a cell name such as E5.")
    squashed = "".join(text.split()).upper()
    is_call = squashed.startswith(_CALL)
    cell = squashed[len(_CALL) :] if is_call else squashed
    match = _CELL_RE.match(cell)
    if not match:
        if not text.strip():
            raise IllegalMove("An empty move is not a move: name a cell such as E5.")
        raise IllegalMove("{move} is not a move: name a cell such as E5.", move=text.strip())
    if cell not in _INDEX:
        raise IllegalMove("{cell} is not a cell on the board.", cell=cell)
    return is_call, cell


def _canonical(is_call: bool, cell: str) -> str:
    return f"call {cell}" if is_call else cell


def _check_variant(variant: Any) -> str:
    allowed = OPTIONS["variant"]
    if variant not in allowed:
        raise Refusal(
            "Unknown variant {variant}: choose one of {allowed}.", variant=repr(variant), allowed=", ".join(allowed)
        )
    return variant


class IagoGame:
    """One game of Iago; mutate only through ``play``."""

    def __init__(self, variant: str = "standard") -> None:
        self.variant: str = _check_variant(variant)
        self._board: list[int] = [EMPTY] * len(CELLS)
        self._turn: int = 0
        self._over: bool = False
        self.moves: list[str] = []
        self.last_cell: str | None = None
        self.last_flips: tuple[int, int] | None = None
        self.call_owed: bool = False
        self._legal: list[str] | None = None
        self._legal_set: frozenset[str] = frozenset()

    # --- contract -------------------------------------------------------------------------------------

    @property
    def to_act(self) -> int | None:
        """Who acts next; with no dice in this game, always the player to move."""
        return self.turn

    @property
    def turn(self) -> int | None:
        return None if self._over else self._turn

    @property
    def chance(self) -> bool:
        return False

    @property
    def is_over(self) -> bool:
        return self._over

    def legal_moves(self) -> list[str]:
        return list(self._cached_legal())

    def play(self, move: str) -> None:
        is_call, cell = _parse(move)
        canonical = _canonical(is_call, cell)
        self._cached_legal()
        if canonical not in self._legal_set:
            raise IllegalMove.because(self._explain(is_call, cell))
        self._place(_INDEX[cell], is_call)
        self.moves.append(canonical)

    def result(self) -> Result:
        if not self._over:
            raise ValueError("The game is not over yet.")
        scores = self.scores()
        if scores[0] != scores[1]:
            return Result(0 if scores[0] > scores[1] else 1, scores, Reason.SCORE)
        centre = self._board[_CENTRE]
        if centre in (DARK, LIGHT):
            winner: int | None = centre - 1
        elif centre in (CAPTIVE_DARK, CAPTIVE_LIGHT):
            winner = 1 - (centre - 3)
        else:  # only reachable from a hand-made position; a real game always fills the centre
            winner = None
        return Result(winner, scores, Reason.CENTRE)

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": "iago",
            "version": 1,
            "variant": self.variant,
            "board": "".join(_SYMBOLS[v] for v in self._board),
            "turn": self._turn,
            "over": self._over,
            "moves": list(self.moves),
            "last_cell": self.last_cell,
            "last_flips": list(self.last_flips) if self.last_flips is not None else None,
            "call_owed": self.call_owed,
        }

    def copy(self) -> IagoGame:
        other = IagoGame.__new__(IagoGame)
        other.variant = self.variant
        other._board = list(self._board)
        other._turn = self._turn
        other._over = self._over
        other.moves = list(self.moves)
        other.last_cell = self.last_cell
        other.last_flips = self.last_flips
        other.call_owed = self.call_owed
        other._legal = self._legal  # never mutated in place, so sharing is safe
        other._legal_set = self._legal_set
        return other

    def __eq__(self, other: object) -> bool:
        return isinstance(other, IagoGame) and self.to_dict() == other.to_dict()

    __hash__ = None  # type: ignore[assignment]  # mutable

    def __repr__(self) -> str:
        return f"IagoGame(variant={self.variant!r}, moves={len(self.moves)})"

    # --- extra API for the bot and the renderer ------------------------------------------------------

    def cell(self, name: str) -> str | None:
        """None (empty), "D", "L", "xD" (captive, originally Dark) or "xL"."""
        key = name.strip().upper()
        if key not in _INDEX:
            raise ValueError(f"{key} is not a cell on the board.")
        return _CELL_LABELS[self._board[_INDEX[key]]]

    def area_counts(self) -> dict[str, tuple[int, int]]:
        """Face-up disks (Dark, Light) in the inner and outer areas, and captives by original colour."""
        counts = {"inner": [0, 0], "outer": [0, 0], "captives": [0, 0]}
        for i, v in enumerate(self._board):
            if v in (DARK, LIGHT):
                counts["inner" if _IS_INNER[i] else "outer"][v - 1] += 1
            elif v != EMPTY:
                counts["captives"][v - 3] += 1
        return {key: (d, light) for key, (d, light) in counts.items()}

    def forced_capture(self) -> int:
        """The largest capture open to the player to move (what standard rule 1 demands); 0 when none."""
        if self._over:
            return 0
        return _forced_cells(self._board, self._turn)[0]

    def scores(self) -> tuple[int, int]:
        """The current score of Dark and Light by the variant's formula."""
        counts = self.area_counts()
        inner, outer = counts["inner"], counts["outer"]
        if self.variant == "simple":
            return inner[0] + outer[0], inner[1] + outer[1]
        return (max(inner[0], 1) * max(outer[0], 1), max(inner[1], 1) * max(outer[1], 1))

    # --- internals ------------------------------------------------------------------------------------

    def _cached_legal(self) -> list[str]:
        if self._legal is None:
            self._legal = self._compute_legal()
            self._legal_set = frozenset(self._legal)
        return self._legal

    def _compute_legal(self) -> list[str]:
        if self._over:
            return []
        board = self._board
        player = self._turn
        if self.variant in ("standard", "simple"):
            best, forced = _forced_cells(board, player)
            if best:
                return [CELLS[i] for i in forced]
            cells = [i for i in _INNER_PLAIN if board[i] == EMPTY]
            if self.variant == "standard":
                cells += [i for i in self._special_empty() if _releases(board, i, player)]
        else:  # loose and penalty
            cells = [i for i in _INNER_PLAIN if board[i] == EMPTY]
            cells += [i for i in self._special_empty() if _captures(board, i, player) or _releases(board, i, player)]
        if not cells and board[_CENTRE] == EMPTY:
            cells = [_CENTRE]  # rule 3: nobody ever passes while the inner area has room
        legal = [CELLS[i] for i in cells]
        if self.call_owed:
            legal += [f"call {CELLS[i]}" for i in range(len(board)) if board[i] == EMPTY]
        return sorted(set(legal))

    def _special_empty(self) -> list[int]:
        return [i for i in range(len(self._board)) if _SPECIAL[i] and self._board[i] == EMPTY]

    def _place(self, i: int, is_call: bool) -> None:
        board = self._board
        player = self._turn
        owes = False
        if self.variant == "penalty" and not is_call:
            best, forced = _forced_cells(board, player)
            owes = best > 0 and i not in forced
        captured, released = _flipped(board, i, player, release=self.variant != "simple")
        board[i] = player + 1
        for j in captured:
            board[j] += 2
        for j in released:
            board[j] -= 2
        self.last_cell = CELLS[i]
        self.last_flips = (len(captured), len(released))
        self.call_owed = owes
        self._turn = 1 - player
        self._over = _inner_full(board)
        if self._over:
            self.call_owed = False
        self._legal = None

    def _explain(self, is_call: bool, cell: str) -> Phrase:
        """Why a parsed move that is not in legal_moves() is refused, in a player's words."""
        if self._over:
            return Phrase("The game is over.")
        i = _INDEX[cell]
        if self._board[i] != EMPTY:
            return Phrase("{cell} is not empty.", cell=cell)
        if is_call:
            if self.variant != "penalty":
                return Phrase("Calls are only part of the penalty variant.")
            return Phrase("There is nothing to call: the last placement followed the capture rule.")
        if self.variant in ("standard", "simple"):
            best, forced = _forced_cells(self._board, self._turn)
            if best:
                choices = ", ".join(CELLS[j] for j in forced)
                if best == 1:
                    return Phrase("You must capture 1 disk: play one of {choices}.", choices=choices)
                return Phrase("You must capture {count} disks: play one of {choices}.", count=best, choices=choices)
        simple = self.variant == "simple"
        if cell == CENTRE:
            reason = (
                Phrase("{cell} is the centre: you may place there only to capture.", cell=cell)
                if simple
                else Phrase("{cell} is the centre: you may place there only to capture or release.", cell=cell)
            )
        elif cell in OUTER:
            reason = (
                Phrase("{cell} is on the outer ring: you may place there only to capture.", cell=cell)
                if simple
                else Phrase("{cell} is on the outer ring: you may place there only to capture or release.", cell=cell)
            )
        else:
            reason = Phrase("{cell} is not a legal move here.", cell=cell)
        if self.call_owed:
            return Phrase("{reason} You are owed a call, so you may play call {cell}.", reason=reason, cell=cell)
        return reason

    @classmethod
    def _from_position(
        cls, cells: Mapping[str, str], turn: int = 0, variant: str = "standard", call_owed: bool = False
    ) -> IagoGame:
        """A hand-made position for tests: cells maps names to "D", "L", "xD" or "xL"."""
        game = cls(variant)
        for name, label in cells.items():
            game._board[_INDEX[name.upper()]] = _FROM_LABEL[label]
        if turn not in (0, 1):
            raise ValueError("turn must be 0 or 1.")
        game._turn = turn
        game._over = _inner_full(game._board)
        game.call_owed = call_owed and variant == "penalty" and not game._over
        return game


def _inner_full(board: list[int]) -> bool:
    return all(board[i] != EMPTY for i in range(len(board)) if _IS_INNER[i])


def new_game(**options: Any) -> IagoGame:
    for key in options:
        if key not in OPTIONS:
            raise Refusal(
                "Unknown option {option}: the allowed options are {allowed}.",
                option=repr(key),
                allowed=", ".join(OPTIONS),
            )
    return IagoGame(_check_variant(options.get("variant", OPTIONS["variant"][0])))


def from_dict(d: Mapping[str, Any]) -> IagoGame:
    """Rebuild a game saved by ``to_dict``; ValueError when the data is not a valid saved game."""
    try:
        game = IagoGame(_check_variant(d["variant"]))
        board = d["board"]
        if not isinstance(board, str) or len(board) != len(CELLS) or set(board) - set(_SYMBOLS):
            raise ValueError("board must be a string of 61 symbols from '.DLdl'.")
        game._board = [_SYMBOLS.index(ch) for ch in board]
        if d["turn"] not in (0, 1):
            raise ValueError("turn must be 0 or 1.")
        game._turn = int(d["turn"])
        game._over = bool(d["over"])
        game.moves = [str(m) for m in d["moves"]]
        last_cell = d.get("last_cell")
        game.last_cell = None if last_cell is None else str(last_cell)
        flips = d.get("last_flips")
        game.last_flips = None if flips is None else (int(flips[0]), int(flips[1]))
        game.call_owed = bool(d.get("call_owed", False))
    except (KeyError, TypeError, IndexError) as exc:
        raise ValueError(f"Not a saved Iago game: {exc}") from exc
    return game


__all__ = [
    "CELLS",
    "CENTRE",
    "INNER",
    "OPTIONS",
    "OUTER",
    "SIDES",
    "IagoGame",
    "Reason",
    "cell_coords",
    "from_dict",
    "new_game",
]
