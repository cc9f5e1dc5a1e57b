"""Polygo's course on the 9x9 board: the goal, rolling and the blocks, turning and mirroring, what makes a polygon,
scoring, finishing first and the opponent's last turns, and keeping the last gap small.

The dice are moves of each record (``open 2 3``, ``roll 1``), fixed by the lesson, so every position is a game
played from the start; tests/test_lessons.py replays them all.
"""

from __future__ import annotations

from functools import cache

from engines import GameState
from engines import polygo as engine
from lessons import Course, Lesson, Said, Step
from locales import N_

SMALL = {"size": 9}

# Black's ring of 8 around E5, all but F5 (Black began: the opening dice were 2 and 3).
RING = (
    "open 2 3", "D4 E4 F4", "A1 A2 B1", "roll 2", "D6 E6 F6", "roll 2", "A9 B9 C9", "roll 1", "C5 D5",
    "roll 1", "J1 J2",
)  # fmt: skip
# Two loops of Black's, one gap each: around B2 (C2 missing) and around G5 and G6 (H5 missing).
TWO_LOOPS = (
    "open 2 3", "A1 B1 C1", "E1 F1 F2", "roll 3", "A2 A3 B3", "roll 1", "A9 B9", "roll 1", "C3 D3",
    "roll 2", "C9 D9 E9", "roll 2", "F4 G4 H4", "roll 2", "F9 G9 H9", "roll 2", "F5 F6 F7", "roll 2",
    "J7 J8 J9", "roll 3", "G7 H6 H7", "roll 1", "J1 J2", "roll 1",
)  # fmt: skip
# White closes a ring of 8 around H8 first (14 points with the bonus); Black's ring of 12 around D4 E4 D5 E5
# lacks F5, and Black has White's two extra turns to close it.
LAST_TURNS = (
    "open 2 3", "C4 C5 C6", "H9 J8 J9", "roll 4", "C3 D3 E3 F3", "roll 2", "F7 G7 H7", "roll 2", "D6 E6 F6",
    "roll 2", "J5 J6 J7", "roll 3", "F4 G3 G4", "roll 1", "G8 G9", "roll 1",
)  # fmt: skip
OPENED = ("open 1 3", "G7 H7", "A1 A2 B1")  # Black's domino, White's bent three; Black rolls next


def _state(state: GameState) -> engine.PolygoGame:
    assert isinstance(state, engine.PolygoGame)
    return state


def _after(state: GameState, move: str) -> engine.PolygoGame:
    after = _state(state).copy()
    after.play(move)
    return after


def explain_polygon(state: GameState, move: str, legal: bool) -> Said | None:
    """What a legal placement closes: its polygon's stones, territory and score."""
    if not legal:
        return None
    player = _state(state).turn
    assert player is not None
    polygon = _after(state, move).polygon(player)
    if polygon is None:
        return None
    stones, territory = len(polygon["stones"]), len(polygon["territory"])
    params = {"move": move, "stones": stones, "territory": territory, "score": polygon["score"]}
    if _state(state).first_finisher is not None:
        return (N_("**{move}** closes a polygon: {stones} stones + 2 × {territory} inside = {score} points."), params)
    return (
        N_(
            "**{move}** closes a polygon: {stones} stones + 2 × {territory} inside = {score}, and 4 for finishing "
            "first: {total} points."
        ),
        {**params, "total": polygon["score"] + engine.FIRST_FINISH_BONUS},
    )


def any_legal(state: GameState, move: str) -> bool:
    return True


def finishes(state: GameState, move: str) -> bool:
    player = _state(state).turn
    assert player is not None
    return _after(state, move).finished[player]


def scores_most(state: GameState, move: str) -> bool:
    """A placement that closes the polygon worth the most now."""
    game = _state(state)
    return finishes(game, move) and _score_after(game, move) == _best_score(game.size, tuple(game.moves))


def _score_after(state: engine.PolygoGame, move: str) -> int:
    player = state.turn
    assert player is not None
    return _after(state, move).scores()[player]


@cache
def _best_score(size: int, moves: tuple[str, ...]) -> int:
    """The best score any placement reaches from the position of ``moves`` (once per position, not per move)."""
    state = engine.new_game(size=size)
    for move in moves:
        state.play(move)
    return max(_score_after(state, m) for m in state.legal_moves())


def wins(state: GameState, move: str) -> bool:
    after = _after(state, move)
    return after.is_over and after.result().winner == _state(state).turn


