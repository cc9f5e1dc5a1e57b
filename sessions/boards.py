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
from sessions.board_descriptions import alt_text, animation_alt_text, text_board
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

    async def render_board(
        self, game: Game, state: GameState, names: tuple[str, str], locale: Any = None, **marks: Any
    ) -> bytes:
        """The board image as PNG, its words in ``locale``'s language; ``marks``: the renderer's layout and marks
        (docs/boards.md)."""
        return await self._drawer.draw(game.entry, state, names, language_of(locale), marks)

    async def render_position(
        self, game: str, state: GameState, names: tuple[str, str], locale: Any = None, **marks: Any
    ) -> bytes:
        """A position of no stored game (a lesson's, a puzzle's, a record's) as PNG, with the renderer's marks."""
        return await self._drawer.draw(games.find(game), state, names, language_of(locale), marks)

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

    async def describe_board(
        self, game: Game, state: GameState, names: tuple[str, str], locale: Any = None, last_move: str | None = None
    ) -> str:
        """What a screen reader says for the board image of ``state`` (its attachment's description), in
        ``locale``'s language: written in a thread, as a 19x19 board's words take a few milliseconds."""
        return await asyncio.to_thread(alt_text, game.entry, state.copy(), names, language_of(locale), last_move)

    async def describe_position(
        self, game: str, state: GameState, names: tuple[str, str], locale: Any = None, last_move: str | None = None
    ) -> str:
        """:meth:`describe_board` for a position of no stored game (a lesson's, a puzzle's)."""
        entry = games.find(game)
        return await asyncio.to_thread(alt_text, entry, state.copy(), names, language_of(locale), last_move)

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
