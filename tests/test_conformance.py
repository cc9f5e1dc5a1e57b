"""One conformance suite over every registered game (in the spirit of OpenSpiel's games_sim_test.py).

Every game in the registry, and the test-only fourth game, must keep the engine contract of
``shared/design/engine-api.md`` and the registry's promises. Rulings specific to a game are tested in that
game's own file; what is here holds for all of them.
"""

from __future__ import annotations

import itertools
import json
import math
import random
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ai
import engines
import games
from engines import GameState, IllegalMove
from games import GameEntry
from sessions import game_records
from sessions.model import Game, GameStatus
from tests.fourth_game.entry import ENTRY as FOURTH_GAME

ENTRIES = [*games.entries(), FOURTH_GAME]
MAX_PLIES = 2000  # far beyond any game's length: a game that runs past it is stuck
CHECKS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def option_sets(entry: GameEntry) -> list[dict[str, Any]]:
    """Every combination of the entry's option values."""
    names = [option.name for option in entry.options]
    return [dict(zip(names, values, strict=True)) for values in itertools.product(*(o.values for o in entry.options))]


CASES = [
    pytest.param(entry, options, id=f"{entry.name}-{options}") for entry in ENTRIES for options in option_sets(entry)
]


def random_game(entry: GameEntry, options: dict[str, Any], rng: random.Random, plies: int = MAX_PLIES) -> GameState:
    """A game played by uniform random choices (chance outcomes too) for up to ``plies`` moves."""
    state = entry.new_game(**options)
    while not state.is_over and len(state.moves) < plies:
        state.play(rng.choice(state.legal_moves()))
    return state


def positions(entry: GameEntry, options: dict[str, Any], rng: random.Random) -> Iterator[GameState]:
    state = entry.new_game(**options)
    yield state.copy()
    while not state.is_over:
        assert len(state.moves) < MAX_PLIES, "the game never ends"
        state.play(rng.choice(state.legal_moves()))
        yield state.copy()


@pytest.mark.parametrize("entry", ENTRIES, ids=lambda e: e.name)
def test_entry_is_complete_and_its_options_are_the_engines(entry: GameEntry) -> None:
    assert entry.name.isidentifier() and entry.name == entry.name.lower()
    assert entry.title and len(entry.sides) == 2 and entry.rules
    default = entry.new_game()
    assert default == entry.new_game(**{option.name: option.default for option in entry.options})
    for option in entry.options:
        assert option.default in option.values
        with pytest.raises(ValueError):
            entry.new_game(**{option.name: "no such value"})
    with pytest.raises(ValueError):
        entry.new_game(no_such_option=1)


@pytest.mark.parametrize("entry", ENTRIES, ids=lambda e: e.name)
def test_the_engine_declares_the_name_the_game_is_registered_under(entry: GameEntry) -> None:
    assert entry.engine.NAME == entry.name == engines.name_of(entry.new_game())  # type: ignore[attr-defined]


AI_ENTRIES = [entry for entry in ENTRIES if entry.ai is not None]
# Levels 3 and 4 are time-bound: a depth cap with no clock makes every level quick and the same on any machine.
TINY = {"budget_s": math.inf, "max_depth": 1}


@pytest.mark.parametrize(("entry", "options"), [case for case in CASES if case.values[0].ai is not None])
@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), plies=st.integers(0, 60))
def test_the_games_ai_gives_a_legal_move_at_every_level(
    entry: GameEntry, options: dict[str, Any], seed: int, plies: int
) -> None:
    rng = random.Random(seed)
    state = random_game(entry, options, rng, plies)
    while state.chance and not state.is_over:  # the AI is asked only where a player acts
        state.play(rng.choice(state.legal_moves()))
    if state.is_over:
        return
    before = state.to_dict()
    for level in ai.LEVELS:
        move = ai.choose_move(state, level, seed=seed, game_ai=entry.ai, **TINY)
        assert move in state.legal_moves()
    assert state.to_dict() == before  # the AI searched a copy


@pytest.mark.parametrize("entry", AI_ENTRIES, ids=lambda e: e.name)
def test_a_games_ai_is_found_from_its_state_through_the_registry(entry: GameEntry) -> None:
    registered = entry in games.entries()
    if not registered:
        games.register(entry)  # the test-only game, as its tests register it
    try:
        assert ai.player_of(entry.new_game()) is ai.load(entry.ai or "")
    finally:
        if not registered:
            games.unregister(entry.name)


@pytest.mark.parametrize("entry", ENTRIES, ids=lambda e: e.name)
def test_every_result_reason_of_the_engine_has_a_message(entry: GameEntry) -> None:
    reasons = {str(reason) for reason in entry.engine.Reason}  # type: ignore[attr-defined]
    assert reasons == set(entry.reasons) | set(entry.draw_reasons)
    for message in entry.reasons.values():
        assert "{winner}" in message or "{loser}" in message


@pytest.mark.parametrize(("entry", "options"), CASES)
@CHECKS
@given(seed=st.integers(0, 2**32))
def test_random_games_end_and_every_position_keeps_the_contract(
    entry: GameEntry, options: dict[str, Any], seed: int
) -> None:
    last = None
    for state in positions(entry, options, random.Random(seed)):
        legal = state.legal_moves()
        assert legal == sorted(set(legal)) and all(isinstance(move, str) for move in legal)
        if state.is_over:
            assert legal == [] and state.turn is None and state.to_act is None
        else:
            assert legal, "a game that is not over always has a move"
            if state.chance:
                assert state.turn is None
            else:
                assert state.turn in (0, 1) and state.to_act == state.turn
            with pytest.raises(ValueError):
                state.result()
        assert len(state.scores()) == 2
        last = state
    assert last is not None and last.is_over
    result = last.result()
    assert result.winner in (0, 1, None)
    assert tuple(result.scores) == tuple(last.scores())
    assert result.reason in (entry.reasons if result.winner is not None else entry.draw_reasons)


