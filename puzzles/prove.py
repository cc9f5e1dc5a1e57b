"""The soundness rule of a shipped puzzle, proven move by move with a game's oracle (``puzzles.oracle``).

At each of the solver's turns the full search names a move, and it is the puzzle's move only when every other
legal move is clearly worse by the proving search (at least ``MARGIN`` below it) and the move keeps the win (value
at least ``WINNING``) or gains far more than any other (by ``GAIN``: the only move that saves the game). These are
the live miner's thresholds (``puzzles.mining.is_only_move``), so a shipped puzzle and a mined one mean the same.
The opponent answers with the full search's move; the line ends at the solver's first turn without an only move,
at a chance move, at the game's end, or after ``MAX_SOLVER_MOVES``.
"""

from __future__ import annotations

from dataclasses import dataclass

from engines import GameState
from puzzles.mining import GAIN, MARGIN, MAX_SOLVER_MOVES, WINNING, Step, is_only_move
from puzzles.oracle import Oracle

MIN_MOVES = 3  # the first position of a puzzle offers at least this many legal moves (no coin flips)
# Below this value by the search at the position, no move can be an only move (one that does not keep the win
# must gain GAIN over every other, and no value is below -1); a little below, since the proof searches deeper.
HOPELESS = -1 + GAIN - 0.1
SHALLOW_GAP = MARGIN / 2  # where the survey values every move: the least lead of its best move worth proving


@dataclass(frozen=True)
class Line:
    """A proven solution: the moves (the solver's and the replies between them) and each solver's step."""

    solution: tuple[str, ...]
    steps: tuple[Step, ...]


def prove_step(oracle: Oracle, state: GameState, min_moves: int = 2, generic: bool = False) -> Step | None:
    """The player to act's only move at ``state`` with its value and its closest rival's, or None.

    The rivals are searched likeliest first and the search stops at the first one that also keeps the win (or
    comes within ``MARGIN``), so a position without an only move costs a few searches; one with an only move
    costs a search of every legal move (or of the oracle's contenders, the rest valued by its shallow look).
    A game's own prover (``Oracle.step``) is used instead unless ``generic``: a test proves a sample again with
    the generic searches, independently of the prover that found it."""
    legal = state.legal_moves()
    player = state.turn
    if state.chance or player is None or len(legal) < min_moves:
        return None
    if oracle.step is not None and not generic:
        own = oracle.step(state)
        return own if own is not None and is_only_move(own.value, own.margin) else None
    best, estimate, ordered = oracle.survey(state, oracle.game_ai)
    if estimate < HOPELESS:
        return None
    shallow_rival = ordered[1][1] if len(ordered) > 1 else None
    if shallow_rival is not None and estimate - shallow_rival < SHALLOW_GAP:
        return None  # level 4 already sees a rival as good: the deeper search hardly ever parts them by MARGIN
    values: dict[str, float] = {}
    for index, (move, shallow) in enumerate(ordered):
        deep = oracle.contenders is None or index < oracle.contenders or shallow is None
        found = oracle.deep_value(state, move, player, oracle.game_ai) if deep else shallow
        assert found is not None
        values[move] = found
        if move == best:
            continue
        top = values[best]
        # a rival within the margin, or within the gain of a move that does not keep the win: no only move
        if found > top - MARGIN or (top < WINNING and found > top - GAIN):
            return None
    rival = max((m for m in values if m != best), key=lambda m: (values[m], m))
    step = Step(best, values[best], rival, values[rival])
    return step if is_only_move(step.value, step.margin) else None


def solve(oracle: Oracle, state: GameState) -> Line | None:
    """The proven line from ``state`` (the solver to act, at least ``MIN_MOVES`` legal moves), or None."""
    position = state.copy()
    solver = position.turn
    line: list[tuple[str, bool]] = []  # (move, whether the solver's)
    steps: list[Step] = []
    while len(steps) < MAX_SOLVER_MOVES:
        step = prove_step(oracle, position, MIN_MOVES if not steps else 2)
        if step is None:
            break
        steps.append(step)
        line.append((step.move, True))
        position.play(step.move)
        if position.is_over or position.chance or position.turn is None or len(steps) == MAX_SOLVER_MOVES:
            break
        if position.turn == solver:  # the opponent is out (passes to the end): a line alternates, so it ends here
            break
        legal = position.legal_moves()
        reply = legal[0] if len(legal) == 1 else oracle.best(position)[0]
        line.append((reply, False))
        position.play(reply)
        if position.is_over or position.chance or position.turn != solver:
            break
    while line and not line[-1][1]:
        line.pop()  # a line ends with the solver's move
    if not steps:
        return None
    return Line(tuple(move for move, _ in line), tuple(steps))
