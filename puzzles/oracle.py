"""How each game's puzzles are searched: which positions are worth proving, and the values that prove them.

Every search here is fixed work, never a clock (``budget_s=math.inf`` is the AI's "no clock" mode: Iago's exact
endgame solver runs to its end and its tree search stops at a fixed number of iterations, ISAAC's tree search runs
a fixed number of iterations from a fixed seed, Polygo's search runs to its full width), so a seed mines the same
puzzles on any machine and a test can search again and get the same values. The AI's public calls are used
(``ai.analyse_position``, ``ai.evaluate``; for Polygo's survey also ``ai.polygo.search.root_values``, the search
behind its ``analyse_position``), on the AI's scale: -1..+1 for the player named.

Per game (docs/puzzles.md, "What sound means"):

- **Iago**: positions with at most ``IAGO_EMPTIES`` empty inner cells, where every move leaves a position the AI's
  alpha-beta solves exactly: a move's value is its exact result, so "exactly one move wins" is a proof.
- **ISAAC**: the scoring phase (removals: a placement has hundreds of rivals, each a long search). A move's value
  is the full tree search of the position after it, one ply deeper than the search at the position itself.
- **Polygo**: every placement after its roll. Every move is valued by level 4's root search (depth 2 for its
  best 16 placements, depth 1 below them); the contenders again by the average over the opponent's six faces of
  the full search after their roll (depth 3, a roll deeper than level 4).
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import ai
from ai.polygo import search as polygo_search
from ai.search import Analysis, Deadline
from engines import GameState
from engines import iago as iago_engine

FULL = math.inf  # the AI's "no clock" budget: a fixed amount of work, the same on every machine
GLANCE = 0.0  # the least search (its first depth always completes): fixed work too, for ordering moves only
IAGO_EMPTIES = 7  # Iago positions with at most this many empty inner cells: every move after is solved exactly
ISAAC_MAX_MOVES = 120  # ISAAC positions with more moves (removals times counter scores) cost too much to prove
POLYGO_CONTENDERS = 4  # Polygo: the moves best by the survey that are searched again at depth 3


def after(state: GameState, move: str) -> GameState:
    """A copy of ``state`` with ``move`` played."""
    copy = state.copy()
    copy.play(move)
    return copy


def value(state: GameState, player: int, game_ai: str, budget: float = FULL) -> float:
    """``state``'s value for ``player``: exact once over, a forced move (a pass) played rather than searched."""
    if state.is_over:
        winner = state.result().winner
        return 0.0 if winner is None else (1.0 if winner == player else -1.0)
    legal = state.legal_moves()
    if not state.chance and state.turn is not None and len(legal) == 1:
        return value(after(state, legal[0]), player, game_ai, budget)
    return ai.evaluate(state, player, budget_s=budget, game_ai=game_ai)


Ordered = list[tuple[str, float | None]]  # moves, likeliest rivals first, each with its shallow value (if any)
Survey = tuple[str, float, Ordered]  # the search's best move, its value there, and every move ordered (best first)


@dataclass(frozen=True)
class Oracle:
    """One game's puzzle searches. ``gate``: whether a position is worth proving; ``survey``: level 4's full search
    at the position (its move and value) and the moves with the solution's likeliest rivals first (the prover
    stops at the first rival that also keeps the win, so most positions cost a few searches); ``deep_value``: the
    proving value of a move for the player who plays it; with ``contenders``, only that many moves get it and the
    rest keep the shallow value the survey gave them."""

    game: str
    game_ai: str
    search: str  # names the proving search in the shipped record
    gate: Callable[[GameState], bool]
    survey: Callable[[GameState, str], Survey]
    deep_value: Callable[[GameState, str, int, str], float]
    signature: Callable[[GameState], Any]
    deviations: Callable[[GameState], list[str]]  # the moves (or die faces) whose positions are candidates too
    contenders: int | None = None

    def best(self, state: GameState) -> tuple[str, float]:
        """The full search's best move at ``state`` and its value for the player to act."""
        return ai.analyse_position(state, budget_s=FULL, game_ai=self.game_ai)

    def key(self, state: GameState) -> str:
        """The position itself, whatever record led to it: two puzzles with one key are one puzzle."""
        return json.dumps([self.game, self.signature(state)], sort_keys=True, separators=(",", ":"))


def _dict_signature(state: GameState) -> Any:
    data = state.to_dict()
    for key in ("moves", "last_cell", "last_flips"):
        data.pop(key, None)
    return data


def _polygo_signature(state: Any) -> Any:
    marks = {None: ".", 0: "b", 1: "w"}
    board = "".join(marks[state.stone((col, row))] for row in range(state.size) for col in range(state.size))
    return [
        state.size,
        board,
        state.turn,
        state.die,
        list(state.finished),
        state.first_finisher,
        state.extra_turns_left,
    ]


# --- Iago ----------------------------------------------------------------------------------------------------


def empty_inner(state: Any) -> int:
    return sum(1 for cell in iago_engine.INNER if state.cell(cell) is None)


