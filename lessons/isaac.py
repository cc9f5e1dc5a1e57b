"""ISAAC's course: the goal, placing pieces, the end of placement, removing and scoring along a line, the counters
and the clash rule, reaching 100, and parking a counter.

The positions come from two game records played from the start (the first found by a search for a game that
reaches 100, the second for a removal whose full score lands on the opponent's counter); each step is a prefix of
one of them, so tests/test_lessons.py replays them all through the engine.
"""

from __future__ import annotations

from functools import cache

from engines import GameState, Phrase
from engines import isaac as engine
from lessons import Course, Lesson, Said, Step
from locales import N_

# Black reaches 102 at the end: placement to ply 20, Black passes first, then both score.
RECORD = (
    "b1-b5", "d2-i2", "a9-g9", "e10-j10", "f6-i6", "a1-a7", "d1-h1", "f7-i7", "j2-j5", "c3-c7",
    "e5-i5", "d3-f3", "d8-i8", "f4-i4", "a10-d10", "h9-j9", "d4-d7", "b6-b8", "j6-j8", "g3-i3",
    "pass", "pass", "x j2-j5 12", "x d2-i2 16", "x d4-d7 32", "x e10-j10 20", "x f6-i6 40", "pass",
    "x e5-i5 58", "x b1-b5 67", "x d1-h1 70", "x d8-i8 102",
)  # fmt: skip
# At its end Black has 57 and White 36: b2-h2 is worth 6, and 63 is White's square.
CLASH = (
    "d6-d9", "a4-e4", "d3-i3", "f4-f9", "b2-h2", "a1-f1", "h4-h8", "b5-b9", "j1-j6", "g4-g10",
    "c6-c9", "a10-e10", "a5-a8", "j8-j10", "i4-i7", "e6-e9", "g1-i1", "c5-e5", "i8-i10", "a3-c3",
    "pass", "pass", "x a5-a8 16", "x g4-g10 36", "x c6-c9 28", "pass", "x i4-i7 40", "x h4-h8 49",
    "x d3-i3 57",
)  # fmt: skip


def _state(state: GameState) -> engine.IsaacGame:
    assert isinstance(state, engine.IsaacGame)
    return state


def _squares(span: str) -> set[str]:
    start, end = span.split("-")
    files = range(engine.FILES.index(start[0]), engine.FILES.index(end[0]) + 1)
    ranks = range(int(start[1:]), int(end[1:]) + 1)
    return {f"{engine.FILES[file]}{rank}" for file in files for rank in ranks}


def _line(span: str) -> set[str]:
    """Every square of the piece's rank (horizontal) or file (vertical)."""
    start, end = span.split("-")
    if start[1:] == end[1:]:
        return {f"{file}{start[1:]}" for file in engine.FILES}
    return {f"{start[0]}{rank}" for rank in range(1, engine.SIZE + 1)}


def explain_removal(state: GameState, move: str, legal: bool) -> Said | None:
    """How a removal of one's own piece scores: pieces left on its line x value x 2 per counter on it."""
    game = _state(state)
    words = move.split()
    if game.phase != engine.SCORING or len(words) < 2 or words[0] != "x":
        return None
    span = words[1]
    pieces = dict(game.pieces())
    if pieces.get(span) != game.turn:
        return None
    line = _line(span)
    others = sum(1 for other in pieces if other != span and _squares(other) & line)
    counters = sum(1 for player in (0, 1) if game.counter_square(player) in line)
    value = engine.VALUES[engine.span_length(span)]
    start, end = span.split("-")
    return (
        N_(
            "**{span}**: pieces left on its {line} {others} × value {value} × counters {multiplier} = {points} "
            "points ({current} + {points} = {reach})."
        ),
        {
            "span": span,
            "others": others,
            "value": value,
            "multiplier": 2**counters,
            "points": others * value * 2**counters,
            "line": Phrase("rank") if start[1:] == end[1:] else Phrase("file"),
            "current": game.scores()[game.turn],
            "reach": game.scores()[game.turn] + others * value * 2**counters,
        },
    )


