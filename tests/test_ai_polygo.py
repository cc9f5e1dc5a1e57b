"""Polygo's computer player (ai/polygo/): its model of the rules agrees with the engine, it closes, blocks and
uses its extra turns as the rules make best, and every level plays legal moves on every board size.

Budgets are tiny or the work is bounded (``max_depth``), so nothing here depends on the machine's speed."""

from __future__ import annotations

import math
import random

import pytest

import ai
from ai.polygo import evaluate, geometry, search
from engines import polygo as P

FAST = {"budget_s": math.inf, "max_depth": 2}


def seeded_game(seed: int, size: int, placements: int) -> P.PolygoGame:
    """A game of random placements that close nothing, stopped where a player is to place."""
    rng = random.Random(seed)
    game = P.new_game(size=size)
    placed = 0
    while placed < placements or game.chance:
        legal = game.legal_moves()
        if game.chance:
            game.play(rng.choice(legal))
            continue
        rng.shuffle(legal)
        for move in legal:
            trial = game.copy()
            trial.play(move)
            if not any(trial.finished):
                game = trial
                placed += 1
                break
        else:
            break
    return game


def play_moves(size: int, moves: str) -> P.PolygoGame:
    game = P.new_game(size=size)
    for move in moves.split("|"):
        game.play(move)
    return game


# --- the model of the rules -----------------------------------------------------------------------------------


