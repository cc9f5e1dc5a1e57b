"""Which game a command means and how often a member may challenge (issue 24): the challenge cooldown counts only
challenges that were made; a command that acts offers only the member's own games; a move without ``game:`` goes
to the one game waiting for the member, and its autocomplete works before ``game`` is filled."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot import GameBot
from storage.database import Database
from tests.e2e.driver import private_reply, public_reply
from tests.e2e.fake_discord import FakeDiscord
from tests.e2e.harness import FakeUser


async def challenge(fake: FakeDiscord, by: FakeUser, opponent: int, **options: Any) -> Any:
    return await (await fake.slash(by, "iago", "challenge", options={"opponent": opponent, **options})).final()


async def test_the_challenge_cooldown_counts_only_challenges_that_were_made(
    fake: FakeDiscord, make_bot: Callable[..., GameBot]
) -> None:
    async with fake.running_bot(make_bot()):
        refused = await challenge(fake, fake.alice, fake.alice.id)
        assert refused.ephemeral and "yourself" in refused.content
        refused = await challenge(fake, fake.alice, fake.bob.id, level=2)
        assert refused.ephemeral and "level" in refused.content
        others = [fake.bob, fake.carol, fake.add_member(name="dave").user, fake.add_member(name="erin").user]
        for opponent in others[:3]:  # three a minute, none of them used up by the refusals
            made = await challenge(fake, fake.alice, opponent.id)
            assert not made.ephemeral and opponent.mention in made.content, made.content
        slow = await challenge(fake, fake.alice, others[3].id)
        assert slow.ephemeral and "Slow down" in slow.content
        practice = await challenge(fake, fake.alice, fake.bot_user.id, level=1)  # counted apart
        assert not practice.ephemeral and "accepted" in practice.content


async def start(fake: FakeDiscord, first: FakeUser, second: FakeUser) -> int:
    """``first`` challenges ``second`` to Iago and plays Dark (who moves first); ``second`` accepts."""
    message = await challenge(fake, first, second.id, side=0)
    accept = next(cid for cid in message.custom_ids() if cid.startswith("challenge:accept:"))
    await (await fake.click(second, message, accept)).final()
    return int(accept.rsplit(":", 1)[1])


async def test_a_move_without_game_goes_to_the_one_game_waiting_for_the_member(
    db: Database, fake: FakeDiscord, make_bot: Callable[..., GameBot]
) -> None:
    async with fake.running_bot(make_bot()):
        waiting = await start(fake, fake.alice, fake.bob)  # alice's move
        other = await start(fake, fake.carol, fake.alice)  # carol's move
        strangers = await start(fake, fake.bob, fake.carol)  # not alice's

        offered = await fake.autocomplete(fake.alice, "iago", "move", focused="game", value="")
        assert {choice["value"] for choice in offered} == {waiting, other}  # only her own games
        looking = await fake.autocomplete(fake.alice, "iago", "board", focused="game", value="")
        assert {choice["value"] for choice in looking} == {waiting, other, strangers}  # anyone may look

        moves = await fake.autocomplete(fake.alice, "iago", "move", focused="move", value="")
        assert moves, "the move list works before game is filled: only one game waits for her"
        move = moves[0]["value"]
        played = await public_reply(await fake.slash(fake.alice, "iago", "move", options={"move": move}))
        assert f"**{move}**" in played.content
        assert await db.games.moves(waiting) == [move] and await db.games.moves(other) == []

        # Now none waits for her: a move without game: asks which, and names the option.
        ask = await private_reply(await fake.slash(fake.alice, "iago", "move", options={"move": move}))
        assert "game option" in ask.content