def any_legal(state: GameState, move: str) -> bool:
    return True


def is_seven(state: GameState, move: str) -> bool:
    return engine.span_length(move) == 7


def best_full_score(state: GameState, move: str) -> bool:
    """The removal that reaches the highest score."""
    return int(move.split()[-1]) == _highest(tuple(state.moves))


@cache
def _highest(moves: tuple[str, ...]) -> int:
    """The highest score a removal reaches from the position of ``moves`` (once per position, not per move)."""
    state = engine.new_game()
    for move in moves:
        state.play(move)
    return max(int(m.split()[-1]) for m in state.legal_moves())


def reaches_100(state: GameState, move: str) -> bool:
    return int(move.split()[-1]) >= engine.TARGET


def knocks_out(state: GameState, move: str) -> bool:
    """After the move the opponent has nothing to remove: their only move is to pass."""
    after = _state(state).copy()
    after.play(move)
    return after.turn != state.turn and after.legal_moves() == ["pass"]


COURSE = Course(
    engine=engine,
    welcome=N_(
        "**ISAAC** is played in two phases. First you and your opponent build the board, taking turns to place "
        "straight pieces 3 to 7 squares long. Then you take your own pieces off again, one a turn, and each "
        "removal scores along its line. The first to **100** points wins at once; otherwise the higher score."
    ),
    farewell=N_(
        "You know ISAAC now: placing, the end of placement, scoring along a line, the counters, the clash rule, "
        "100 points, and parking a counter. Try it in a real game."
    ),
    explain=explain_removal,
    lessons=(
        Lesson(
            key="goal",
            title=N_("The goal"),
            steps=(
                Step(
                    moves=(),
                    prompt=N_(
                        "Black begins. Place any piece: a move names its two end squares, the lower or left end "
                        "first, like `c3-g3` (5 squares along rank 3) or `d2-d7` (6 squares up file d)."
                    ),
                    right=N_(
                        "Placed: **{move}**. Each of you has 15 pieces: five 3s (value 1), four 4s (value 2), "
                        "three 5s (value 3), two 6s (value 4) and one 7 (value 6)."
                    ),
                    accept=any_legal,
                    choices=("c3-g3", "d2-d7", "a1-a3", "e5-e11", "b4-c5"),
                ),
            ),
        ),
        Lesson(
            key="placing",
            title=N_("Placing pieces"),
            steps=(
                Step(
                    moves=RECORD[:2],
                    prompt=N_(
                        "A piece lies along a rank or a file, wholly on the board, on empty squares only. Place "
                        "your 7-square piece (value 6), for example from **a9** to **g9**."
                    ),
                    right=N_("Good: **{move}** holds your most valuable piece."),
                    accept=is_seven,
                    choices=("a9-g9", "a2-g2", "e9-k9", "a3-a9", "a3-a8", "b4-f4"),
                    wrong=N_("**{move}** is legal, but it is not your 7-square piece."),
                ),
            ),
        ),
        Lesson(
            key="end",
            title=N_("The end of placement"),
            steps=(
                Step(
                    moves=RECORD[:20],
                    prompt=N_(
                        "The board is nearly full and none of your pieces fits anywhere. Then you **pass**, and "
                        "you place no more; your opponent goes on alone while they can. Play `pass`."
                    ),
                    right=N_(
                        "You passed first, so you will start the scoring phase. In a real game the bot passes for "
                        "you when nothing fits."
                    ),
                    accept=("pass",),
                    choices=("pass", "a2-a4", "j1-j3"),
                ),
            ),
        ),
        Lesson(
            key="scoring",
            title=N_("Removing and scoring"),
            steps=(
                Step(
                    moves=RECORD[:22],
                    prompt=N_(
                        "Scoring: each turn you remove one of your own pieces. It scores (pieces of either colour "
                        "left on its line) × (its value), where the line is its whole rank if it lies along a rank, "
                        "its whole file if it stands in a file. Write the removal with your new score, like "
                        "`x e5-i5 15`. Which removal scores the most?"
                    ),
                    right=N_(
                        "Yes: **{move}**. e5-i5 lies on rank 5, where five other pieces remain, and its value is 3: "
                        "5 × 3 = 15."
                    ),
                    accept=best_full_score,
                    choices=("x e5-i5 15", "x d4-d7 12", "x j2-j5 12", "x b1-b5 9", "x f6-i6 10"),
                ),
            ),
        ),
        Lesson(
            key="counters",
            title=N_("The counters and the clash rule"),
            steps=(
                Step(
                    moves=RECORD[:24],
                    prompt=N_(
                        "Each score counter stands on the square numbered with its owner's score. A counter on the "
                        "line of the piece you remove **doubles** the points, and two counters make it × 4. Two "
                        "more rules: every removal must be at least as long as your longest earlier one (you "
                        "removed a 4), and a piece under a counter cannot be removed. Which removal scores the "
                        "most?"
                    ),
                    right=N_(
                        "Right: **{move}**. White's counter stands on d9, in file d with d4-d7: 5 pieces × value 2 = "
                        "10, doubled to 20 points, and 12 + 20 = 32."
                    ),
                    accept=best_full_score,
                    choices=("x d4-d7 32", "x j6-j8 14", "x e5-i5 24", "x d8-i8 20", "x b1-b5 21"),
                ),
                Step(
                    moves=CLASH,
                    prompt=N_(
                        "You may move your counter up by any amount up to your points (or not at all), but never "
                        "onto your opponent's counter: your 57 + b2-h2's 6 points = 63, and 63 + White's 36 = 99 is "
                        "the square where White's counter stands. Remove b2-h2 and take the most you may."
                    ),
                    right=N_("**{move}**: one point short of the clash, the best you may take."),
                    accept=("x b2-h2 62",),
                    choices=("x b2-h2 63", "x b2-h2 62", "x b2-h2 57", "x j1-j6 61"),
                ),
            ),
        ),
        Lesson(
            key="hundred",
            title=N_("Reaching 100"),
            steps=(
                Step(
                    moves=RECORD[:31],
                    prompt=N_(
                        "A score of 100 or more ends the game at once. You have 70, White is out of moves, and both "
                        "counters stand on rank 8 (yours on a8, White's on j8). Win now."
                    ),
                    right=N_(
                        "**{move}** wins: d8-i8 has two pieces left on rank 8 and value 4, and the two counters make "
                        "it × 4: 2 × 4 × 4 = 32, and 70 + 32 = 102."
                    ),
                    accept=reaches_100,
                    choices=("x d8-i8 102", "x d8-i8 90", "x a9-g9 76"),
                    wrong=N_("**{move}** does not reach 100, so the game goes on."),
                ),
            ),
        ),
        Lesson(
            key="parking",
            title=N_("Tip: park your counter"),
            steps=(
                Step(
                    moves=RECORD[:26],
                    prompt=N_(
                        "Tip: you need not take all your points. White must remove pieces at least 6 long, and "
                        "a1-a7 is White's only one. Your square 40 is a5, on a1-a7. Remove a piece and stop your "
                        "counter on **40**."
                    ),
                    right=N_(
                        "Parked: with your counter on a1-a7, White has nothing to remove and is out for the rest "
                        "of the game, while you go on scoring alone. Spending fewer points can be the strongest "
                        "move."
                    ),
                    accept=knocks_out,
                    choices=("x d8-i8 48", "x d8-i8 40", "x f6-i6 40", "x e5-i5 41"),
                    wrong=N_("After **{move}** your counter is not on a1-a7, so White can still remove it."),
                ),
            ),
        ),
    ),
)
