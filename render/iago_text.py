"""Iago's position in words (issue 22): the board image's alt text and the text board.

The words a board image also shows (the variants' names, the panel's note) live here, and render/iago.py takes them
from here, so the picture and the words never disagree.
"""

from __future__ import annotations

from engines import iago
from locales import N_, tr
from render.base import winner_first
from render.text_fitting import (
    ALT_TEXT_LIMIT,
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
    sentences,
    side_and_name,
)

# Variant names as the status line shows them (the challenge option's labels explain them at length).
VARIANTS = {"standard": N_("standard"), "loose": N_("loose"), "simple": N_("simple"), "penalty": N_("penalty")}
# The engine's cell values, what they are called, and their letter in the diagram (the engine's own symbols).
KINDS = (
    ("D", N_("Dark disks"), "D"),
    ("L", N_("Light disks"), "L"),
    ("xD", N_("Captive Dark disks"), "d"),
    ("xL", N_("Captive Light disks"), "l"),
)
SYMBOL = {content: letter for content, _, letter in KINDS}
LEGAL = "+"


def note_text(game: iago.IagoGame, language: str = "en") -> str:
    """The note on what the player to move must do, if anything beyond an ordinary move."""
    if game.call_owed:
        return tr(language, "A call is owed: you may play call <cell> on any empty cell.")
    forced = game.forced_capture()
    if forced and game.variant in ("standard", "simple"):
        return tr(language, "Capture required: the most disks you can take is {count}.", count=forced)
    return ""


def _intro(game: iago.IagoGame, language: str) -> str:
    variant = tr(language, VARIANTS[game.variant])
    return tr(language, "{title}, {variant} rules.", title=tr(language, "Iago"), variant=variant)


def _turn(game: iago.IagoGame, names: tuple[str, str], language: str) -> str:
    if not game.is_over:
        player = side_and_name(language, iago.SIDES[game.turn or 0], names[game.turn or 0])
        return tr(language, "Move {number}: {player} to play.", number=len(game.moves) + 1, player=player)
    result = game.result()
    scores = {"score0": result.scores[0], "score1": result.scores[1]}
    if result.winner is None:
        outcome = tr(language, "a draw, {score0} to {score1}", **scores)
    else:
        winner = side_and_name(language, iago.SIDES[result.winner], names[result.winner])
        scores = winner_first(result.scores, result.winner)
        words = N_("{winner} wins on the centre, {score0} to {score1}") if result.reason == "centre" else None
        outcome = tr(language, words or N_("{winner} wins, {score0} to {score1}"), winner=winner, **scores)
    return tr(language, GAME_OVER, result=outcome)


def _score(game: iago.IagoGame, language: str) -> str:
    counts, scores = game.area_counts(), game.scores()
    parts = []
    for side in (0, 1):
        name = tr(language, iago.SIDES[side])
        if game.variant == "simple":
            parts.append(tr(language, "{side} {score}", side=name, score=scores[side]))
            continue
        inner, outer = counts["inner"][side], counts["outer"][side]
        parts.append(
            tr(
                language,
                "{side} {score} ({inner} inner, {outer} outer disks)",
                side=name,
                score=scores[side],
                inner=inner,
                outer=outer,
            )
        )
    return tr(language, SCORE, scores=comma(language).join(parts))


def _last(game: iago.IagoGame, language: str, last_move: str | None) -> str:
    if last_move is None and (not game.moves or game.last_cell is None):
        return tr(language, NO_MOVE_YET)
    if last_move is None:
        mover = 0 if game.cell(game.last_cell) == "D" else 1  # a disk just placed is face up, its mover's colour
        last_move = tr(language, "{side} played {move}", side=tr(language, iago.SIDES[mover]), move=game.moves[-1])
    return tr(language, LAST_MOVE, move=last_move)


def _cells_of(game: iago.IagoGame, content: str) -> list[str]:
    return [name for name in iago.CELLS if game.cell(name) == content]