COURSE = Course(
    engine=engine,
    welcome=N_(
        "**Polygo** is a race on a go board. Each turn a die gives you a small block of 2 to 4 stones to place. "
        "The first to close a loop of their stones around at least one point (a **polygon**) finishes; the "
        "opponent then has two more turns to close one too, and the bigger polygon wins. These lessons use the "
        "quick 9x9 board."
    ),
    farewell=N_(
        "You know Polygo now: the dice and the blocks, turning and mirroring, polygons and their score, finishing "
        "first and the two last turns. The rest is luck and planning: play a real game."
    ),
    explain=explain_polygon,
    lessons=(
        Lesson(
            key="goal",
            title=N_("The goal"),
            options=SMALL,
            steps=(
                Step(
                    moves=("open 1 3",),
                    prompt=N_(
                        "The bot rolled the opening dice: Black 1, White 3. The lower die starts, and each player's "
                        "first block is the one for their own opening die: a 1 is a domino, two stones side by "
                        "side. Place it anywhere: list its points, like `E5 F5`."
                    ),
                    right=N_("Placed. Your stones stay on the board for the whole game: nothing is ever captured."),
                    accept=any_legal,
                    choices=("E5 F5", "D4 D5", "A1 B1", "E5 G5"),
                ),
            ),
        ),
        Lesson(
            key="blocks",
            title=N_("Rolling and the blocks"),
            options=SMALL,
            steps=(
                Step(
                    moves=(*OPENED, "roll 2"),
                    prompt=N_(
                        "From your second turn on you roll before you place (`/polygo roll` in a game). The faces: "
                        "1 a domino, 2 a straight line of 3, 3 a bent three, 4 a straight line of 4, 5 an L of four "
                        "or its mirror image, 6 an S of four or its mirror image. You rolled a 2: place a straight "
                        "line of 3."
                    ),
                    right=N_("Right: **{move}** is a straight line of 3."),
                    accept=any_legal,
                    choices=("D4 D5 D6", "D4 E4 E5", "D4 D5", "C3 D3 E3"),
                ),
            ),
        ),
        Lesson(
            key="turning",
            title=N_("Turning and mirroring"),
            options=SMALL,
            steps=(
                Step(
                    moves=(*OPENED, "roll 3"),
                    prompt=N_(
                        "A block may be turned any way: a quarter, a half or three quarters. You rolled a 3, the "
                        "bent three. Place it on exactly the marked points **F6 G5 G6**."
                    ),
                    right=N_("Yes: the bent three turned to fit F6, G5 and G6."),
                    accept=("F6 G5 G6",),
                    choices=("F6 G5 G6", "F6 F7 G6", "G4 G5 G6"),
                    highlight=("F6 G5 G6",),
                    wrong=N_("**{move}** is a bent three too, but not on the marked points."),
                ),
                Step(
                    moves=(*OPENED, "roll 5"),
                    prompt=N_(
                        "A block is never flipped over, so a 5 and a 6 offer both shapes: the L and its mirror "
                        "image, the J (and S or Z on a 6). You rolled a 5: place the four stones on exactly the "
                        "marked points **D3 E3 E4 E5**."
                    ),
                    right=N_("Right: that is the mirror image of the L, which a 5 allows."),
                    accept=("D3 E3 E4 E5",),
                    choices=("D3 E3 E4 E5", "D3 D4 D5 E3", "D3 E3 E4 F4"),
                    highlight=("D3 E3 E4 E5",),
                    wrong=N_("**{move}** is a legal placement of a 5, but not on the marked points."),
                ),
            ),
        ),
        Lesson(
            key="polygon",
            title=N_("What makes a polygon"),
            options=SMALL,
            steps=(
                Step(
                    moves=(*RING, "roll 1"),
                    prompt=N_(
                        "A polygon is a closed loop of your stones, linked up, down, left and right (diagonal links "
                        "do not count), around at least one empty or enemy point. Your stones ring E5 but for F5. "
                        "You rolled a domino: close the loop."
                    ),
                    right=N_(
                        "Closed: your ring of 8 around E5 is the smallest polygon. The stone sticking out is a "
                        "tail: it does not count, and neither would a stone on E5 itself, which would leave nothing "
                        "inside."
                    ),
                    accept=finishes,
                    choices=("F5 G5", "E5 F5", "G4 G5", "C4 C6"),
                    highlight=("F5",),
                    wrong=N_("No polygon yet: the loop must close all the way round with something inside it."),
                ),
            ),
        ),
        Lesson(
            key="scoring",
            title=N_("Scoring"),
            options=SMALL,
            steps=(
                Step(
                    moves=TWO_LOOPS,
                    prompt=N_(
                        "A polygon scores its stones + 2 × the points inside it, and 4 more for the first player "
                        "to finish. You have two loops with a gap each, around B2 and around G5 and G6, and you "
                        "rolled a domino. Which placement scores the most?"
                    ),
                    right=N_("Yes: the bigger polygon is worth more. You finish only once, so finish big."),
                    accept=scores_most,
                    choices=("C2 D2", "H5 J5", "G5 H5", "J3 J4"),
                    wrong=N_("**{move}** is not the placement worth the most: compare the polygons you can close."),
                ),
            ),
        ),
        Lesson(
            key="last-turns",
            title=N_("Finishing first and the last turns"),
            options=SMALL,
            steps=(
                Step(
                    moves=LAST_TURNS,
                    prompt=N_(
                        "White has just closed a ring of 8 around H8: 8 + 2 × 1 = 10, and 4 for finishing first, "
                        "14. White places no more; you get exactly two more turns. If you close a polygon in them, "
                        "the higher score wins; if not, White wins. Your loop around D4, E4, D5 and E5 lacks only "
                        "F5. Close it and win."
                    ),
                    right=N_("You win: both of you finished, and your polygon is worth more than White's 14."),
                    accept=wins,
                    choices=("F5 G5", "E4 E5", "G5 G6", "A1 B1"),
                    wrong=N_("**{move}** does not win the game: you need a polygon worth more than White's 14."),
                ),
            ),
        ),
        Lesson(
            key="gap",
            title=N_("Tip: keep the last gap small"),
            options=SMALL,
            steps=(
                Step(
                    moves=(*RING, "roll 4"),
                    prompt=N_(
                        "Tip: build your loop so that its last gap is a single point with room beside it, like F5 "
                        "here. Then every block can close it, whatever the die says. You rolled a 4, a straight "
                        "line of 4: close the loop."
                    ),
                    right=N_("Closed with a 4. A loop one point from closing finishes on any roll."),
                    accept=finishes,
                    choices=("F5 G5 H5 J5", "E5 F5 G5 H5", "G3 G4 G5 G6", "A5 A6 A7 A8"),
                    highlight=("F5",),
                    wrong=N_("No polygon yet: the line of 4 must fill F5 without filling E5, the point inside."),
                ),
            ),
        ),
    ),
)
