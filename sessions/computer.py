"""The computer player: the bot's own turns in a game against it, hints, takebacks and post-game analyses.

The bot takes its turn when the session publishes that a game waits for it (:class:`sessions.events.BotToMove`,
after a member's move, an accepted game in which it begins, a sweep that finds a turn a dead process never took):
it lets the member's reply hold its place, searches in the worker pool of :mod:`sessions.thinking`, commits its
moves through :class:`sessions.turns.Turns` as a member's are, and publishes what it did
(:class:`sessions.events.BotMoved`) for delivery to announce in one message with the member's action. A search
whose worker dies is run again at once, a few times (``SEARCH_ATTEMPTS``); when every attempt failed, the game is
told once (an outbox announcement with a Try again button) and the sweep tries again later.
"""

from __future__ import annotations

import dataclasses
import secrets
from typing import Any

import games
from engines import GameState
from locales import N_
from sessions.announcements import Announcements
from sessions.events import BotMoved, BotToMove
from sessions.model import TAKEBACK, Game, GameStatus, MoveKind, PlayedMove, ReplyTo, Report, UserError, title_of
from sessions.move_log import in_force
from sessions.table import Table
from sessions.thinking import DEFAULT_LEVEL, HINT_LEVEL, HINT_SECONDS, Thinker, ThinkingFailed
from sessions.turns import Turns
from storage.database import GameRepository

ANALYSIS_NOISE = 0.05  # value drops smaller than this are the search's own noise, not mistakes
THINKING_FAILED = N_("I cannot think right now: my search process stopped. Please try again in a moment.")


class BotCannotMove(Exception):
    """The bot's search failed every attempt (its worker processes died): ``reports`` are the actions committed
    before it (a die rolled, say), still to announce; ``first`` is True the first time in a row for this game,
    so the game is told once, not at every retry."""

    def __init__(self, game: Game, reports: list[Report], *, first: bool) -> None:
        super().__init__(f"the bot cannot move in game {game.id} now")
        self.game = game
        self.reports = reports
        self.first = first


