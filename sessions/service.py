"""The session service: challenges, turns, moves, dice, resignations, timeouts, results and ratings.

It is the only place that combines engines, storage and rendering, and it knows nothing of Discord:
cogs call it with plain ids and text and turn its reports (or its :class:`UserError`) into replies.
"""

from __future__ import annotations

import asyncio
import logging
import os
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import games
from engines import GameState, IllegalMove, Phrase
from locales import language_of
from sessions.computer import DEFAULT_LEVEL, HINT_LEVEL, Thinker
from sessions.drawing import Drawer
from sessions.guild_settings import CHALLENGE_MINUTES, REMINDER_HOURS, SETTINGS_TTL, Defaults, GuildSettings, merge
from sessions.log import TAKEBACK, replay
from sessions.memory import KeyedLocks, LruCache
from sessions.ratings import Rating, rate
from sessions.refusal import ChannelLink, Mention, UserError
from sessions.vocabulary import REPORTED, AnnouncementKind, Ending, GameStatus, MoveKind, ReportKind
from storage.database import (
    Database,
    DuplicateChallenge,
    DuplicateRematch,
    GameRow,
    NewRating,
    RatingRow,
    Settlement,
    StalePly,
)
from storage.outbox import Announce, AnnouncementRow

log = logging.getLogger(__name__)

MAX_MOVE_TEXT = 100
MAX_GAME_ID = 2**63 - 1  # the database's integer range; larger ids cannot exist
STATE_CACHE_SIZE = 1024  # games in play whose replayed state is kept; the rest replay from the log
ANNOUNCE_WAIT = 1.5  # seconds an action waits for the previous move's reply (Discord wants an answer within 3)
COMPUTER_LEVELS = (1, 2, 3, 4)  # ai.LEVELS: kept here so the service need not import the AI
ANALYSIS_NOISE = 0.05  # value drops smaller than this are the search's own noise, not mistakes
MAX_OPEN_CHALLENGES = 5  # per member and server: enough to invite several people, too few to spam
BY_A_PLAYER = (MoveKind.MOVE, MoveKind.TAKEBACK)  # log entries a member made; the others the session made


@dataclass(frozen=True)
class Settings:
    challenge_ttl: float = 15 * 60
    reminder_after: float = 24 * 60 * 60
    # How long the process that committed an action has to announce it in its own reply, before any process's
    # outbox worker may take the announcement over (Discord answers within 3 s, or never).
    announce_grace: float = 10.0
    # Whether games get their own thread where a server's admins chose nothing (GAME_THREADS).
    threads: bool = True
    ai_move_seconds: float | None = None  # a cap on the bot's thinking time at every level (tests, small hosts)
    render_workers: int = 0  # processes that draw the boards; 0: threads of this process (sessions/drawing.py)
    analysis_seconds: float = 0.15  # search time per position when analysing a whole game


@dataclass(frozen=True)
class ReplyTo:
    """The interaction whose reply announces an action: a later delivery asks Discord whether it arrived."""

    application_id: int
    token: str
    created_at: float


@dataclass
class Announcing:
    """The announcement of the last action this process committed in a game, while its own reply may be under
    way: what the next action would otherwise ask the outbox."""

    ply: int  # the game's ply once that action was written
    announcement_id: int
    until: float  # the end of its grace (the service's clock): past it, the outbox worker owns it
    delivered: bool = False


@dataclass(frozen=True)
class PlayedMove:
    move: str
    player: int | None
    kind: MoveKind


@dataclass(frozen=True)
class Finish:
    winner: int | None
    reason: str
    scores: tuple[int, int]
    rating_changes: dict[int, tuple[int, int]] = field(default_factory=dict)


@dataclass(frozen=True)
class Report:
    """What a service call did, for the cog to announce."""

    row: GameRow
    state: GameState
    played: list[PlayedMove]
    finish: Finish | None = None
    announcement_id: int | None = None
    kind: ReportKind = ReportKind.MOVE
    by: int | None = None  # the member whose action this reports


def _title(game: str) -> Phrase:
    """A game's title as each reader says it (translated where it is read); ``game`` is the command's name."""
    return Phrase(games.find(game).title)


