"""Play anywhere (issue 22): the app installed by users, played in a group DM the bot is not in (docs/dms.md).

The fake serves a user-installed app's interactions there as Discord does (``context`` 2, the installing user as the
authorizing owner, a GROUP_DM channel, no member, no server) and refuses every request of the bot to the channel
itself. So a game there can only be played by interaction answers: these tests play whole games that way, one
between two friends and one against the bot, whose moves come as followups.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from bot import GameBot
from storage.database import Database
from tests.e2e.driver import PNG_SIGNATURE, Mirror, private_reply, public_reply
from tests.e2e.fake_discord import CommandNotAvailable, FakeChannel, FakeDiscord
from tests.e2e.test_computer_e2e import QUICK_AI, eventually


def channel_requests(fake: FakeDiscord, channel: FakeChannel) -> list[str]:
    """What the bot asked of the channel itself (not of an interaction): nothing may succeed in a group DM."""
    return [
        f"{r.method} {r.path} -> {r.status}" for r in fake.request_log if r.path.startswith(f"/channels/{channel.id}")
    ]


async def test_the_synced_commands_say_where_they_work(fake: FakeDiscord, make_bot: Callable[..., GameBot]) -> None:
    async with fake.running_bot(make_bot(dev_guild_id=None)):
        commands = {command["name"]: command for command in fake.commands()}
        for game in ("iago", "isaac", "polygo"):
            assert commands[game]["integration_types"] == [0, 1] and commands[game]["contexts"] == [0, 1, 2]
        for server_only in ("admin", "leaderboard", "stats", "games"):
            assert commands[server_only]["integration_types"] == [0] and commands[server_only]["contexts"] == [0]


async def test_two_friends_play_a_whole_game_in_a_group_dm(
    db: Database, fake: FakeDiscord, make_bot: Callable[..., GameBot]
) -> None:
    alice, bob = fake.install_for_user(fake.alice), fake.install_for_user(fake.bob)
    dave = fake.add_user("dave")  # in the group, without the app
    outsider = fake.add_user("outsider")
    group = fake.add_group_dm(alice, bob, dave, name="friends")
    mirror = Mirror("iago", {"variant": "standard"}, seed=21)
    players = (alice, bob)
    async with fake.running_bot(make_bot(dev_guild_id=None)):
        with pytest.raises(CommandNotAvailable):  # Discord offers the commands only to those who installed them
            await fake.slash(dave, "iago", "board", channel=group)
        with pytest.raises(CommandNotAvailable):  # and admin, leaderboards and lists stay in servers
            await fake.slash(alice, "leaderboard", options={"game": "iago"}, channel=group)

        options = {"opponent": outsider.id, "side": 0}
        refused = await private_reply(await fake.slash(alice, "iago", "challenge", options=options, channel=group))
        assert "only someone in this conversation" in refused.content

        options = {"opponent": bob.id, "side": 0, "variant": "standard"}
        challenge = await public_reply(await fake.slash(alice, "iago", "challenge", options=options, channel=group))
        assert bob.mention in challenge.content and challenge.channel_id == group.id
        accept = next(cid for cid in challenge.custom_ids() if cid.startswith("challenge:accept:"))
        game_id = int(accept.rsplit(":", 1)[1])
        first = await (await fake.click(bob, challenge, accept)).final()
        assert first.id == challenge.id and first.attachment().data.startswith(PNG_SIGNATURE)
        assert first.attachment().description and "alice" in first.attachment().description

        while not mirror.state.is_over:
            move = mirror.choose()
            user = players[mirror.state.turn]
            reply = await public_reply(await fake.slash(user, "iago", "move", options={"move": move}, channel=group))
            mirror.state.play(move)
            assert reply.channel_id == group.id and f"**{move}**" in reply.content and reply.attachment().description
        assert "Game over" in reply.content and "rating" in reply.content
        assert "rematch:" + str(game_id) in reply.custom_ids()[0]

        text = await public_reply(
            await fake.slash(bob, "iago", "board", options={"text": True, "game": game_id}, channel=group)
        )
        assert "Game over" in text.content and not text.attachments
        history = await private_reply(
            await fake.slash(bob, "iago", "history", options={"game": game_id}, channel=group)
        )
        assert history.attachment(f"iago-{game_id}.json").data
        rematch = await (await fake.click(bob, reply, f"rematch:{game_id}")).final()
        assert alice.mention in rematch.content and "challenge:accept:" in rematch.custom_ids()[0]

        # The game is the group's: its ratings are a scope of their own, which no server's leaderboard shows.
        row = await db.games.game(game_id)
        assert row is not None and row.guild_id == -group.id and row.status == "finished"
        assert {r.user_id for r in await db.ratings.leaderboard(-group.id, "iago", 10)} == {alice.id, bob.id}
        leaderboard = await public_reply(await fake.slash(fake.carol, "leaderboard", options={"game": "iago"}))
        assert "No rated games yet" in leaderboard.embeds[0]["description"]
        # ... and nothing of it is reachable from a server.
        elsewhere = await private_reply(await fake.slash(fake.carol, "iago", "board", options={"game": game_id}))
        assert "cannot find game" in elsewhere.content
    assert channel_requests(fake, group) == []  # every message was an interaction's answer


async def test_a_game_against_the_bot_in_a_group_dm_shows_its_moves_as_followups(
    db: Database, fake: FakeDiscord, make_bot: Callable[..., GameBot]
) -> None:
    alice = fake.install_for_user(fake.alice)
    group = fake.add_group_dm(alice, fake.bob)
    async with fake.running_bot(make_bot(dev_guild_id=None, **QUICK_AI)):
        options = {"opponent": fake.bot_user.id, "level": 1, "side": 0}
        first = await public_reply(await fake.slash(alice, "iago", "challenge", options=options, channel=group))
        assert "accepted" in first.content and first.attachment().description
        (row,) = await db.games.active_games_of(alice.id)
        mirror = Mirror("iago", {}, seed=2)
        while not mirror.state.is_over:
            before = len(mirror.state.moves)
            played = await fake.slash(alice, "iago", "move", options={"move": mirror.choose()}, channel=group)
            reply = await public_reply(played)

            async def answered() -> bool:
                mirror.sync(await db.games.moves(row.id))
                return mirror.state.is_over or mirror.state.to_act == 0

            await eventually(answered, "the bot's move")
            if any(move != "pass" for move in mirror.state.moves[before + 1 :]):  # the bot moved
                # ... in alice's own reply: one message a turn (issue 24), completed by the bot's move
                assert f"{fake.bot_user.mention} played" in reply.content and reply.attachment().description
                assert played.followup_ids == []
        assert (await db.games.game(row.id)).status == "finished"  # type: ignore[union-attr]

        async def all_announced() -> bool:
            return not await db.outbox.pending_for_game(row.id)

        await eventually(all_announced, "every announcement of the game")
    assert channel_requests(fake, group) == []


async def test_a_bots_move_no_token_can_show_waits_for_the_next_command(
    db: Database, fake: FakeDiscord, make_bot: Callable[..., GameBot]
) -> None:
    alice = fake.install_for_user(fake.alice)
    group = fake.add_group_dm(alice, fake.bob)
    async with fake.running_bot(make_bot(dev_guild_id=None, **QUICK_AI)):
        options = {"opponent": fake.bot_user.id, "level": 1, "side": 0}
        await public_reply(await fake.slash(alice, "iago", "challenge", options=options, channel=group))
        (row,) = await db.games.active_games_of(alice.id)
        mirror = Mirror("iago", {}, seed=4)
        fake.token_lifetime = 0.0  # every followup and edit now comes too late, as after 15 minutes
        played = await fake.slash(alice, "iago", "move", options={"move": mirror.choose()}, channel=group)
        await played.response()  # held for the bot's reply, which no token can show now

        async def bot_moved() -> bool:
            return len(await db.games.moves(row.id)) == 2

        await eventually(bot_moved, "the bot's move")
        fake.token_lifetime = 15 * 60.0
        assert played.followup_ids == []  # nothing could show it
        mirror.sync(await db.games.moves(row.id))
        board = await public_reply(await fake.slash(alice, "iago", "board", channel=group))
        assert f"{alice.mention}, it is your turn" in board.content or alice.mention in board.content
        assert board.attachment().description and mirror.state.moves[-1] in board.attachment().description
    assert channel_requests(fake, group) == []


async def test_a_member_plays_the_bot_in_their_dm_with_it(
    db: Database, fake: FakeDiscord, make_bot: Callable[..., GameBot]
) -> None:
    """The DM with the bot itself (``context`` 1) is a private place too: the same game, one message a turn."""
    async with fake.running_bot(make_bot(dev_guild_id=None, **QUICK_AI)):
        options = {"opponent": fake.bot_user.id, "level": 1, "side": 0}
        first = await public_reply(await fake.slash(fake.alice, "isaac", "challenge", options=options, dm=True))
        assert first.channel_id == fake.dm_channel(fake.alice).id and first.attachment().description
        (row,) = await db.games.active_games_of(fake.alice.id)
        assert row.guild_id == -fake.dm_channel(fake.alice).id
        mirror = Mirror("isaac", {}, seed=6)
        played = await fake.slash(fake.alice, "isaac", "move", options={"move": mirror.choose()}, dm=True)
        reply = await public_reply(played)  # the move and the bot's reply, in one message
        assert f"{fake.bot_user.mention} played" in reply.content and reply.attachment().description
        refused = await private_reply(
            await fake.slash(fake.alice, "leaderboard", options={"game": "isaac"}, dm=True, forged=True)
        )
        assert "works in servers only" in refused.content
    assert [m.id for m in fake.dm_messages(fake.alice) if m.interaction_id is None] == []  # nothing posted by itself


async def test_a_lesson_in_a_group_dm_is_kept_apart_from_the_servers(
    db: Database, fake: FakeDiscord, make_bot: Callable[..., GameBot]
) -> None:
    alice = fake.install_for_user(fake.alice)
    group = fake.add_group_dm(alice, fake.bob, name="learners")
    async with fake.running_bot(make_bot(dev_guild_id=None)):
        lesson = await private_reply(await fake.slash(alice, "iago", "learn", options={"lesson": 3}, channel=group))
        assert "Capture" in lesson.content and lesson.attachment().description
        right = await private_reply(await fake.slash(alice, "iago", "learn", options={"move": "D6"}, channel=group))
        assert right.content.startswith("✅")
        assert channel_requests(fake, group) == []
    # The conversation is a scope of its own (the negative of its channel's id), as its games are.
    assert await db.lessons.lesson_progress(-group.id, alice.id, "iago") is not None
    assert await db.lessons.lesson_progress(fake.guild.id, alice.id, "iago") is None
