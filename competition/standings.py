"""Standings: points, then Buchholz, then Sonneborn-Berger, then the seed.

- A win is 1 point, a draw 1/2, a loss 0; a bye is 1 point; a game forfeited (a player removed) is a win for the
  other player and a loss for the removed one, as if it had been played.
- **Buchholz**: the sum of the final scores of the opponents a player met (a bye has no opponent: it adds 0).
- **Sonneborn-Berger**: the sum of the final scores of the opponents a player beat, plus half the scores of those
  they drew with (again, nothing for a bye).
- Players still level are ordered by their seed (the better rating at the start first): a ranking never
  depends on the order the games ended in.

All values are exact fractions, so a tie is a tie.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

WIN, DRAW, LOSS = Fraction(1), Fraction(1, 2), Fraction(0)


@dataclass(frozen=True)
class Outcome:
    """One pairing's result: ``points0`` for ``player0`` and ``points1`` for ``player1`` (None: a bye)."""

    player0: int
    player1: int | None
    points0: Fraction
    points1: Fraction = LOSS


@dataclass(frozen=True)
class Standing:
    place: int  # 1 for the leader
    player: int
    points: Fraction
    buchholz: Fraction
    sonneborn_berger: Fraction
    wins: int
    draws: int
    losses: int
    byes: int
    withdrawn: bool = False


def standings(
    seeds: Sequence[int], outcomes: Sequence[Outcome], withdrawn: frozenset[int] = frozenset()
) -> list[Standing]:
    """Every player of ``seeds`` (in seed order, the best first) ranked by the finished ``outcomes``."""
    points: dict[int, Fraction] = dict.fromkeys(seeds, Fraction(0))
    met: dict[int, list[tuple[int, Fraction]]] = defaultdict(list)  # player -> (opponent, points scored)
    counts: dict[int, list[int]] = {player: [0, 0, 0, 0] for player in seeds}  # wins, draws, losses, byes
    for outcome in outcomes:
        points[outcome.player0] += outcome.points0
        if outcome.player1 is None:
            counts[outcome.player0][3] += 1
            continue
        points[outcome.player1] += outcome.points1
        for me, other, mine in (
            (outcome.player0, outcome.player1, outcome.points0),
            (outcome.player1, outcome.player0, outcome.points1),
        ):
            met[me].append((other, mine))
            counts[me][0 if mine == WIN else 1 if mine == DRAW else 2] += 1
    rows = []
    for player in seeds:
        buchholz = sum((points[other] for other, _ in met[player]), Fraction(0))
        sonneborn = sum((points[other] * mine for other, mine in met[player]), Fraction(0))
        wins, draws, losses, byes = counts[player]
        rows.append((player, points[player], buchholz, sonneborn, wins, draws, losses, byes))
    seed = {player: index for index, player in enumerate(seeds)}
    rows.sort(key=lambda row: (-row[1], -row[2], -row[3], seed[row[0]]))
    return [
        Standing(place, player, score, buchholz, sonneborn, wins, draws, losses, byes, player in withdrawn)
        for place, (player, score, buchholz, sonneborn, wins, draws, losses, byes) in enumerate(rows, start=1)
    ]


def shown(value: Fraction) -> str:
    """A score as players write it: 2, 2½, ½, 3¾ (Sonneborn-Berger may have quarters)."""
    whole, part = divmod(value, 1)
    fractions = {Fraction(0): "", Fraction(1, 4): "¼", Fraction(1, 2): "½", Fraction(3, 4): "¾"}
    tail = fractions.get(part)
    if tail is None:
        return f"{float(value):g}"
    return f"{int(whole)}{tail}" if whole or not tail else tail
