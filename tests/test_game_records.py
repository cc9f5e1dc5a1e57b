"""Reading a game record back (sessions/game_records.py, docs/records.md): every bad file gets a refusal that says
what is wrong, in the reader's language; a good one replays, takebacks and legacy records included."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

import games
from locales import tr
from sessions import game_records
from sessions.model import TAKEBACK, UserError
from sessions.move_log import replay
from tests.test_conformance import game_of


def a_record(name: str = "iago", options: dict[str, Any] | None = None, plies: int = 10, seed: int = 1) -> bytes:
    entry = games.find(name)
    options = options if options is not None else {}
    state = entry.new_game(**options)
    rng = random.Random(seed)
    while not state.is_over and len(state.moves) < plies:
        state.play(rng.choice(state.legal_moves()))
    return game_records.dumps(game_records.export(game_of(entry, options, state), state.moves, ("Ann", "Bob")))


def edited(data: bytes, **changes: Any) -> bytes:
    return json.dumps({**json.loads(data), **changes}).encode()


def refusal(data: bytes, wanted: str | None = None) -> str:
    with pytest.raises(UserError) as caught:
        game_records.load(data, wanted=wanted)
    return tr("en", caught.value.message, **caught.value.params)


def test_a_record_says_what_it_is_in_its_tags() -> None:
    document = json.loads(a_record("polygo", {"size": 9}, plies=12))
    assert document["format"] == "abstract-games-bot/game-record" and document["version"] == 2
    assert document["game"] == "polygo" and document["options"] == {"size": 9}
    assert document["tags"]["date"] == "2025-06-15" and document["tags"]["started_at"].endswith("Z")
    assert [p["name"] for p in document["players"]] == ["Ann", "Bob"]
    assert [p["side_name"] for p in document["players"]] == ["Black", "White"]
    assert document["moves"][0] == {"move": document["moves"][0]["move"], "side": None, "chance": True}  # dice
    assert all(isinstance(m["side"], int) for m in document["moves"] if not m.get("chance"))


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        (b"\x89PNG\r\n", "it is not JSON text"),
        (b"[1, 2]", "not a game record of this bot (its format is none)"),
        (b'{"format": "pgn"}', "its format is pgn"),
        (edited(a_record(), version=3), "version 3; I read versions 1, 2"),
        (edited(a_record(), version="2"), "version 2; I read"),
        (edited(a_record(), game="chess"), "a game I do not know: chess"),
        (edited(a_record(), options={"variant": "wild"}), "options are not valid"),
        (edited(a_record(), moves="E4"), "moves is missing"),
        (edited(a_record(), moves=[{"mvoe": "E4"}]), "moves[1] is missing"),
        (edited(a_record(), players=[{"name": "A"}]), "players is missing"),
        (b" " * (game_records.MAX_RECORD_BYTES + 1), "too big to be a game record (257 KB; the limit is 256 KB)"),
        (edited(a_record(), moves=[{"move": "E5"}] * (game_records.MAX_ENTRIES + 1)), "too many moves (5001"),
    ],
)
def test_a_bad_file_gets_a_refusal_that_says_what_is_wrong(data: bytes, expected: str) -> None:
    assert expected in refusal(data)


def test_an_illegal_move_is_named_by_its_ply() -> None:
    document = json.loads(a_record(plies=8))
    document["moves"][5]["move"] = "A1"  # an outer cell no capture reaches
    said = refusal(json.dumps(document).encode())
    assert said.startswith("That record breaks the rules at ply 6 (A1):")
    document = json.loads(a_record("tictactoe" if "tictactoe" in games.names() else "isaac", plies=400))
    document["moves"].append({"move": "pass", "side": 0})
    assert "the game was already over" in refusal(json.dumps(document).encode())


def test_a_record_of_another_game_points_to_its_own_command() -> None:
    assert refusal(a_record("isaac"), wanted="iago") == "That record is of ISAAC, not Iago: use /isaac instead."


def test_refusals_are_in_the_readers_language() -> None:
    with pytest.raises(UserError) as caught:
        game_records.load(edited(a_record(), version=9))
    assert tr("ja", caught.value.message, **caught.value.params) != tr(
        "en", caught.value.message, **caught.value.params
    )


def test_names_from_a_file_are_cleaned_and_bounded() -> None:
    data = json.loads(a_record())
    data["players"][0]["name"] = "@everyone\u202e" + "x" * 200
    data["players"][1]["name"] = 7
    record = game_records.load(json.dumps(data).encode())
    assert record.names[0].startswith("@\u200beveryone") and "\u202e" not in record.names[0]
    assert len(record.names[0]) == game_records.MAX_NAME and record.names[1] == "Player 2"


def test_a_takeback_against_the_bot_replays_as_the_bot_does() -> None:
    entry = games.find("iago")
    state = entry.new_game()
    rng = random.Random(3)
    for _ in range(6):
        state.play(rng.choice(state.legal_moves()))
    log = [*state.moves, TAKEBACK]
    game = game_of(entry, {}, state, ai_side=1)
    record = game_records.load(game_records.dumps(game_records.export(game, log, ("Ann", "TestBot"))))
    assert record.member_side == 0 and record.log[-1].move == TAKEBACK
    assert record.positions()[-1] == replay(entry, {}, log, member_side=0)
    assert record.moves_in_force() == state.moves[:4]
    document = json.loads(game_records.dumps(game_records.export(game, log, ("Ann", "TestBot"))))
    del document["players"][1]["bot_level"]  # without the bot, nobody's move can be taken back
    assert "at ply 7 (takeback)" in refusal(json.dumps(document).encode())


def test_a_first_version_record_still_loads() -> None:
    state = games.find("polygo").new_game(size=9)
    rng = random.Random(5)
    for _ in range(9):
        state.play(rng.choice(state.legal_moves()))
    legacy = {
        "format": "abstract-games-bot/game-record/1", "game": "polygo", "title": "Polygo", "id": 3,
        "options": {"size": 9}, "players": [1, 2], "names": ["Ann", "Bob"], "sides": ["Black", "White"],
        "status": "active", "rated": True, "chance_moves": [], "moves": state.moves, "result": None,
    }  # fmt: skip
    record = game_records.load(json.dumps(legacy).encode())
    assert record.names == ("Ann", "Bob") and record.positions()[-1] == state
