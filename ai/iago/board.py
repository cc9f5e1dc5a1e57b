"""Iago's search board: a 61-cell position with make/unmake that mirrors the engine's rules in every variant.

The engine recomputes legal moves from scratch and copies on every play, far too slow for a search, so this
module keeps its own board (built only from the engine's documented CELLS, OUTER, CENTRE and cell_coords),
calls included, with the disk counts kept up to date.
"""

from __future__ import annotations

import math
from typing import Any

from engines import iago as E

N = len(E.CELLS)
INDEX = {name: i for i, name in enumerate(E.CELLS)}
CENTRE = INDEX[E.CENTRE]
IS_INNER = tuple(name in E.INNER for name in E.CELLS)
SPECIAL = tuple(name in E.OUTER or name == E.CENTRE for name in E.CELLS)
INNER_PLAIN = tuple(i for i in range(N) if IS_INNER[i] and i != CENTRE)
SPECIALS = tuple(i for i in range(N) if SPECIAL[i])
EMPTY, DARK, LIGHT, CAP_DARK, CAP_LIGHT = 0, 1, 2, 3, 4
LABELS = {None: EMPTY, "D": DARK, "L": LIGHT, "xD": CAP_DARK, "xL": CAP_LIGHT}
CALL = 64  # a move is a cell index, plus CALL for a penalty call


def _rays() -> tuple[tuple[tuple[int, ...], ...], ...]:
    coords = {E.cell_coords(name): i for i, name in enumerate(E.CELLS)}
    result = []
    for name in E.CELLS:
        a, b = E.cell_coords(name)
        cell_rays = []
        for da, db in ((0, -1), (0, 1), (-1, -1), (-1, 0), (1, 0), (1, 1)):
            ray = []
            x, y = a + da, b + db
            while (x, y) in coords:
                ray.append(coords[(x, y)])
                x, y = x + da, y + db
            if ray:
                cell_rays.append(tuple(ray))
        result.append(tuple(cell_rays))
    return tuple(result)


RAYS = _rays()
NEIGHBOURS = tuple(tuple(ray[0] for ray in rays) for rays in RAYS)
AREA = tuple(0 if inner else 1 for inner in IS_INNER)  # index into a side's (inner, outer) counts

# Fitted by bench/tune_iago.py (self-play between weight vectors at a fixed depth); see docs/ai.md.
WEIGHTS: dict[str, float] = {
    "score": 4.0,  # share of the product scores, the thing that wins
    "inner": 0.16,
    "outer": 0.2,  # outer disks are scarcer than inner ones, so each weighs more in the product
    "captives": 0.06,  # own-colour captives may come back on a release
    "centre": 0.15,  # the centre breaks ties
    "mobility": 0.0,
    "release": 0.0,
}


