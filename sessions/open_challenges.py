"""Open challenges: "anyone up for a game?". The challenger's game waits with an open seat (player id
``OPEN_SEAT``) that the first member to press Accept takes, within the ratings the challenger chose; every later
click is answered privately. It expires, is withdrawn and is listed like any challenge.

Taking the seat is one conditional update (``Database.take_open_seat``): of members pressing Accept at once, in
one process or several, exactly one gets the game; the others find the seat taken.
"""

from __future__ import annotations

from typing import Any

from sessions.announcements import Announcements
from sessions.challenges import MAX_OPEN_CHALLENGES, Challenges
from sessions.model import Game, GameStatus, ReplyTo, Report, ReportKind, UserError
from sessions.ratings import Ratings
from sessions.server_settings import ServerSettings
from sessions.table import Table
from sessions.turns import advance
from storage.database import ChallengeRepository
from storage.rows import OPEN_SEAT, DuplicateChallenge

RATING_RANGE = (0, 4000)  # what a rating range may name: every rating anyone here has is inside


class OpenChallenges:
    def __init__(
        self,
        table: Table,
        challenge_repository: ChallengeRepository,
        announcements: Announcements,
        challenges: Challenges,
        ratings: Ratings,
        server_settings: ServerSettings,
    ) -> None:
        self._table = table
        self._challenge_repository = challenge_repository
        self._announcements = announcements
        self._challenges = challenges
        self._ratings = ratings
        self._server_settings = server_settings

    async def offer(
        self,
        *,
        game: str,
        guild_id: int,
        channel_id: int,
        challenger_id: int,
        options: dict[str, Any],
        side: int | None,
        rated: bool,
        rating_min: int | None = None,
        rating_max: int | None = None,
        parent_id: int | None = None,
    ) -> Game:
        """Post a challenge anyone here may accept (within ``rating_min``..``rating_max`` when given)."""
        for bound in (rating_min, rating_max):
            if bound is not None and not RATING_RANGE[0] <= bound <= RATING_RANGE[1]:
                raise UserError("A rating range goes from {low} to {high}.", low=RATING_RANGE[0], high=RATING_RANGE[1])
        if rating_min is not None and rating_max is not None and rating_min > rating_max:
            raise UserError("The lowest rating must not be above the highest.")
        await self._challenges.check_new(game, options, guild_id, channel_id, parent_id)
        await self._challenges.expire_challenges([guild_id])
        if await self._challenge_repository.open_challenges_by(guild_id, challenger_id) >= MAX_OPEN_CHALLENGES:
            raise UserError(
                "You already have {count} open challenges. Wait for an answer or cancel one first.",
                count=MAX_OPEN_CHALLENGES,
            )
        if side is None:
            side = int(self._table.draw(["0", "1"]))
        players = (challenger_id, OPEN_SEAT) if side == 0 else (OPEN_SEAT, challenger_id)
        now = self._table.clock()
        try:
            game_id = await self._challenge_repository.insert_game(
                guild_id=guild_id,
                channel_id=channel_id,
                game=game,
                options=options,
                players=players,
                challenger_id=challenger_id,
                rated=rated,
                now=now,
                expires_at=now + (await self._server_settings.settings_for(guild_id)).challenge_ttl,
                rating_min=rating_min,
                rating_max=rating_max,
            )
        except DuplicateChallenge as error:
            raise UserError(
                "You already have an open challenge to anyone here. Wait for someone to take it, or cancel it."
            ) from error
        return await self._table.game(game_id)

    async def accept(
        self,
        game_id: int,
        user_id: int,
        *,
        guild_id: int,
        message_id: int | None = None,
        reply: ReplyTo | None = None,
    ) -> Report:
        """Accept a challenge: an open one's seat goes to the first member to ask; any other is the named
        opponent's to accept (``Challenges.accept``)."""
        game = await self._table.game(game_id, guild_id)
        if game.open_seat is None:
            return await self._challenges.accept(
                game_id, user_id, guild_id=guild_id, message_id=message_id, reply=reply
            )
        if user_id == game.challenger_id:
            raise UserError("You cannot accept or decline your own challenge; use Cancel to withdraw it.")
        if message_id is not None and game.challenge_message_id not in (None, message_id):
            raise UserError("This button does not belong to that challenge. Use the buttons on the challenge itself.")
        if game.expires_at is not None and game.expires_at <= self._table.clock():
            await self._challenges.expire_challenges([guild_id])
            raise UserError("This challenge has expired. Send a new one if you still want to play.")
        await self._check_rating(game, user_id)
        seat = game.open_seat
        async with self._table.locks(game_id):
            state = game.entry.new_game(**game.options)
            played = advance(state, self._table.draw)
            announce = self._announcements.of_report(ReportKind.START, played, user_id, reply)
            opening = [(p.move, p.player, None) for p in played]
            ids = await self._challenge_repository.take_open_seat(
                game_id, seat, user_id, self._table.clock(), opening, announce
            )
            if ids is None:
                after = await self._table.game(game_id)
                if after.status == GameStatus.ACTIVE:
                    raise UserError("Someone else accepted this challenge first. Post your own with a challenge.")
                raise UserError("This challenge is no longer open.")
            self._table.remember(game_id, len(played), state)
            game = await self._table.game(game_id)
            self._announcements.committed(game, ids[-1], reply)
            return Report(game, state, played, None, ids[-1], ReportKind.START, user_id)

    async def _check_rating(self, game: Game, user_id: int) -> None:
        if game.rating_min is None and game.rating_max is None:
            return
        shown = (await self._ratings.rating(game.guild_id, game.name, user_id)).shown
        low = game.rating_min if game.rating_min is not None else RATING_RANGE[0]
        high = game.rating_max if game.rating_max is not None else RATING_RANGE[1]
        if not low <= shown <= high:
            raise UserError(
                "This challenge is for ratings from {low} to {high}, and yours is {rating}. Post your own instead.",
                low=low,
                high=high,
                rating=shown,
            )

    async def listed(self, guild_id: int) -> list[Game]:
        """The server's open challenges to anyone, still unanswered, the oldest first."""
        now = self._table.clock()
        return [
            game
            for game in map(Game.of, await self._challenge_repository.open_challenges(guild_id))
            if game.expires_at is None or game.expires_at > now
        ]
