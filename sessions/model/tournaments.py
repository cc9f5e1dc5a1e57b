"""A tournament as every layer reads it: its players, its boards round by round, and its standings."""

from __future__ import annotations

from dataclasses import dataclass

from competition.standings import Standing
from storage.competition import EntrantRow, PairingRow, TournamentRow
from storage.rows import GameStatus, TournamentFormat

Tournament = TournamentRow
FORMATS = tuple(TournamentFormat)
MOVE_TIMES = (3600, 6 * 3600, 12 * 3600, 86400, 2 * 86400, 3 * 86400, 7 * 86400)  # seconds a move
MOST_PLAYERS = 64
MOST_SWISS_ROUNDS = 12
SIGNUP_MINUTES = (1, 30 * 24 * 60)  # from a minute to a month
FEWEST_PLAYERS = 2
TOURNAMENT_ID_MAX = 2**63 - 1


@dataclass(frozen=True)
class Board:
    """A board of a round as players read it: who plays whom (``player1`` None: a bye), its game, and its points
    in half points once it is over (None while it is played)."""

    round: int
    number: int
    player0: int
    player1: int | None
    game_id: int | None
    points: tuple[int, int] | None
    reason: str | None = None  # how its game ended (a loss on time, a forfeit), or "cancelled"


@dataclass(frozen=True)
class TournamentView:
    tournament: Tournament
    players: list[EntrantRow]  # in seed order once it has started, else in the order they joined
    boards: list[Board]
    standings: list[Standing]

    @property
    def active_players(self) -> list[int]:
        return [player.user_id for player in self.players if player.removed_at is None]

    def round_boards(self, number: int) -> list[Board]:
        return [board for board in self.boards if board.round == number]

    def round_of(self, game_id: int) -> int:
        """The round a game of this tournament belongs to (the current one if it is not on a board yet)."""
        return next((board.round for board in self.boards if board.game_id == game_id), self.tournament.round)


def points_of(row: PairingRow) -> tuple[int, int] | None:
    """A board's result in half points, or None while its game is on. A game an admin cancelled scores nothing
    for either player."""
    if row.game_id is None:
        if row.points0 is None:  # its game was deleted: nobody scores
            return (0, 0)
        return (row.points0, row.points1 or 0)
    if row.game_status == GameStatus.FINISHED:
        return {None: (1, 1), 0: (2, 0), 1: (0, 2)}[row.winner]
    if row.game_status in (GameStatus.CANCELLED, GameStatus.EXPIRED, GameStatus.DECLINED):
        return (0, 0)
    return None