class GameService:
    def __init__(
        self,
        db: Database,
        settings: Settings | None = None,
        clock: Callable[[], float] = time.time,
        draw: Callable[[list[str]], str] = secrets.choice,
    ) -> None:
        self.db = db
        self.settings = settings or Settings()
        self.clock = clock
        self.draw = draw  # chance outcomes come from here only, so tests can load the dice
        self._locks: KeyedLocks[int] = KeyedLocks()
        self._states: LruCache[int, tuple[int, GameState]] = LruCache(STATE_CACHE_SIZE)  # game -> (ply, state)
        # Drawing holds the GIL most of the time: more renders at once than cores only queue up in threads.
        self._render_slots = asyncio.Semaphore(os.cpu_count() or 1)
        self._guild_settings: LruCache[int, tuple[float, GuildSettings]] = LruCache(10_000)
        self.thinker = Thinker(budget=self.settings.ai_move_seconds)
        self.drawer = Drawer(self.settings.render_workers)
        self._thinking: set[int] = set()  # games whose bot move is being searched in this process
        # game -> its last action committed here and its reply's progress; bounded like the states
        self._announcing: LruCache[int, Announcing] = LruCache(STATE_CACHE_SIZE)
        self._deliveries: list[tuple[int, int | None]] = []  # replies sent, their marks not yet written
        self._marking: asyncio.Task[None] | None = None

    # --- loading ---------------------------------------------------------------------------------

    async def row(self, game_id: int, guild_id: int | None = None) -> GameRow:
        """A game by id; with ``guild_id``, only a game of that server (another server's id is not found)."""
        row = await self.db.game(game_id) if 0 < game_id <= MAX_GAME_ID else None
        if row is None or (guild_id is not None and row.guild_id != guild_id):
            raise UserError("I cannot find game #{id}.", id=game_id)
        return row

    async def state(self, row: GameRow) -> GameState:
        """The engine state of a game: the replay of its move log, cached per ply of the log."""
        cached = self._states.get(row.id)
        if cached is not None and cached[0] == row.ply:
            return cached[1].copy()
        state = self._replay(row, await self.db.moves(row.id))
        self._states.put(row.id, (row.ply, state.copy()))
        return state

    @staticmethod
    def _replay(row: GameRow, log: list[str]) -> GameState:
        member_side = None if row.ai_side is None else 1 - row.ai_side
        return replay(games.find(row.game), row.options, log, member_side)

    async def position(self, row: GameRow, ply: int) -> GameState:
        """The game as it stood after ``ply`` entries of its log (0: the start), for replays."""
        return self._replay(row, (await self.db.moves(row.id))[: max(0, ply)])

    async def positions(self, row: GameRow) -> list[GameState]:
        """Every position of the game, the start first: one more than the entries of its log."""
        log = await self.db.moves(row.id)
        return [self._replay(row, log[:ply]) for ply in range(len(log) + 1)]

    async def find_game(
        self,
        game: str,
        user_id: int,
        guild_id: int,
        channel_id: int,
        game_id: int | None = None,
        *,
        spectate: bool = False,
    ) -> GameRow:
        """The game a command acts on: the chosen one (of this server), else the caller's only game of this
        kind here. With ``spectate``, anyone may look at any game of this server."""
        title = _title(game)
        if game_id is not None:
            row = await self.row(game_id, guild_id)
            if row.game != game or (not spectate and user_id not in row.players):
                raise UserError("Game #{id} is not one of your {title} games.", id=game_id, title=title)
            return row
        mine = [r for r in await self.db.active_games_of(user_id, channel_id) if r.game == game]
        if len(mine) == 1:
            return mine[0]
        if len(mine) > 1:
            raise UserError("You have several {title} games here: choose one with the game option.", title=title)
        if spectate:
            here = await self.db.active_games(guild_id=guild_id, channel_id=channel_id, game=game)
            if len(here) == 1:
                return here[0]
            if len(here) > 1:
                raise UserError("Several {title} games are on here: choose one with the game option.", title=title)
        raise UserError(
            "You have no {title} game in this channel. Start one with /{game} challenge.", title=title, game=game
        )

    async def game_list(
        self, guild_id: int, user_id: int | None, page: int, per_page: int
    ) -> tuple[list[tuple[GameRow, GameState]], int]:
        """One page of the server's active games with their states, and the number of pages. With ``user_id``,
        that member's games only, those waiting for them first (whose turn it is needs the states, so the
        member's games are ordered here; a member has few); else the newest first, paged in SQL."""
        if user_id is None:
            rows, total = await self.db.guild_games(guild_id, limit=per_page, offset=page * per_page)
            listed = [(row, await self.state(row)) for row in rows]
        else:
            rows, total = await self.db.guild_games(guild_id, user_id=user_id)
            every = [(row, await self.state(row)) for row in rows]
            every.sort(key=lambda pair: self._acting(pair[0], pair[1]) != user_id)  # stable: newest first within
            listed = every[page * per_page : (page + 1) * per_page]
        return listed, max(1, -(-total // per_page))

    async def games_for_choice(self, game: str, user_id: int, channel_id: int) -> list[GameRow]:
        """Candidates for a command's ``game`` option: the caller's games here first, then others here."""
        active = await self.db.active_games(channel_id=channel_id, game=game)
        return sorted(active, key=lambda r: (user_id not in r.players, -r.id))

    # --- challenges ------------------------------------------------------------------------------

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
    ) -> GameRow:
        """Store an open challenge. ``parent_id`` is the channel a thread belongs to: a thread of an allowed
        channel is allowed too."""
        if opponent_id == challenger_id:
            raise UserError("You cannot challenge yourself. Pick another member of this server.")
        if opponent_is_bot:
            raise UserError("Bots cannot play. Challenge a person instead.")
        self._check_options(game, options)
        await self._check_allowed(game, guild_id, channel_id, parent_id)
        await self.expire_challenges([guild_id])
        if await self.db.open_challenge_between(guild_id, challenger_id, opponent_id):
            raise UserError("There is already an open challenge between you two. Wait for it to be answered.")
        if await self.db.open_challenges_by(guild_id, challenger_id) >= MAX_OPEN_CHALLENGES:
            raise UserError(
                "You already have {count} open challenges. Wait for an answer or cancel one first.",
                count=MAX_OPEN_CHALLENGES,
            )
        game_id = await self._store_challenge(
            game, guild_id, channel_id, challenger_id, opponent_id, options, side, rated, rematch_of=rematch_of
        )
        return await self.row(game_id)

    async def rematch(self, game_id: int, user_id: int, *, guild_id: int, channel_id: int) -> GameRow:
        """A finished game's player challenges the other to the same game again: sides swapped, the same options
        and rated flag, through :meth:`challenge` so every limit applies. One rematch per game."""
        row = await self.row(game_id, guild_id)
        side = row.side_of(user_id)
        if side is None or row.against_bot:  # the bot never clicks; its games show no Rematch button
            raise UserError("Only the two players of game #{id} can ask for a rematch.", id=game_id)
        if row.status != GameStatus.FINISHED:
            raise UserError("Game #{id} is not over yet.", id=game_id)
        if await self.db.rematch_of(game_id) is not None:
            raise UserError("A rematch of game #{id} has already been offered.", id=game_id)
        return await self.challenge(
            game=row.game,
            guild_id=guild_id,
            channel_id=channel_id,
            challenger_id=user_id,
            opponent_id=row.players[1 - side],
            opponent_is_bot=False,
            options=row.options,
            side=1 - side,  # the sides swapped
            rated=row.rated,
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
    ) -> Report:
        """A game against the bot itself, which accepts at once: unrated, at ``level`` (1-4). Only for a game
        whose registry entry names a computer player."""
        if games.find(game).ai is None:
            raise UserError(
                "I do not play {title} myself. Challenge a member of this server instead.", title=_title(game)
            )
        level = DEFAULT_LEVEL if level is None else level
        if level not in COMPUTER_LEVELS:
            raise UserError("The bot plays at levels 1 to 4.")
        self._check_options(game, options)
        await self._check_allowed(game, guild_id, channel_id, parent_id)
        game_id = await self._store_challenge(
            game, guild_id, channel_id, member_id, bot_id, options, side, rated=False, ai_level=level
        )
        return await self.accept(game_id, bot_id, guild_id=guild_id, reply=reply)

    async def _check_allowed(self, game: str, guild_id: int, channel_id: int, parent_id: int | None) -> None:
        """What a server's admins chose: the game must be on, the channel among the allowed ones (if any)."""
        here = await self.settings_for(guild_id)
        if game not in here.enabled_games:
            raise UserError("The admins of this server have turned {game} off.", game=_title(game))
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

    async def _store_challenge(
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
            side = int(self.draw(["0", "1"]))
        players = (challenger_id, opponent_id) if side == 0 else (opponent_id, challenger_id)
        now = self.clock()
        try:
            return await self.db.insert_game(
                guild_id=guild_id,
                channel_id=channel_id,
                game=game,
                options=options,
                players=players,
                challenger_id=challenger_id,
                rated=rated,
                now=now,
                expires_at=now + (await self.settings_for(guild_id)).challenge_ttl,
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

    async def bot_games_to_move(self, guild_ids: list[int] | None = None) -> list[GameRow]:
        """Games against the bot where the bot must act: after a restart, nobody waits for a bot that forgot."""
        due = []
        for row in await self.db.games_with_status(GameStatus.ACTIVE, guild_ids=guild_ids):
            if row.against_bot and row.id not in self._thinking and (await self.state(row)).to_act == row.ai_side:
                due.append(row)
        return due

    async def play_for_bot(self, game_id: int) -> list[Report]:
        """The bot's turn in a game against it: it rolls its own dice through the session's draws, and its
        moves are searched in the worker pool. Each action is committed with its announcement. A turn that
        cannot go on now (a reply still being announced, a race) is left to the next sweep."""
        if game_id in self._thinking:
            return []
        self._thinking.add(game_id)
        reports: list[Report] = []
        try:
            while True:
                row = await self.row(game_id)
                state = await self.state(row)
                if row.status != GameStatus.ACTIVE or not row.against_bot or state.to_act != row.ai_side:
                    return reports
                bot_id = row.players[state.to_act]
                # The bot is never in a hurry: it lets the member's reply land however slow Discord is; past the
                # grace the outbox has taken that announcement over, so this wait always ends.
                await self._wait_for_announcement(game_id, limit=self.settings.announce_grace + 1, ply=row.ply)
                if state.chance:
                    reports.append(await self.roll(game_id, bot_id))
                    continue
                level = row.ai_level or DEFAULT_LEVEL
                move = await self.thinker.move(
                    games.find(row.game), row.options, state.moves, level, secrets.randbits(32)
                )
                reports.append(await self.play(game_id, bot_id, move))
        except UserError:
            return reports
        finally:
            self._thinking.discard(game_id)

    async def takeback(self, game_id: int, user_id: int, *, reply: ReplyTo | None = None) -> Report:
        """Against the bot, in games without dice: undo the member's last move and the bot's reply. The log
        stays append-only: the takeback is itself an entry, and the history shows it."""
        async with self._locks(game_id):
            row = await self._active(game_id, user_id)
            if not row.against_bot:
                raise UserError("Takebacks are for games against the bot; between members, a move is a move.")
            if games.find(row.game).chance_words:
                raise UserError("This game has dice: a takeback would mean rolling again, so it has none.")
            state, side = await self._my_turn(row, user_id)
            log = await self.db.moves(row.id)
            before = self._replay(row, [*log, TAKEBACK])
            if before.moves == state.moves:
                raise UserError("There is no move of yours to take back yet.")
            return await self._commit(row, before, [PlayedMove(TAKEBACK, side, MoveKind.TAKEBACK)], user_id, reply)

    async def hint(self, game_id: int, user_id: int) -> tuple[GameRow, GameState, str]:
        """The level-3 suggestion for the member to act in a game against the bot: the game, the position after
        the suggested move, and the move."""
        row = await self._active(game_id, user_id)
        if not row.against_bot:
            raise UserError("Hints are for games against the bot; in a game between members, think for yourself!")
        state, _ = await self._my_turn(row, user_id)
        if state.chance:
            raise UserError("Roll the die first with /{game} roll.", game=row.game)
        move = await self.thinker.move(games.find(row.game), row.options, state.moves, HINT_LEVEL, secrets.randbits(32))
        state.play(move)
        return row, state, move

    async def finished_game(self, game: str, user_id: int, guild_id: int, game_id: int | None) -> GameRow:
        """The finished game a member asks about: the chosen one, else their last finished game of this kind."""
        if game_id is not None:
            row = await self.row(game_id, guild_id)
            if row.game != game or user_id not in row.players:
                raise UserError("Game #{id} is not one of your {title} games.", id=game_id, title=_title(game))
            return row
        mine = [
            r
            for r in await self.db.games_with_status(GameStatus.FINISHED, guild_ids=[guild_id])
            if user_id in r.players
        ]
        mine = [r for r in mine if r.game == game]
        if not mine:
            raise UserError("You have no finished {title} game here yet.", title=_title(game))
        return max(mine, key=lambda r: r.finished_at or 0.0)

    async def analyse(self, game_id: int, user_id: int, guild_id: int) -> list[tuple[int, str, str, float]]:
        """Up to three moves of a finished game where the level-4 evaluation dropped most for the side that
        played them: (ply, move, better move, drop). Only for the game's players."""
        row = await self.row(game_id, guild_id)
        if user_id not in row.players:
            raise UserError("You can analyse only your own games.")
        if row.status != GameStatus.FINISHED:
            raise UserError("Game #{id} is not over yet: analyse it once it has ended.", id=row.id)
        entry = games.find(row.game)
        if entry.ai is None:
            raise UserError("I do not play {title} myself, so I cannot analyse its games.", title=_title(row.game))
        moves = (await self.state(row)).moves  # the moves in force: takebacks undone
        judged = await self.thinker.analysis(entry, row.options, moves, self.settings.analysis_seconds)
        worst = sorted((j for j in judged if j[3] > ANALYSIS_NOISE and j[1] != j[2]), key=lambda j: -j[3])
        return sorted(worst[:3])

    async def accept(
        self,
        game_id: int,
        user_id: int,
        *,
        guild_id: int,
        message_id: int | None = None,
        reply: ReplyTo | None = None,
    ) -> Report:
        async with self._locks(game_id):
            row = await self._open_challenge(game_id, guild_id, message_id)
            if user_id != row.opponent_id:
                raise self._wrong_answerer(row, user_id)
            state = games.find(row.game).new_game(**row.options)
            played = self._advance(state)
            announce = self._announce(ReportKind.START, played, user_id, reply)
            opening = [(p.move, p.player, None) for p in played]
            ids = await self.db.activate_announced(game_id, self.clock(), opening, announce)
            if ids is None:
                raise UserError("This challenge is no longer open.")
            self._states.put(game_id, (len(played), state.copy()))
            row = await self.row(game_id)
            self._announced(row, ids[-1], reply)
            return Report(row, state, played, None, ids[-1], ReportKind.START, user_id)

    async def decline(
        self, game_id: int, user_id: int, *, guild_id: int, message_id: int | None = None, reply: ReplyTo | None = None
    ) -> tuple[GameRow, int]:
        return await self._close_challenge(
            game_id, user_id, guild_id, message_id, reply, row_must=lambda r: user_id == r.opponent_id
        )

    async def cancel(
        self, game_id: int, user_id: int, *, guild_id: int, message_id: int | None = None, reply: ReplyTo | None = None
    ) -> tuple[GameRow, int]:
        return await self._close_challenge(
            game_id, user_id, guild_id, message_id, reply, row_must=lambda r: user_id == r.challenger_id
        )

    async def _close_challenge(
        self,
        game_id: int,
        user_id: int,
        guild_id: int,
        message_id: int | None,
        reply: ReplyTo | None,
        row_must: Callable[[GameRow], bool],
    ) -> tuple[GameRow, int]:
        """Decline or withdraw a challenge; returns the game and the id of the announcement that says so."""
        async with self._locks(game_id):
            row = await self._open_challenge(game_id, guild_id, message_id)
            if not row_must(row):
                raise self._wrong_answerer(row, user_id)
            status = GameStatus.CANCELLED if user_id == row.challenger_id else GameStatus.DECLINED
            payload = {"by": user_id, "reply": _reply_payload(reply)}
            announce = Announce(AnnouncementKind.CLOSED, payload, delay=self._grace(reply))
            ids = await self.db.transition_announced(game_id, GameStatus.CHALLENGE, status, self.clock(), announce)
            if ids is None:
                raise UserError("This challenge is no longer open.")
            return await self.row(game_id), ids[-1]

    @staticmethod
    def _wrong_answerer(row: GameRow, user_id: int) -> UserError:
        if user_id == row.challenger_id:
            return UserError("You cannot accept or decline your own challenge; use Cancel to withdraw it.")
        if user_id == row.opponent_id:
            return UserError("Only the challenger can cancel; use Decline to turn it down.")
        return UserError("This challenge is between two other members. Start your own with a challenge.")

    async def _open_challenge(self, game_id: int, guild_id: int, message_id: int | None) -> GameRow:
        """A challenge still open, answered from its own message (a button copied onto another message, or
        clicked in another server, answers nothing)."""
        row = await self.row(game_id, guild_id)
        if message_id is not None and row.challenge_message_id not in (None, message_id):
            raise UserError("This button does not belong to that challenge. Use the buttons on the challenge itself.")
        if row.status == GameStatus.CHALLENGE and row.expires_at is not None and row.expires_at <= self.clock():
            await self._expire(game_id)
            raise UserError("This challenge has expired. Send a new one if you still want to play.")
        if row.status != GameStatus.CHALLENGE:
            raise UserError("This challenge is no longer open.")
        return row

    async def expire_challenges(self, guild_ids: list[int] | None = None) -> list[GameRow]:
        """Mark every challenge past its time (in these servers) as expired, with its expiry notice."""
        expired = []
        for row in await self.db.expirable(self.clock(), guild_ids=guild_ids):
            if await self._expire(row.id):
                expired.append(await self.row(row.id))
        return expired

    async def _expire(self, game_id: int) -> bool:
        expiry = Announce(AnnouncementKind.EXPIRY)
        return await self.db.transition(game_id, GameStatus.CHALLENGE, GameStatus.EXPIRED, self.clock(), expiry)

    # --- moves -----------------------------------------------------------------------------------

    async def play(
        self, game_id: int, user_id: int, text: str, *, reply: ReplyTo | None = None, known: GameRow | None = None
    ) -> Report:
        """A member's move. ``known``: the game's row as the caller just read it (:meth:`find_game`), which
        spares reading it again when it is current."""
        text = " ".join(text.split())
        if not text:
            raise UserError("Type a move, for example one from the autocomplete list.")
        if len(text) > MAX_MOVE_TEXT:
            raise UserError("That move is too long to be a move. Pick one from the autocomplete list.")
        async with self._locks(game_id):
            row = await self._active(game_id, user_id, known)
            chance_words = games.find(row.game).chance_words
            if chance_words and text.lower().startswith(chance_words):
                raise UserError("Dice are rolled by the bot, never chosen: use /{game} roll.", game=row.game)
            state, side = await self._my_turn(row, user_id)
            if state.chance:
                raise UserError("Roll the die first with /{game} roll.", game=row.game)
            try:
                state.play(text)
            except IllegalMove as error:
                raise UserError("That move is not legal: {reason}", reason=error) from error
            played = [PlayedMove(state.moves[-1], side, MoveKind.MOVE), *self._advance(state)]
            return await self._commit(row, state, played, user_id, reply)

    async def roll(
        self, game_id: int, user_id: int, *, reply: ReplyTo | None = None, known: GameRow | None = None
    ) -> Report:
        """The player to move asks for their die; the bot draws it and logs it as a chance move."""
        async with self._locks(game_id):
            row = await self._active(game_id, user_id, known)
            state = await self.state(row)
            side = row.side_of(user_id)
            if not state.chance or state.to_act is None:
                if state.turn == side:
                    raise UserError("You have already rolled: place your block now.")
                raise UserError("It is not your turn: wait for {mention}.", mention=Mention(self._acting(row, state)))
            if state.to_act != side:
                raise UserError(
                    "It is not your turn to roll: wait for {mention}.", mention=Mention(row.players[state.to_act])
                )
            state.play(self.draw(state.legal_moves()))
            played = [PlayedMove(state.moves[-1], None, MoveKind.CHANCE), *self._advance(state)]
            return await self._commit(row, state, played, user_id, reply)

    async def resign(self, game_id: int, user_id: int, *, reply: ReplyTo | None = None) -> Report:
        async with self._locks(game_id):
            row = await self._active(game_id, user_id)
            state = await self.state(row)
            loser = row.side_of(user_id)
            assert loser is not None
            return await self._end_without_move(row, state, 1 - loser, Ending.RESIGN, user_id, reply)

    async def claim(self, game_id: int, user_id: int, *, reply: ReplyTo | None = None) -> Report:
        """Win a game whose opponent has not acted for twice the reminder time."""
        async with self._locks(game_id):
            row = await self._active(game_id, user_id)
            state = await self.state(row)
            claimant = row.side_of(user_id)
            if state.to_act == claimant:
                raise UserError("It is your turn, so there is nothing to claim: make your move.")
            waited = self.clock() - (row.last_move_at or row.created_at)
            needed = 2 * (await self.settings_for(row.guild_id)).reminder_after
            if waited < needed:
                when = datetime.fromtimestamp(self.clock() - waited + needed, tz=UTC)  # the cog shows it as a time
                raise UserError("You can claim the win if your opponent still has not moved {when}.", when=when)
            assert claimant is not None
            return await self._end_without_move(row, state, claimant, Ending.TIMEOUT, user_id, reply)

    async def _active(self, game_id: int, user_id: int, known: GameRow | None = None) -> GameRow:
        """The game, if the member may act in it now. ``known`` is the row the caller just read to find the game:
        it is used as is when this process's own last commit left the game at that ply (else the game changed
        since, or this process does not know: read it again). A change by another process in between is still
        refused by the commit's ply check."""
        row = known if known is not None and known.id == game_id and self._is_current(known) else None
        if row is None:
            row = await self.row(game_id)
        if user_id not in row.players:
            raise UserError("You are not playing in this game. Start your own with a challenge.")
        if row.status == GameStatus.FINISHED:
            raise UserError("This game is already over. Start a new one with a challenge.")
        if row.status == GameStatus.CANCELLED and row.started_at is not None:
            raise UserError("A server admin cancelled this game. Start a new one with a challenge.")
        if row.status != GameStatus.ACTIVE:
            raise UserError("This game has not started: the challenge must be accepted first.")
        await self._wait_for_announcement(row.id, ply=row.ply)
        return row

    def _is_current(self, row: GameRow) -> bool:
        cached = self._states.get(row.id)
        return row.status == GameStatus.ACTIVE and cached is not None and cached[0] == row.ply

    async def _wait_for_announcement(self, game_id: int, limit: float = ANNOUNCE_WAIT, ply: int | None = None) -> None:
        """Let the last move's own reply land before the next action (a quick opponent, a double click), so
        announcements come in order; past ``limit`` seconds, say so instead of keeping the member waiting.

        When this process wrote the game's last action (at ``ply``), it knows whether that reply is out: no query.
        Otherwise (a restart, another process) the outbox is asked."""
        waited = 0.0
        while await self._announcement_awaited(game_id, ply):
            if waited >= limit:
                raise UserError("The last move is still being announced. Look again in a moment.")
            await asyncio.sleep(0.05)
            waited += 0.05

    async def _announcement_awaited(self, game_id: int, ply: int | None) -> bool:
        known = self._announcing.get(game_id)
        if known is not None and ply is not None and known.ply == ply:
            return not known.delivered and known.until > self.clock()
        return any(self._being_announced(pending) for pending in await self.db.pending_for_game(game_id))

    async def _my_turn(self, row: GameRow, user_id: int) -> tuple[GameState, int]:
        state = await self.state(row)
        side = row.side_of(user_id)
        assert side is not None
        if state.to_act != side:
            raise UserError("It is not your turn: wait for {mention}.", mention=Mention(self._acting(row, state)))
        return state, side

    @staticmethod
    def _acting(row: GameRow, state: GameState) -> int:
        side = state.to_act
        return row.players[side] if side is not None else row.players[0]

    def _advance(self, state: GameState) -> list[PlayedMove]:
        """Play what nobody chooses: dice that no player rolls by command, and passes the rules force."""
        played = []
        while not state.is_over:
            if state.chance:
                if state.to_act is not None:
                    break  # the player rolls by command
                state.play(self.draw(state.legal_moves()))
                played.append(PlayedMove(state.moves[-1], None, MoveKind.CHANCE))
            elif state.legal_moves() == ["pass"]:
                side = state.turn
                state.play("pass")
                played.append(PlayedMove("pass", side, MoveKind.FORCED_PASS))
            else:
                break
        return played

    async def _commit(
        self, row: GameRow, state: GameState, played: list[PlayedMove], user_id: int, reply: ReplyTo | None
    ) -> Report:
        finish = None
        if state.is_over:
            result = state.result()
            finish = (result.winner, result.reason, tuple(result.scores))
        rows = [(p.move, p.player, user_id if p.kind in BY_A_PLAYER else None) for p in played]
        kind = ReportKind.TAKEBACK if played and played[0].kind == MoveKind.TAKEBACK else ReportKind.MOVE
        announce = self._announce(kind, played, user_id, reply)
        try:
            written = await self.db.append_moves(
                row.id, row.ply, rows, self.clock(), finish, settle=self._rate, announce=announce
            )
        except StalePly as error:
            self._states.pop(row.id)
            raise UserError("The game changed while you were moving. Look at the board and try again.") from error
        if finish:
            self._states.pop(row.id)  # a finished game is rarely looked at again: replay it if it is
        else:
            self._states.put(row.id, (written.row.ply, state.copy()))
        self._announced(written.row, written.announcement_ids[0], reply)
        settled = written.settlement
        finished = None if settled is None else self._settle(written.row, settled)
        return Report(written.row, state, played, finished, written.announcement_ids[0], kind, user_id)

    async def _end_without_move(
        self, row: GameRow, state: GameState, winner: int, reason: Ending, user_id: int, reply: ReplyTo | None
    ) -> Report:
        scores = state.scores()
        announce = self._announce(ReportKind.FINISH, [], user_id, reply)
        try:
            written = await self.db.finish_without_move(
                row.id, row.ply, (winner, reason, scores), self.clock(), settle=self._rate, announce=announce
            )
        except StalePly as error:
            raise UserError("The game changed meanwhile. Look at the board and try again.") from error
        self._states.pop(row.id)
        self._announced(written.row, written.announcement_ids[0], reply)
        assert written.settlement is not None
        finished = self._settle(written.row, written.settlement)
        return Report(written.row, state, [], finished, written.announcement_ids[0], ReportKind.FINISH, user_id)

    # --- announcements -----------------------------------------------------------------------------

    def _being_announced(self, pending: AnnouncementRow) -> bool:
        """A move whose own reply is still under way (within its grace): the next action waits for it."""
        return pending.kind in REPORTED and pending.attempts == 0 and pending.next_attempt_at > self.clock()

    def _announced(self, row: GameRow, announcement_id: int, reply: ReplyTo | None) -> None:
        """Remember the action just committed here: the next one waits for its reply, without asking the outbox."""
        self._announcing.put(row.id, Announcing(row.ply, announcement_id, self.clock() + self._grace(reply)))

    def delivered(self, game_id: int | None, announcement_id: int, message_id: int | None) -> None:
        """The acting member's reply carried this announcement of ``game_id``: the game may go on at once. The
        mark is written by one background task, with the marks of the replies sent meanwhile, in one transaction.
        Were the process to die first, the outbox worker finds the reply through its interaction and only marks
        it, as for a reply whose mark failed."""
        known = None if game_id is None else self._announcing.get(game_id)
        if known is not None and known.announcement_id == announcement_id:
            known.delivered = True
        self._deliveries.append((announcement_id, message_id))
        if self._marking is None or self._marking.done():
            self._marking = asyncio.create_task(self._write_deliveries(), name="mark announcements delivered")

    async def _write_deliveries(self) -> None:
        while self._deliveries:
            batch, self._deliveries = self._deliveries, []
            try:
                await self.db.mark_all_delivered(batch, time.time())
            except Exception:  # the outbox worker will find these replies and mark them
                log.exception("Could not mark %d announcements delivered", len(batch))

    async def flush_deliveries(self) -> None:
        """Wait until every delivery noted so far is written (before closing the database)."""
        while self._marking is not None and not self._marking.done():
            await asyncio.gather(self._marking, return_exceptions=True)

    def _grace(self, reply: ReplyTo | None) -> float:
        return self.settings.announce_grace if reply is not None else 0.0

    def _announce(self, kind: ReportKind, played: list[PlayedMove], user_id: int, reply: ReplyTo | None) -> Announce:
        payload = {
            "played": [[p.move, p.player, p.kind] for p in played],
            "by": user_id,
            "reply": _reply_payload(reply),
        }
        return Announce(AnnouncementKind(kind), payload, delay=self._grace(reply))

    async def announcement_report(self, announcement: AnnouncementRow) -> Report:
        """The report a move announcement tells, rebuilt from the database (after a restart, say): the game
        as it stood at the announcement's ply, the moves it announces and, when that ended the game, the
        result and the rating changes."""
        row = await self.row(announcement.game_id)
        ply = row.ply if announcement.ply is None else announcement.ply
        state = await self.position(row, ply)
        played = [
            PlayedMove(move, player, MoveKind(kind)) for move, player, kind in announcement.payload.get("played", [])
        ]
        finish = None
        if row.status == GameStatus.FINISHED and ply == row.ply and announcement.kind != AnnouncementKind.START:
            assert row.result_reason is not None and row.scores is not None
            changes = {
                user: (Rating(before).shown, Rating(after).shown)
                for user, (before, after) in (await self.db.rating_changes(row.id)).items()
            }
            finish = Finish(row.winner, row.result_reason, row.scores, changes)
        kind = ReportKind(announcement.kind)
        return Report(row, state, played, finish, announcement.id, kind, announcement.payload.get("by"))

    @staticmethod
    def _rate(row: GameRow, old: dict[int, RatingRow | None]) -> dict[int, NewRating]:
        """The settle callback: new ratings from the ones the finishing transaction read and locked (so two games
        of one player finishing at once both count). Pure, as it runs while those rows are locked."""
        stored = [old[user] for user in row.players]
        before = [Rating() if r is None else Rating(r.mu, r.sigma, r.rated_games) for r in stored]
        after = rate((before[0], before[1]), row.winner)
        return {u: NewRating(a.mu, a.sigma, b.mu) for u, b, a in zip(row.players, before, after, strict=True)}

    @staticmethod
    def _settle(row: GameRow, settlement: Settlement) -> Finish:
        """The finish report: the result and, for rated games, each player's shown rating before and after. The
        records and ratings were written with the result, in the same transaction."""
        assert row.result_reason is not None and row.scores is not None
        changes = {
            user: ((Rating() if before is None else Rating(before.mu)).shown, Rating(after.mu).shown)
            for user, (before, after) in settlement.ratings.items()
        }
        return Finish(row.winner, row.result_reason, row.scores, changes)

    async def warm_up(self) -> None:
        """Draw each game's start once, so the renderers' cached layers are built before the first move (in each
        drawing process, when there are some)."""
        await self.drawer.warm_up()

    async def render_board(self, row: GameRow, state: GameState, names: tuple[str, str], locale: Any = None) -> bytes:
        """The board image as PNG, its words in ``locale``'s language, drawn in a worker process (or thread) so the
        event loop never waits on Pillow."""
        async with self._render_slots:
            return await self.drawer.draw(games.find(row.game), state, names, language_of(locale))

    def game_lock(self, game_id: int) -> Any:
        """The lock every action on a game takes in this process (other processes: the database's guards)."""
        return self._locks(game_id)

    def forget_state(self, game_id: int) -> None:
        """Drop a game's cached state, after a change made outside the moves (an admin's cancel)."""
        self._states.pop(game_id)

    # --- per-server settings ----------------------------------------------------------------------

    async def settings_for(self, guild_id: int) -> GuildSettings:
        """A server's settings: its admins' choices over the environment's defaults. Read again after
        ``SETTINGS_TTL`` seconds, so a change made by any process applies everywhere almost at once."""
        cached = self._guild_settings.get(guild_id)
        now = time.monotonic()
        if cached is not None and cached[0] > now:
            return cached[1]
        defaults = Defaults(
            self.settings.challenge_ttl / 60, self.settings.reminder_after / 3600, self.settings.threads
        )
        merged = merge(defaults, await self.db.guild_settings(guild_id), [entry.name for entry in games.entries()])
        self._guild_settings.put(guild_id, (now + SETTINGS_TTL, merged))
        return merged

    async def change_settings(self, guild_id: int, admin_id: int, **changes: Any) -> GuildSettings:
        """Change some of a server's settings (audited); bounds are checked here, whatever the caller sent."""
        current = await self.db.guild_settings(guild_id)
        values: dict[str, Any] = {}
        for name, value in changes.items():
            if name == "game":  # (game, enabled)
                game, enabled = value
                games.find(game)  # an unknown name raises KeyError: the cog offers registry choices only
                disabled = set(current["disabled_games"] or ()) - {game} | (set() if enabled else {game})
                values["disabled_games"] = sorted(disabled)
            elif name == "channel":  # (channel id, allowed)
                channel, allowed = value
                channels = set(current["allowed_channels"] or ()) - {str(channel)} | (
                    {str(channel)} if allowed else set()
                )
                values["allowed_channels"] = sorted(channels) or None
            elif name == "challenge_minutes":
                values[name] = _bounded(
                    value,
                    CHALLENGE_MINUTES,
                    UserError(
                        "Choose between {low} and {high} minutes.", low=CHALLENGE_MINUTES[0], high=CHALLENGE_MINUTES[1]
                    ),
                )
            elif name == "reminder_hours":
                values[name] = _bounded(
                    value,
                    REMINDER_HOURS,
                    UserError("Choose between {low} and {high} hours.", low=REMINDER_HOURS[0], high=REMINDER_HOURS[1]),
                )
            elif name == "threads":
                values[name] = bool(value)
            else:
                raise ValueError(name)
        details = {name: list(value) if isinstance(value, tuple) else value for name, value in changes.items()}
        await self.db.update_guild_settings(guild_id, admin_id, values, self.clock(), details)
        self._guild_settings.pop(guild_id)
        return await self.settings_for(guild_id)

    # --- ratings, reminders ----------------------------------------------------------------------

    async def rating(self, guild_id: int, game: str, user_id: int) -> Rating:
        stored = await self.db.rating(guild_id, game, user_id)
        return Rating() if stored is None else Rating(stored.mu, stored.sigma, stored.rated_games)

    async def leaderboard(self, guild_id: int, game: str, limit: int = 10) -> list[tuple[int, Rating]]:
        rows = await self.db.leaderboard(guild_id, game, limit)
        return [(r.user_id, Rating(r.mu, r.sigma, r.rated_games)) for r in rows]

    async def stats(self, guild_id: int, user_id: int) -> list[tuple[str, int, int, int, Rating]]:
        return [
            (r.game, r.wins, r.losses, r.draws, await self.rating(guild_id, r.game, user_id))
            for r in await self.db.records_of(guild_id, user_id)
        ]

    async def due_reminders(self, guild_ids: list[int] | None = None) -> list[tuple[GameRow, int]]:
        """Active games whose player to act has been idle past the reminder time and not yet reminded:
        (game, user id to remind). Each game is reminded once per idle spell, even with several processes:
        :meth:`Database.claim_reminder` gives each reminder to one caller, and writes it to the outbox with the
        claim, so a failed post can be retried from there."""
        due = []
        now = self.clock()
        for row in await self.db.idle_games(now - self.settings.reminder_after, guild_ids=guild_ids, now=now):
            state = await self.state(row)
            user_id = self._acting(row, state)
            idle_since = row.last_move_at or row.created_at
            hours = (await self.settings_for(row.guild_id)).reminder_hours
            # The claim deadline (twice the reminder time) as a time, so each reader sees it in their own zone.
            payload = {"user_id": user_id, "hours": round(hours), "claim_at": idle_since + 2 * hours * 3600}
            if await self.db.claim_reminder(row.id, idle_since, now, payload):
                due.append((row, user_id))
        return due


def _bounded(value: int, bounds: tuple[int, int], refusal: UserError) -> int:
    if not bounds[0] <= value <= bounds[1]:
        raise refusal
    return value


def _reply_payload(reply: ReplyTo | None) -> dict[str, Any] | None:
    if reply is None:
        return None
    return {"application_id": reply.application_id, "token": reply.token, "created_at": reply.created_at}
