"""Aborting a game that has barely begun: either player may end it with no result while neither has made two
moves, so a game started by mistake (wrong options, wrong opponent) costs nobody rating points or a loss.

An abort is unrated and uncounted: the game becomes ``cancelled`` (its result reason ``aborted``), like an admin's
cancel, and an announcement in the game's channel tells both players. It needs no consent from the opponent (as on
Lichess): up to that point nothing of the game is worth keeping against a player's wish, and asking would leave
the game hanging. It is written only at the ply the player saw, so a move that lands first wins.
"""

from __future__ import annotations

from engines import GameState
from games import GameEntry
from sessions.announcements import reply_payload
from sessions.model import STALE_BOARD, AnnouncementKind, Game, GameStatus, LruCache, ReplyTo, UserError
from sessions.table import Table
from storage.database import GameRepository
from storage.outbox import Announce

ABORT_BEFORE = 2  # a game may be aborted while neither player has made this many moves
ABORTED = "aborted"  # the result reason of an aborted game (its status is cancelled)
PASS = "pass"  # the move of a player the rules leave none: forced when it is the only legal move
OPENINGS_KEPT = 4096  # games whose opening is past the abort, remembered: a board of each asks


def moves_made(entry: GameEntry, options: dict[str, object], state: GameState, enough: int = ABORT_BEFORE) -> list[int]:
    """How many moves each player chose in ``state``'s game as it stands (a taken-back move is not counted;
    dice and passes the rules force are nobody's choice), counted until one player reaches ``enough``."""
    return _opening(entry, options, state, enough)[0]


def _opening(entry: GameEntry, options: dict[str, object], state: GameState, enough: int) -> tuple[list[int], int]:
    """:func:`moves_made`, and how many moves of the log were read: up to the one with which a player reached
    ``enough``, if one did. Every board of a game in play asks (its Abort button): a pass is the only move that may
    have been forced, so the legal moves (thousands after a roll of the die) are listed only before a pass."""
    replay = entry.new_game(**options)
    made = [0, 0]
    for read, move in enumerate(state.moves, start=1):
        side = replay.turn
        if side is not None and not replay.chance and (move != PASS or replay.legal_moves() != [PASS]):
            made[side] += 1
            if made[side] >= enough:
                return made, read
        replay.play(move)
    return made, len(state.moves)


def abortable(entry: GameEntry, options: dict[str, object], state: GameState) -> bool:
    """Whether a game in ``state`` may still be aborted: neither player has made :data:`ABORT_BEFORE` moves."""
    return not state.is_over and max(moves_made(entry, options, state)) < ABORT_BEFORE


class Aborts:
    def __init__(self, table: Table, games: GameRepository) -> None:
        self._table = table
        self._games = games
        # A game's opening once a player has made ABORT_BEFORE moves in it: while its log begins so, it cannot be
        # aborted, and a board need not replay it to know (a takeback past it changes the log, and the answer).
        self._openings: LruCache[int, tuple[str, ...]] = LruCache(OPENINGS_KEPT)

    def can_abort(self, game: Game, state: GameState) -> bool:
        """Whether ``game`` (in ``state``) may still be aborted: whether a board shows the Abort button."""
        if game.tournament_id is not None:  # a tournament's game counts for its round: played, resigned or lost on time
            return False
        if game.status != GameStatus.ACTIVE or state.is_over:
            return False
        opening = self._openings.get(game.id)
        if opening is not None and tuple(state.moves[: len(opening)]) == opening:
            return False
        made, read = _opening(game.entry, game.options, state, ABORT_BEFORE)
        if max(made) < ABORT_BEFORE:
            return True
        self._openings.put(game.id, tuple(state.moves[:read]))
        return False

    async def abort(
        self, game_id: int, user_id: int, *, ply: int | None = None, reply: ReplyTo | None = None
    ) -> tuple[Game, int]:
        """End the game with no result at the player's request; returns the game and its announcement's id.
        ``ply``: the ply the player saw (a board's button); the game must still be there."""
        async with self._table.locks(game_id):
            game = await self._table.game(game_id)
            if user_id not in game.players:
                raise UserError("You are not playing in this game. Start your own with a challenge.")
            if game.status != GameStatus.ACTIVE:
                raise UserError("Game #{id} is not in play, so there is nothing to abort.", id=game.id)
            if ply is not None and ply != game.ply:
                raise UserError(STALE_BOARD)
            if game.tournament_id is not None:
                raise UserError("A tournament game cannot be aborted: play on, or resign.")
            state = await self._table.state(game)
            if not abortable(game.entry, game.options, state):
                raise UserError(
                    "Game #{id} can no longer be aborted: a player has made two moves. Play on, or resign.",
                    id=game.id,
                )
            grace = self._table.settings.announce_grace if reply is not None else 0.0
            announce = Announce(AnnouncementKind.ABORTED, {"by": user_id, "reply": reply_payload(reply)}, delay=grace)
            written = await self._games.abort_game(game.id, game.ply, ABORTED, self._table.clock(), announce)
            if written is None:
                raise UserError("The game changed meanwhile. Look at the board and try again.")
            self._table.forget(game.id)
            return await self._table.game(game.id), written[0]
