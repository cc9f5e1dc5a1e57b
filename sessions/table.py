"""What every part of the session service shares: the settings, the clock and the dice, one lock per game, the
replayed states, and loading a game and its log (the one repository the table holds: the games').

Only the service's own parts hold the table; the cogs see :class:`sessions.service.GameService`. The clock and the
dice are read from here at each use, so a test that sets ``service.clock`` or ``service.draw`` sets them for every
part.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from engines import GameState
from sessions.events import EventBus
from sessions.memory import KeyedLocks, LruCache
from sessions.model import Game, GameStatus, UserError
from sessions.move_log import replay
from storage.database import GameRepository

MAX_GAME_ID = 2**63 - 1  # the database's integer range; larger ids cannot exist
STATE_CACHE_SIZE = 1024  # games in play whose replayed state is kept; the rest replay from the log


@dataclass(frozen=True)
class Settings:
    """The operator's choices (from the environment), for every server that chose nothing else."""

    challenge_ttl: float = 15 * 60
    reminder_after: float = 24 * 60 * 60
    # How long the process that committed an action has to announce it in its own reply, before any process's
    # outbox worker may take the announcement over (Discord answers within 3 s, or never).
    announce_grace: float = 10.0
    # Whether games get their own thread where a server's admins chose nothing (GAME_THREADS).
    threads: bool = True
    ai_move_seconds: float | None = None  # a cap on the bot's thinking time at every level (tests, small hosts)
    render_workers: int = 0  # processes that draw the boards; 0: threads of this process (sessions/drawing.py)
    analysis_seconds: float = 10.0  # search time for analysing a whole game, shared by its positions
    puzzle_seconds: float = 16.0  # mining's strongest search per position: ten times level 4's 1.6 s
    mine_puzzles: bool = True  # mine finished games for puzzles as they end (PUZZLE_MINING)


class Table:
    def __init__(
        self, games: GameRepository, settings: Settings, clock: Callable[[], float], draw: Callable[[list[str]], str]
    ) -> None:
        self._games = games  # read here only: a part that writes games is handed the repository itself
        self.settings = settings
        self.clock = clock
        self.draw = draw  # chance outcomes come from here only, so tests can load the dice
        self.events = EventBus()  # what a part committed, for the parts that follow it (sessions/events.py)
        self.locks: KeyedLocks[int] = KeyedLocks()  # the lock every action on a game takes in this process
        self._states: LruCache[int, tuple[int, GameState]] = LruCache(STATE_CACHE_SIZE)  # game -> (ply, state)

    async def game(self, game_id: int, guild_id: int | None = None) -> Game:
        """A game by id; with ``guild_id``, only a game of that server (another server's id is not found)."""
        # Any payload is safe: an id that is no integer (a forged "12") names no game.
        valid = isinstance(game_id, int) and not isinstance(game_id, bool) and 0 < game_id <= MAX_GAME_ID
        row = await self._games.game(game_id) if valid else None
        if row is None or (guild_id is not None and row.guild_id != guild_id):
            raise UserError("I cannot find game #{id}.", id=game_id)
        return Game.of(row)

    async def state(self, game: Game) -> GameState:
        """The engine state of a game: the replay of its move log, cached per ply of the log."""
        cached = self._states.get(game.id)
        if cached is not None and cached[0] == game.ply:
            return cached[1].copy()
        state = self.replay(game, await self._games.moves(game.id))
        self._states.put(game.id, (game.ply, state.copy()))
        return state

    @staticmethod
    def replay(game: Game, log: list[str]) -> GameState:
        member_side = None if game.ai_side is None else 1 - game.ai_side
        return replay(game.entry, game.options, log, member_side)

    async def moves(self, game_id: int) -> list[str]:
        """A game's log as stored: every move, dice and takebacks included."""
        return await self._games.moves(game_id)

    async def position(self, game: Game, ply: int) -> GameState:
        """The game as it stood after ``ply`` entries of its log (0: the start), for replays."""
        return self.replay(game, (await self._games.moves(game.id))[: max(0, ply)])

    async def positions(self, game: Game) -> list[GameState]:
        """Every position of the game, the start first: one more than the entries of its log."""
        log = await self._games.moves(game.id)
        return [self.replay(game, log[:ply]) for ply in range(len(log) + 1)]

    def remember(self, game_id: int, ply: int, state: GameState) -> None:
        """The state a commit of this process left the game in."""
        self._states.put(game_id, (ply, state.copy()))

    def forget(self, game_id: int) -> None:
        """Drop a game's cached state: it ended, a write was refused, or it changed outside the moves."""
        self._states.pop(game_id)

    def is_current(self, game: Game) -> bool:
        """Whether ``game`` is as this process's own last commit left it (then it need not be read again)."""
        cached = self._states.get(game.id)
        return game.status == GameStatus.ACTIVE and cached is not None and cached[0] == game.ply

    def held(self) -> tuple[int, int]:
        """How many games' states and locks this process holds now (both bounded: bench/memory.py)."""
        return len(self._states), len(self.locks)
