"""The session service: the one door the cogs use, in front of named parts that each do one thing.

It is the only place that combines engines, storage, rendering and the AI, and it knows nothing of Discord: cogs
call it with plain ids and text and turn its reports (or its :class:`UserError`) into replies. Each part is a
module of its own, readable in one sitting, with its own tests:

    Table           sessions/table.py          settings, clock and dice; per-game locks and states; a game and its log
    ServerSettings  sessions/guild_settings.py a server's settings, and its admins' changes
    Records         sessions/records.py        the ratings a finish writes; leaderboards and stats
    Announcements   sessions/announcements.py  what an action announces, and this process's own replies
    Challenges      sessions/challenges.py     offered, accepted, declined, withdrawn, expired; rematches
    Turns           sessions/turns.py          moves, dice, resignations, timeout claims, reminders
    ComputerPlayer  sessions/computer.py       the bot's own turns, hints, takebacks and analyses
    Finder          sessions/finding.py        which game a command means; the server's game lists
    Delivery        sessions/delivery.py       the outbox worker's claim, lease, retry and give-up
    Drawer          sessions/drawing.py        board images and animations, drawn in worker processes
    AdminActions    sessions/admin.py          an admin's cancels, resets and forgets, and the audit log
    Aborts          sessions/abort.py          a player's abort of a game that has barely begun
    OpenChallenges  sessions/open_challenges.py challenges anyone may accept, the first to press Accept plays
    Clocks          sessions/clocks.py         a clocked game's reminder before its time runs out, loss on time
    Tournaments     sessions/tournaments.py    sign-up, the rounds the bot pairs, standings, removals, cancels
    Seasons         sessions/seasons.py        a server's seasons: their ratings, boards and rollover

This class builds them and names, once, which part answers each call; each part is handed the storage repositories
it uses (``db.games``, ``db.outbox``, ...), and no other.
"""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import games
from engines import GameState
from locales import language_of
from puzzles.mining import Budgets
from render.standings import render as render_standings
from sessions.abort import Aborts
from sessions.admin import AdminActions
from sessions.announcements import Announcements
from sessions.challenges import MAX_OPEN_CHALLENGES, Challenges
from sessions.clocks import Clocks
from sessions.computer import BotCannotMove, ComputerPlayer
from sessions.daily_puzzles import DailyPuzzles
from sessions.delivery import Bulletin, Delivery, Notice
from sessions.drawing import Drawer
from sessions.finding import Finder
from sessions.game import Finish, Game, PlayedMove, ReplyTo, Report
from sessions.guild_settings import ServerSettings
from sessions.lessons import LessonPage, Lessons
from sessions.open_challenges import OpenChallenges
from sessions.puzzle_mining import PuzzleMining
from sessions.puzzles import Puzzles
from sessions.records import Records
from sessions.refusal import UserError
from sessions.seasons import Seasons
from sessions.table import Settings, Table
from sessions.thinking import Thinker
from sessions.tournaments import Tournaments, TournamentView, standings_picture
from sessions.turns import Turns
from sessions.vocabulary import Ending
from sessions.words import alt_text, animation_alt_text, text_board
from storage.database import Database, DatabaseUnavailable
from storage.engine import DEFAULT_URL as DEFAULT_DATABASE_URL
from storage.engine import shown_url


