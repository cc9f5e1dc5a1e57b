"""A whole Polygo game through the bot: opening dice, rolls by command, placements, a result."""

from __future__ import annotations

import random
from collections.abc import Callable

from bot import GameBot
from storage.database import Database
from tests.e2e.driver import PNG_SIGNATURE, Mirror, challenge_and_accept, private_reply, public_reply
from tests.e2e.fake_discord import FakeDiscord


async def test_a_full_polygo_game_with_dice_reaches_a_result(
    db: Database, fake: FakeDiscord, make_bot: Callable[[], GameBot]
) -> None:
    mirror = Mirror("polygo", {"size": 9}, seed=1)
    players = (fake.alice, fake.bob)
    async with fake.running_bot(make_bot()) as bot:
        # Dice stay the session's to draw; the test only seeds them so the game is the same every run.
        bot.service.draw = random.Random(0).choice
        game_id, first_board = await challenge_and_accept(fake, "polygo", {"size": 9})
        assert "Opening dice" in first_board.content
        mirror.sync(await db.games.moves(game_id))
        assert mirror.state.moves[0].startswith("open ")
        placements = 0
        while not mirror.state.is_over:
            if mirror.state.chance:
                roller = players[mirror.state.to_roll]
                other = players[1 - mirror.state.to_roll]
                refused = await private_reply(await fake.slash(other, "polygo", "roll"))
                assert "not your turn" in refused.content
                reply = await public_reply(await fake.slash(roller, "polygo", "roll"))
                assert "Rolled" in reply.content
                mirror.sync(await db.games.moves(game_id))
                if not mirror.state.is_over:  # a forced pass may have ended the game
                    again = await private_reply(await fake.slash(roller, "polygo", "roll"))
                    assert "already rolled" in again.content or "not your turn" in again.content
            else:
                move = mirror.choose()
                if move == "pass":
                    raise AssertionError("the bot plays forced passes itself")
                if placements % 4 == 3:
                    command, options = "move", {"move": move}
                else:
                    command, options = "place", {"stones": move.lower().replace(" ", ", ")}
                reply = await public_reply(
                    await fake.slash(players[mirror.state.turn], "polygo", command, options=options)
                )
                placements += 1
            assert reply.attachment().data.startswith(PNG_SIGNATURE)
            mirror.sync(await db.games.moves(game_id))
        assert "Game over" in reply.content
        row = await db.games.game(game_id)
        assert row.status == "finished" and row.scores == mirror.state.result().scores
        assert row.result_reason == "finish" and row.winner is not None and row.scores[row.winner] > 0
        assert "closed a polygon" in reply.content


async def test_nobody_can_choose_a_die(db: Database, fake: FakeDiscord, make_bot: Callable[[], GameBot]) -> None:
    async with fake.running_bot(make_bot()):
        game_id, _ = await challenge_and_accept(fake, "polygo", {"size": 9})
        moves_before = await db.games.moves(game_id)
        for user in (fake.alice, fake.bob):
            for command, option in (("move", "move"), ("place", "stones")):
                for text in ("roll 6", "open 1 2", "ROLL 1"):
                    reply = await private_reply(await fake.slash(user, "polygo", command, options={option: text}))
                    assert "rolled by the bot" in reply.content
        assert await db.games.moves(game_id) == moves_before


async def test_place_autocomplete_lists_legal_placements(
    db: Database, fake: FakeDiscord, make_bot: Callable[[], GameBot]
) -> None:
    mirror = Mirror("polygo", {"size": 9}, seed=1)
    async with fake.running_bot(make_bot()):
        game_id, _ = await challenge_and_accept(fake, "polygo", {"size": 9})
        mirror.sync(await db.games.moves(game_id))
        mover = (fake.alice, fake.bob)[mirror.state.turn]
        choices = await fake.autocomplete(mover, "polygo", "place", focused="stones", value="a1")
        legal = [m for m in mirror.state.legal_moves() if "a1" in m.lower().replace(" ", "")]
        assert [c["value"] for c in choices] == legal[:25] and choices
