"""The two extra turns after a first finish, searched to their end.

Once a player finishes, the other has exactly two more turns to close a polygon worth at least as much; a close
worth less ends the game at once and loses. Both turns are searched exactly, every die face of each: the first
placement must touch the player's stones (a loop of the two blocks alone scores at most 10, below any finisher's
14), the second must meet the stones at two points at least (a new loop runs through it). The result is the
player's expected outcome when they play each face as well as possible: 1 for a beat, 1/2 for a tie, 0 otherwise.

Level 4 uses it to value a finish of its own (how often the opponent answers it) and its own extra turns. The
template estimate it replaces was far too hopeful: in the 13 of 40 games against the reference that level 4 drew
or lost after finishing first, it put the opponent's chance at 0.14-0.37 (median 0.19), where this search finds
0.28-1.00 (median 0.71) (docs/ai.md, issue 30).
"""

from __future__ import annotations

from ai.polygo.geometry import FACES, Geometry, bits, polygon_score
from ai.search import Deadline


class ExtraTurns:
    """One player's two (or last) extra turns against a finished polygon worth ``need``."""

    def __init__(self, geo: Geometry, own: int, other: int, need: int, deadline: Deadline) -> None:
        self.geo = geo
        self.own = own
        self.occupied = own | other
        self.need = need
        self.deadline = deadline
        self._outcomes: dict[int, float] = {}
        # per face, the free placements beside the player's stones (every useful first or second placement
        # touches them, or touches the first placement)
        free = ~self.occupied
        self.touching = {
            face: [(mask, beside) for mask, beside in geo.with_neighbours[face] if mask & free == mask and beside & own]
            for face in FACES
        }

    def outcome(self, stones: int) -> float:
        """1, 1/2 or 0 for a player with ``stones`` against ``need``; -1 when they have no polygon."""
        found = self._outcomes.get(stones)
        if found is None:
            found = -1.0
            if self.geo.encloses(stones):
                found = _against(polygon_score(self.geo, stones), self.need)
            self._outcomes[stones] = found
        return found

    def both(self) -> float:
        """The expected outcome of both extra turns, each face played as well as possible."""
        total = 0.0
        for face in FACES:
            best = 0.0
            for mask, beside in self.touching[face]:
                value = self.first(mask, beside, stop_below=best)
                if value > best:
                    best = value
                    if best == 1.0:
                        break
            total += best
        return total / 6

    def first(self, mask: int, beside: int, stop_below: float = 0.0) -> float:
        """The expected outcome of placing ``mask`` on the first extra turn (``beside``: its neighbours); the
        search of the second turn stops once it cannot reach ``stop_below``."""
        stones = self.own | mask
        if (beside & self.own).bit_count() >= 2:
            closed = self.outcome(stones)
            if closed >= 0:
                return closed  # a close ends the game now, whatever it is worth
        return self.last(mask, stop_below)

    def last(self, first: int = 0, stop_below: float = 0.0) -> float:
        """The expected outcome of the last extra turn after ``first`` was placed (0 for none)."""
        geo = self.geo
        stones = self.own | first
        occupied = self.occupied | first
        around_first = geo.neighbours(first) if first else 0
        total = 0.0
        for i, face in enumerate(FACES):
            self.deadline.check()
            best = 0.0
            seen: set[int] = set()
            candidates = [mask for mask, _ in self.touching[face] if not mask & first]
            for point in bits(around_first):
                candidates.extend(mask for mask in geo.by_point[face][point] if not mask & occupied)
            for mask in candidates:
                if mask in seen:
                    continue
                seen.add(mask)
                if (geo.neighbours(mask) & stones).bit_count() < 2:
                    continue
                value = self.outcome(stones | mask)
                if value > best:
                    best = value
                    if best == 1.0:
                        break
            total += best
            if (total + 5 - i) / 6 < stop_below:
                return total / 6  # even every face left closing would not reach the best found
        return total / 6


def _against(score: int, need: int) -> float:
    return 1.0 if score > need else 0.5 if score == need else 0.0
