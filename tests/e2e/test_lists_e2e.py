"""Game lists: /games all (the server's games, with links) and /games mine (the caller's, those waiting for
them first), ten to a page with Previous / Next."""

from __future__ import annotations

from collections.abc import Callable

from bot import GameBot
from storage.database import Database
from tests.e2e.driver import challenge_and_accept_in_thread, private_reply
from tests.e2e.fake_discord import FakeDiscord, FakeUser


async def start(fake: FakeDiscord, challenger: FakeUser, opponent: FakeUser, side: int) -> int:
    message = await (
        await fake.slash(challenger, "iago", "challenge", options={"opponent": opponent.id, "side": side})
    ).final()
    accept = next(c for c in message.custom_ids() if c.startswith("challenge:accept:"))
    await (await fake.click(opponent, message, accept)).final()
    return int(accept.rsplit(":", 1)[1])


async def test_games_lists_link_each_game_and_page_past_ten(
    db: Database, fake: FakeDiscord, make_bot: Callable[..., GameBot]
) -> None:
    members = [fake.add_member(name=f"member{n}").user for n in range(12)]
    async with fake.running_bot(make_bot(game_threads=True)):
        threaded, _, thread, _ = await challenge_and_accept_in_thread(fake, "iago", {"variant": "standard"})
        # carol plays 12 games (each challenged by another member: a member may send 3 challenges a minute); she
        # has Dark, and so the first move, in every other one.
        ids = [await start(fake, m, fake.carol, 1 - n % 2) for n, m in enumerate(members)]
        empty = await private_reply(await fake.slash(fake.add_member(name="newcomer").user, "games", "mine"))
        assert "no games" in empty.content

        first = await private_reply(await fake.slash(fake.alice, "games", "all"))
        assert "Page 1 of 2" in first.content and first.content.count("**Iago #") == 10
        assert f"#{ids[-1]}**" in first.content  # newest first
        listed = await private_reply(await fake.click(fake.alice, first, "games:all:1:next"))
        assert "Page 2 of 2" in listed.content and listed.content.count("**Iago #") == 3
        assert f"**Iago #{threaded}**" in listed.content and f"<#{thread.id}>" in listed.content
        back = await private_reply(await fake.click(fake.alice, listed, "games:all:0:prev"))
        assert back.content == first.content

        mine = await private_reply(await fake.slash(fake.carol, "games", "mine"))
        lines = [line for line in mine.content.splitlines() if line.startswith("**Iago #")]
        assert len(lines) == 10 and "Page 1 of 2" in mine.content
        waiting = {gid for n, gid in enumerate(ids) if n % 2 == 0}  # Dark to move: carol
        shown = [int(line.split("#", 1)[1].split("*", 1)[0]) for line in lines]
        assert set(shown[:6]) == waiting and all(f"{fake.carol.mention} to play" in line for line in lines[:6])
        assert all(gid in ids for gid in shown) and threaded not in shown
        rest = await private_reply(await fake.click(fake.carol, mine, "games:mine:1:next"))
        assert rest.content.count("**Iago #") == 2
        assert (await db.games.game(threaded)).thread_id == thread.id