class GameService:
    def __init__(
        self,
        db: Database,
        settings: Settings | None = None,
        clock: Callable[[], float] = time.time,
        draw: Callable[[list[str]], str] = secrets.choice,
    ) -> None:
        self._db = db  # closed here; each part is handed the repositories it reads and writes, and no other
        table = self._table = Table(db.games, settings or Settings(), clock, draw)
        server_settings = ServerSettings(table, db.admin)
        records = Records(db.ratings)
        announcements = self._announcements = Announcements(table, db.outbox)
        challenges = Challenges(table, db.challenges, announcements, server_settings)
        turns = Turns(table, db.games, announcements, records, server_settings)
        computer = ComputerPlayer(table, db.games, turns, announcements, Thinker(budget=table.settings.ai_move_seconds))
        finder = Finder(table, db.games)
        delivery = Delivery(table, db.outbox, records)
        self._computer = computer
        self.drawer = Drawer(table.settings.render_workers)
        self.admin = AdminActions(table, db.admin, db.outbox)
        open_challenges = OpenChallenges(table, db.challenges, announcements, challenges, records, server_settings)
        clocks = Clocks(table, db.games, turns)
        self.tournaments = Tournaments(
            table, db.tournaments, records, turns, announcements, server_settings, self.drawer.run
        )
        self.seasons = Seasons(table, db.seasons)
        aborts = Aborts(table, db.games)
        self.lessons = Lessons(table, db.lessons)
        # Puzzles (issue 20): solving and rating, mining finished games, the daily puzzle. The cogs use them as
        # parts, like ``admin``.
        self.puzzles = Puzzles(table, db.puzzles, computer.thinker)
        self.puzzle_mining = PuzzleMining(table, db.puzzle_mining, Budgets.deep_seconds(table.settings.puzzle_seconds))
        self.daily_puzzles = DailyPuzzles(table, db.daily_puzzles, db.puzzles, delivery.worker)

        # Which part answers each call.
        self.game, self.state, self.moves = table.game, table.state, table.moves
        self.position, self.positions = table.position, table.positions
        self.find_game, self.finished_game = finder.find_game, finder.finished_game
        self.game_list, self.games_for_choice = finder.game_list, finder.games_for_choice
        self.challenge, self.rematch, self.challenge_computer = (
            challenges.challenge,
            challenges.rematch,
            challenges.challenge_computer,
        )
        self.rematch_computer = challenges.rematch_computer
        self.offer_open, self.open_challenges = open_challenges.offer, open_challenges.listed
        self.accept, self.decline, self.cancel = open_challenges.accept, challenges.decline, challenges.cancel
        self.expire_challenges, self.challenge_posted = challenges.expire_challenges, challenges.posted
        self.play, self.roll, self.resign, self.claim = turns.play, turns.roll, turns.resign, turns.claim
        self.due_reminders, self.run_clocks = turns.due_reminders, clocks.run
        self.abort, self.can_abort = aborts.abort, aborts.can_abort
        self.bot_games_to_move, self.play_for_bot = computer.games_to_move, computer.play
        self.takeback, self.hint, self.analyse = computer.takeback, computer.hint, computer.analyse
        self.analyse_moves = computer.analyse_moves
        self.sending, self.delivered, self.flush_deliveries = (
            announcements.sending,
            announcements.delivered,
            announcements.flush,
        )
        self.follow_thread, self.release_held = announcements.follow_thread, announcements.release_held
        self.deliver_due, self.deliver_reports = delivery.deliver_due, delivery.deliver_reports
        self.settings_for, self.change_settings = server_settings.settings_for, server_settings.change
        self.rating, self.leaderboard, self.stats = records.rating, records.leaderboard, records.stats
        self.results_against_bot = records.results_against_bot

    @classmethod
    async def open(cls, url: str | Path, settings: Settings | None = None) -> GameService:
        """The service on the database at ``url`` (migrated first)."""
        return cls(await Database.open(url), settings)

    async def close(self) -> None:
        """Stop the worker pools, write the deliveries still queued, and close the database."""
        self._computer.thinker.close()
        self.puzzle_mining.close()
        self.drawer.close()
        await self._announcements.flush()
        await self._db.close()

    @property
    def settings(self) -> Settings:
        return self._table.settings

    @property
    def clock(self) -> Callable[[], float]:
        return self._table.clock

    @clock.setter
    def clock(self, clock: Callable[[], float]) -> None:
        self._table.clock = clock

    @property
    def draw(self) -> Callable[[list[str]], str]:
        return self._table.draw

    @draw.setter
    def draw(self, draw: Callable[[list[str]], str]) -> None:
        self._table.draw = draw

    async def warm_up(self) -> None:
        """Draw each game's start once, so the renderers' cached layers are built before the first move (in each
        drawing process, when there are some)."""
        await self.drawer.warm_up()

    async def render_board(
        self, game: Game, state: GameState, names: tuple[str, str], locale: Any = None, **marks: Any
    ) -> bytes:
        """The board image as PNG, its words in ``locale``'s language; ``marks``: the renderer's layout and marks
        (docs/boards.md)."""
        return await self.drawer.draw(games.find(game.name), state, names, language_of(locale), marks)

    async def render_position(
        self, game: str, state: GameState, names: tuple[str, str], locale: Any = None, **marks: Any
    ) -> bytes:
        """A position of no stored game (a lesson's) as PNG, with the renderer's marks (docs/boards.md)."""
        return await self.drawer.draw(games.find(game), state, names, language_of(locale), marks)

    async def animation(self, game: Game, names: tuple[str, str], locale: Any = None) -> tuple[bytes, int]:
        """The whole game as a looping GIF and its frame count: the start, then a frame per move in force (a
        takeback's undone moves are not shown), a die's roll shown with the move it was rolled for."""
        states = frames_of(games.find(game.name), game.options, (await self._table.state(game)).moves)
        gif = await self.drawer.animation(games.find(game.name), states, names, language_of(locale))
        return gif, len(states)

    async def standings_image(
        self, view: TournamentView, names: dict[int, str], subtitle: str, locale: Any = None
    ) -> bytes:
        """A tournament's standings as PNG (``names``: each player's display name), drawn like the boards, off
        the event loop, its headings in ``locale``'s language."""
        return await self.drawer.run(render_standings, standings_picture(view, names, subtitle), language_of(locale))

    async def describe_board(
        self, game: Game, state: GameState, names: tuple[str, str], locale: Any = None, last_move: str | None = None
    ) -> str:
        """What a screen reader says for the board image of ``state`` (its attachment's description), in
        ``locale``'s language: written in a thread, as a 19x19 board's words take a few milliseconds."""
        entry, language = games.find(game.name), language_of(locale)
        return await asyncio.to_thread(alt_text, entry, state.copy(), names, language, last_move)

    async def describe_position(
        self, game: str, state: GameState, names: tuple[str, str], locale: Any = None, last_move: str | None = None
    ) -> str:
        """:meth:`describe_board` for a position of no stored game (a lesson's, a puzzle's)."""
        entry, language = games.find(game), language_of(locale)
        return await asyncio.to_thread(alt_text, entry, state.copy(), names, language, last_move)

    async def describe_animation(self, game: Game, frames: int, names: tuple[str, str], locale: Any = None) -> str:
        """The description of the game's animation (:meth:`animation`): what it is, then its last position."""
        entry, state = games.find(game.name), await self._table.position(game, game.ply)
        return await asyncio.to_thread(animation_alt_text, entry, game.id, frames, state, names, language_of(locale))

    async def board_text(self, game: Game, state: GameState, names: tuple[str, str], locale: Any = None) -> str:
        """The position as one message in ``locale``'s language (``/<game> board text:true``)."""
        entry, language = games.find(game.name), language_of(locale)
        return await asyncio.to_thread(text_board, entry, state.copy(), names, language)

    def held(self) -> tuple[int, int]:
        """How many games' states and locks this process holds now (both bounded: bench/memory.py)."""
        return self._table.held()


