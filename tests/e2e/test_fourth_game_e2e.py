"""The registry's proof: a game that exists only in tests/ plays end to end through the bot.

Tic-tac-toe brings an engine, a renderer, a computer player and a registry entry, nothing else: no shared module
knows it. Its computer player runs in the bot's search workers like any game's; without one, the game offers no
level and the bot declines to play it.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Iterator

import pytest

import ai
import games
from bot import GameBot
from storage.database import Database
from tests.e2e.driver import PNG_SIGNATURE, challenge_and_accept, private_reply, public_reply
from tests.e2e.fake_discord import FakeDiscord
from tests.e2e.test_computer_e2e import QUICK_AI, eventually, play_to_the_end, start_against_bot
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
    db: Database, fake: FakeDiscord, make_bot: Callable[[], GameBot]
) -> None:
    async with fake.running_bot(make_bot()):
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
        assert (await db.games.game(game_id)).status == "finished"

        board = await public_reply(await fake.slash(fake.carol, "tictactoe", "board", options={"game": game_id}))
        assert board.attachment().data.startswith(PNG_SIGNATURE)
        leaderboard = await public_reply(await fake.slash(fake.carol, "leaderboard", options={"game": "tictactoe"}))
        lines = leaderboard.embeds[0]["description"].splitlines()
        assert fake.alice.mention in lines[0] and fake.bob.mention in lines[1]
        stats = await private_reply(await fake.slash(fake.bob, "stats"))
        assert "Tic-tac-toe" in stats.embeds[0]["description"] and "1 loss," in stats.embeds[0]["description"]


def challenge_options(commands: dict[str, dict]) -> set[str]:
    (challenge,) = (o for o in commands["tictactoe"]["options"] if o["name"] == "challenge")
    return {option["name"] for option in challenge["options"]}


@pytest.mark.usefixtures("tictactoe")
async def test_a_test_only_game_plays_whole_games_against_the_bot_at_every_level(
    db: Database, fake: FakeDiscord, make_bot: Callable[..., GameBot]
) -> None:
    async with fake.running_bot(make_bot(**QUICK_AI)):
        assert "level" in challenge_options({c["name"]: c for c in fake.commands(fake.guild)})
        bot_moves = []
        for level in ai.LEVELS:
            member = fake.add_member(name=f"tictactoe-learner-{level}").user
            row = await start_against_bot(fake, db, member, "tictactoe", level)
            final = await play_to_the_end(fake, db, row, member, seed=level)
            finished = await db.games.game(row.id)
            assert finished is not None and finished.status == "finished" and not finished.rated
            assert final.result().winner != 0 or level < 3  # the perfect levels never lose

            async def announced(game_id: int = row.id) -> bool:
                return not await db.outbox.pending_for_game(game_id)

            await eventually(announced, "every move to be announced")
            bot_moves += final.moves[1::2]  # the member played X, the bot O
        # One message a turn: the member's move and the bot's reply together; each bot move said once, none lost.
        said = re.findall(
            rf"{re.escape(fake.bot_user.mention)} played \*\*(\w+)\*\*",
            "\n".join(m.content for m in fake.channel_messages(fake.channel)),
        )
        assert sorted(said) == sorted(bot_moves)


async def test_a_game_without_a_computer_player_offers_no_level_and_the_bot_declines_it(
    db: Database, fake: FakeDiscord, make_bot: Callable[..., GameBot]
) -> None:
    games.register(dataclasses.replace(ENTRY, ai=None))
    try:
        async with fake.running_bot(make_bot()):
            assert "level" not in challenge_options({c["name"]: c for c in fake.commands(fake.guild)})
            options = {"opponent": fake.bot_user.id}
            refusal = await private_reply(await fake.slash(fake.alice, "tictactoe", "challenge", options=options))
            assert "do not play Tic-tac-toe" in refusal.content
            assert await db.games.active_games_of(fake.alice.id) == []
            assert await db.games.games_with_status("challenge") == []
    finally:
        games.unregister(ENTRY.name)