def _position(game: iago.IagoGame, language: str) -> str:
    parts = []
    for content, kind, _ in KINDS:
        cells = _cells_of(game, content)
        if cells or content in ("D", "L"):
            listed = " ".join(cells) if cells else tr(language, "none")
            parts.append(tr(language, "{kind}: {cells}.", kind=tr(language, kind), cells=listed))
    return sentences(parts)


def alt_text(game: iago.IagoGame, names: tuple[str, str], language: str = "en", last_move: str | None = None) -> str:
    """What a screen reader reads for the board image: the rules, whose turn (or the result), the score, the last
    move (``last_move`` in words if given, else the log's last placement), every disk by kind, and what the
    player to move must do; at most 1,024 characters."""
    head = sentences(
        (_intro(game, language), _turn(game, names, language), _score(game, language), _last(game, language, last_move))
    )
    note = note_text(game, language)
    return fit((lambda: sentences((head, _position(game, language), note)),), ALT_TEXT_LIMIT)


# ---------------------------------------------------------------------------------------------- text board


def diagram(game: iago.IagoGame) -> list[str]:
    """The hex board as text, row I at the top: each row shifted half a cell from the next as on the board, the
    row letters on the left and the diagonals' numbers at the lower right, as on the image."""
    legal = {move for move in game.legal_moves() if not move.startswith("call")}
    lines = []
    for row_index in reversed(range(len(iago.ROWS))):
        row = iago.ROWS[row_index]
        shift = abs(row_index - 4)
        cells = [name for name in iago.CELLS if name[0] == row]
        marks = [SYMBOL.get(game.cell(name) or "", LEGAL if name in legal else ".") for name in cells]
        line = " " * shift + row + " " + " ".join(marks)
        if row_index < 4:
            line += f" {row_index + 6}"  # the diagonal that starts at this row's lower right
        lines.append(line)
    lines.append(" " * 7 + " ".join(str(number) for number in range(1, 6)))
    return lines


def _rows(game: iago.IagoGame, language: str) -> list[str]:
    lines = []
    for row in reversed(iago.ROWS):
        parts = []
        for content, kind, _ in KINDS:
            cells = [name for name in _cells_of(game, content) if name[0] == row]
            if cells:
                parts.append(tr(language, "{kind} {cells}", kind=tr(language, kind), cells=" ".join(cells)))
        listed = "; ".join(parts) if parts else tr(language, "empty")
        lines.append(tr(language, "Row {row}: {cells}", row=row, cells=listed))
    return lines


def _legal(game: iago.IagoGame, language: str) -> str:
    if game.is_over:
        return ""
    moves = game.legal_moves()
    placements = [move for move in moves if not move.startswith("call")]
    calls = len(moves) - len(placements)
    text = moves_list(language, placements)
    if calls:
        text += "\n" + tr(language, "Or call any empty cell: call <cell> ({count} cells).", count=calls)
    return text


def _score_line(game: iago.IagoGame, language: str) -> str:
    counts, scores = game.area_counts(), game.scores()
    parts = []
    for side in (0, 1):
        inner, outer = counts["inner"][side], counts["outer"][side]
        formula = "" if game.variant == "simple" else f"{max(inner, 1)} × {max(outer, 1)} = "
        parts.append(f"{tr(language, iago.SIDES[side])} {formula}{scores[side]}")
    return tr(language, SCORE, scores=" · ".join(parts))


def text_board(game: iago.IagoGame, names: tuple[str, str], language: str = "en") -> str:
    """The position as one Discord message (at most 2,000 characters): whose turn, a monospace diagram with its key,
    the disks row by row, the legal moves and the score."""
    legend = tr(
        language,
        "D Dark, L Light, d and l captive Dark and Light disks, + a legal move, . empty",
    )
    head = sentences((_intro(game, language), _turn(game, names, language), _last(game, language, None)))
    parts = [
        head,
        code_block(diagram(game)),
        tr(language, LEGEND, legend=legend),
        "\n".join(_rows(game, language)),
        _legal(game, language),
        sentences((_score_line(game, language), note_text(game, language))),
    ]
    return fit((lambda: "\n".join(part for part in parts if part),), MESSAGE_LIMIT)
