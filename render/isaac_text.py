"""ISAAC's position in words (issue 22): the board image's alt text and the text board."""

from __future__ import annotations

from engines import isaac
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
    fit,
    sentences,
    side_and_name,
)

LISTED = 40  # legal moves listed one by one up to this many; beyond, counted by piece length or piece
LETTER = ("B", "W")  # a square of a Black or a White piece in the diagram, followed by the piece's value
COUNTER = "@"


def _span_key(span: str) -> tuple[int, int]:
    """Pieces in the order of their lower or left end: by rank, then by file."""
    number = isaac.black_number(span.split("-")[0])
    return number // isaac.SIZE, number % isaac.SIZE


def _value(span: str) -> int:
    return isaac.VALUES[isaac.span_length(span)]


def _pieces(game: isaac.IsaacGame, owner: int) -> list[str]:
    return sorted((span for span, who in game.pieces() if who == owner), key=_span_key)


def _intro(game: isaac.IsaacGame, language: str) -> str:
    if game.is_over:
        return tr(language, "{title}.", title=tr(language, "ISAAC"))
    phase = N_("placement phase") if game.phase == isaac.PLACEMENT else N_("scoring phase")
    return tr(language, "{title}, {phase}.", title=tr(language, "ISAAC"), phase=tr(language, phase))


def _turn(game: isaac.IsaacGame, names: tuple[str, str], language: str) -> str:
    if not game.is_over:
        player = side_and_name(language, isaac.SIDES[game.turn or 0], names[game.turn or 0])
        if game.phase == isaac.PLACEMENT:
            return tr(language, "{player} to place a piece.", player=player)
        return tr(language, "{player} to remove a piece.", player=player)
    result = game.result()
    winner = side_and_name(language, isaac.SIDES[result.winner or 0], names[result.winner or 0])
    scores = winner_first(result.scores, result.winner)
    if result.reason == "score":
        outcome = tr(language, "{winner} wins, {score0} to {score1}", winner=winner, **scores)
    else:
        outcome = tr(language, "{winner} wins on the tie-break, {score0} to {score1}", winner=winner, **scores)
    return tr(language, GAME_OVER, result=outcome)


def _score(game: isaac.IsaacGame, language: str) -> str:
    black, white = game.scores()
    scores = tr(
        language,
        "{side0} {score0}, {side1} {score1}",
        side0=tr(language, isaac.SIDES[0]),
        score0=black,
        side1=tr(language, isaac.SIDES[1]),
        score1=white,
    )
    parts = [tr(language, SCORE, scores=scores)]
    for player in (0, 1):
        square = game.counter_square(player)
        if square is not None:
            parts.append(
                tr(language, "{side}'s counter is on {square}.", side=tr(language, isaac.SIDES[player]), square=square)
            )
    return sentences(parts)


def _mover_of(game: isaac.IsaacGame, move: str) -> int | None:
    """Who played a logged placement or removal: the owner of the piece placed, or of the piece taken off."""
    if move.startswith("x "):
        span = move.split()[1]
        return next((player for player in (0, 1) if game.removed(player)[-1:] == [span]), None)
    found = game.piece_at(move.split("-")[0])
    return None if found is None else found[1]


def _last(game: isaac.IsaacGame, language: str, last_move: str | None) -> str:
    if last_move is None:
        if not game.moves:
            return tr(language, NO_MOVE_YET)
        move = game.moves[-1]
        mover = None if move == "pass" else _mover_of(game, move)
        if mover is None:
            last_move = move
        else:
            last_move = tr(language, "{side} played {move}", side=tr(language, isaac.SIDES[mover]), move=move)
    return tr(language, LAST_MOVE, move=last_move)


def _hand(game: isaac.IsaacGame, player: int, language: str) -> str:
    hand = game.in_hand(player)
    pieces = [
        tr(language, "{count} × {length} squares", count=hand[length], length=length)
        for length in isaac.LENGTHS
        if hand[length]
    ]
    listed = ", ".join(pieces) if pieces else tr(language, "none")
    return tr(language, "{side} in hand: {pieces}.", side=tr(language, isaac.SIDES[player]), pieces=listed)


def _owned(game: isaac.IsaacGame, language: str) -> str:
    parts = []
    for player in (0, 1):
        pieces = ", ".join(f"{span} ({_value(span)})" for span in _pieces(game, player)) or tr(language, "none")
        side = tr(language, isaac.SIDES[player])
        parts.append(tr(language, "{side} pieces (value in brackets): {pieces}.", side=side, pieces=pieces))
    return sentences(parts)


