"""A whole ISAAC game through the bot: both phases, friendly and canonical forms, forced passes."""

from __future__ import annotations

from collections.abc import Callable

from bot import GameBot
from engines.isaac import span_length
from storage.database import Database
from tests.e2e.driver import PNG_SIGNATURE, Mirror, challenge_and_accept, private_reply, public_reply
from tests.e2e.fake_discord import FakeDiscord


def friendly_options(move: str) -> tuple[str, dict]:
    """The /isaac place or /isaac remove form of a canonical move."""
    if move.startswith("x "):
        _, span, score = move.split()
        return "remove", {"piece": span.split("-")[0], "score": int(score)}
    start, end = move.split("-")
    direction = "right" if start[1:] == end[1:] else "up"
    return "place", {"piece": span_length(move), "at": start, "direction": direction}


async def test_a_full_isaac_game_plays_through_both_phases(
    db: Database, fake: FakeDiscord, make_bot: Callable[[], GameBot]
) -> None:
    mirror = Mirror("isaac", {}, seed=4)
    players = (fake.alice, fake.bob)
    forced_passes = 0
    async with fake.running_bot(make_bot()):
        game_id, _ = await challenge_and_accept(fake, "isaac")
        turn = 0
        while not mirror.state.is_over:
            move = mirror.choose()
            if turn % 3 == 2:
                command, options = "move", {"move": move.upper()}
            else:
                command, options = friendly_options(move)
            reply = await public_reply(await fake.slash(players[mirror.state.turn], "isaac", command, options=options))
            assert reply.attachment().data.startswith(PNG_SIGNATURE)
            before = len(mirror.state.moves)
            mirror.sync(await db.games.moves(game_id))
            assert mirror.state.moves[before] == move
            if "passed for them" in reply.content:
                forced_passes += 1
            turn += 1
        assert forced_passes >= 1  # the placement phase ends with passes the bot plays
        result = mirror.state.result()
        assert "Game over" in reply.content and players[result.winner].mention in reply.content


async def test_removal_autocomplete_shows_the_points(
    db: Database, fake: FakeDiscord, make_bot: Callable[[], GameBot]
) -> None:
    mirror = Mirror("isaac", {}, seed=9)
    players = (fake.alice, fake.bob)
    async with fake.running_bot(make_bot()):
        game_id, _ = await challenge_and_accept(fake, "isaac")
        wrong_phase = await private_reply(await fake.slash(fake.alice, "isaac", "remove", options={"piece": "a1"}))
        assert "scoring phase" in wrong_phase.content
        while mirror.state.phase == "placement":
            move = mirror.choose()
            await public_reply(await fake.slash(players[mirror.state.turn], "isaac", "move", options={"move": move}))
            mirror.sync(await db.games.moves(game_id))
        mover = players[mirror.state.turn]
        choices = await fake.autocomplete(mover, "isaac", "remove", focused="piece", value="")
        assert choices and all(" -> " in c["name"] and c["name"].endswith(" points") for c in choices)
        span = choices[0]["value"]
        points = int(choices[0]["name"].split(" -> ")[1].split()[0])
        assert points == mirror.state.removal_points(span)
