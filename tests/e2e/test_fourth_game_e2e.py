"""The registry's proof: a game that exists only in tests/ plays end to end through the bot.

Tic-tac-toe brings an engine, a renderer and a registry entry, nothing else: no shared module knows it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest

import games
from bot import GameBot
from tests.e2e.driver import PNG_SIGNATURE, challenge_and_accept, private_reply, public_reply
from tests.e2e.fake_discord import FakeDiscord
from tests.fourth_game.entry import ENTRY


@pytest.fixture
def tictactoe() -> Iterator[None]:
    games.register(ENTRY)
    try:
        yield
    finally:
        games.unregister(ENTRY.name)


@pytest.mark.usefixtures("tictactoe")
async def test_a_test_only_game_plays_through_the_bot_to_the_leaderboard(
    fake: FakeDiscord, make_bot: Callable[[], GameBot]
) -> None:
    async with fake.running_bot(make_bot()) as bot:
        commands = {command["name"]: command for command in fake.commands(fake.guild)}
        assert "tictactoe" in commands
        subcommands = {option["name"] for option in commands["tictactoe"]["options"]}
        assert {"challenge", "move", "board", "resign", "claim", "rules", "history"} <= subcommands
        (game_option,) = (o for o in commands["leaderboard"]["options"] if o["name"] == "game")
        assert {"name": "Tic-tac-toe", "value": "tictactoe"} in game_option["choices"]

        game_id, first_board = await challenge_and_accept(fake, "tictactoe")
        assert first_board.attachment().data.startswith(PNG_SIGNATURE)
        assert fake.alice.mention in first_board.content and "(X)" in first_board.content

        choices = await fake.autocomplete(fake.alice, "tictactoe", "move", focused="move", value="")
        assert [choice["value"] for choice in choices] == ENTRY.new_game().legal_moves()

        refusal = await private_reply(await fake.slash(fake.bob, "tictactoe", "move", options={"move": "a1"}))
        assert "not your turn" in refusal.content
        # X takes the left column while O answers in the middle one.
        for user, move in ((fake.alice, "a1"), (fake.bob, "b1"), (fake.alice, "a2"), (fake.bob, "b2")):
            reply = await public_reply(await fake.slash(user, "tictactoe", "move", options={"move": move}))
            assert f"**{move}**" in reply.content and reply.attachment().data.startswith(PNG_SIGNATURE)
        taken = await private_reply(await fake.slash(fake.alice, "tictactoe", "move", options={"move": "B2"}))
        assert "b2 is taken" in taken.content
        final = await public_reply(await fake.slash(fake.alice, "tictactoe", "move", options={"move": "a3"}))
        assert "Game over" in final.content and f"{fake.alice.mention} made three in a row." in final.content
        assert (await bot.service.db.game(game_id)).status == "finished"

        board = await public_reply(await fake.slash(fake.carol, "tictactoe", "board", options={"game": game_id}))
        assert board.attachment().data.startswith(PNG_SIGNATURE)
        leaderboard = await public_reply(await fake.slash(fake.carol, "leaderboard", options={"game": "tictactoe"}))
        lines = leaderboard.embeds[0]["description"].splitlines()
        assert fake.alice.mention in lines[0] and fake.bob.mention in lines[1]
        stats = await private_reply(await fake.slash(fake.bob, "stats"))
        assert "Tic-tac-toe" in stats.embeds[0]["description"] and "1 loss," in stats.embeds[0]["description"]
