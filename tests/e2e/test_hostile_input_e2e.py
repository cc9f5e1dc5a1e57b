"""Hundreds of hostile inputs over every command and option: each gets a private answer within Discord's limits,
changes nothing, and logs no unhandled exception.

The inputs are generated from the commands the bot synced, so a new command or option is covered without
editing this file: direct messages (forged, as no client would send them), strangers, a player out of turn,
finished games, other servers' game ids, impossible ids, 4000-character text, control and right-to-left
characters, mentions, and moves that are not legal.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
import sqlalchemy as sa

import games
from bot import GameBot
from storage.database import Database
from tests.e2e.driver import challenge_and_accept
from tests.e2e.fake_discord import FakeDiscord
from tests.e2e.harness import FakeUser

ACTING = {"move", "resign", "claim", "roll", "place", "remove"}
NASTY_TEXT = [
    " ",
    "zz",
    "0",
    "-1",
    "\u202eE4",
    "E4\u202e\u200f",
    "\x00",
    "\x07\x08\x1b[31m",
    "@everyone",
    "@here",
    "<@&1>",
    "Ｅ４",
    "x" * 4000,
    "E4" * 60,
    "🎲" * 30,
    "'; DROP TABLE games; --",
    "roll 6",
    "open 1 2",
    "pass",
    "\n\n",
    "a1-a1",
    "x a1-a3 999",
    "Z99",
    "call E4",
]
BAD_IDS = [0, -5, 10**12, 2**53 + 10]
ANSWER_LIMIT = 2000


@dataclass
class Attempt:
    user: FakeUser
    path: tuple[str, ...]
    options: dict[str, Any] = field(default_factory=dict)
    dm: bool = False
    autocomplete: str | None = None  # the option being typed into, for autocomplete requests


def subcommands(fake: FakeDiscord, name: str) -> list[dict[str, Any]]:
    return [o for o in fake.find_command(name, fake.guild.id)["options"] if o["type"] == 1]


def required_values(schema: list[dict[str, Any]], fake: FakeDiscord) -> dict[str, Any]:
    """Plausible values for the required options, so that only the hostile part of an attempt is wrong."""
    values: dict[str, Any] = {}
    for option in schema:
        if not option.get("required"):
            continue
        if option.get("choices"):
            values[option["name"]] = option["choices"][0]["value"]
        elif option["type"] == 6:
            values[option["name"]] = fake.bob.id
        elif option["type"] == 4:
            values[option["name"]] = 1
        else:
            values[option["name"]] = "c3"
    return values


def legal_texts(bot: GameBot, state: Any) -> set[str]:
    return {" ".join(move.lower().split()) for move in state.legal_moves()}


async def attempts(
    fake: FakeDiscord, bot: GameBot, ids: dict[str, int], finished: int, elsewhere: int
) -> list[Attempt]:
    stranger = fake.carol
    found: list[Attempt] = []
    for entry in games.entries():
        state = await bot.service.finder.state(await bot.service.finder.game(ids[entry.name]))
        legal = legal_texts(bot, state)
        for sub in subcommands(fake, entry.name):
            name, schema = sub["name"], sub.get("options", [])
            base = required_values(schema, fake)
            path = (entry.name, name)
            has_game = any(o["name"] == "game" for o in schema)
            found.append(Attempt(fake.alice, path, base, dm=True))
            if has_game:
                found += [Attempt(fake.alice, path, {**base, "game": bad}) for bad in [*BAD_IDS, elsewhere]]
            if name in ACTING:
                found.append(Attempt(stranger, path, {**base, "game": ids[entry.name]}))
                if entry.name == "iago":
                    found.append(Attempt(fake.bob, path, {**base, "game": finished}))
            for option in schema:
                if option["type"] != 3:
                    continue
                for text in NASTY_TEXT:
                    if " ".join(text.lower().split()) in legal:
                        continue  # a legal move is not hostile
                    values = {**base, option["name"]: text}
                    if has_game:
                        values["game"] = ids[entry.name]
                    found.append(Attempt(fake.alice, path, values))
                    if option.get("autocomplete"):
                        found.append(Attempt(fake.alice, path, values, autocomplete=option["name"]))
            if name == "challenge":
                outsider = fake.add_user(f"outsider-{entry.name}")
                other_bot = fake.add_member(name=f"bot-{entry.name}", bot=True).user
                for opponent in (fake.alice.id, other_bot.id, outsider.id):
                    found.append(Attempt(fake.alice, path, {"opponent": opponent}))
                found.append(Attempt(fake.alice, path, {"opponent": fake.bob.id, "level": 3}))  # a level needs me
    for path in (("leaderboard",), ("stats",)):
        schema = fake.find_command(path[0], fake.guild.id).get("options", [])
        found.append(Attempt(fake.alice, path, required_values(schema, fake), dm=True))
    found.append(Attempt(fake.alice, ("stats",), {"member": fake.add_user("nobody-here").id}))
    return found


async def quiet_game(bot: GameBot, fake: FakeDiscord, guild_id: int, channel_id: int) -> int:
    row = await bot.service.challenges.challenge(
        game="iago",
        guild_id=guild_id,
        channel_id=channel_id,
        challenger_id=fake.alice.id,
        opponent_id=fake.bob.id,
        opponent_is_bot=False,
        options={"variant": "standard"},
        side=0,
        rated=True,
    )
    await bot.service.open_challenges.accept(row.id, fake.bob.id, guild_id=guild_id)
    return row.id


async def snapshot(db: Database) -> dict[str, Any]:
    """Everything a refused input must leave as it was."""
    tables = ("games", "moves", "records", "ratings", "rating_changes", "announcements")
    async with db.transaction() as connection:
        return {
            table: sorted(map(tuple, (await connection.execute(sa.text(f"SELECT * FROM {table}"))).all()))
            for table in tables
        }


async def nothing_pending(db: Database, game_id: int) -> bool:
    """The game's announcements are all marked delivered (the marks are written in the background)."""
    return not await db.outbox.pending_for_game(game_id)


