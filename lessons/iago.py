"""Iago's course: the goal, placing, capture, the most you can take, release, the outer ring and the centre, the
score as a product, the variants, and a habit worth having.

Every position is a short game record played from the start (tests/test_lessons.py replays them all and checks
each step's answers against the engine).
"""

from __future__ import annotations

from functools import cache

from engines import GameState
from engines import iago as engine
from lessons import Course, Lesson, Said, Step
from locales import N_


def _state(state: GameState) -> engine.IagoGame:
    assert isinstance(state, engine.IagoGame)
    return state


def _flips(state: GameState, move: str) -> tuple[int, int]:
    """(captured, released) by ``move``, a legal move of ``state``."""
    after = _state(state).copy()
    after.play(move)
    assert after.last_flips is not None
    return after.last_flips


def _loose_captures(state: GameState) -> dict[str, int]:
    """What each empty inner cell (and each outer cell or the centre that captures) would capture, read from the
    same moves replayed under the loose rules, where a capture is never forced (the flips are the same)."""
    loose = engine.new_game(variant="loose")
    for move in _state(state).moves:
        loose.play(move)
    return {move: _flips(loose, move)[0] for move in loose.legal_moves()}


def explain_forced_capture(state: GameState, move: str, legal: bool) -> Said | None:
    """A refused move while a capture is forced: how much it would take, and where the most is."""
    game = _state(state)
    most = game.forced_capture()
    if legal or game.variant != "standard" or not most:
        return None
    cell = move.strip().upper()
    captures = _loose_captures(game)
    if cell not in captures:
        return None
    best = ", ".join(m for m in game.legal_moves())
    if not captures[cell]:
        return (
            N_("**{move}** captures nothing, but while you can capture you must: **{best}** captures {most}."),
            {"move": cell, "best": best, "most": most},
        )
    return (
        N_(
            "**{move}** would capture {count}, but when you can capture you must take the most you can: "
            "**{best}** captures {most}."
        ),
        {"move": cell, "count": captures[cell], "best": best, "most": most},
    )


def explain_flips(state: GameState, move: str, legal: bool) -> Said | None:
    if not legal:
        return None
    captured, released = _flips(state, move)
    return (
        N_("**{move}** captures {captured} and releases {released}."),
        {"move": move, "captured": captured, "released": released},
    )


def explain_score(state: GameState, move: str, legal: bool) -> Said | None:
    if not legal:
        return None
    player = _state(state).turn
    assert player is not None
    after = _state(state).copy()
    after.play(move)
    counts = after.area_counts()
    inner, outer = counts["inner"][player], counts["outer"][player]
    return (
        N_("After **{move}** your score is {inner} × {outer} = {score}."),
        {"move": move, "inner": inner, "outer": outer, "score": max(inner, 1) * max(outer, 1)},
    )


def best_score(state: GameState, move: str) -> bool:
    """The move that raises the mover's product the most."""
    game = _state(state)
    return _score_after(game, move) == _best_score(game.variant, tuple(game.moves))


def _score_after(state: engine.IagoGame, move: str) -> int:
    player = state.turn
    assert player is not None
    after = state.copy()
    after.play(move)
    return after.scores()[player]


@cache
def _best_score(variant: str, moves: tuple[str, ...]) -> int:
    """The best score any move reaches from the position of ``moves`` (once per position, not per move)."""
    state = engine.new_game(variant=variant)
    for move in moves:
        state.play(move)
    return max(_score_after(state, m) for m in state.legal_moves())


def leaves_no_capture(state: GameState, move: str) -> bool:
    after = _state(state).copy()
    after.play(move)
    return after.forced_capture() == 0


def explain_given_capture(state: GameState, move: str, legal: bool) -> Said | None:
    if not legal:
        return None
    after = _state(state).copy()
    after.play(move)
    given = after.forced_capture()
    if not given:
        return None
    return (
        N_("After **{move}** your opponent must capture {count}, at **{cells}**."),
        {"move": move, "count": given, "cells": ", ".join(after.legal_moves())},
    )


def captures_nothing(state: GameState, move: str) -> bool:
    return _flips(state, move)[0] == 0


def is_call(state: GameState, move: str) -> bool:
    return move.startswith("call ")


def any_legal(state: GameState, move: str) -> bool:
    return True


