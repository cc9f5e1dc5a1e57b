"""Boards in words (issue 22): what a screen reader says for a board image, and the position as a message.

Each game's renderer writes its own (``render/<game>_text.py``: every kind of piece, the legal moves); a game
registered without them (the tests' tic-tac-toe) gets the generic words here: the title, whose turn or the result,
the score and the last move, and for the text board the moves so far and the legal moves. Both stay within
Discord's limits whatever a renderer returns.
"""

from __future__ import annotations

from engines import GameState
from games import GameEntry, describe_with
from locales import N_, tr
from render.text_fitting import (
    ALT_TEXT_LIMIT,
    GAME_OVER,
    LAST_MOVE,
    MESSAGE_LIMIT,
    NO_MOVE_YET,
    SCORE,
    cut,
    moves_list,
    sentences,
    side_and_name,
)

LISTED_MOVES = 60  # legal moves a generic text board lists; more are counted
BOARD_OF = N_("{title} board.")
TO_MOVE = N_("{player} to move.")
WINS = N_("{player} wins")
DRAW = N_("a draw")
MOVES_SO_FAR = N_("Moves so far: {moves}")
ANIMATION = N_("An animation of game #{id} in {frames} frames, from the start to this position: {position}")


def alt_text(
    entry: GameEntry, state: GameState, names: tuple[str, str], language: str, last_move: str | None = None
) -> str:
    """The description of a board image of ``state``, at most Discord's 1,024 characters."""
    described = entry.alt_text(state, names, language, last_move)
    if described is None:
        described = generic_alt_text(entry, state, names, language, last_move)
    return cut(described, ALT_TEXT_LIMIT)


def renderer_alt_text(
    renderer: str, state: GameState, names: tuple[str, str], language: str, last_move: str | None = None
) -> str | None:
    """:func:`alt_text` as the renderer at ``renderer`` writes it, for a drawing worker (which knows the game by
    its import paths only); None when the renderer has no words (the caller writes the generic ones)."""
    described = describe_with(renderer, state, names, language, last_move)
    return None if described is None else cut(described, ALT_TEXT_LIMIT)


def text_board(entry: GameEntry, state: GameState, names: tuple[str, str], language: str) -> str:
    """The position as one message: the renderer's text board, or the generic one; at most 2,000 characters."""
    written = entry.text_board(state, names, language)
    if written is None:
        written = generic_text_board(entry, state, names, language)
    return cut(written, MESSAGE_LIMIT)


def animation_alt_text(
    entry: GameEntry, game_id: int, frames: int, state: GameState, names: tuple[str, str], language: str
) -> str:
    """The description of a replay's animated image: what it is, then its last frame's position."""
    position = alt_text(entry, state, names, language)
    return cut(tr(language, ANIMATION, id=game_id, frames=frames, position=position), ALT_TEXT_LIMIT)


def _player(entry: GameEntry, names: tuple[str, str], side: int, language: str) -> str:
    return side_and_name(language, entry.sides[side], names[side])


def _status(entry: GameEntry, state: GameState, names: tuple[str, str], language: str) -> str:
    if state.is_over:
        winner = state.result().winner
        outcome = (
            tr(language, DRAW) if winner is None else tr(language, WINS, player=_player(entry, names, winner, language))
        )
        return tr(language, GAME_OVER, result=outcome)
    if state.to_act is None:
        return ""
    return tr(language, TO_MOVE, player=_player(entry, names, state.to_act, language))


def _score(entry: GameEntry, state: GameState, names: tuple[str, str], language: str) -> str:
    scores = state.scores()
    listed = ", ".join(f"{_player(entry, names, side, language)} {scores[side]}" for side in (0, 1))
    return tr(language, SCORE, scores=listed)


def _last(state: GameState, language: str, last_move: str | None) -> str:
    move = last_move or (state.moves[-1] if state.moves else None)
    return tr(language, NO_MOVE_YET) if move is None else tr(language, LAST_MOVE, move=move)


def generic_alt_text(
    entry: GameEntry, state: GameState, names: tuple[str, str], language: str, last_move: str | None = None
) -> str:
    """The title, whose turn or the result, the score and the last move."""
    title = tr(language, BOARD_OF, title=tr(language, entry.title))
    return sentences(
        (
            title,
            _status(entry, state, names, language),
            _score(entry, state, names, language),
            _last(state, language, last_move),
        )
    )


def generic_text_board(entry: GameEntry, state: GameState, names: tuple[str, str], language: str) -> str:
    """The generic description, the moves so far and the legal moves (the first ones, when there are many)."""
    lines = [generic_alt_text(entry, state, names, language)]
    if state.moves:
        lines.append(tr(language, MOVES_SO_FAR, moves=" ".join(state.moves)))
    if not state.is_over:
        lines.append(moves_list(language, state.legal_moves(), LISTED_MOVES))
    return "\n".join(lines)