@pytest.fixture
def errors_logged(caplog: pytest.LogCaptureFixture) -> Iterator[Callable[[], list[str]]]:
    caplog.set_level(logging.ERROR)
    yield lambda: [record.getMessage() for record in caplog.records if record.levelno >= logging.ERROR]


async def test_hundreds_of_hostile_inputs_get_private_answers_and_change_nothing(
    db: Database, fake: FakeDiscord, make_bot: Callable[..., GameBot], errors_logged: Callable[[], list[str]]
) -> None:
    async with fake.running_bot(make_bot()) as bot:
        ids = {entry.name: (await challenge_and_accept(fake, entry.name))[0] for entry in games.entries()}
        # Two more games made through the service (the challenge cooldown holds alice back): one finished here,
        # one in another server.
        finished = await quiet_game(bot, fake, fake.guild.id, fake.channel.id)
        await bot.service.turns.resign(finished, fake.bob.id)
        other = await quiet_game(bot, fake, fake.guild.id + 1, fake.channel.id + 1)
        for game_id in (finished, other):
            for pending in await db.outbox.pending_for_game(game_id):
                await db.outbox.mark_delivered(pending.id, None)

        planned = await attempts(fake, bot, ids, finished, other)
        assert len(planned) >= 500
        for game_id in ids.values():  # else a first board's mark could land during the attempts below
            await fake.wait_until(lambda game_id=game_id: nothing_pending(db, game_id), what="the boards' marks")
        before = await snapshot(db)
        for attempt in planned:
            if attempt.autocomplete is not None:
                choices = await fake.autocomplete(
                    attempt.user,
                    *attempt.path,
                    focused=attempt.autocomplete,
                    value=attempt.options[attempt.autocomplete],
                    options={k: v for k, v in attempt.options.items() if k != attempt.autocomplete},
                )
                assert len(choices) <= 25
                assert all(len(c["name"]) <= 100 and len(str(c["value"])) <= 100 for c in choices)
                continue
            interaction = await fake.slash(
                attempt.user, *attempt.path, options=attempt.options, dm=attempt.dm, forged=attempt.dm
            )
            answer = await interaction.final()
            assert answer.ephemeral, (attempt, answer.content)
            assert 0 < len(answer.content) <= ANSWER_LIMIT or answer.embeds
            assert not answer.pings.users and not answer.pings.everyone
            assert "\u202e" not in answer.content and "\x00" not in answer.content  # quoted input is cleaned
        assert await snapshot(db) == before
        assert fake.take_bot_errors() == []
    assert errors_logged() == []
