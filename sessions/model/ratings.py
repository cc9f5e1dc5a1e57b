"""Ratings with OpenSkill (Plackett-Luce), on a chess-like 1500 scale: the one place that moves a rating.

A game's two players (per server and game), and a member against a puzzle, are rated by the same update
(:func:`rate_pair`)."""

from __future__ import annotations

from dataclasses import dataclass

from openskill.models import PlackettLuce

START_MU = 1500.0
START_SIGMA = 500.0
# Below this many rated games a rating is shown with a "?" as lichess does: it still moves a lot.
PROVISIONAL_GAMES = 5

MODEL = PlackettLuce(mu=START_MU, sigma=START_SIGMA, beta=START_SIGMA / 2, tau=START_MU / 300)


@dataclass(frozen=True)
class Rating:
    mu: float = START_MU
    sigma: float = START_SIGMA
    rated_games: int = 0

    @property
    def provisional(self) -> bool:
        return self.rated_games < PROVISIONAL_GAMES

    @property
    def shown(self) -> int:
        return round(self.mu)


Skill = tuple[float, float]  # (mu, sigma)


def rate_pair(first: Skill, second: Skill, winner: int | None) -> tuple[Skill, Skill]:
    """The two sides' new (mu, sigma) after one encounter: ``winner`` 0 (``first`` won), 1, or None (a draw)."""
    ranks = [1, 1] if winner is None else [1 if winner == side else 2 for side in (0, 1)]
    (new0,), (new1,) = MODEL.rate(
        [[MODEL.create_rating(list(first))], [MODEL.create_rating(list(second))]], ranks=ranks
    )
    return (new0.mu, new0.sigma), (new1.mu, new1.sigma)


def rate(ratings: tuple[Rating, Rating], winner: int | None) -> tuple[Rating, Rating]:
    """New ratings after one game between player 0 and player 1; winner None is a draw."""
    first, second = rate_pair((ratings[0].mu, ratings[0].sigma), (ratings[1].mu, ratings[1].sigma), winner)
    return Rating(*first, ratings[0].rated_games + 1), Rating(*second, ratings[1].rated_games + 1)
