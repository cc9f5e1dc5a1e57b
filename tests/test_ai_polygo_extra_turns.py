"""Polygo's extra turns searched to their end (ai/polygo/extra_turns.py) against the engine played move by move.

Rule "Finishing": after a first finish the other player has exactly two turns; a close worth more wins, an equal
one draws, and a close worth less ends the game at once and loses. The search's answer must be the engine's."""

from __future__ import annotations

import math
import random
from collections.abc import Callable

import pytest

import ai
from ai.polygo import geometry, search
from ai.polygo.extra_turns import ExtraTurns
from ai.search import Deadline
from engines import polygo as P

SIZE = 13


def first_finish(seed: int) -> P.PolygoGame:
    """A seeded game of random placements, stopped just after its first finish (the finisher's polygon the
    smallest ring or more), with the other player's two extra turns to come."""
    rng = random.Random(seed)
    while True:
        game = P.new_game(size=SIZE)
        while not game.is_over:
            legal = game.legal_moves()
            if game.chance:
                game.play(rng.choice(legal))
                continue
            # prefer placements beside one's own stones, so that loops form as in real games
            own = set(game.stones_of(game.turn))
            rng.shuffle(legal)
            legal.sort(key=lambda move: -sum(_beside(point, own) for point in _points(move)))
            game.play(legal[0] if rng.random() < 0.7 else rng.choice(legal))
            if game.first_finisher is not None:
                return game
        rng.random()


def _points(move: str) -> list[tuple[int, int]]:
    return [P.parse_point(token) for token in move.split()] if move != "pass" else []


def _beside(point: tuple[int, int], own: set[tuple[int, int]]) -> int:
    col, row = point
    return sum((col + dc, row + dr) in own for dc, dr in ((1, 0), (-1, 0), (0, 1), (0, -1)))


def engine_outcome(game: P.PolygoGame, player: int) -> float:
    """1, 1/2 or 0 for ``player`` once the game is over; 0 while it is not (the extra turns are spent)."""
    if not game.is_over:
        return 0.0
    winner = game.result().winner
    return 0.5 if winner is None else float(winner == player)


def best_over_faces(game: P.PolygoGame, value: Callable[[P.PolygoGame, str], float]) -> float:
    """Each face rolled, every legal move played on the engine: the mean over the faces of the best ``value``."""
    total = 0.0
    for face in range(1, 7):
        rolled = game.copy()
        rolled.play(f"roll {face}")
        best = 0.0
        for move in rolled.legal_moves():
            after = rolled.copy()
            after.play(move)
            best = max(best, value(after, move))
        total += best
    return total / 6


def engine_last_turn(game: P.PolygoGame, player: int) -> float:
    """The player's best outcome on their last extra turn, each face rolled and every legal move played."""
    return best_over_faces(game, lambda after, _: engine_outcome(after, player))


def turns_of(game: P.PolygoGame) -> ExtraTurns:
    finisher = game.first_finisher
    assert finisher is not None
    geo = geometry.geometry(SIZE)
    own = geometry.stones_of(game, 1 - finisher)
    other = geometry.stones_of(game, finisher)
    return ExtraTurns(geo, own, other, game.scores()[finisher], Deadline(None))


def with_a_quiet_first_turn(game: P.PolygoGame, rng: random.Random) -> P.PolygoGame:
    """The first extra turn spent on a placement that closes nothing but leaves the most chances (as the search
    sees them), so that the last turn has closes of every worth to tell apart."""
    game = game.copy()
    game.play(f"roll {rng.randint(1, 6)}")
    turns = turns_of(game)
    quiet = [m for m in game.legal_moves() if m != "pass" and not _closes(game, m)]
    if quiet:
        game.play(max(quiet, key=lambda m: (turns.last(turns.geo.mask_of(m)), m)))
    return game


@pytest.mark.parametrize("seed", range(6))
def test_the_last_extra_turn_is_the_engines_best_close(seed: int) -> None:
    rng = random.Random(seed)
    while True:  # the first seeded game whose last turn has a close worth something
        game = with_a_quiet_first_turn(first_finish(rng.randrange(10**6)), rng)
        if game.extra_turns_left == 1 and (expected := engine_last_turn(game, 1 - game.first_finisher)) > 0:
            break
    assert turns_of(game).last() == pytest.approx(expected)


@pytest.mark.parametrize("seed", range(2))
def test_both_extra_turns_are_the_engines_best_play(seed: int) -> None:
    rng = random.Random(100 + seed)
    while True:  # the first seeded game where the extra turns have a chance
        game = first_finish(rng.randrange(10**6))
        if turns_of(game).both() > 0:
            break
    player = 1 - game.first_finisher
    turns = turns_of(game)
    geo = turns.geo

    def then_last_turn(after: P.PolygoGame, move: str) -> float:
        if after.is_over:
            return engine_outcome(after, player)
        if move == "pass":
            return turns.last()
        placed = turns.own | geo.mask_of(move)
        return ExtraTurns(geo, placed, turns.occupied & ~turns.own, turns.need, Deadline(None)).last()

    expected = best_over_faces(game, then_last_turn)
    assert turns.both() == pytest.approx(expected)


def _closes(game: P.PolygoGame, move: str) -> bool:
    after = game.copy()
    after.play(move)
    return after.finished[game.turn]


def test_a_first_finish_is_worth_what_the_extra_turns_leave_of_it() -> None:
    game = first_finish(3)
    finisher = game.first_finisher
    before = None
    # replay to the position before the finish, to value the finishing placement as level 4 does
    replay = P.new_game(size=SIZE)
    for move in game.moves[:-1]:
        replay.play(move)
    before = replay
    root = search.Root(before)
    after = before.copy()
    after.play(game.moves[-1])
    value = search.finish_value(root, after, root.geo.mask_of(game.moves[-1]), Deadline(math.inf))
    assert before.turn == finisher
    assert value == pytest.approx(1 - 2 * turns_of(game).both())


@pytest.mark.parametrize("level", [1, 2, 3, 4])
def test_only_level_4_searches_the_extra_turns_the_others_estimate_them(
    level: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    # weaker the natural way: the lower levels value a finish by the opponent's templates, as they always did
    from ai.polygo import extra_turns
    from tests.test_ai_polygo import FAST, RING, play_moves

    searched: list[int] = []
    both = extra_turns.ExtraTurns.both

    def counted(self: ExtraTurns) -> float:
        searched.append(level)
        return both(self)

    monkeypatch.setattr(extra_turns.ExtraTurns, "both", counted)
    game = play_moves(9, RING)
    move = ai.choose_move(game, level, seed=1, **FAST)
    after = game.copy()
    after.play(move)
    assert after.finished[0]  # every level closes the ring, the opponent having no answer
    assert bool(searched) == (level == 4)
