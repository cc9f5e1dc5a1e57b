"""Boards as members see them: the images (drawn in the drawing workers, :mod:`sessions.drawing`), their words
for screen readers, the position as text, a whole game as an animation, and a tournament's standings.

Every picture is drawn in a language (its words, the players' side names): the server's for what is shown in
public, so a board reads the same wherever it appears; the words for a screen reader may be the reader's.
"""

from __future__ import annotations

import asyncio
from typing import Any

import games
from engines import GameState
from locales import language_of
from render.standings import render as render_standings
from sessions.board_descriptions import animation_alt_text, text_board
from sessions.drawing import Drawer
from sessions.model import Game, TournamentView
from sessions.table import Table
from sessions.tournaments import standings_picture


class Boards:
    def __init__(self, table: Table, drawer: Drawer) -> None:
        self._table = table
        self._drawer = drawer

    async def warm_up(self) -> None:
        """Draw each game's start once, so the renderers' cached layers are built before the first move (in each
        drawing process, when there are some)."""
        await self._drawer.warm_up()

    async def board_picture(
        self,
        game: Game,
        state: GameState,
        names: tuple[str, str],
        locale: Any,
        reader: Any,
        **marks: Any,
    ) -> tuple[bytes, str]:
        """The board image as PNG, its words in ``locale``'s language, and what a screen reader says for it in
        ``reader``'s, drawn and written in one job of a drawing worker; ``marks``: the renderer's layout and marks
        (docs/boards.md)."""
        return await self._drawer.picture(game.entry, state, names, language_of(locale), marks, language_of(reader))

    async def position_picture(
        self, game: str, state: GameState, names: tuple[str, str], locale: Any, reader: Any, **marks: Any
    ) -> tuple[bytes, str]:
        """:meth:`board_picture` for a position of no stored game (a lesson's, a puzzle's, a record's)."""
        entry = games.find(game)
        return await self._drawer.picture(entry, state, names, language_of(locale), marks, language_of(reader))

    async def animation(self, game: Game, names: tuple[str, str], locale: Any = None) -> tuple[bytes, int]:
        """The whole game as a looping GIF and its frame count: the start, then a frame per move in force (a
        takeback's undone moves are not shown), a die's roll shown with the move it was rolled for."""
        states = frames_of(game.entry, game.options, (await self._table.state(game)).moves)
        gif = await self._drawer.animation(game.entry, states, names, language_of(locale))
        return gif, len(states)

    async def animate_positions(
        self, game: str, states: list[GameState], names: tuple[str, str], locale: Any = None
    ) -> bytes:
        """Positions of no stored game (a record's) as a looping GIF, a frame each."""
        return await self._drawer.animation(games.find(game), states, names, language_of(locale))

    async def standings_image(
        self, view: TournamentView, names: dict[int, str], subtitle: str, locale: Any = None
    ) -> bytes:
        """A tournament's standings as PNG (``names``: each player's display name), drawn like the boards, off
        the event loop, its headings in ``locale``'s language."""
        picture = standings_picture(view, names, subtitle)
        return await self._drawer.run(render_standings, picture, language_of(locale))

    async def describe_animation(self, game: Game, frames: int, names: tuple[str, str], locale: Any = None) -> str:
        """The description of the game's animation (:meth:`animation`): what it is, then its last position."""
        state = await self._table.position(game, game.ply)
        language = language_of(locale)
        return await asyncio.to_thread(animation_alt_text, game.entry, game.id, frames, state, names, language)

    async def describe_animated_positions(
        self, game: str, states: list[GameState], names: tuple[str, str], locale: Any = None
    ) -> str:
        """:meth:`describe_animation` for positions of no stored game (a record's, :meth:`animate_positions`)."""
        entry, language = games.find(game), language_of(locale)
        return await asyncio.to_thread(animation_alt_text, entry, 0, len(states), states[-1], names, language)

    async def board_text(self, game: Game, state: GameState, names: tuple[str, str], locale: Any = None) -> str:
        """The position as one message in ``locale``'s language (``/<game> board text:true``)."""
        return await asyncio.to_thread(text_board, game.entry, state.copy(), names, language_of(locale))


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