# Positions (short games from the start; the comments say what happened).
RELEASE = ("C2", "B3", "B2", "B1")  # Light's B1, on the outer ring, captured Dark's B2 between B1 and B3
MOST = ("D5", "G8", "F6", "F8", "F7")  # Light: E6 would take F7, F5 takes F6 and F7
CENTRE = ("F5", "H8", "G7", "F6", "F7")  # Light: the centre releases F6 (Light's) and G7 (Dark's)
PRODUCT = ("D7", "E3", "F7", "G5", "G4", "G3", "F4", "E2", "H6", "D2", "C1", "D4", "H7", "B3")
HABIT = ("G5", "E8", "G7", "B4", "D5", "H7", "I7", "E3", "D3", "C3", "F6", "H6")

COURSE = Course(
    engine=engine,
    welcome=N_(
        "**Iago** is Othello on a board of 61 hexes, with a twist: a disk you capture does not change colour, it "
        "turns **red** (a captive) and counts for nobody until someone releases it. The game ends when the 37 "
        "inner hexes are full; your score is your face-up disks **inside** times your face-up disks on the "
        "**outer ring**."
    ),
    farewell=N_(
        "You know every rule of Iago now: placing, capture and the most you can take, release, the outer ring "
        "and the centre, the product, and the variants. The best teacher now is a real game."
    ),
    explain=explain_forced_capture,
    lessons=(
        Lesson(
            key="goal",
            title=N_("The goal"),
            steps=(
                Step(
                    moves=(),
                    prompt=N_(
                        "Dark moves first. Place your first disk: any empty hex of the inner area except the centre "
                        "**E5** (the green dots show where you may play)."
                    ),
                    right=N_(
                        "Good: **{move}** is on the board. Players take turns placing one disk each; nobody ever "
                        "passes."
                    ),
                    accept=any_legal,
                    choices=("A1", "E5", "C3", "D4", "E4", "F6"),
                ),
            ),
        ),
        Lesson(
            key="inner",
            title=N_("Placing in the inner area"),
            steps=(
                Step(
                    moves=("E4", "F6"),
                    prompt=N_(
                        "While nobody can capture, you may place on any empty hex of the inner area except the "
                        "centre. The outer ring and the centre open only for a release (and for the largest "
                        "capture). Which of **A1**, **E5**, **E9** and **C3** may you play?"
                    ),
                    right=N_("Right: **{move}** is an inner hex and not the centre."),
                    accept=any_legal,
                    choices=("A1", "E5", "E9", "C3"),
                ),
            ),
        ),
        Lesson(
            key="capture",
            title=N_("Capture"),
            steps=(
                Step(
                    moves=("D4", "D5"),
                    prompt=N_(
                        "Light's disk on **D5** lies between your disk on **D4** and the empty hex **D6**. Place on "
                        "**D6**: a line of enemy disks between your new disk and one of yours is captured."
                    ),
                    right=N_(
                        "Captured: the disk on D5 turned red. A captive counts for neither player, but it "
                        "remembers its colour (the badge shows it)."
                    ),
                    accept=("D6",),
                    choices=("D6", "C3", "E6", "D3"),
                    highlight=("D5",),
                ),
            ),
        ),
        Lesson(
            key="most",
            title=N_("Forced capture: the most you can take"),
            steps=(
                Step(
                    moves=MOST,
                    prompt=N_(
                        "If you can capture, you **must**, and on a hex that captures the **most** disks. Here "
                        "**E6** would capture one Dark disk and **F5** two. Where must you place?"
                    ),
                    right=N_(
                        "Yes: **F5** takes F6 and F7. A forced capture may even be on the outer ring or the centre."
                    ),
                    accept=("F5",),
                    choices=("E6", "F5", "D6", "G6"),
                ),
            ),
        ),
        Lesson(
            key="release",
            title=N_("Release of captives"),
            steps=(
                Step(
                    moves=RELEASE,
                    prompt=N_(
                        "Light placed on **B1** and captured your disk on **B2**. Take it back: a line of captives "
                        "between your new disk and one of yours is **released** when one of those two disks is on "
                        "the outer ring or the centre. Which hex releases B2?"
                    ),
                    right=N_(
                        "Released: **A2** is on the outer ring and B2 lies between A2 and your C2, so B2 is Dark "
                        "again. A released captive always returns to its **own** colour, whoever releases it."
                    ),
                    accept=("A2",),
                    choices=("A2", "C3", "B4", "D2"),
                    explain=explain_flips,
                ),
            ),
        ),
        Lesson(
            key="outer",
            title=N_("The outer ring and the centre"),
            steps=(
                Step(
                    moves=CENTRE,
                    prompt=N_(
                        "The centre **E5** opens like the outer ring: for a release (or the largest capture). From "
                        "E5, the captives on F6 and G7 lie between E5 and your disk on H8. Release them."
                    ),
                    right=N_(
                        "Done: both return to their own colour, so F6 is yours again but G7 is **Dark's**. A "
                        "release your placement makes always happens, even when it helps your opponent."
                    ),
                    accept=("E5",),
                    choices=("E5", "E4", "G6", "H5"),
                    highlight=("F6", "G7"),
                    explain=explain_flips,
                ),
            ),
        ),
        Lesson(
            key="product",
            title=N_("Scoring as a product"),
            steps=(
                Step(
                    moves=PRODUCT,
                    prompt=N_(
                        "Your score is (your face-up disks inside) × (your face-up disks on the outer ring), and a "
                        "factor of 0 counts as 1. You have 5 inside and 1 outside: 5. Which move raises your score "
                        "the most right now?"
                    ),
                    right=N_(
                        "**H4** releases G4 and puts a second disk on the outer ring: 6 × 2 = 12. An inner disk "
                        "alone gives 6 × 1 = 6. Both factors count, so build both."
                    ),
                    accept=best_score,
                    choices=("B2", "D5", "F6", "H4", "H8"),
                    explain=explain_score,
                ),
            ),
        ),
        Lesson(
            key="variants",
            title=N_("The variants"),
            steps=(
                Step(
                    moves=("D4", "D5"),
                    options={"variant": "loose"},
                    prompt=N_(
                        "**Loose** rules: capturing is never forced. D6 would capture D5, but you need not. Place "
                        "on an inner hex that captures nothing."
                    ),
                    right=N_(
                        "Fine in loose rules. The outer ring and the centre still open only where you capture or "
                        "release."
                    ),
                    accept=captures_nothing,
                    choices=("D6", "C3", "F6", "A1"),
                    wrong=N_(
                        "**{move}** captures: allowed in loose rules, but this step asks for a move that does not."
                    ),
                ),
                Step(
                    moves=RELEASE,
                    options={"variant": "simple"},
                    prompt=N_(
                        "**Simple** rules: no releases. Captives stay red for good, the outer ring and the centre "
                        "open only for captures, and every face-up disk scores one point. Light has just captured "
                        "B2 from B1. Play a move that is legal here."
                    ),
                    right=N_("Right: in simple rules **A2** would not free B2, so only the inner hexes are open."),
                    accept=any_legal,
                    choices=("A2", "C3", "D3", "E5"),
                ),
                Step(
                    moves=("D4", "D5", "F6"),
                    options={"variant": "penalty"},
                    prompt=N_(
                        "**Penalty** rules: a capture is not checked when placed, but Dark just skipped the "
                        "capture on D6 that standard rules require. You may **call** it: `call` and any empty hex, "
                        "the outer ring and the centre included. Call it."
                    ),
                    right=N_(
                        "Called: **{move}** is placed with its flips as usual. A call is open only on the very next "
                        "turn."
                    ),
                    accept=is_call,
                    choices=("call A1", "call D6", "call E5", "D3", "C3"),
                    wrong=N_("**{move}** is an ordinary move. You are owed a call: write `call` before the hex."),
                ),
            ),
        ),
        Lesson(
            key="habit",
            title=N_("A habit worth having"),
            steps=(
                Step(
                    moves=HABIT,
                    prompt=N_(
                        "Tip: before you place, look at what your opponent will be **forced** to capture next. Here "
                        "every move but one lets Light capture one of your disks. Find the one that leaves Light "
                        "nothing to capture."
                    ),
                    right=N_(
                        "**F4** it is: Light has no capture after it. Checking your opponent's forced capture is "
                        "the quickest way to stop losing disks for nothing."
                    ),
                    accept=leaves_no_capture,
                    choices=("C5", "D4", "F4", "F8", "G6", "E4"),
                    explain=explain_given_capture,
                ),
            ),
        ),
    ),
)