@pytest.mark.parametrize("size", P.OPTIONS["size"])
def test_every_template_wall_is_a_polygon_of_the_engine(size: int) -> None:
    # Rule "Polygons": a wall of stones around the interior encloses it; the engine scores it stones + 2 x inside
    geo = geometry.geometry(size)
    rng = random.Random(size)
    for k in rng.sample(range(len(geo.wall)), 60):
        points = [P.point_name(i % geo.width, i // geo.width) for i in geometry.bits(geo.wall[k])]
        polygon = P.polygon_from_points(points, size)
        assert polygon is not None
        assert polygon["score"] == geo.score[k]
        assert geo.encloses(geo.wall[k])


@pytest.mark.parametrize("seed", range(6))
def test_placements_that_close_are_exactly_the_engines(seed: int) -> None:
    # Rule "Finishing": a placement that leaves the player with a polygon finishes; the search must find every
    # one of them (any loop, not only a template) and no other
    game = seeded_game(seed, 9, 12 + seed)
    root = search.Root(game)
    _, exact = search.first_ply(root)
    finishing = set()
    for move in game.legal_moves():
        after = game.copy()
        after.play(move)
        if after.finished[game.turn]:
            finishing.add(root.geo.mask_of(move))
    assert exact == finishing


def test_template_covers_complete_a_loop() -> None:
    geo = geometry.geometry(9)
    checked = 0
    for seed in range(10, 22):
        game = seeded_game(seed, 9, 16)
        own = [geometry.stones_of(game, 0), geometry.stones_of(game, 1)]
        side = evaluate.Side.scan(geo, own[0], own[1])
        for per_face in side.closing(geo, own[0] | own[1]):
            for cover in per_face:
                assert not cover & (own[0] | own[1])
                assert geo.encloses(own[0] | cover)
                checked += 1
    assert checked > 0


def test_a_side_updates_as_a_fresh_scan() -> None:
    geo = geometry.geometry(13)
    game = seeded_game(3, 13, 10)
    own = [geometry.stones_of(game, 0), geometry.stones_of(game, 1)]
    mine = evaluate.Side.scan(geo, own[0], own[1])
    theirs = evaluate.Side.scan(geo, own[1], own[0])
    block = geo.placements[5][len(geo.placements[5]) // 2]
    block &= ~0 if not block & (own[0] | own[1]) else 0
    if block:
        assert mine.placed(geo, block).near == {
            k: g for k, g in evaluate.Side.scan(geo, own[0] | block, own[1]).near.items() if k in mine.near
        }
        assert theirs.blocked(geo, block).near == evaluate.Side.scan(geo, own[1], own[0] | block).near


# --- what the rules make best ---------------------------------------------------------------------------------

# Black's 3x3 ring around E5 on 9x9 lacks only E6; Black has rolled a line of three, and E6 E7 E8 closes it.
RING = "open 1 2|D4 E4|A1 B1 C1|roll 1|F4 F5|roll 1|A3 B3|roll 1|D5 D6|roll 1|A5 B5|roll 1|F6 F7|roll 1|A7 B7|roll 2"


@pytest.mark.parametrize("level", ai.LEVELS)
def test_every_level_closes_when_it_can(level: int) -> None:
    game = play_moves(9, RING)
    assert game.turn == 0
    move = ai.choose_move(game, level, seed=1, **FAST)
    after = game.copy()
    after.play(move)
    assert after.finished[0]


def test_level_4_blocks_a_ring_that_any_face_would_close() -> None:
    # White's 3x3 ring around E5 lacks only E6, which every face can fill next turn, and D7 E7 would close a 3x4
    # ring. Black, far from any ring of its own, has rolled a domino: E6 E7 or D7 E7 (which leaves E6 no room
    # but the interior) leave White no placement that closes anything; every other move loses at once.
    game = play_moves(9, RING.replace("open 1 2", "open 2 1").removesuffix("|A7 B7|roll 2"))
    assert game.turn == 0 and game.die == 1
    move = ai.choose_move(game, 4, seed=1, **FAST)
    after = game.copy()
    after.play(move)
    geo = geometry.geometry(9)
    white, black = geometry.stones_of(after, 1), geometry.stones_of(after, 0)
    assert geo.closing_placements(white, white | black) == [[] for _ in geometry.FACES]


def test_extra_turns_close_a_bigger_polygon_or_nothing() -> None:
    # Rule "Finishing and score": after the opponent finished, only a polygon scoring more than theirs wins; a
    # smaller one still ends the game as a loss, so the player then plays for the bigger one.
    rng = random.Random(5)
    for _ in range(40):
        game = P.new_game(size=9)
        while not game.is_over and game.first_finisher is None:
            game.play(rng.choice(game.legal_moves()))
        if game.is_over or game.chance:
            continue
        move = ai.choose_move(game, 4, seed=1, **FAST)
        after = game.copy()
        after.play(move)
        me = game.turn
        if after.is_over and after.finished[me]:
            assert after.result().winner in (me, None) or all(not _wins(game, m, me) for m in game.legal_moves())


def _wins(game: P.PolygoGame, move: str, me: int) -> bool:
    after = game.copy()
    after.play(move)
    return after.is_over and after.result().winner == me


# --- levels and budgets ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("size", P.OPTIONS["size"])
@pytest.mark.parametrize("level", ai.LEVELS)
def test_every_level_plays_legal_moves_through_a_whole_game(size: int, level: int) -> None:
    rng = random.Random(size * 10 + level)
    game = P.new_game(size=size)
    while not game.is_over:
        if game.chance:
            game.play(rng.choice(game.legal_moves()))
            continue
        move = ai.choose_move(game, level, seed=len(game.moves), budget_s=0.02)
        assert move in game.legal_moves()
        game.play(move)


@pytest.mark.parametrize("level", ai.LEVELS)
def test_bounded_work_is_deterministic_for_a_seed(level: int) -> None:
    game = seeded_game(7, 13, 12)
    first = ai.choose_move(game, level, seed=3, **FAST)
    assert ai.choose_move(game, level, seed=3, **FAST) == first


def test_analysis_gives_a_legal_move_and_a_value_in_range() -> None:
    game = seeded_game(8, 13, 12)
    move, value = ai.analyse_position(game, budget_s=0.05)
    assert move in game.legal_moves()
    assert -1.0 <= value <= 1.0
