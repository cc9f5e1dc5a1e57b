"""Polygo's position in words (issue 22): the board image's alt text and the text board.

A 19x19 board late in a game holds some 250 stones, so both texts come in forms from the fullest to the most
compact (render/text_fitting.py ``fit``): runs of stones spoken ("A to D") then written short ("A–D"), the diagram with
a space between points then without, the legal moves listed then counted.
"""

from __future__ import annotations

from collections.abc import Callable

from engines.polygo import BLOCKS, COLUMNS, SIDES, PolygoGame
from locales import N_, ntr, tr
from render.base import winner_first
from render.text_fitting import (
    ALT_TEXT_LIMIT,
    DIAGRAM_LEFT_OUT,
    GAME_OVER,
    LAST_MOVE,
    LEGEND,
    MESSAGE_LIMIT,
    NO_MOVE_YET,
    SCORE,
    code_block,
    comma,
    fit,
    moves_list,
    runs,
    sentences,
    side_and_name,
)

STONE = ("X", "O")  # Black's and White's stones in the diagram; lower case for the last block's
LISTED = 30  # placements listed one by one up to this many


def _player(names: tuple[str, str], player: int, language: str) -> str:
    return side_and_name(language, SIDES[player], names[player])


def _intro(game: PolygoGame, language: str) -> str:
    heading = tr(language, "{title} {size}×{size}", title=tr(language, "Polygo"), size=game.size)
    return tr(language, "{heading}.", heading=heading)


def _turn(game: PolygoGame, names: tuple[str, str], language: str) -> str:
    if game.is_over:
        result = game.result()
        scores = {"score0": result.scores[0], "score1": result.scores[1]}
        if result.reason == "double-pass":
            outcome = tr(language, "both passed, a draw")
        elif result.winner is None:
            outcome = tr(language, "a draw, {score0} to {score1}", **scores)
        else:
            winner = _player(names, result.winner, language)
            scores = winner_first(result.scores, result.winner)
            outcome = tr(language, "{winner} wins, {score0} to {score1}", winner=winner, **scores)
        return tr(language, GAME_OVER, result=outcome)
    number = len(game.moves) + 1
    if game.turn is not None and game.die is not None:
        block = tr(language, BLOCKS[game.die].name)
        return tr(
            language,
            "Move {number}: {player} to place {block} (rolled {face}).",
            number=number,
            player=_player(names, game.turn, language),
            block=block,
            face=game.die,
        )
    if game.to_roll is not None:
        return tr(
            language, "Move {number}: {player} to roll.", number=number, player=_player(names, game.to_roll, language)
        )
    return tr(language, "Waiting for the opening dice.")


def _polygon_words(game: PolygoGame, player: int, language: str) -> str:
    polygon = game.polygon(player)
    if polygon is None:
        return tr(language, "no polygon")
    words = tr(
        language,
        "a polygon of {stones} stones and {territory} territory",
        stones=len(polygon["stones"]),
        territory=len(polygon["territory"]),
    )
    if game.first_finisher == player:
        words = tr(language, "{polygon}, + 4 for finishing first", polygon=words)
    return words


def _score(game: PolygoGame, names: tuple[str, str], language: str) -> str:
    scores = game.scores()
    parts = [
        tr(
            language,
            "{name} {score} ({polygon})",
            name=names[player],
            score=scores[player],
            polygon=_polygon_words(game, player, language),
        )
        for player in (0, 1)
    ]
    words = [tr(language, SCORE, scores=comma(language).join(parts))]
    if game.extra_turns_left is not None and not game.is_over:
        finisher = 0 if game.finished[0] else 1
        words.append(
            ntr(
                language,
                "{name} has finished: {other} has {count} turn left.",
                "{name} has finished: {other} has {count} turns left.",
                game.extra_turns_left,
                name=names[finisher],
                other=names[1 - finisher],
            )
        )
    return sentences(words)


def _last(game: PolygoGame, names: tuple[str, str], language: str, last_move: str | None) -> str:
    if last_move is None:
        if not game.last_block:
            return tr(language, NO_MOVE_YET)
        mover = game.stone(game.last_block[0])
        block = " ".join(game.last_block)
        last_move = block if mover is None else tr(language, "{side} played {move}", side=names[mover], move=block)
    return tr(language, LAST_MOVE, move=last_move)


def _stone_rows(game: PolygoGame, player: int) -> list[tuple[int, list[int]]]:
    """(row, columns) of a player's stones, the top row first."""
    by_row: dict[int, list[int]] = {}
    for col, row in game.stones_of(player):  # bottom row first, each row left to right
        by_row.setdefault(row, []).append(col)
    return sorted(by_row.items(), reverse=True)


def _stones(game: PolygoGame, names: tuple[str, str], language: str, spoken: bool) -> str:
    """Each player's stones grouped by row: "Black (Alice), by row: 19: A to C, F; 18: D." """
    parts = []
    for player in (0, 1):
        rows = _stone_rows(game, player)
        listed = "; ".join(
            f"{row + 1}: {runs(columns, COLUMNS.__getitem__, language, spoken)}" for row, columns in rows
        )
        words = listed or tr(language, "none")
        parts.append(
            tr(language, "{player} stones by row: {rows}.", player=_player(names, player, language), rows=words)
        )
    return sentences(parts)


