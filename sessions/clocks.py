"""Correspondence clocks: a game with ``move_seconds`` (a tournament's) gives its player to move that long. A
reminder comes before the time runs out (``competition.clock``), written to the outbox with its claim so each
spell of waiting is reminded once, by one process; when the time is out the player loses on time, written like
any finish (the ply is checked, so a move made in time wins the race). No claim is needed, nor allowed."""

from __future__ import annotations

from competition import clock
from sessions.model import Game, Report
from sessions.table import Table
from sessions.turns import Turns
from storage.database import GameRepository


class Clocks:
    def __init__(self, table: Table, games: GameRepository, turns: Turns) -> None:
        self._table = table
        self._games = games
        self._turns = turns

    async def run(self, guild_ids: list[int] | None = None) -> list[Report]:
        """Remind the players whose time is running out and end the games whose time ran out (in these servers);
        returns the reports of the losses on time."""
        now = self._table.clock()
        flagged = []
        for row in await self._games.clocked_games(guild_ids):
            game = Game.of(row)
            assert game.move_seconds is not None
            since = game.last_move_at or game.created_at
            if clock.flagged(since, game.move_seconds, now):
                report = await self._turns.flag(game.id, game.ply)
                if report is not None:
                    flagged.append(report)
            elif game.reminded_at is None and now >= clock.reminder_at(since, game.move_seconds):
                user_id = game.player_to_act(await self._table.state(game))
                payload = {"user_id": user_id, "deadline": clock.deadline(since, game.move_seconds)}
                await self._games.claim_reminder(game.id, since, now, payload)
        return flagged
