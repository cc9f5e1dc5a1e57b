"""Turns: a member's move, die roll, resignation and timeout claim, each committed with its announcement, and the
reminders of idle players.

Every action takes the game's lock in this process and is written with ``append_moves`` or
``finish_without_move``: one transaction that checks the ply, so a second write at the same ply (a double click,
another process) is refused, and that writes the announcement and, at a game's end, the result, both records and
both ratings. What nobody chooses (dice no player rolls by command, passes the rules force) the session plays
right after the member's action (:func:`advance`).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

from engines import GameState, IllegalMove
from sessions.announcements import Announcements
from sessions.events import BotToMove, GameFinished, MoveMade
from sessions.model import (
    STALE_BOARD,
    Ending,
    Game,
    GameStatus,
    Mention,
    MoveKind,
    PlayedMove,
    ReplyTo,
    Report,
    ReportKind,
    UserError,
)
from sessions.ratings import Ratings
from sessions.server_settings import ServerSettings
from sessions.table import Table
from storage.database import GameRepository
from storage.outbox import Supersede
from storage.rows import StalePly

MAX_MOVE_TEXT = 100
BY_A_PLAYER = (MoveKind.MOVE, MoveKind.TAKEBACK)  # log entries a player made; the session made the others


def advance(state: GameState, draw: Callable[[list[str]], str]) -> list[PlayedMove]:
    """Play what nobody chooses: dice that no player rolls by command, and passes the rules force."""
    played = []
    while not state.is_over:
        if state.chance:
            if state.to_act is not None:
                break  # the player rolls by command
            state.play(draw(state.legal_moves()))
            played.append(PlayedMove(state.moves[-1], None, MoveKind.CHANCE))
        elif state.legal_moves() == ["pass"]:
            side = state.turn
            state.play("pass")
            played.append(PlayedMove("pass", side, MoveKind.FORCED_PASS))
        else:
            break
    return played


def bot_acts_next(game: Game, state: GameState) -> bool:
    """In a game against the bot, whether the bot acts next (a roll or a move) once ``state`` is committed."""
    return game.against_bot and not state.is_over and state.to_act == game.ai_side


class Turns:
    def __init__(
        self,
        table: Table,
        games: GameRepository,
        announcements: Announcements,
        ratings: Ratings,
        server_settings: ServerSettings,
    ) -> None:
        self._table = table
        self._games = games
        self._announcements = announcements
        self._ratings = ratings
        self._server_settings = server_settings

    async def play(
        self,
        game_id: int,
        user_id: int,
        text: str,
        *,
        reply: ReplyTo | None = None,
        known: Game | None = None,
        ply: int | None = None,
    ) -> Report:
        """A member's move. ``known``: the game as the caller just read it (``find_game``), which spares reading
        it again when it is current. ``ply``: the ply of the board the move was chosen on (its buttons), which the
        game must still be at."""
        text = " ".join(text.split())
        if not text:
            raise UserError("Type a move, for example one from the autocomplete list.")
        if len(text) > MAX_MOVE_TEXT:
            raise UserError("That move is too long to be a move. Pick one from the autocomplete list.")
        async with self._table.locks(game_id):
            game = await self.active(game_id, user_id, known, ply)
            chance_words = game.entry.chance_words
            if chance_words and text.lower().startswith(chance_words):
                raise UserError("Dice are rolled by the bot, never chosen: use /{game} roll.", game=game.name)
            state, side = await self.my_turn(game, user_id)
            if state.chance:
                raise UserError("Roll the die first with /{game} roll.", game=game.name)
            try:
                state.play(text)
            except IllegalMove as error:
                raise UserError("That move is not legal: {reason}", reason=error) from error
            played = [PlayedMove(state.moves[-1], side, MoveKind.MOVE), *advance(state, self._table.draw)]
            return await self.commit(game, state, played, user_id, reply)

    async def roll(
        self,
        game_id: int,
        user_id: int,
        *,
        reply: ReplyTo | None = None,
        known: Game | None = None,
        ply: int | None = None,
    ) -> Report:
        """The player to move asks for their die; the session draws it and logs it as a chance move."""
        async with self._table.locks(game_id):
            game = await self.active(game_id, user_id, known, ply)
            state = await self._table.state(game)
            side = game.side_of(user_id)
            if not state.chance or state.to_act is None:
                if state.turn == side:
                    raise UserError("You have already rolled: place your block now.")
                raise UserError("It is not your turn: wait for {mention}.", mention=Mention(game.player_to_act(state)))
            if state.to_act != side:
                raise UserError(
                    "It is not your turn to roll: wait for {mention}.", mention=Mention(game.players[state.to_act])
                )
            state.play(self._table.draw(state.legal_moves()))
            played = [PlayedMove(state.moves[-1], None, MoveKind.CHANCE), *advance(state, self._table.draw)]
            return await self.commit(game, state, played, user_id, reply)

    async def resign(
        self, game_id: int, user_id: int, *, reply: ReplyTo | None = None, ply: int | None = None
    ) -> Report:
        async with self._table.locks(game_id):
            game = await self.active(game_id, user_id, ply=ply)
            state = await self._table.state(game)
            loser = game.side_of(user_id)
            assert loser is not None
            return await self._end_without_move(game, state, 1 - loser, Ending.RESIGN, user_id, reply)

    async def claim(self, game_id: int, user_id: int, *, reply: ReplyTo | None = None) -> Report:
        """Win a game whose opponent has not acted for twice the reminder time."""
        async with self._table.locks(game_id):
            game = await self.active(game_id, user_id)
            if game.move_seconds is not None:
                raise UserError(
                    "This game has a clock: a player whose time runs out loses on time, so there is nothing to claim."
                )
            state = await self._table.state(game)
            claimant = game.side_of(user_id)
            if state.to_act == claimant:
                raise UserError("It is your turn, so there is nothing to claim: make your move.")
            now = self._table.clock()
            waited = now - (game.last_move_at or game.created_at)
            needed = 2 * (await self._server_settings.settings_for(game.guild_id)).reminder_after
            if waited < needed:
                when = datetime.fromtimestamp(now - waited + needed, tz=UTC)  # the cog shows it as a time
                raise UserError("You can claim the win if your opponent still has not moved {when}.", when=when)
            assert claimant is not None
            return await self._end_without_move(game, state, claimant, Ending.TIMEOUT, user_id, reply)

    async def flag(self, game_id: int, ply: int) -> Report | None:
        """The clock of a game's player to move ran out at ``ply``: they lose on time (rated as any loss). None if
        the game moved on or ended meanwhile (a move made in time wins the race: the ply is checked)."""
        async with self._table.locks(game_id):
            game = await self._table.game(game_id)
            if game.status != GameStatus.ACTIVE or game.ply != ply:
                return None
            state = await self._table.state(game)
            if state.to_act is None:
                return None
            try:
                return await self._end_without_move(game, state, 1 - state.to_act, Ending.TIME, None, None)
            except UserError:
                return None

    async def forfeit(self, game_id: int, loser: int) -> Report | None:
        """A player removed from a tournament forfeits their game: the opponent wins, nothing is rated (the game
        was not played out). None if it had ended already."""
        async with self._table.locks(game_id):
            for _ in range(3):  # a move may land between the read and the write: read again
                game = await self._table.game(game_id)
                side = game.side_of(loser)
                if game.status != GameStatus.ACTIVE or side is None:
                    return None
                state = await self._table.state(game)
                try:
                    return await self._end_without_move(game, state, 1 - side, Ending.FORFEIT, None, None, rate=False)
                except UserError:
                    continue
            return None

    async def active(self, game_id: int, user_id: int, known: Game | None = None, ply: int | None = None) -> Game:
        """The game, if the member may act in it now. ``known`` is the game the caller just read to find it: it is
        used as is when this process's own last commit left the game at that ply (else the game changed since, or
        this process does not know: read it again). A change by another process in between is still refused by
        the commit's ply check. ``ply``: the ply of the board the member acted on, which the game must be at."""
        game = known if known is not None and known.id == game_id and self._table.is_current(known) else None
        if game is None:
            game = await self._table.game(game_id)
        if user_id not in game.players:
            raise UserError("You are not playing in this game. Start your own with a challenge.")
        if game.status == GameStatus.FINISHED:
            raise UserError("This game is already over. Start a new one with a challenge.")
        if game.status == GameStatus.CANCELLED and game.started_at is not None:
            raise UserError("A server admin cancelled this game. Start a new one with a challenge.")
        if game.status != GameStatus.ACTIVE:
            raise UserError("This game has not started: the challenge must be accepted first.")
        if ply is not None and ply != game.ply:
            raise UserError(STALE_BOARD)
        await self._announcements.wait(game.id, ply=game.ply)
        return game

    async def my_turn(self, game: Game, user_id: int) -> tuple[GameState, int]:
        """The game's state and the member's side, if it is their turn."""
        state = await self._table.state(game)
        side = game.side_of(user_id)
        assert side is not None
        if state.to_act != side:
            raise UserError("It is not your turn: wait for {mention}.", mention=Mention(game.player_to_act(state)))
        return state, side

    async def commit(
        self, game: Game, state: GameState, played: list[PlayedMove], user_id: int, reply: ReplyTo | None
    ) -> Report:
        """Write the moves of one action with its announcement, and at the game's end its result and ratings."""
        finish = None
        if state.is_over:
            result = state.result()
            finish = (result.winner, result.reason, tuple(result.scores))
        rows = [(p.move, p.player, user_id if p.kind in BY_A_PLAYER else None) for p in played]
        kind = ReportKind.TAKEBACK if played and played[0].kind == MoveKind.TAKEBACK else ReportKind.MOVE
        # Against the bot, one message a turn: an action after which the bot acts is held for the bot's reply,
        # and the bot's action takes the held announcement into its own (unless a worker is delivering it).
        held = bot_acts_next(game, state)
        by_bot = game.against_bot and user_id == game.players[game.ai_side or 0]
        announce = self._announcements.of_report(kind, played, user_id, reply, held=held, at_once=by_bot)
        joined, replacing = None, None
        if by_bot and (owed := await self._announcements.held(game.id)) is not None:
            joined = self._announcements.joined(owed, played, held=held)
            replacing = Supersede(owed.id, joined[0])
        try:
            written = await self._games.append_moves(
                game.id,
                game.ply,
                rows,
                self._table.clock(),
                finish,
                settle=self._ratings.rate,
                announce=announce,
                replacing=replacing,
            )
        except StalePly as error:
            self._table.forget(game.id)
            raise UserError("The game changed while you were moving. Look at the board and try again.") from error
        after = Game.of(written.row)
        if finish:
            self._table.forget(game.id)  # a finished game is rarely looked at again: replay it if it is
        else:
            self._table.remember(game.id, after.ply, state)
        announcement_id = written.announcement_ids[0]
        self._announcements.committed(after, announcement_id, reply, held)
        settled = None if written.settlement is None else self._ratings.finish(after, written.settlement)
        by: int | None = user_id
        if written.superseded and joined is not None:
            _, kind, played, by = joined
        report = Report(after, state, played, settled, announcement_id, kind, by, held=held)
        self._published(report, bot_next=held)
        return report

    def _published(self, report: Report, *, bot_next: bool = False) -> Report:
        """Tell the parts that follow what was just committed: the move, the game's end, the bot's turn."""
        events = self._table.events
        events.publish(MoveMade(report))
        if report.finish is not None:
            events.publish(GameFinished(report))
        if bot_next:
            events.publish(BotToMove(report.game))
        return report

    async def _end_without_move(
        self,
        game: Game,
        state: GameState,
        winner: int,
        reason: Ending,
        user_id: int | None,
        reply: ReplyTo | None,
        *,
        rate: bool = True,
    ) -> Report:
        announce = self._announcements.of_report(ReportKind.FINISH, [], user_id, reply)
        result = (winner, reason, state.scores())
        settle = self._ratings.rate if rate else None
        try:
            written = await self._games.finish_without_move(
                game.id, game.ply, result, self._table.clock(), settle=settle, announce=announce
            )
        except StalePly as error:
            raise UserError("The game changed meanwhile. Look at the board and try again.") from error
        self._table.forget(game.id)
        after = Game.of(written.row)
        announcement_id = written.announcement_ids[0]
        self._announcements.committed(after, announcement_id, reply)
        assert written.settlement is not None
        finished = self._ratings.finish(after, written.settlement)
        return self._published(Report(after, state, [], finished, announcement_id, ReportKind.FINISH, user_id))

    async def due_reminders(self, guild_ids: list[int] | None = None) -> list[tuple[Game, int]]:
        """Active games whose player to act has been idle past the reminder time and not yet reminded:
        (game, user id to remind). Each game is reminded once per idle spell, even with several processes:
        ``claim_reminder`` gives each reminder to one caller, and writes it to the outbox with the claim, so a
        failed post can be retried from there."""
        due = []
        now = self._table.clock()
        before = now - self._table.settings.reminder_after
        for row in await self._games.idle_games(before, guild_ids=guild_ids, now=now):
            game = Game.of(row)
            user_id = game.player_to_act(await self._table.state(game))
            idle_since = game.last_move_at or game.created_at
            hours = (await self._server_settings.settings_for(game.guild_id)).reminder_hours
            # The claim deadline (twice the reminder time) as a time, so each reader sees it in their own zone.
            payload = {"user_id": user_id, "hours": round(hours), "claim_at": idle_since + 2 * hours * 3600}
            if await self._games.claim_reminder(game.id, idle_since, now, payload):
                due.append((game, user_id))
        return due
