"""The pickers (games/move_picker.py and each game's): every legal move can be picked, nothing else can, in at most
three steps that fit Discord's select menus (issue 24)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass, field

import pytest

import games
from cogs.presentation.board_controls import CUSTOM_ID_LIMIT, PLACEHOLDER_LIMIT, TEXT_LIMIT, said
from engines import GameState
from games.move_picker import MAX_MENUS, MAX_OPTIONS, MAX_STEPS, RESERVED, Picker, Step, Unavailable
from tests.fourth_game.entry import ENTRY as TICTACTOE

LONGEST_PREFIX = f"tap:{2**63 - 1}:999999:4:"  # the largest game id and ply, the last menu of a step


def check_step(step: Step, path: tuple[str, ...]) -> None:
    """What Discord takes, in both languages: menus, options, the words' lengths, the keys' room in a custom_id."""
    assert 1 <= len(step.menus) <= MAX_MENUS, path
    keys = [choice.key for menu in step.menus for choice in menu.choices]
    assert len(keys) == len(set(keys)), f"keys repeat at {path}"
    assert len(LONGEST_PREFIX + "/".join(path)) <= CUSTOM_ID_LIMIT, path
    for menu in step.menus:
        assert 1 <= len(menu.choices) <= MAX_OPTIONS, path
        for locale in ("en-US", "ja"):
            assert len(said(locale, menu.placeholder)) <= PLACEHOLDER_LIMIT
            for choice in menu.choices:
                assert 0 < len(choice.key) <= TEXT_LIMIT and 0 < len(said(locale, choice.label)) <= TEXT_LIMIT
                if choice.description is not None:
                    assert len(said(locale, choice.description)) <= TEXT_LIMIT


@dataclass
class Tree:
    moves: dict[str, tuple[str, ...]] = field(default_factory=dict)  # move -> the path that picks it
    steps: int = 0


def walk(picker: Picker, state: GameState, path: tuple[str, ...] = (), tree: Tree | None = None) -> Tree:
    """Every path through the picker's steps from ``path``, checking each step; the moves at their ends."""
    tree = tree if tree is not None else Tree()
    picked = picker.step(state, path)
    if isinstance(picked, str):
        assert picked not in tree.moves, f"{picked} is reached twice: {tree.moves[picked]} and {path}"
        tree.moves[picked] = path
        return tree
    assert len(path) < MAX_STEPS, f"a fourth step after {path}"
    assert not any(mark in key for key in path for mark in RESERVED)
    check_step(picked, path)
    tree.steps += 1
    for menu in picked.menus:
        for choice in menu.choices:
            walk(picker, state, (*path, choice.key), tree)
    return tree


def positions(name: str, options: dict[str, object], seed: int, every: int) -> Iterator[GameState]:
    """Every ``every``-th position of a random game where a member picks a move (no dice due, not a forced pass)."""
    entry = games.find(name)
    state, rng = entry.new_game(**options), random.Random(seed)
    ply = 0
    while not state.is_over:
        moves = state.legal_moves()
        if not state.chance and moves != ["pass"] and ply % every == 0:
            yield state.copy()
        state.play(rng.choice(moves))
        ply += 1


@pytest.mark.parametrize(
    ("name", "options", "every"),
    [
        ("iago", {"variant": "standard"}, 4),
        ("iago", {"variant": "penalty"}, 3),
        ("isaac", {}, 10),
        ("polygo", {"size": 9}, 6),
        ("polygo", {"size": 13}, 12),
    ],
)
def test_every_legal_move_and_nothing_else_is_picked_in_at_most_three_steps(
    name: str, options: dict[str, object], every: int
) -> None:
    picker = games.find(name).picker
    for state in positions(name, options, seed=5, every=every):
        tree = walk(picker, state)
        assert sorted(tree.moves) == sorted(state.legal_moves())


def test_penalty_calls_are_offered_beside_the_placements() -> None:
    picker = games.find("iago").picker
    for state in positions("iago", {"variant": "penalty"}, seed=1, every=1):
        calls = [move for move in state.legal_moves() if move.startswith("call ")]
        if len(calls) > MAX_OPTIONS:
            first = picker.step(state, ())
            assert isinstance(first, Step) and "Call" in first.menus[-1].placeholder.template  # type: ignore[union-attr]
            return
    pytest.fail("no position with a call owed on many empty cells")


def test_a_polygo_roll_on_19x19_is_three_steps_that_fit() -> None:
    entry = games.find("polygo")
    state = entry.new_game(size=19)
    state.play("open 2 6")  # White places first, with its 6: an S or a Z, 8 ways on every point
    picker = entry.picker
    first = picker.step(state, ())
    assert isinstance(first, Step)
    check_step(first, ())
    reached = set()
    for area in [choice.key for menu in first.menus for choice in menu.choices][::5]:  # a sample of areas
        reached |= set(walk(picker, state, (area,)).moves)
    assert reached and reached <= set(state.legal_moves())


def test_a_path_that_is_not_offered_is_unavailable() -> None:
    entry = games.find("isaac")
    state = entry.new_game()
    for path in [("8",), ("3", "j10"), ("7", "a1", "a1-z1"), ("7", "a1", "a1-a7", "more"), ("",)]:
        with pytest.raises(Unavailable):
            entry.picker.step(state, path)


def test_the_default_picker_lists_moves_in_one_step_or_in_groups() -> None:
    state = TICTACTOE.new_game()
    tree = walk(Picker(), state)
    assert sorted(tree.moves) == sorted(state.legal_moves()) and tree.steps == 1

    class Many:
        """A position with more moves than four menus hold."""

        chance = False

        def legal_moves(self) -> list[str]:
            return [f"m{n:03}" for n in range(301)]

    tree = walk(Picker(), Many())  # type: ignore[arg-type]
    assert len(tree.moves) == 301 and all(len(path) == 2 for path in tree.moves.values())