class ComputerPlayer:
    def __init__(
        self, table: Table, games: GameRepository, turns: Turns, announcements: Announcements, thinker: Thinker
    ) -> None:
        self._table = table
        self._games = games
        self._turns = turns
        self._announcements = announcements
        self.thinker = thinker
        self._thinking: set[int] = set()  # games whose bot move is being searched in this process
        self._stuck: set[int] = set()  # games whose bot turn failed and has not moved since (told once)

    async def take_turn(self, event: BotToMove) -> None:
        """Follows :class:`BotToMove`: the bot's turn, in the background, then what it did published. When its
        search cannot run now, what waited for its reply is announced on its own and the game is told once."""
        game = event.game
        owed = False
        try:
            reports = await self.play(game.id)
        except BotCannotMove as failed:
            reports = failed.reports
            owed = await self._announcements.release_held(game.id)
            if failed.first:
                await self._announcements.stuck(failed.game)
                owed = True
        if reports or owed:
            self._table.events.publish(BotMoved(game, tuple(reports), owed=owed))

    async def try_again(self, game_id: int, guild_id: int, user_id: int) -> None:
        """A member asks the bot to try its turn again now (the Try again button of the bot's apology)."""
        game = await self._table.game(game_id, guild_id)
        if user_id not in game.players:
            raise UserError("Only the player of game #{id} can ask me to try again.", id=game.id)
        if game.status != GameStatus.ACTIVE or (await self._table.state(game)).to_act != game.ai_side:
            raise UserError("Game #{id} is not waiting for my move.", id=game.id)
        self._table.events.publish(BotToMove(game))

    async def catch_up(self, game: Game) -> None:
        """A game read where no sweep runs (a DM): if it waits for the bot and no search is under way here (a
        restart lost it), the bot takes its turn now."""
        waiting = game.against_bot and game.status == GameStatus.ACTIVE and game.id not in self._thinking
        if waiting and (await self._table.state(game)).to_act == game.ai_side:
            self._table.events.publish(BotToMove(game))

    async def resume(self, guild_ids: list[int] | None = None) -> int:
        """The sweep's part: every game of these servers that waits for a bot turn no process is taking (a dead
        process's) is taken now. Returns how many."""
        due = await self.games_to_move(guild_ids)
        for game in due:
            self._table.events.publish(BotToMove(game))
        return len(due)

    async def games_to_move(self, guild_ids: list[int] | None = None) -> list[Game]:
        """Games against the bot where the bot must act: after a restart, nobody waits for a bot that forgot."""
        due = []
        for row in await self._games.games_with_status(GameStatus.ACTIVE, guild_ids=guild_ids):
            game = Game.of(row)
            if (
                game.against_bot
                and game.id not in self._thinking
                and (await self._table.state(game)).to_act == game.ai_side
            ):
                due.append(game)
        return due

    async def play(self, game_id: int) -> list[Report]:
        """The bot's turn in a game against it: it rolls its own dice through the session's draws, and its
        moves are searched in the worker pool. Each action is committed with its announcement and reported. A
        turn that cannot go on now (a race) is left to the next sweep; a search that failed every attempt raises
        :class:`BotCannotMove`."""
        if game_id in self._thinking:
            return []
        self._thinking.add(game_id)
        reports: list[Report] = []
        try:
            while True:
                game = await self._table.game(game_id)
                state = await self._table.state(game)
                if game.status != GameStatus.ACTIVE or not game.against_bot or state.to_act != game.ai_side:
                    self._stuck.discard(game_id)
                    return reports
                bot_id = game.players[state.to_act]
                # The bot is never in a hurry: it lets the member's reply get on its way however slow Discord is;
                # past the grace the outbox has taken that announcement over, so this wait always ends.
                limit = self._table.settings.announce_grace + 1
                await self._announcements.wait(game_id, limit=limit, ply=game.ply)
                if state.chance:
                    reports.append(await self._turns.roll(game_id, bot_id))
                    continue
                level = game.ai_level or DEFAULT_LEVEL
                entry = game.entry
                try:
                    thought = await self.thinker.think(entry, game.options, state.moves, level, secrets.randbits(32))
                except ThinkingFailed as error:
                    first = game_id not in self._stuck
                    self._stuck.add(game_id)
                    raise BotCannotMove(game, reports, first=first) from error
                report = await self._turns.play(game_id, bot_id, thought.move)
                reports.append(dataclasses.replace(report, hurried=thought.cut_short))
                self._stuck.discard(game_id)
        except UserError:
            return reports
        finally:
            self._thinking.discard(game_id)

    async def takeback(self, game_id: int, user_id: int, *, reply: ReplyTo | None = None) -> Report:
        """Against the bot, in games without dice: undo the member's last move and the bot's reply. The log
        stays append-only: the takeback is itself an entry, and the history shows it."""
        async with self._table.locks(game_id):
            game = await self._turns.active(game_id, user_id)
            if not game.against_bot:
                raise UserError("Takebacks are for games against the bot; between members, a move is a move.")
            if game.entry.chance_words:
                raise UserError("This game has dice: a takeback would mean rolling again, so it has none.")
            state, side = await self._turns.my_turn(game, user_id)
            before = self._table.replay(game, [*await self._table.moves(game.id), TAKEBACK])
            if before.moves == state.moves:
                raise UserError("There is no move of yours to take back yet.")
            return await self._turns.commit(
                game, before, [PlayedMove(TAKEBACK, side, MoveKind.TAKEBACK)], user_id, reply
            )

    async def hint(self, game_id: int, user_id: int) -> tuple[Game, GameState, str]:
        """The strongest level's suggestion (its search, a little shorter) for the member to act in a game against
        the bot: the game, the member's position (the suggestion is marked on it, not played: the turn, the last
        move and the legal moves stay theirs), and the move."""
        game = await self._turns.active(game_id, user_id)
        if not game.against_bot:
            raise UserError("Hints are for games against the bot; in a game between members, think for yourself!")
        state, _ = await self._turns.my_turn(game, user_id)
        if state.chance:
            raise UserError("Roll the die first with /{game} roll.", game=game.name)
        entry = game.entry
        seed = secrets.randbits(32)
        try:
            move = await self.thinker.move(entry, game.options, state.moves, HINT_LEVEL, seed, budget=HINT_SECONDS)
        except ThinkingFailed as error:
            raise UserError(THINKING_FAILED) from error
        return game, state, move

    async def analyse(self, game_id: int, user_id: int, guild_id: int) -> list[tuple[int, str, str, float]]:
        """Up to three of the member's own moves in a finished game where the level-4 evaluation dropped most:
        (its number in the log, as /history and the replays number it, the move, a better move, the drop). The
        moves in force are searched (a takeback's undone moves are not), each named by its place in the log, so
        the position before it is ``position(game, number - 1)``. Only for the game's players; the search has
        ``analysis_seconds`` for the whole game, shared by the member's moves."""
        game = await self._table.game(game_id, guild_id)
        if user_id not in game.players:
            raise UserError("You can analyse only your own games.")
        if game.status != GameStatus.FINISHED:
            raise UserError("Game #{id} is not over yet: analyse it once it has ended.", id=game.id)
        member_side = None if game.ai_side is None else 1 - game.ai_side
        log = await self._table.moves(game.id)
        kept = in_force(game.entry, game.options, log, member_side)  # takebacks undone
        side = game.side_of(user_id)
        mine = [acted == side for _, _, acted in kept]
        moves = [move for _, move, _ in kept]
        reviewed = await self.analyse_moves(game.name, game.options, moves, mine=mine, side=side)
        return [(kept[i - 1][0], move, better, drop) for i, move, better, drop in reviewed]

    async def analyse_moves(
        self,
        name: str,
        options: dict[str, Any],
        moves: list[str],
        *,
        mine: list[bool] | None = None,
        side: int | None = None,
    ) -> list[tuple[int, str, str, float]]:
        """The same analysis of any game of ``name`` given as its moves (a record played elsewhere, say): (the
        move's number in ``moves``, counted from 1, ...); ``mine``: which of the moves may be reviewed; ``side``:
        only that side's moves are searched (None: both), within ``analysis_seconds`` for the whole game."""
        entry = games.find(name)
        if entry.ai is None:
            raise UserError("I do not play {title} myself, so I cannot analyse its games.", title=title_of(name))
        seconds = self._table.settings.analysis_seconds
        try:
            judged = await self.thinker.analysis(entry, options, moves, seconds, side)
        except ThinkingFailed as error:
            raise UserError(THINKING_FAILED) from error
        if mine is not None:
            judged = [j for j in judged if mine[j[0] - 1]]
        worst = sorted((j for j in judged if j[3] > ANALYSIS_NOISE and j[1] != j[2]), key=lambda j: -j[3])
        return sorted(worst[:3])
