"""Portable game records end to end (issue 22): /history exports the record, and /replay and /analyse read one
back from an attachment (a game played elsewhere), step through it with buttons that work after a restart, and
refuse a bad file politely, changing nothing."""

from __future__ import annotations

import json
from collections.abc import Callable

from bot import GameBot
from sessions import game_records
from storage.database import Database
from tests.e2e.driver import PNG_SIGNATURE, Mirror, challenge_and_accept, private_reply, public_reply
from tests.e2e.fake_discord import FakeDiscord
from tests.e2e.test_computer_e2e import QUICK_AI


async def test_a_record_exported_by_history_replays_and_is_analysed_elsewhere(
    db: Database, fake: FakeDiscord, make_bot: Callable[..., GameBot]
) -> None:
    mirror = Mirror("iago", {"variant": "standard"}, seed=8)
    players = (fake.alice, fake.bob)
    async with fake.running_bot(make_bot(**QUICK_AI)):
        game_id, _ = await challenge_and_accept(fake, "iago", {"variant": "standard"})
        while not mirror.state.is_over:
            move = mirror.choose()
            await public_reply(await fake.slash(players[mirror.state.turn], "iago", "move", options={"move": move}))
            mirror.state.play(move)
        history = await private_reply(await fake.slash(fake.alice, "iago", "history", options={"game": game_id}))
        data = history.attachment(f"iago-{game_id}.json").data
        document = json.loads(data)
        assert (
            document["version"] == game_records.VERSION and [m["move"] for m in document["moves"]] == mirror.state.moves
        )
        assert document["result"]["scores"] == list(mirror.state.result().scores)
        text = history.attachment(f"iago-{game_id}.txt").data.decode()
        assert "```" in text and "Game over" in text  # the text board of the final position

        # Carol (who never played) loads it as a file, as she would a game played on another server.
        total = len(mirror.state.moves)
        loaded = await private_reply(
            await fake.slash(fake.carol, "iago", "replay", options={"record": ("game.json", data)})
        )
        assert f"move {total} of {total}" in loaded.content and "alice vs bob" in loaded.content
        assert loaded.attachments[0].data.startswith(PNG_SIGNATURE) and loaded.attachments[0].description
        assert loaded.attachment("record.json").data == data
        first = await (await fake.click(fake.carol, loaded, "record:0:first")).final()
        assert "the start" in first.content and first.attachment("record.json").data == data

    async with fake.running_bot(make_bot(**QUICK_AI)):  # the buttons read the record from their own message
        step = await (await fake.click(fake.carol, fake.messages[first.id], "record:1:forward")).final()
        assert f"move 1 of {total}, **{mirror.state.moves[0]}**" in step.content
        assert step.attachments[0].description and "record:0:back" in step.custom_ids()
        analysis = await private_reply(
            await fake.slash(fake.carol, "iago", "analyse", options={"record": ("game.json", data)})
        )
        assert "alice vs bob" in analysis.content
        assert all(a.description for a in analysis.attachments)
        animated = await public_reply(
            await fake.slash(fake.carol, "iago", "replay", options={"record": ("game.json", data), "animated": True})
        )
        assert animated.attachment().filename.endswith(".gif") and str(total + 1) in animated.content
        assert not animated.pings


async def test_a_bad_record_gets_a_polite_private_refusal_and_changes_nothing(
    db: Database, fake: FakeDiscord, make_bot: Callable[..., GameBot]
) -> None:
    good = game_records.dumps(
        {
            "format": game_records.FORMAT, "version": 2, "game": "iago", "options": {"variant": "standard"},
            "players": [{"name": "Ann"}, {"name": "<@1> @everyone"}], "moves": [{"move": "E4"}, {"move": "Z9"}],
        }
    )  # fmt: skip
    cases = {
        ("board.json", b"\x89PNG\r\n\x1a\n"): "not JSON",
        ("game.json", json.dumps({"format": game_records.FORMAT, "version": 7}).encode()): "version 7",
        ("game.json", good): "at ply 2 (Z9)",
        ("game.json", good.replace(b'"iago"', b'"isaac"', 1)): "use /isaac instead",
        ("game.json", b" " * (game_records.MAX_RECORD_BYTES + 10)): "too big",
        ("game.png", good): "Attach the record as a .json file",
    }
    async with fake.running_bot(make_bot()):
        for command in ("replay", "analyse"):
            for record, expected in cases.items():
                member = fake.add_member(name=f"{command}-{record[0]}-{len(record[1])}").user  # /replay's cooldown
                answer = await private_reply(await fake.slash(member, "iago", command, options={"record": record}))
                assert expected in answer.content, (command, record[0], answer.content)
                assert not answer.pings.users and not answer.pings.everyone
        both = await private_reply(
            await fake.slash(fake.alice, "iago", "replay", options={"record": ("g.json", good), "game": 1})
        )
        assert "either a game or a record" in both.content
        assert await db.games.games_with_status("active") == [] and await db.games.games_with_status("finished") == []