def _iago_gate(state: GameState) -> bool:
    return empty_inner(state) <= IAGO_EMPTIES


def _every_move(state: GameState) -> list[str]:
    return [] if state.chance or state.turn is None else state.legal_moves()


def _by_glance(state: GameState, game_ai: str) -> Survey:
    """The full search's move first, then the others by the least search of each (the likeliest rivals first)."""
    player = state.turn
    assert player is not None
    best, estimate = ai.analyse_position(state, budget_s=FULL, game_ai=game_ai)
    others = [m for m in state.legal_moves() if m != best]
    glanced = {m: value(after(state, m), player, game_ai, GLANCE) for m in others}
    return best, estimate, [(best, None), *((m, None) for m in sorted(others, key=lambda m: (-glanced[m], m)))]


def _value_after(state: GameState, move: str, player: int, game_ai: str) -> float:
    return value(after(state, move), player, game_ai)


# --- ISAAC ---------------------------------------------------------------------------------------------------


def _isaac_gate(state: Any) -> bool:
    return state.phase != "placement" and len(state.legal_moves()) <= ISAAC_MAX_MOVES


def _isaac_survey(state: GameState, game_ai: str) -> Survey:
    """The full search's move first, then the same piece at the nearest other scores (the likeliest to keep the
    win too), then every other piece at its highest score, then the rest."""
    best, estimate = ai.analyse_position(state, budget_s=FULL, game_ai=game_ai)
    moves = state.legal_moves()

    def parts(move: str) -> tuple[str, int]:
        _, span, score = move.split(" ")
        return span, int(score)

    best_span, best_score = parts(best) if best.startswith("x ") else ("", 0)
    top: dict[str, int] = {}
    for move in moves:
        if move.startswith("x "):
            span, score = parts(move)
            top[span] = max(top.get(span, score), score)

    def rank(move: str) -> tuple[int, int, str]:
        if move == best:
            return (0, 0, move)
        if not move.startswith("x "):
            return (3, 0, move)
        span, score = parts(move)
        if span == best_span:
            return (1, abs(score - best_score), move)
        return (2 if score == top[span] else 3, -score, move)

    return best, estimate, [(move, None) for move in sorted(moves, key=rank)]


def _isaac_deviations(state: Any) -> list[str]:
    """In the scoring phase, each piece's removal at its highest score: the removals a player weighs."""
    if state.turn is None or state.phase == "placement":
        return []
    top: dict[str, str] = {}
    for move in state.legal_moves():
        if move.startswith("x "):
            _, span, score = move.split(" ")
            if span not in top or int(score) > int(top[span].split(" ")[2]):
                top[span] = move
    return sorted(top.values())


# --- Polygo --------------------------------------------------------------------------------------------------


def _polygo_gate(state: GameState) -> bool:
    return not state.chance and state.turn is not None and state.legal_moves() != ["pass"]


def _other_faces(state: Any) -> list[str]:
    """At a roll (not the opening dice), every face: the same game with another roll."""
    if not state.chance:
        return []
    return [move for move in state.legal_moves() if move.startswith("roll ")]


def _polygo_depth3(state: GameState, move: str, player: int, game_ai: str) -> float:
    """The placement's value over the opponent's six faces, each answered by the full search (depth 2 from
    there): a look one roll deeper than level 4's own."""
    placed = after(state, move)
    if placed.is_over or not placed.chance:
        return value(placed, player, game_ai)
    faces = placed.legal_moves()
    return sum(value(after(placed, face), player, game_ai) for face in faces) / len(faces)


def _polygo_survey(state: GameState, game_ai: str) -> Survey:
    """Level 4's root search, every placement valued at once (depth 2 for its best ``WIDE``, depth 1 below them):
    ``ai.polygo.search.root_values``, the search behind ``ai.analyse_position``. Valuing each placement through
    ``ai.evaluate`` instead would cost a scan of the board per placement, a hundred times as much."""
    values, _ = polygo_search.root_values(state, Deadline(None), None)
    best, estimate = Analysis(values, 1, False).best()
    rest = sorted((m for m in values if m != best), key=lambda m: (-values[m], m))
    return best, estimate, [(m, values[m]) for m in [best, *rest]]


ORACLES: dict[str, Oracle] = {
    "iago": Oracle(
        game="iago",
        game_ai="ai.iago",
        search="exact",
        gate=_iago_gate,
        survey=_by_glance,
        deep_value=_value_after,
        signature=_dict_signature,
        deviations=_every_move,
    ),
    "isaac": Oracle(
        game="isaac",
        game_ai="ai.isaac",
        search="full-after-move",
        gate=_isaac_gate,
        survey=_isaac_survey,
        deep_value=_value_after,
        signature=_dict_signature,
        deviations=_isaac_deviations,
    ),
    "polygo": Oracle(
        game="polygo",
        game_ai="ai.polygo",
        search="depth3-contenders",
        gate=_polygo_gate,
        survey=_polygo_survey,
        deep_value=_polygo_depth3,
        signature=_polygo_signature,
        deviations=_other_faces,
        contenders=POLYGO_CONTENDERS,
    ),
}