def frames_of(entry: games.GameEntry, options: dict[str, Any], moves: list[str]) -> list[GameState]:
    """The positions a replay animation shows: the start, and the position after each move a player made; a
    chance outcome (a die) gets no frame of its own: the next frame shows it with the move it was rolled for."""
    state = entry.new_game(**options)
    frames = [state.copy()]
    for move in moves:
        chance = state.chance
        state.play(move)
        if not chance:
            frames.append(state.copy())
    if frames[-1].moves != state.moves:  # a game that stops on a roll still ends on its last position
        frames.append(state.copy())
    return frames


def database_problem(url: str, error: Exception) -> str:
    """Why the database at ``url`` cannot be opened, in one line that names it (its password hidden)."""
    shown = shown_url(url)
    cause = error.__cause__ if isinstance(error, DatabaseUnavailable) and error.__cause__ else error
    reason = (str(cause).strip().splitlines() or [type(cause).__name__])[0]
    if isinstance(error, DatabaseUnavailable):
        return (
            f"Cannot open the database {shown} ({error.reason}): {reason}. "
            "Check DATABASE_URL and that the database server is running and reachable."
        )
    if isinstance(error, ValueError):  # a URL of a database the bot does not support
        return f"DATABASE_URL={shown} cannot be used: {reason}"
    return f"Cannot open the database {shown}: {type(cause).__name__}: {reason}. Check DATABASE_URL."


__all__ = [
    "DEFAULT_DATABASE_URL",
    "MAX_OPEN_CHALLENGES",
    "BotCannotMove",
    "Bulletin",
    "DatabaseUnavailable",
    "Ending",
    "Finish",
    "Game",
    "GameService",
    "LessonPage",
    "Notice",
    "PlayedMove",
    "ReplyTo",
    "Report",
    "Settings",
    "UserError",
]
