"""Challenges: offered, accepted, declined, withdrawn, expired; a rematch of a finished game; and a game against
the bot itself, which it accepts at once.

A challenge is a game row in the ``challenge`` status. The database keeps one open challenge per pair of members
(a unique index, whoever raced) and one rematch per game; accepting turns the row ``active`` and logs the opening
dice in one transaction, with the first board's announcement.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

import ai
import games
from sessions.announcements import Announcements
from sessions.events import BotToMove, MoveMade
from sessions.model import (
    AnnouncementKind,
    ChannelLink,
    Game,
    GameStatus,
    ReplyTo,
    Report,
    ReportKind,
    UserError,
    title_of,
)
from sessions.server_settings import ServerSettings
from sessions.table import Table
from sessions.thinking import DEFAULT_LEVEL
from sessions.turns import advance, bot_acts_next
from storage.database import ChallengeRepository
from storage.outbox import Announce
from storage.rows import DuplicateChallenge, DuplicateRematch

MAX_OPEN_CHALLENGES = 5  # per member and server: enough to invite several people, too few to spam


class Challenges:
    def __init__(
        self,
        table: Table,
        challenges: ChallengeRepository,
        announcements: Announcements,
        server_settings: ServerSettings,
    ) -> None:
        self._table = table
        self._challenges = challenges
        self._announcements = announcements
        self._server_settings = server_settings

    async def challenge(
        self,
        *,
        game: str,
        guild_id: int,
        channel_id: int,
        challenger_id: int,
        opponent_id: int,
        opponent_is_bot: bool,
        options: dict[str, Any],
        side: int | None,
        rated: bool,
        rematch_of: int | None = None,
        parent_id: int | None = None,
    ) -> Game:
        """Store an open challenge. ``parent_id`` is the channel a thread belongs to: a thread of an allowed
        channel is allowed too."""
        if opponent_id == challenger_id:
            raise UserError("You cannot challenge yourself. Pick another member of this server.")
        if opponent_is_bot:
            raise UserError("Bots cannot play. Challenge a person instead.")
        self._check_options(game, options)
        await self._check_allowed(game, guild_id, channel_id, parent_id)
        await self.expire_challenges([guild_id])
        if await self._challenges.open_challenge_between(guild_id, challenger_id, opponent_id):
            raise UserError("There is already an open challenge between you two. Wait for it to be answered.")
        if await self._challenges.open_challenges_by(guild_id, challenger_id) >= MAX_OPEN_CHALLENGES:
            raise UserError(
                "You already have {count} open challenges. Wait for an answer or cancel one first.",
                count=MAX_OPEN_CHALLENGES,
            )
        game_id = await self._store(
            game, guild_id, channel_id, challenger_id, opponent_id, options, side, rated, rematch_of=rematch_of
        )
        return await self._table.game(game_id)

    async def rematch(self, game_id: int, user_id: int, *, guild_id: int, channel_id: int) -> Game:
        """A finished game's player challenges the other to the same game again: sides swapped, the same options
        and rated flag, through :meth:`challenge` so every limit applies. One rematch per game."""
        game = await self._table.game(game_id, guild_id)
        side = game.side_of(user_id)
        if side is None or game.against_bot:  # a game against the bot: rematch_computer
            raise UserError("Only the two players of game #{id} can ask for a rematch.", id=game_id)
        if game.status != GameStatus.FINISHED:
            raise UserError("Game #{id} is not over yet.", id=game_id)
        if await self._challenges.rematch_of(game_id) is not None:
            raise UserError("A rematch of game #{id} has already been offered.", id=game_id)
        return await self.challenge(
            game=game.name,
            guild_id=guild_id,
            channel_id=channel_id,
            challenger_id=user_id,
            opponent_id=game.players[1 - side],
            opponent_is_bot=False,
            options=game.options,
            side=1 - side,  # the sides swapped
            rated=game.rated,
            rematch_of=game_id,
        )

    async def challenge_computer(
        self,
        *,
        game: str,
        guild_id: int,
        channel_id: int,
        member_id: int,
        bot_id: int,
        options: dict[str, Any],
        side: int | None,
        level: int | None,
        reply: ReplyTo | None = None,
        parent_id: int | None = None,
        rematch_of: int | None = None,
    ) -> Report:
        """A game against the bot itself, which accepts at once: unrated, at ``level`` (1-4). Only for a game
        whose registry entry names a computer player."""
        if games.find(game).ai is None:
            raise UserError(
                "I do not play {title} myself. Challenge a member of this server instead.", title=title_of(game)
            )
        level = DEFAULT_LEVEL if level is None else level
        if level not in ai.LEVELS:
            raise UserError("The bot plays at levels 1 to 4.")
        self._check_options(game, options)
        await self._check_allowed(game, guild_id, channel_id, parent_id)
        game_id = await self._store(
            game, guild_id, channel_id, member_id, bot_id, options, side, rated=False, ai_level=level,
            rematch_of=rematch_of,
        )  # fmt: skip
        return await self.accept(game_id, bot_id, guild_id=guild_id, reply=reply)

    async def rematch_computer(
        self,
        game_id: int,
        user_id: int,
        *,
        guild_id: int,
        channel_id: int,
        reply: ReplyTo | None = None,
        parent_id: int | None = None,
    ) -> Report:
        """The member of a finished game against the bot plays it again at once: sides swapped, the same options
        and level. One rematch per game, as between members."""
        game = await self._table.game(game_id, guild_id)
        side = game.side_of(user_id)
        if side is None or not game.against_bot or side == game.ai_side:
            raise UserError("Only the two players of game #{id} can ask for a rematch.", id=game_id)
        if game.status != GameStatus.FINISHED:
            raise UserError("Game #{id} is not over yet.", id=game_id)
        if await self._challenges.rematch_of(game_id) is not None:
            raise UserError("A rematch of game #{id} has already been offered.", id=game_id)
        return await self.challenge_computer(
            game=game.name,
            guild_id=guild_id,
            channel_id=channel_id,
            member_id=user_id,
            bot_id=game.players[1 - side],
            options=game.options,
            side=1 - side,  # the sides swapped
            level=game.ai_level,
            reply=reply,
            parent_id=parent_id,
            rematch_of=game_id,
        )

    async def check_new(
        self, game: str, options: dict[str, Any], guild_id: int, channel_id: int, parent_id: int | None
    ) -> None:
        """What every new challenge must pass: valid options, the game on in this server, an allowed channel."""
        self._check_options(game, options)
        await self._check_allowed(game, guild_id, channel_id, parent_id)

    async def posted(self, game_id: int, message_id: int) -> None:
        """The challenge's message: its buttons answer only there, and it becomes the game's header."""
        await self._challenges.set_message(game_id, "challenge_message_id", message_id)

    async def accept(
        self,
        game_id: int,
        user_id: int,
        *,
        guild_id: int,
        message_id: int | None = None,
        reply: ReplyTo | None = None,
    ) -> Report:
        async with self._table.locks(game_id):
            game = await self._open_challenge(game_id, guild_id, message_id)
            if user_id != game.opponent_id:
                raise self._wrong_answerer(game, user_id)
            state = game.entry.new_game(**game.options)
            played = advance(state, self._table.draw)
            held = bot_acts_next(game, state)  # the bot's first move will announce the start with it
            announce = self._announcements.of_report(ReportKind.START, played, user_id, reply, held=held)
            opening = [(p.move, p.player, None) for p in played]
            now = self._table.clock()
            ids = await self._challenges.activate_announced(game_id, now, opening, announce)
            if ids is None:
                raise UserError("This challenge is no longer open.")
            self._table.remember(game_id, len(played), state)
            # The row as the commit left it, without reading it again: past the commit nothing may fail.
            game = replace(game, status=GameStatus.ACTIVE, started_at=now, last_move_at=now, ply=len(played))
            self._announcements.committed(game, ids[-1], reply, held)
            report = Report(game, state, played, None, ids[-1], ReportKind.START, user_id, held=held)
        self._table.events.publish(MoveMade(report))
        if held:
            self._table.events.publish(BotToMove(game))
        return report

    async def decline(
        self, game_id: int, user_id: int, *, guild_id: int, message_id: int | None = None, reply: ReplyTo | None = None
    ) -> tuple[Game, int]:
        return await self._close(
            game_id, user_id, guild_id, message_id, reply, allowed=lambda game: user_id == game.opponent_id
        )

    async def cancel(
        self, game_id: int, user_id: int, *, guild_id: int, message_id: int | None = None, reply: ReplyTo | None = None
    ) -> tuple[Game, int]:
        return await self._close(
            game_id, user_id, guild_id, message_id, reply, allowed=lambda game: user_id == game.challenger_id
        )

    async def expire_challenges(self, guild_ids: list[int] | None = None) -> list[Game]:
        """Mark every challenge past its time (in these servers) as expired, with its expiry notice."""
        expired = []
        for row in await self._challenges.expirable(self._table.clock(), guild_ids=guild_ids):
            if await self._expire(row.id):
                expired.append(await self._table.game(row.id))
        return expired

    async def _close(
        self,
        game_id: int,
        user_id: int,
        guild_id: int,
        message_id: int | None,
        reply: ReplyTo | None,
        allowed: Callable[[Game], bool],
    ) -> tuple[Game, int]:
        """Decline or withdraw a challenge; returns the game and the id of the announcement that says so."""
        async with self._table.locks(game_id):
            game = await self._open_challenge(game_id, guild_id, message_id)
            if not allowed(game):
                raise self._wrong_answerer(game, user_id)
            status = GameStatus.CANCELLED if user_id == game.challenger_id else GameStatus.DECLINED
            announce = self._announcements.of_closing(user_id, reply)
            now = self._table.clock()
            ids = await self._challenges.transition_announced(game_id, GameStatus.CHALLENGE, status, now, announce)
            if ids is None:
                raise UserError("This challenge is no longer open.")
            return replace(game, status=status), ids[-1]  # as committed: nothing is read after the commit

    async def _expire(self, game_id: int) -> bool:
        expiry = Announce(AnnouncementKind.EXPIRY)
        now = self._table.clock()
        return await self._challenges.transition(game_id, GameStatus.CHALLENGE, GameStatus.EXPIRED, now, expiry)

    @staticmethod
    def _wrong_answerer(game: Game, user_id: int) -> UserError:
        if user_id == game.challenger_id:
            return UserError("You cannot accept or decline your own challenge; use Cancel to withdraw it.")
        if user_id == game.opponent_id:
            return UserError("Only the challenger can cancel; use Decline to turn it down.")
        return UserError("This challenge is between two other members. Start your own with a challenge.")

    async def _open_challenge(self, game_id: int, guild_id: int, message_id: int | None) -> Game:
        """A challenge still open, answered from its own message (a button copied onto another message, or
        clicked in another server, answers nothing)."""
        game = await self._table.game(game_id, guild_id)
        if message_id is not None and game.challenge_message_id not in (None, message_id):
            raise UserError("This button does not belong to that challenge. Use the buttons on the challenge itself.")
        if (
            game.status == GameStatus.CHALLENGE
            and game.expires_at is not None
            and game.expires_at <= self._table.clock()
        ):
            await self._expire(game_id)
            raise UserError("This challenge has expired. Send a new one if you still want to play.")
        if game.status != GameStatus.CHALLENGE:
            raise UserError("This challenge is no longer open.")
        return game

    async def _check_allowed(self, game: str, guild_id: int, channel_id: int, parent_id: int | None) -> None:
        """What a server's admins chose: the game must be on, the channel among the allowed ones (if any)."""
        here = await self._server_settings.settings_for(guild_id)
        if game not in here.enabled_games:
            raise UserError("The admins of this server have turned {game} off.", game=title_of(game))
        if not here.channel_allowed(channel_id, parent_id):
            raise UserError(
                "Games cannot be started in this channel. Try one of these: {channels}",
                channels=tuple(ChannelLink(channel) for channel in sorted(here.allowed_channels)),
            )

    @staticmethod
    def _check_options(game: str, options: dict[str, Any]) -> None:
        try:
            games.find(game).new_game(**options)
        except ValueError as error:
            raise UserError("Those game options are not valid: {reason}", reason=error) from error

    async def _store(
        self,
        game: str,
        guild_id: int,
        channel_id: int,
        challenger_id: int,
        opponent_id: int,
        options: dict[str, Any],
        side: int | None,
        rated: bool,
        ai_level: int | None = None,
        *,
        rematch_of: int | None = None,
    ) -> int:
        """Store an open challenge, the challenger on ``side`` (drawn when None); with ``ai_level`` the opponent
        is the bot itself; with ``rematch_of`` it is that game's one rematch. The database refuses a second open
        challenge of a pair, however the two raced, and a second rematch of a game."""
        if side is None:
            side = int(self._table.draw(["0", "1"]))
        players = (challenger_id, opponent_id) if side == 0 else (opponent_id, challenger_id)
        now = self._table.clock()
        try:
            return await self._challenges.insert_game(
                guild_id=guild_id,
                channel_id=channel_id,
                game=game,
                options=options,
                players=players,
                challenger_id=challenger_id,
                rated=rated,
                now=now,
                expires_at=now + (await self._server_settings.settings_for(guild_id)).challenge_ttl,
                ai_side=None if ai_level is None else 1 - side,
                ai_level=ai_level,
                rematch_of=rematch_of,
            )
        except DuplicateRematch as error:  # the other player clicked Rematch at the same moment
            raise UserError("A rematch of game #{id} has already been offered.", id=rematch_of) from error
        except DuplicateChallenge as error:  # another challenge between the two was stored meanwhile
            raise UserError(
                "There is already an open challenge between you two. Wait for it to be answered."
            ) from error
