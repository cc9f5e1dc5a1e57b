"""Finding games: a game by id and how it stands (its state, its log, any earlier position); which game a command
means (the chosen one, else the caller's only game of that kind here); the finished game a member asks about; the
lists of a server's games; and the choices a command's ``game`` option offers."""

from __future__ import annotations

from engines import GameState
from sessions.model import Game, GameStatus, UserError, title_of
from sessions.table import Table
from storage.database import GameRepository


class Finder:
    def __init__(self, table: Table, games: GameRepository) -> None:
        self._table = table
        self._games = games

    async def game(self, game_id: int, guild_id: int | None = None) -> Game:
        """A game by id; with ``guild_id``, only a game of that server (another server's id is not found)."""
        return await self._table.game(game_id, guild_id)

    async def state(self, game: Game) -> GameState:
        """The game's position now (replayed from its log, cached per ply)."""
        return await self._table.state(game)

    async def moves(self, game_id: int) -> list[str]:
        """A game's log as stored: every move, dice and takebacks included."""
        return await self._table.moves(game_id)

    async def position(self, game: Game, ply: int) -> GameState:
        """The game as it stood after ``ply`` entries of its log (0: the start), for replays."""
        return await self._table.position(game, ply)

    async def positions(self, game: Game) -> list[GameState]:
        """Every position of the game, the start first."""
        return await self._table.positions(game)

    async def find_game(
        self,
        game: str,
        user_id: int,
        guild_id: int,
        channel_id: int,
        game_id: int | None = None,
        *,
        spectate: bool = False,
        to_act: bool = False,
    ) -> Game:
        """The game a command acts on: the chosen one (of this server), else the caller's only game of this
        kind here; with ``to_act``, of several, the only one waiting for the caller (a move goes where it is their
        turn). With ``spectate``, anyone may look at any game of this server."""
        title = title_of(game)
        if game_id is not None:
            found = await self._table.game(game_id, guild_id)
            if found.name != game or (not spectate and user_id not in found.players):
                raise UserError("Game #{id} is not one of your {title} games.", id=game_id, title=title)
            return found
        mine = [Game.of(row) for row in await self._games.active_games_of(user_id, channel_id) if row.game == game]
        if len(mine) > 1 and to_act:
            waiting = [found for found in mine if await self._waits_for(found, user_id)]
            mine = waiting if len(waiting) == 1 else mine
        if len(mine) == 1:
            return mine[0]
        if len(mine) > 1:
            raise UserError("You have several {title} games here: choose one with the game option.", title=title)
        if spectate:
            here = await self._games.active_games(guild_id=guild_id, channel_id=channel_id, game=game)
            if len(here) == 1:
                return Game.of(here[0])
            if len(here) > 1:
                raise UserError("Several {title} games are on here: choose one with the game option.", title=title)
        raise UserError(
            "You have no {title} game in this channel. Start one with /{game} challenge.", title=title, game=game
        )

    async def finished_game(self, game: str, user_id: int, guild_id: int, game_id: int | None) -> Game:
        """The finished game a member asks about: the chosen one, else their last finished game of this kind."""
        if game_id is not None:
            found = await self._table.game(game_id, guild_id)
            if found.name != game or user_id not in found.players:
                raise UserError("Game #{id} is not one of your {title} games.", id=game_id, title=title_of(game))
            return found
        finished = await self._games.games_with_status(GameStatus.FINISHED, guild_ids=[guild_id])
        mine = [Game.of(row) for row in finished if user_id in row.players and row.game == game]
        if not mine:
            raise UserError("You have no finished {title} game here yet.", title=title_of(game))
        return max(mine, key=lambda found: found.finished_at or 0.0)

    async def game_list(
        self, guild_id: int, user_id: int | None, page: int, per_page: int
    ) -> tuple[list[tuple[Game, GameState]], int]:
        """One page of the server's active games with their states, and the number of pages. With ``user_id``,
        that member's games only, those waiting for them first (whose turn it is needs the states, so the
        member's games are ordered here; a member has few); else the newest first, paged in SQL."""
        if user_id is None:
            rows, total = await self._games.guild_games(guild_id, limit=per_page, offset=page * per_page)
            listed = [(game, await self._table.state(game)) for game in map(Game.of, rows)]
        else:
            rows, total = await self._games.guild_games(guild_id, user_id=user_id)
            every = [(game, await self._table.state(game)) for game in map(Game.of, rows)]
            every.sort(key=lambda pair: pair[0].player_to_act(pair[1]) != user_id)  # stable: newest first within
            listed = every[page * per_page : (page + 1) * per_page]
        return listed, max(1, -(-total // per_page))

    async def _waits_for(self, game: Game, user_id: int) -> bool:
        return (await self._table.state(game)).to_act == game.side_of(user_id)

    async def games_for_choice(self, game: str, user_id: int, channel_id: int, *, mine_only: bool = True) -> list[Game]:
        """Candidates for a command's ``game`` option: the caller's games here (for a command that acts, only
        those: nobody acts in another's game), then, for one that looks, the others here."""
        active = map(Game.of, await self._games.active_games(channel_id=channel_id, game=game))
        candidates = [found for found in active if not mine_only or user_id in found.players]
        return sorted(candidates, key=lambda found: (user_id not in found.players, -found.id))
