"""The session service: named parts, each doing one thing, built and wired here; the cogs call the parts.

It is the only place that combines engines, storage, rendering and the AI, and it knows nothing of Discord: a cog
calls a part with plain ids and text (``service.turns.play(...)``) and turns its report (or its ``UserError``) into
a reply. Every type a cog names is in :mod:`sessions.model`. A part commits an action and its announcement in one
transaction, then publishes what happened (:mod:`sessions.events`); the parts that follow it subscribe here. The
parts, each a module of its own, readable in one sitting, with its own tests:

    finder           sessions/finding.py          a game and how it stands; which game a command means; game lists
    server_settings  sessions/server_settings.py  a server's settings, and its admins' changes
    ratings          sessions/ratings.py          the ratings a finish writes; leaderboards and stats
    announcements    sessions/announcements.py    what an action announces, and this process's own replies
    delivery         sessions/delivery.py         the outbox: claim, lease, deliver through the Discord layer, retry
    challenges       sessions/challenges.py       offered, declined, withdrawn, expired; rematches; the bot's games
    open_challenges  sessions/open_challenges.py  accepting a challenge, the open seat anyone may take
    turns            sessions/turns.py            moves, dice, resignations, timeout claims, reminders
    clocks           sessions/clocks.py           a clocked game's reminder before its time runs out, loss on time
    aborts           sessions/aborts.py           a player's abort of a game that has barely begun
    computer         sessions/computer.py         the bot's own turns, hints, takebacks and analyses
    boards           sessions/boards.py           board images, their words, animations, standings pictures
    game_records     sessions/game_records.py     a game as a record file, and reading one back
    admin            sessions/admin.py            an admin's cancels, resets and forgets, and the audit log
    tournaments      sessions/tournaments.py      sign-up, the rounds the bot pairs, standings, removals, cancels
    seasons          sessions/seasons.py          a server's seasons: their ratings, boards and rollover
    lessons          sessions/lessons.py          each member's place in each game's course
    puzzles          sessions/puzzles/solving.py  solving and rating puzzles
    puzzle_mining    sessions/puzzles/mining.py   mining finished games for puzzles, in a niced worker
    daily_puzzles    sessions/puzzles/daily.py    each server's daily puzzle, posted once
    housekeeping     sessions/housekeeping.py     the chores no action starts, swept every minute

What they share (the settings, the clock, the dice, the per-game locks, the replayed states, the event bus) is the
``Table`` (sessions/table.py); each part receives only the storage repositories it uses.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable
from pathlib import Path

from puzzles.mining import Budgets
from sessions.aborts import Aborts
from sessions.admin import AdminActions
from sessions.announcements import Announcements
from sessions.boards import Boards
from sessions.challenges import Challenges
from sessions.clocks import Clocks
from sessions.computer import ComputerPlayer
from sessions.delivery import Delivery
from sessions.drawing import Drawer
from sessions.events import BotMoved, BotToMove, GameFinished, Owed, RoundComplete, SeasonOver
from sessions.finding import Finder
from sessions.game_records import GameRecords
from sessions.housekeeping import Housekeeping
from sessions.lessons import Lessons
from sessions.model import Deliver
from sessions.open_challenges import OpenChallenges
from sessions.puzzles.daily import DailyPuzzles
from sessions.puzzles.mining import PuzzleMining
from sessions.puzzles.solving import Puzzles
from sessions.ratings import Ratings
from sessions.seasons import Seasons
from sessions.server_settings import ServerSettings
from sessions.table import Settings, Table
from sessions.thinking import Thinker
from sessions.tournaments import Tournaments
from sessions.turns import Turns
from storage.database import Database, DatabaseUnavailable
from storage.engine import DEFAULT_URL as DEFAULT_DATABASE_URL
from storage.engine import shown_url


class GameService:
    """The session service: its parts, built once and wired to each other. The cogs call the parts themselves
    (``service.turns.play(...)``); nothing here answers a call on a part's behalf."""

    def __init__(
        self,
        db: Database,
        settings: Settings | None = None,
        clock: Callable[[], float] = time.time,
        draw: Callable[[list[str]], str] = secrets.choice,
    ) -> None:
        self._db = db  # closed here; each part is handed the repositories it reads and writes, and no other
        table = self._table = Table(db.games, settings or Settings(), clock, draw)
        self._drawer = Drawer(table.settings.render_workers)
        self.finder = Finder(table, db.games)
        self.server_settings = ServerSettings(table, db.admin)
        self.ratings = Ratings(db.ratings)
        self.announcements = Announcements(table, db.outbox)
        self.delivery = Delivery(table, db.outbox, self.ratings)
        self.challenges = Challenges(table, db.challenges, self.announcements, self.server_settings)
        self.open_challenges = OpenChallenges(
            table, db.challenges, self.announcements, self.challenges, self.ratings, self.server_settings
        )
        self.turns = Turns(table, db.games, self.announcements, self.ratings, self.server_settings)
        self.clocks = Clocks(table, db.games, self.turns)
        self.aborts = Aborts(table, db.games)
        thinker = Thinker(budget=table.settings.ai_move_seconds)
        self.computer = ComputerPlayer(table, db.games, self.turns, self.announcements, thinker)
        self.boards = Boards(table, self._drawer)
        self.game_records = GameRecords(table)
        self.admin = AdminActions(table, db.admin, db.outbox)
        self.tournaments = Tournaments(
            table, db.tournaments, self.ratings, self.turns, self.announcements, self.server_settings, self._drawer.run
        )
        self.seasons = Seasons(table, db.seasons)
        self.lessons = Lessons(table, db.lessons)
        self.puzzles = Puzzles(table, db.puzzles, thinker)
        self.puzzle_mining = PuzzleMining(table, db.puzzle_mining, Budgets.deep_seconds(table.settings.puzzle_seconds))
        self.daily_puzzles = DailyPuzzles(table, db.daily_puzzles, db.puzzles, self.delivery.worker)
        self.housekeeping = Housekeeping(
            table, self.challenges, self.turns, self.clocks, self.tournaments, self.seasons, self.computer
        )

        # What follows a commit, decided here: each part publishes what it did, these follow it.
        events = table.events
        events.subscribe(BotToMove, self.computer.take_turn)
        events.subscribe(BotMoved, self.delivery.on_bot_moved)
        events.subscribe(GameFinished, self.tournaments.follow_finish)
        events.subscribe(GameFinished, self.seasons.follow_finish)
        if table.settings.mine_puzzles:
            events.subscribe(GameFinished, self.puzzle_mining.follow_finish)
        for owed in (Owed, RoundComplete, SeasonOver):
            events.subscribe(owed, self.delivery.on_owed)

    @classmethod
    async def open(cls, url: str | Path, settings: Settings | None = None) -> GameService:
        """The service on the database at ``url`` (migrated first)."""
        return cls(await Database.open(url), settings)

    def start(self, deliver: Deliver, guilds: Callable[[], list[int]]) -> None:
        """Follow every commit from now on (the bot's turns, the next rounds, mining, delivering what is owed),
        delivering with ``deliver`` (the Discord layer's requests for one notice) in the servers ``guilds()``
        names (this process's). Before this, the parts only do what they are asked (the tests of one part)."""
        self.delivery.attach(deliver, guilds)
        self._table.events.start()

    async def stop(self) -> None:
        """Follow no more commits: what follows them now (a bot's turn, a delivery) may finish for a moment, the
        rest is cancelled and left to the next sweep. Before the Discord client closes: they deliver through it."""
        await self._table.events.stop()

    async def close(self) -> None:
        """Stop following commits, stop the worker pools, write the deliveries still queued, and close the
        database."""
        await self.stop()
        self.computer.thinker.close()
        self.puzzle_mining.close()
        self._drawer.close()
        await self.announcements.flush()
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

    def held(self) -> tuple[int, int]:
        """How many games' states and locks this process holds now (both bounded: bench/memory.py)."""
        return self._table.held()


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


__all__ = ["DEFAULT_DATABASE_URL", "DatabaseUnavailable", "GameService", "Settings", "database_problem"]