def alt_text(game: isaac.IsaacGame, names: tuple[str, str], language: str = "en", last_move: str | None = None) -> str:
    """What a screen reader reads for the board image: the phase, whose turn (or the result), the scores and the
    counters' squares, the last move (``last_move`` in words if given, else the log's last), every piece by owner
    with its squares and value, and the pieces in hand; at most 1,024 characters."""
    head = sentences(
        (_intro(game, language), _turn(game, names, language), _score(game, language), _last(game, language, last_move))
    )
    hands = sentences(_hand(game, player, language) for player in (0, 1))
    return fit(
        (
            lambda: sentences((head, _owned(game, language), hands if not game.is_over else "")),
            lambda: sentences((head, _owned(game, language))),
        ),
        ALT_TEXT_LIMIT,
    )


# ---------------------------------------------------------------------------------------------- text board


def diagram(game: isaac.IsaacGame) -> list[str]:
    """The board as text, rank 10 at the top: each square of a piece as its owner's letter and the piece's value
    (B6: a square of Black's 6), a counter's square with @."""
    counters = {game.counter_square(player) for player in (0, 1)} - {None}
    lines = ["    " + "".join(f"{file:<4}" for file in isaac.FILES)]
    for rank in range(isaac.SIZE, 0, -1):
        cells = []
        for file in range(isaac.SIZE):
            square = isaac.square_name(file, rank)
            found = game.piece_at(square)
            mark = "." if found is None else f"{LETTER[found[1]]}{_value(found[0])}"
            if square in counters:
                mark = COUNTER if found is None else mark + COUNTER
            cells.append(f"{mark:<4}")
        lines.append(f"{rank:>2}  " + "".join(cells))
    return lines


def _rows(game: isaac.IsaacGame, language: str) -> list[str]:
    """The pieces by the rank of their lower or left end."""
    lines = []
    for rank in range(isaac.SIZE, 0, -1):
        parts = []
        for player in (0, 1):
            spans = [span for span in _pieces(game, player) if _span_key(span)[0] == rank - 1]
            if spans:
                listed = " ".join(f"{span} ({_value(span)})" for span in spans)
                parts.append(f"{tr(language, isaac.SIDES[player])} {listed}")
        if parts:
            lines.append(tr(language, "Rank {rank}: {pieces}", rank=rank, pieces="; ".join(parts)))
    return lines or [tr(language, "No piece on the board yet.")]


def _legal(game: isaac.IsaacGame, language: str) -> str:
    if game.is_over:
        return ""
    moves = game.legal_moves()
    if moves == ["pass"]:
        return tr(language, "The only legal move is pass.")
    if game.phase == isaac.SCORING:
        best = game.best_removals()
        current = game.scores()[game.turn or 0]
        ordered = sorted(best.items(), key=lambda item: _span_key(item[0]))
        removals = ", ".join(f"x {span} ({current}–{score})" for span, score in ordered)
        return tr(
            language,
            "Legal removals ({count}), each piece with the scores it can reach: {removals}",
            count=len(moves),
            removals=removals,
        )
    if len(moves) <= LISTED:
        return tr(language, "Legal moves ({count}): {moves}", count=len(moves), moves=", ".join(moves))
    lengths = [isaac.span_length(move) for move in moves]
    counts = ", ".join(
        tr(language, "{length} squares: {count}", length=length, count=lengths.count(length))
        for length in isaac.LENGTHS
        if length in lengths
    )
    return tr(language, "Legal placements ({count}), by the piece's length: {counts}.", count=len(moves), counts=counts)


def _notes(game: isaac.IsaacGame, language: str) -> str:
    parts = [] if game.is_over else [_hand(game, player, language) for player in (0, 1)]
    if game.phase == isaac.SCORING and not game.is_over:
        for player in (0, 1):
            side = tr(language, isaac.SIDES[player])
            parts.append(
                tr(
                    language,
                    "{side}'s next removal: {length} squares or more.",
                    side=side,
                    length=game.min_removal_length(player),
                )
            )
    return sentences(parts)


def text_board(game: isaac.IsaacGame, names: tuple[str, str], language: str = "en") -> str:
    """The position as one Discord message (at most 2,000 characters): whose turn, a monospace diagram with its key,
    the pieces by rank, the legal moves (counted by length when there are many), the scores and the hands."""
    legend = tr(language, "B3 a square of a Black piece of value 3, W3 of a White one, @ a score counter, . empty")
    head = sentences((_intro(game, language), _turn(game, names, language), _last(game, language, None)))
    parts = [
        head,
        code_block(diagram(game)),
        tr(language, LEGEND, legend=legend),
        "\n".join(_rows(game, language)),
        _legal(game, language),
        _score(game, language),
        _notes(game, language),
    ]
    return fit((lambda: "\n".join(part for part in parts if part),), MESSAGE_LIMIT)
