"""Any payload is safe (issue 23): an option whose value is of the wrong type (a ``game`` sent as the string "12",
as no Discord client would) gets the polite refusal from the command tree's guard, never "Something went wrong"
and a TypeError, in every command that takes a game, and changes nothing.

The commands are found from what the bot synced, so a new command with a ``game`` option is covered too.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from typing import Any

import pytest

import games
from storage.database import Database
from tests.e2e.driver import challenge_and_accept, private_reply
from tests.e2e.fake_discord import FakeDiscord
from tests.e2e.log_records import project_lines, tracebacks
from tests.e2e.test_hostile_input_e2e import nothing_pending, required_values, snapshot

INTEGER, STRING = 4, 3
WRONG_KIND = "The game option got a value of the wrong kind. Pick one from the list and try again."


def commands_taking_a_game(fake: FakeDiscord) -> Iterator[tuple[tuple[str, ...], list[dict[str, Any]]]]:
    """(path, options) of every synced command or subcommand with an integer ``game`` option."""

    def walk(path: tuple[str, ...], options: list[dict[str, Any]]) -> Iterator[tuple[tuple[str, ...], Any]]:
        subs = [o for o in options if o["type"] in (1, 2)]
        if not subs:
            if any(o["name"] == "game" and o["type"] == INTEGER for o in options):
                yield path, options
            return
        for sub in subs:
            yield from walk((*path, sub["name"]), sub.get("options", []))

    for command in fake.guild_commands[fake.guild.id]:
        yield from walk((command["name"],), command.get("options", []))


@pytest.mark.parametrize(
    "forged",
    [
        {"value": "12"},  # the payload: the right option type, a string value
        {"value": "12", "type": STRING},  # the payload's own type forged to match: the command's type decides
        {"value": 12.5},
        {"value": True},
        {"value": None},
        {"value": ["12"]},
    ],
)
async def test_a_game_option_of_the_wrong_type_gets_the_polite_refusal_in_every_command(
    db: Database,
    fake: FakeDiscord,
    make_bot: Any,
    caplog: pytest.LogCaptureFixture,
    forged: dict[str, Any],
) -> None:
    caplog.set_level(logging.INFO)
    async with fake.running_bot(make_bot()):
        game_id, _ = await challenge_and_accept(fake, "iago")
        # the first board's delivered mark is written in the background, once the accept's reply is out: wait for
        # it, or the snapshot below could be taken before it and see it land during the refusals
        await fake.wait_until(lambda: nothing_pending(db, game_id), what="the first board's delivered mark")
        planned = list(commands_taking_a_game(fake))
        names = {" ".join(path) for path, _ in planned}
        # hint, claim, history, analyse, board, roll, place ... of every game, as the issue lists them
        for entry in games.entries():
            assert {f"{entry.name} {command}" for command in ("hint", "claim", "history", "board", "move")} <= names
        assert {"polygo roll", "polygo place", "isaac place", "iago analyse"} <= names
        before = await snapshot(db)
        for path, options in planned:
            sent = await fake.slash(fake.alice, *path, options=required_values(options, fake), forge={"game": forged})
            answer = await private_reply(sent)
            assert answer.content == WRONG_KIND, (path, answer.content)
        assert await snapshot(db) == before
        assert await db.games.moves(game_id) == []
        assert fake.take_bot_errors() == []
    assert project_lines(caplog) == [] and tracebacks(caplog) == []
