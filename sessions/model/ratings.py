"""Per-server, per-game ratings with OpenSkill (Plackett-Luce), on a chess-like 1500 scale."""

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


def rate(ratings: tuple[Rating, Rating], winner: int | None) -> tuple[Rating, Rating]:
    """New ratings after one game between player 0 and player 1; winner None is a draw."""
    ranks = [1, 1] if winner is None else [1 if winner == side else 2 for side in (0, 1)]
    teams = [[MODEL.create_rating([r.mu, r.sigma])] for r in ratings]
    (new0,), (new1,) = MODEL.rate(teams, ranks=ranks)
    return (
        Rating(new0.mu, new0.sigma, ratings[0].rated_games + 1),
        Rating(new1.mu, new1.sigma, ratings[1].rated_games + 1),
    )