def _stone_counts(game: PolygoGame, names: tuple[str, str], language: str) -> str:
    counts = [sum(len(columns) for _, columns in _stone_rows(game, player)) for player in (0, 1)]
    return tr(
        language,
        "{player0}: {count0} stones; {player1}: {count1} stones (too many to list here: the text board lists them).",
        player0=_player(names, 0, language),
        count0=counts[0],
        player1=_player(names, 1, language),
        count1=counts[1],
    )


def alt_text(game: PolygoGame, names: tuple[str, str], language: str = "en", last_move: str | None = None) -> str:
    """What a screen reader reads for the board image: the board, whose turn and the block to place (or the result),
    the scores with the polygons, the last block (``last_move`` in words if given), and every stone by colour grouped
    by row; at most 1,024 characters (the runs of stones said short, or only counted, when a crowded 19x19 board
    needs it)."""
    head = sentences(
        (
            _intro(game, language),
            _turn(game, names, language),
            _score(game, names, language),
            _last(game, names, language, last_move),
        )
    )
    forms: list[Callable[[], str]] = [
        lambda: sentences((head, _stones(game, names, language, spoken=True))),
        lambda: sentences((head, _stones(game, names, language, spoken=False))),
        lambda: sentences((head, _stone_counts(game, names, language))),
    ]
    return fit(forms, ALT_TEXT_LIMIT)


# ---------------------------------------------------------------------------------------------- text board


def diagram(game: PolygoGame, spaced: bool = True) -> list[str]:
    """The board as text, row 1 at the bottom as on the image: X Black, O White, lower case for the last block's
    stones; with a space between points (square-ish) or without (for a crowded 19x19 message)."""
    gap = " " if spaced else ""
    last = set(game.last_block)
    columns = gap.join(COLUMNS[: game.size])
    lines = [f"   {columns}"]
    for row in reversed(range(game.size)):
        marks = []
        for col in range(game.size):
            owner = game.stone((col, row))
            mark = "." if owner is None else STONE[owner]
            if f"{COLUMNS[col]}{row + 1}" in last:
                mark = mark.lower()
            marks.append(mark)
        lines.append(f"{row + 1:>2} {gap.join(marks)}")
    return lines


def _rows(game: PolygoGame, language: str, spoken: bool) -> list[str]:
    lines = []
    sides = [tr(language, side) for side in SIDES]
    for row in reversed(range(game.size)):
        parts = []
        for player in (0, 1):
            columns = [col for col in range(game.size) if game.stone((col, row)) == player]
            if columns:
                parts.append(f"{sides[player]} {runs(columns, COLUMNS.__getitem__, language, spoken)}")
        if parts:
            lines.append(tr(language, "Row {row}: {cells}", row=row + 1, cells="; ".join(parts)))
    return lines or [tr(language, "No stone on the board yet.")]


def _polygons(game: PolygoGame, names: tuple[str, str], language: str) -> str:
    parts = []
    for player in (0, 1):
        polygon = game.polygon(player)
        if polygon is not None:
            parts.append(
                tr(
                    language,
                    "{name}'s polygon: stones {stones}; territory {territory}.",
                    name=names[player],
                    stones=" ".join(polygon["stones"]),
                    territory=" ".join(polygon["territory"]),
                )
            )
    return sentences(parts)


def _legal(game: PolygoGame, language: str, listed: bool) -> str:
    if game.is_over or game.turn is None:
        return ""
    moves = game.legal_moves()
    if moves == ["pass"]:
        return tr(language, "The block fits nowhere: the only legal move is pass.")
    if listed and len(moves) <= LISTED:
        return moves_list(language, moves)
    return tr(
        language,
        "Legal placements: {count}. Type the block's points, e.g. {example}.",
        count=len(moves),
        example=moves[0],
    )


LEGEND_WORDS = N_("X Black, O White, x and o the last block's stones, . empty")


def text_board(game: PolygoGame, names: tuple[str, str], language: str = "en") -> str:
    """The position as one Discord message (at most 2,000 characters): whose turn and the block, a monospace diagram
    with its key, the stones row by row, the polygons, the legal placements and the scores. A crowded 19x19 board
    takes the compact forms: no space between points, runs written "A–D", the placements counted; if even that would
    not fit, the diagram is left out (the list by rows still names every stone)."""
    head = sentences((_intro(game, language), _turn(game, names, language), _last(game, names, language, None)))
    key = tr(language, LEGEND, legend=tr(language, LEGEND_WORDS))
    tail = [_polygons(game, names, language), _score(game, names, language)]

    def form(spaced: bool | None, spoken: bool, listed: bool) -> Callable[[], str]:
        def text() -> str:
            board = [code_block(diagram(game, spaced)), key] if spaced is not None else [tr(language, DIAGRAM_LEFT_OUT)]
            parts = [head, *board, "\n".join(_rows(game, language, spoken)), _legal(game, language, listed), *tail]
            return "\n".join(part for part in parts if part)

        return text

    forms = [
        form(True, True, True),
        form(False, True, True),
        form(False, False, True),
        form(False, False, False),
        form(None, False, False),
    ]
    return fit(forms, MESSAGE_LIMIT)
