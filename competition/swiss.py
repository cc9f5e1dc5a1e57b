"""Swiss pairings in the spirit of the Dutch system, found by a maximum-weight matching (networkx).

Each round, every possible pair of players who have not met is an edge of a graph, and its weight says how good
that pair is; the matching of greatest weight among those of greatest size is the round. The weight ranks what a
Swiss system cares about, each concern strictly above the next (a unit of one outweighs the sum of all below):

1. no player's sides may differ by more than one (a pair of two players due the same side is almost forbidden);
2. players meet others of their score: the squared difference of the two scores (in half points);
3. a player does not get the side they had last time, where it can be helped;
4. within a score group the top half meets the bottom half, in order (1 v 5, 2 v 6, ... in a group of eight);
   two of the same half meeting costs more than any reordering across the halves. A player floating down to a
   lower group meets the top of that group.

Repeat pairings are not edges at all. With an odd number of players a phantom "bye" vertex joins the graph, with an
edge to each player who has had no bye yet, weighted as a player one point below the lowest score: the bye goes to
the lowest score group, and within it to the lowest-ranked player.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from competition.pairing import Pairing

COLOUR_CLASH = 10**13
SCORE_STEP = 10**7  # per squared half point of score difference
REPEAT_SIDE = 10**4  # both players had the same side last time: one of them gets it again
DUTCH_STEP = 1  # per place away from the top-half-against-bottom-half partner
BASE = 10**16  # keeps every weight positive
BYE = "bye"


@dataclass(frozen=True)
class Entrant:
    """A player as the pairing sees them before a round.

    ``rank`` is the seed (0 the best: the highest rating at the start); ``score`` is in half points; ``sides`` are
    the sides played so far, in order (0 or 1; byes and forfeits without a game are not sides)."""

    id: int
    rank: int
    score: int = 0
    opponents: frozenset[int] = frozenset()
    sides: tuple[int, ...] = ()
    byes: int = 0

    @property
    def balance(self) -> int:
        """Games with side 0 minus games with side 1."""
        return self.sides.count(0) - self.sides.count(1)


def most_rounds(players: int) -> int:
    """The rounds a Swiss of ``players`` plays at most: log2 of the players, rounded up (3 for 5 to 8 players, 4
    for 9 to 16). Beyond it, sides kept within one of each other and no repeat pairings can no longer be promised
    together (a later round may have no such pairing); tests/test_competition.py checks the promise up to it."""
    return max(1, math.ceil(math.log2(max(players, 2))))


def pair_round(entrants: Sequence[Entrant]) -> list[Pairing] | None:
    """The next round: boards ordered by score (the bye last), or None when no round without a repeat pairing
    exists (every player but at most one would need a new opponent)."""
    # Imported here, where the matching runs (a drawing worker: sessions/tournaments.py), not when the bot starts:
    # networkx takes half a second to import and adds some 16,000 objects every full garbage collection scans.
    import networkx as nx

    if len(entrants) < 2:
        return None
    players = {entrant.id: entrant for entrant in entrants}
    places = _group_places(entrants)
    graph = nx.Graph()
    graph.add_nodes_from(players)
    ordered = sorted(entrants, key=lambda entrant: entrant.rank)
    for index, a in enumerate(ordered):
        for b in ordered[index + 1 :]:
            if b.id not in a.opponents:
                graph.add_edge(a.id, b.id, weight=BASE - _penalty(a, b, places))
    if len(entrants) % 2:
        lowest = min(entrant.score for entrant in entrants) - 2
        last_rank = max(entrant.rank for entrant in entrants)
        eligible = [entrant for entrant in entrants if entrant.byes == 0] or list(entrants)
        for entrant in eligible:
            penalty = SCORE_STEP * (entrant.score - lowest) ** 2 + DUTCH_STEP * (last_rank - entrant.rank)
            graph.add_edge(entrant.id, BYE, weight=BASE - penalty)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    if 2 * len(matching) < len(graph):
        return None
    boards = []
    bye = None
    for u, v in matching:
        if BYE in (u, v):
            bye = Pairing(v if u == BYE else u, None)
            continue
        boards.append(_with_sides(players[u], players[v]))
    boards.sort(key=lambda pairing: _board_order(pairing, players))
    return boards + ([bye] if bye else [])


def _board_order(pairing: Pairing, players: dict[int, Entrant]) -> tuple[int, int]:
    """The top board first: the highest score at it, then the best rank."""
    seated = [players[player] for player in pairing.players]
    return -max(entrant.score for entrant in seated), min(entrant.rank for entrant in seated)


def _group_places(entrants: Sequence[Entrant]) -> dict[int, tuple[int, int]]:
    """Each player's place within their score group (by rank) and the group's size."""
    groups: dict[int, list[Entrant]] = defaultdict(list)
    for entrant in entrants:
        groups[entrant.score].append(entrant)
    places = {}
    for group in groups.values():
        group.sort(key=lambda entrant: entrant.rank)
        for place, entrant in enumerate(group):
            places[entrant.id] = (place, len(group))
    return places


def _penalty(a: Entrant, b: Entrant, places: dict[int, tuple[int, int]]) -> int:
    penalty = SCORE_STEP * (a.score - b.score) ** 2
    if a.balance == b.balance and a.balance != 0:
        penalty += COLOUR_CLASH  # both are due the same side: one would be two games off
    if a.sides and b.sides and a.sides[-1] == b.sides[-1]:
        penalty += REPEAT_SIDE
    if a.score == b.score:
        (place_a, size), (place_b, _) = places[a.id], places[b.id]
        half = size // 2
        if (place_a < half) == (place_b < half):
            penalty += DUTCH_STEP * size
        else:
            penalty += DUTCH_STEP * abs(abs(place_a - place_b) - half)
    else:
        lower = a if a.score < b.score else b
        penalty += DUTCH_STEP * places[lower.id][0]
    return penalty


def _with_sides(a: Entrant, b: Entrant) -> Pairing:
    """Who plays side 0: the player who had it less often; else the one who had side 1 last; else the higher
    ranked player gets the side they did not have last (in the first round: side 0 for even seeds)."""
    if a.balance != b.balance:
        first = a if a.balance < b.balance else b
    elif a.sides and b.sides and a.sides[-1] != b.sides[-1]:
        first = a if a.sides[-1] == 1 else b
    else:
        higher, lower = (a, b) if a.rank < b.rank else (b, a)
        wants_first = higher.sides[-1] == 1 if higher.sides else higher.rank % 2 == 0
        first = higher if wants_first else lower
    second = b if first is a else a
    return Pairing(first.id, second.id)