@pytest.mark.parametrize(("entry", "options"), CASES)
@CHECKS
@given(seed=st.integers(0, 2**32), plies=st.integers(0, 400))
def test_the_move_list_replays_and_to_dict_round_trips_through_json(
    entry: GameEntry, options: dict[str, Any], seed: int, plies: int
) -> None:
    state = random_game(entry, options, random.Random(seed), plies)
    replayed = entry.new_game(**options)
    for move in state.moves:
        replayed.play(move)
    assert replayed == state and replayed.to_dict() == state.to_dict()
    rebuilt = entry.engine.from_dict(json.loads(json.dumps(state.to_dict())))
    assert rebuilt == state and rebuilt.legal_moves() == state.legal_moves()


GARBAGE = st.text(
    alphabet=st.sampled_from("abcdefghijklmnopqrstxyzABCDEFGHJKLMNOPQRST0123456789 -,x\u202e\u0000"), max_size=16
)


@pytest.mark.parametrize(("entry", "options"), CASES)
@CHECKS
@given(seed=st.integers(0, 2**32), plies=st.integers(0, 200), text=GARBAGE)
def test_illegal_input_raises_and_changes_nothing(
    entry: GameEntry, options: dict[str, Any], seed: int, plies: int, text: str
) -> None:
    state = random_game(entry, options, random.Random(seed), plies)
    before = state.to_dict()
    legal = {" ".join(move.lower().split()) for move in state.legal_moves()}
    if " ".join(text.lower().split()) in legal:
        return  # a legal move, possibly in other case or spacing: not this test's business
    try:
        state.play(text)
    except IllegalMove as error:
        assert str(error), "a refusal explains itself"
        assert state.to_dict() == before
    else:
        # Tolerant parsing may accept a spelling the list writes differently; it must then be a legal move.
        assert state.moves[-1] in {m for m in entry.engine.from_dict(before).legal_moves()}


@pytest.mark.parametrize(("entry", "options"), CASES)
@CHECKS
@given(seed=st.integers(0, 2**32), plies=st.integers(0, 300))
def test_every_listed_move_plays_on_a_copy_and_the_original_stays(
    entry: GameEntry, options: dict[str, Any], seed: int, plies: int
) -> None:
    rng = random.Random(seed)
    state = random_game(entry, options, rng, plies)
    before = state.to_dict()
    legal = state.legal_moves()
    for move in rng.sample(legal, min(len(legal), 12)):
        branch = state.copy()
        branch.play(move)
        assert branch.moves[-1] == move  # canonical in, canonical out
    assert state.to_dict() == before


def game_of(entry: GameEntry, options: dict[str, Any], state: GameState, ai_side: int | None = None) -> Game:
    """The stored game a record is exported from: ``state``'s game between two members (or against the bot)."""
    finished = state.is_over
    result = state.result() if finished else None
    return Game(
        id=42, guild_id=1, channel_id=2, entry=entry, options=options, players=(111, 222), challenger_id=111,
        rated=ai_side is None, status=GameStatus.FINISHED if finished else GameStatus.ACTIVE, ply=len(state.moves),
        winner=result.winner if result else None, result_reason=result.reason if result else None,
        scores=tuple(result.scores) if result else None, challenge_message_id=None, created_at=1.75e9,
        expires_at=None, started_at=1.75e9 + 60, last_move_at=None, reminded_at=None,
        finished_at=1.75e9 + 600 if finished else None, thread_id=None, rematch_of=None, ai_side=ai_side,
        ai_level=None if ai_side is None else 2,
    )  # fmt: skip


@pytest.mark.parametrize(("entry", "options"), CASES)
@CHECKS
@given(seed=st.integers(0, 2**32), plies=st.integers(0, 400))
def test_a_game_record_round_trips_and_replays_to_the_same_position(
    entry: GameEntry, options: dict[str, Any], seed: int, plies: int
) -> None:
    """Issue 22: /history's record (sessions/game_records.py, docs/records.md) read back gives the same game, the
    same log (dice included), the same players and result, and every position of it the engine's own."""
    registered = entry in games.entries()
    if not registered:
        games.register(entry)
    try:
        state = random_game(entry, options, random.Random(seed), plies)
        stored = game_of(entry, options, state)
        data = game_records.dumps(game_records.export(stored, state.moves, ("Ann", "Bob")))
        document = json.loads(data)
        assert document["format"] == game_records.FORMAT and document["version"] == game_records.VERSION
        record = game_records.load(data)
        assert (record.game, record.options, record.names) == (entry.name, options, ("Ann", "Bob"))
        assert [item.move for item in record.log] == state.moves
        chance = [item.move for item in record.log if item.chance]
        assert all(move.split(" ", 1)[0] in entry.chance_words for move in chance)
        positions = record.positions()
        assert len(positions) == len(state.moves) + 1 and positions[-1] == state
        if state.is_over:
            assert record.result is not None and record.result["scores"] == list(state.result().scores)
        assert game_records.load(game_records.dumps(game_records.export(stored, state.moves, record.names))) == record
    finally:
        if not registered:
            games.unregister(entry.name)
