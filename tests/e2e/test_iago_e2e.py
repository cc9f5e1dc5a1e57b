"""A whole Iago game through the real discord.py client and the fake Discord server, with a restart."""

from __future__ import annotations

from collections.abc import Callable

from bot import GameBot
from storage.database import Database
from tests.e2e.driver import PNG_SIGNATURE, Mirror, challenge_and_accept, private_reply, public_reply
from tests.e2e.fake_discord import FakeDiscord


async def test_commands_are_synced_with_japanese_descriptions(fake: FakeDiscord, make_bot: Callable[[], GameBot]):
    async with fake.running_bot(make_bot()):
        commands = {c["name"]: c for c in fake.commands(fake.guild)}
        assert {"iago", "isaac", "polygo", "leaderboard", "stats"} <= set(commands)
        iago = commands["iago"]
        subcommands = {option["name"] for option in iago["options"]}
        assert {"challenge", "move", "board", "resign", "claim", "rules", "history"} <= subcommands
        assert iago["description_localizations"]["ja"] != iago["description"]


async def test_a_full_iago_game_survives_a_restart_and_reaches_the_leaderboard(
    db: Database, fake: FakeDiscord, make_bot: Callable[[], GameBot]
) -> None:
    mirror = Mirror("iago", {"variant": "standard"}, seed=11)
    players = (fake.alice, fake.bob)
    async with fake.running_bot(make_bot()):
        game_id, first_board = await challenge_and_accept(fake, "iago", {"variant": "standard"})
        assert fake.alice.mention in first_board.content  # Dark (alice) is asked to move
        choices = await fake.autocomplete(fake.alice, "iago", "move", focused="move", value="")
        assert [c["value"] for c in choices] == mirror.state.legal_moves()[:25]
        assert await fake.autocomplete(fake.bob, "iago", "move", focused="move", value="") == []
        for _ in range(12):
            move = mirror.choose()
            reply = await public_reply(
                await fake.slash(players[mirror.state.turn], "iago", "move", options={"move": move.lower()})
            )
            mirror.state.play(move)
            assert f"**{move}**" in reply.content
            assert reply.attachment().data.startswith(PNG_SIGNATURE)
            assert players[mirror.state.turn].mention in reply.content
        assert await db.games.moves(game_id) == mirror.state.moves

    # A fresh process on the same database: nothing of the game lived only in memory.
    async with fake.running_bot(make_bot()):
        board = await public_reply(await fake.slash(fake.carol, "iago", "board"))  # a spectator looks
        assert board.attachment().data.startswith(PNG_SIGNATURE)
        while not mirror.state.is_over:
            move = mirror.choose()
            reply = await public_reply(
                await fake.slash(players[mirror.state.turn], "iago", "move", options={"move": move})
            )
            mirror.state.play(move)
        result = mirror.state.result()
        assert "Game over" in reply.content
        assert f"{result.scores[0]}" in reply.content and f"{result.scores[1]}" in reply.content
        assert players[result.winner].mention in reply.content
        assert "rating" in reply.content

        history = await private_reply(await fake.slash(fake.alice, "iago", "history", options={"game": game_id}))
        record = history.attachment().data.decode()
        assert all(f'"{move}"' in record for move in mirror.state.moves)

        leaderboard = await public_reply(await fake.slash(fake.carol, "leaderboard", options={"game": "iago"}))
        lines = leaderboard.embeds[0]["description"].splitlines()
        assert lines[0].startswith("1. ") and players[result.winner].mention in lines[0]
        assert players[1 - result.winner].mention in lines[1]
        stats = await private_reply(await fake.slash(fake.alice, "stats"))
        assert "Iago" in stats.embeds[0]["description"]


async def test_rules_reply_in_the_members_language(fake: FakeDiscord, make_bot: Callable[[], GameBot]) -> None:
    async with fake.running_bot(make_bot()):
        english = await private_reply(await fake.slash(fake.alice, "iago", "rules"))
        japanese = await private_reply(await fake.slash(fake.alice, "iago", "rules", locale="ja"))
        assert "capture" in english.embeds[0]["description"]
        assert english.embeds[0]["description"] != japanese.embeds[0]["description"]
        assert any("\u3040" <= char <= "\u30ff" for char in japanese.embeds[0]["description"])
