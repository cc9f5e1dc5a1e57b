"""A round robin's whole schedule by the circle method: everyone meets everyone once per leg.

The players sit around a table, the first fixed and the others turning one place a round; each round pairs the
seats facing each other. With an odd number an empty seat joins, and whoever faces it has the bye. Sides follow
the seats: the fixed player changes side every round, and at every other board the seat turning in from the end
starts; a turning player spends half the rounds on each half of the table, so every player's sides differ by at
most one over a leg (tests/test_competition.py checks 2 to 40 players). A second leg repeats the first with the
sides swapped, so over two legs they are equal.
"""

from __future__ import annotations

from collections.abc import Sequence

from competition.pairing import Pairing


def rounds_needed(players: int, legs: int) -> int:
    """How many rounds a round robin of ``players`` takes over ``legs`` legs."""
    seats = players + players % 2
    return (seats - 1) * legs


def schedule(players: Sequence[int], legs: int = 1) -> list[list[Pairing]]:
    """Every round of the round robin, in order; ``players`` in seed order (the first is the fixed seat)."""
    if len(set(players)) != len(players) or len(players) < 2:
        raise ValueError("a round robin needs at least two different players")
    if legs not in (1, 2):
        raise ValueError("a round robin has one or two legs")
    seats: list[int | None] = [*players, *([None] if len(players) % 2 else [])]
    count = len(seats)
    fixed, turning = seats[0], seats[1:]
    first_leg = []
    for number in range(count - 1):
        around = [fixed, *turning[number:], *turning[:number]]
        boards = []
        for board in range(count // 2):
            a, b = around[board], around[count - 1 - board]
            # The fixed seat changes side every round; at the other boards the seat turning in from the end starts.
            a_first = board == 0 and number % 2 == 0
            boards.append((a, b) if a_first else (b, a))
        first_leg.append(_seated(boards))
    if legs == 1:
        return first_leg
    swapped = [[Pairing(p.player1, p.player0) if p.player1 is not None else p for p in round_] for round_ in first_leg]
    return first_leg + swapped


def _seated(boards: list[tuple[int | None, int | None]]) -> list[Pairing]:
    """The pairings of a round, the bye (a player facing the empty seat) last."""
    games = [Pairing(a, b) for a, b in boards if a is not None and b is not None]
    byes = [Pairing(a if a is not None else b, None) for a, b in boards if a is None or b is None]  # type: ignore[arg-type]
    return games + byes
