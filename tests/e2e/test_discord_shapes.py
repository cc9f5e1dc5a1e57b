"""The fake Discord answers in Discord's shapes, and the bot asks in them: every request the bot sends and every
answer the fake gives, checked against Discord's published API description (tests/e2e/discord_shapes.py) with
``jsonschema``. Without the pinned description these tests fail and say how to get it back: never a skip.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable

from bot import GameBot
from storage.database import Database
from tests.e2e.discord_shapes import check, load_spec
from tests.e2e.driver import Mirror, challenge_and_accept, challenge_and_accept_in_thread, private_reply
from tests.e2e.fake_discord import FakeDiscord
from tests.e2e.fake_discord_faults import RequestRecord

# A concrete value for each placeholder of the fake's routes.
SAMPLES = {"webhook_message_id": "@original", "interaction_token": "aW50ZXJhY3Rpb24", "reaction": "%F0%9F%8E%B2/@me"}


def test_every_route_the_fake_serves_is_one_of_discords() -> None:
    spec = load_spec()
    fake = FakeDiscord()  # not started: only its routing table is read
    missing = []
    for route in fake._routes:
        path = re.sub(r"\{(\w+)\}", lambda m: SAMPLES.get(m[1], "1234567890123456789"), route.template)
        if route.method == "DELETE" and route.template.endswith("{reaction}"):
            path = path.removesuffix("/@me")
        if spec.operation(route.method, path) is None:
            missing.append(f"{route.method} {route.template}")
    assert missing == [], f"not in {spec.source}: {missing}"


def test_the_check_finds_what_differs() -> None:
    """Not vacuous: a message answer without its author, a field Discord does not describe, a wrong status."""
    spec = load_spec()
    message = {
        "id": "1", "channel_id": "2", "content": "hi", "timestamp": "2026-01-01T00:00:00+00:00",
        "edited_timestamp": None, "tts": False, "mention_everyone": False, "mentions": [], "mention_roles": [],
        "attachments": [], "embeds": [], "components": [], "pinned": False, "type": 0, "flags": 0,
    }  # fmt: skip
    record = RequestRecord("POST", "/channels/2/messages", status=200, request_json={"content": "hi", "colour": 1})
    record.response_body = json.dumps(message).encode()
    problems = spec.problems(record)
    assert any("request" in p and "'colour' was unexpected" in p for p in problems), problems
    assert any("answer" in p and "'author' is a required property" in p for p in problems), problems
    record.status = 201
    assert any("does not answer this operation with 201" in p for p in spec.problems(record))
    assert spec.problems(RequestRecord("GET", "/nowhere", status=404)) == [
        "GET /nowhere -> 404: no such operation in Discord's API"
    ]


def assert_discords_shapes(records: list[RequestRecord]) -> None:
    spec = load_spec()
    problems = check(records, spec)
    assert problems == [], f"{len(problems)} differences from {spec.source}:\n" + "\n".join(problems)
    assert len(records) >= 10  # the check saw real traffic


async def test_a_game_in_a_thread_speaks_discords_shapes(fake: FakeDiscord, make_bot: Callable[..., GameBot]) -> None:
    """Start-up (commands synced), a challenge accepted in a thread, moves, a refusal, a board, autocomplete, a
    history file, lists with their buttons, a replay, and a resignation: everything the bot sends and the fake
    answers, in Discord's shapes."""
    mark = fake.mark()
    mirror = Mirror("iago", {}, seed=3)
    async with fake.running_bot(make_bot(game_threads=True)):
        game_id, _, thread, _ = await challenge_and_accept_in_thread(fake, "iago")
        for _ in range(4):
            move, mover = mirror.choose(), (fake.alice, fake.bob)[mirror.state.turn]
            await (await fake.slash(mover, "iago", "move", options={"move": move}, channel=thread)).final()
            mirror.state.play(move)
        waiting = (fake.alice, fake.bob)[1 - mirror.state.turn]
        await private_reply(
            await fake.slash(waiting, "iago", "move", options={"move": mirror.choose()}, channel=thread)
        )
        await (await fake.slash(fake.carol, "iago", "board", options={"game": game_id})).final()
        await fake.autocomplete(fake.alice, "iago", "board", focused="game", value="")
        await (await fake.slash(fake.alice, "iago", "history", options={"game": game_id})).final()
        listed = await private_reply(await fake.slash(fake.alice, "games", "all"))
        for custom_id in listed.custom_ids()[:1]:
            await (await fake.click(fake.alice, listed, custom_id)).final()
        replay = await (await fake.slash(fake.carol, "iago", "replay", options={"game": game_id})).final()
        await (await fake.click(fake.carol, replay, f"replay:{game_id}:0:first")).final()
        await (await fake.slash(fake.alice, "iago", "resign", channel=thread)).final()
        await fake.wait_until(lambda: fake.messages and all(r.status is not None for r in fake.requests_since(mark)))
    assert_discords_shapes(fake.requests_since(mark))


async def test_faults_and_refusals_are_answered_in_discords_shapes(
    fake: FakeDiscord, make_bot: Callable[..., GameBot], db: Database
) -> None:
    """The fake's made-up answers too: a rate limit (429), a deadline missed (10062), the outbox's look-up of a
    reply that never came (10008), and its post in the channel instead."""
    mark = fake.mark()
    async with fake.running_bot(make_bot(announce_grace_seconds=0.3, announce_seconds=0.2)):
        game_id, _ = await challenge_and_accept(fake, "iago")
        fake.inject("callback", "429")
        await (await fake.slash(fake.alice, "iago", "move", options={"move": "D4"})).final()
        fake.interaction_deadline = 0.3
        fake.inject("callback", "outage")
        await fake.slash(fake.bob, "iago", "move", options={"move": "C4"})

        async def settled() -> bool:
            refused = any(r.status == 404 for r in fake.requests_since(mark, endpoint="callback"))
            return refused and len(await db.games.moves(game_id)) == 2 and not await db.outbox.pending_for_game(game_id)

        await fake.wait_until(settled, what="the outbox to post the board whose reply was lost")
    records = fake.requests_since(mark)
    assert {429, 404} <= {r.status for r in records}
    assert_discords_shapes(records)