class Board:
    """A mutable Iago position with make/unmake; ``turn`` is the player to move (0 Dark, 1 Light)."""

    def __init__(self, cells: list[int], turn: int, variant: str, call_owed: bool) -> None:
        self.cells = cells
        self.turn = turn
        self.variant = variant
        self.call_owed = call_owed
        self.empty_inner = sum(1 for i in range(N) if IS_INNER[i] and cells[i] == EMPTY)
        # face-up disks per side and area, and captives per original colour, kept up to date by make/unmake
        self.face = [[0, 0], [0, 0]]
        self.captive = [0, 0]
        for i, v in enumerate(cells):
            if v in (DARK, LIGHT):
                self.face[v - 1][AREA[i]] += 1
            elif v:
                self.captive[v - 3] += 1

    @classmethod
    def from_game(cls, game: Any) -> Board:
        cells = [LABELS[game.cell(name)] for name in E.CELLS]
        return cls(cells, game.turn, game.variant, game.call_owed)

    @property
    def over(self) -> bool:
        return self.empty_inner == 0

    def key(self) -> tuple[Any, ...]:
        return (*self.cells, self.turn, self.call_owed)

    def captures(self, i: int, player: int) -> int:
        cells = self.cells
        me, opp = player + 1, 2 - player
        total = 0
        for ray in RAYS[i]:
            if cells[ray[0]] != opp:
                continue
            k = 1
            while k < len(ray) and cells[ray[k]] == opp:
                k += 1
            if k < len(ray) and cells[ray[k]] == me:
                total += k
        return total

    def releases(self, i: int, player: int) -> bool:
        cells = self.cells
        me = player + 1
        for ray in RAYS[i]:
            if cells[ray[0]] < CAP_DARK:
                continue
            k = 1
            while k < len(ray) and cells[ray[k]] >= CAP_DARK:
                k += 1
            if k < len(ray) and cells[ray[k]] == me and (SPECIAL[i] or SPECIAL[ray[k]]):
                return True
        return False

    def forced(self, player: int) -> tuple[int, list[int]]:
        """The largest capture open to ``player`` and the cells that make it (the search's hottest loop, so
        the capture count is inlined rather than calling ``captures``)."""
        best, found = 0, []
        cells = self.cells
        me, opp = player + 1, 2 - player
        for i in range(N):
            if cells[i] != EMPTY:
                continue
            n = 0
            for ray in RAYS[i]:
                if cells[ray[0]] != opp:
                    continue
                k = 1
                length = len(ray)
                while k < length and cells[ray[k]] == opp:
                    k += 1
                if k < length and cells[ray[k]] == me:
                    n += k
            if n > best:
                best, found = n, [i]
            elif n == best and n:
                found.append(i)
        return best, found

    def moves(self) -> list[int]:
        """Legal moves exactly as the engine lists them (as indices; calls offset by CALL)."""
        if self.over:
            return []
        cells, player, variant = self.cells, self.turn, self.variant
        if variant in ("standard", "simple"):
            best, forced = self.forced(player)
            if best:
                return forced
            found = [i for i in INNER_PLAIN if cells[i] == EMPTY]
            if variant == "standard":
                found += [i for i in SPECIALS if cells[i] == EMPTY and self.releases(i, player)]
        else:
            found = [i for i in INNER_PLAIN if cells[i] == EMPTY]
            found += [
                i for i in SPECIALS if cells[i] == EMPTY and (self.captures(i, player) or self.releases(i, player))
            ]
        if not found and cells[CENTRE] == EMPTY:
            found = [CENTRE]
        if self.call_owed:
            found += [CALL + i for i in range(N) if cells[i] == EMPTY]
        return found

    def make(self, move: int) -> tuple[int, list[int], list[int], bool]:
        """Play a move; returns what ``unmake`` needs."""
        i = move % CALL
        is_call = move >= CALL
        cells, player = self.cells, self.turn
        owes = False
        if self.variant == "penalty" and not is_call:
            best, forced = self.forced(player)
            owes = best > 0 and i not in forced
        me, opp = player + 1, 2 - player
        captured: list[int] = []
        released: list[int] = []
        release = self.variant != "simple"
        for ray in RAYS[i]:
            first = cells[ray[0]]
            if first == opp:
                k = 1
                while k < len(ray) and cells[ray[k]] == opp:
                    k += 1
                if k < len(ray) and cells[ray[k]] == me:
                    captured.extend(ray[:k])
            elif first >= CAP_DARK and release:
                k = 1
                while k < len(ray) and cells[ray[k]] >= CAP_DARK:
                    k += 1
                if k < len(ray) and cells[ray[k]] == me and (SPECIAL[i] or SPECIAL[ray[k]]):
                    released.extend(ray[:k])
        cells[i] = me
        face, captive = self.face, self.captive
        face[player][AREA[i]] += 1
        for j in captured:
            cells[j] += 2
            face[1 - player][AREA[j]] -= 1
            captive[1 - player] += 1
        for j in released:
            cells[j] -= 2
            face[cells[j] - 1][AREA[j]] += 1
            captive[cells[j] - 1] -= 1
        undo = (i, captured, released, self.call_owed)
        self.call_owed = owes
        self.turn = 1 - player
        if IS_INNER[i]:
            self.empty_inner -= 1
        if self.empty_inner == 0:
            self.call_owed = False
        return undo

    def unmake(self, undo: tuple[int, list[int], list[int], bool]) -> None:
        i, captured, released, owed = undo
        cells = self.cells
        face, captive = self.face, self.captive
        self.turn = player = 1 - self.turn
        cells[i] = EMPTY
        face[player][AREA[i]] -= 1
        for j in captured:
            cells[j] -= 2
            face[1 - player][AREA[j]] += 1
            captive[1 - player] -= 1
        for j in released:
            face[cells[j] - 1][AREA[j]] -= 1
            captive[cells[j] - 1] += 1
            cells[j] += 2
        self.call_owed = owed
        if IS_INNER[i]:
            self.empty_inner += 1

    def counts(self) -> tuple[list[int], list[int], list[int]]:
        """Face-up disks (Dark, Light) inner and outer, and captives by original colour."""
        face = self.face
        return [face[0][0], face[1][0]], [face[0][1], face[1][1]], list(self.captive)

    def scores(self) -> tuple[int, int]:
        inner, outer, _ = self.counts()
        if self.variant == "simple":
            return inner[0] + outer[0], inner[1] + outer[1]
        return max(inner[0], 1) * max(outer[0], 1), max(inner[1], 1) * max(outer[1], 1)

    def winner(self) -> int | None:
        """The winner of a finished position (the engine's result rule, centre tie-break included)."""
        s = self.scores()
        if s[0] != s[1]:
            return 0 if s[0] > s[1] else 1
        centre = self.cells[CENTRE]
        if centre in (DARK, LIGHT):
            return centre - 1
        if centre in (CAP_DARK, CAP_LIGHT):
            return 1 - (centre - 3)
        return None


def terminal_value(board: Board, player: int) -> float:
    """An exact result for ``player``: +-1, nudged by the score margin so bigger wins come first."""
    winner = board.winner()
    if winner is None:
        return 0.0
    s = board.scores()
    margin = abs(s[0] - s[1])
    v = 0.98 + 0.02 * math.tanh(margin / 50)
    return v if winner == player else -v


def hand_evaluate(board: Board, player: int, weights: dict[str, float] = WEIGHTS) -> float:
    """The old hand-weighted value of a position for ``player`` in (-0.95, 0.95), kept as a yardstick."""
    if board.over:
        return terminal_value(board, player)
    inner, outer, captives = board.counts()
    s = board.scores()
    other = 1 - player
    x = weights["score"] * (s[player] - s[other]) / (s[player] + s[other] + 20)
    x += weights["inner"] * (inner[player] - inner[other])
    x += weights["outer"] * (outer[player] - outer[other])
    x += weights["captives"] * (captives[player] - captives[other])
    centre = board.cells[CENTRE]
    if centre in (DARK, LIGHT):
        x += weights["centre"] * (1 if centre - 1 == player else -1)
    if weights["release"] and board.variant != "simple":
        # open doors to the outer ring: empty outer cells (and the centre) where a side could release
        doors = [0, 0]
        for i in SPECIALS:
            if board.cells[i] == EMPTY:
                doors[player] += board.releases(i, player)
                doors[other] += board.releases(i, other)
        x += weights["release"] * (doors[player] - doors[other])
    if weights["mobility"]:
        mine = len(board.moves())
        x += weights["mobility"] * (mine if board.turn == player else -mine)
    return 0.95 * math.tanh(x)
