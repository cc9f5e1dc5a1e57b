"""Playing by taps (issue 24): whole games played through the bot using only the components under its boards, the
refusals of a stranger's press and of a press on an outdated board, and presses after a restart."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from bot import GameBot
from storage.database import Database
from tests.e2e.driver import Mirror, challenge_and_accept, private_reply
from tests.e2e.fake_discord import FakeDiscord
from tests.e2e.taps import MAX_TAPS, button, menus, tap_a_move
from tests.e2e.test_japanese_e2e import JA, Reader, challenge_in_japanese

GAMES = [
    pytest.param("iago", {"variant": "standard"}, id="iago"),
    pytest.param("isaac", {}, id="isaac"),
    pytest.param("polygo", {"size": 9}, id="polygo-9x9"),
]


@pytest.mark.parametrize(("game", "options"), GAMES)
async def test_a_whole_game_is_played_with_the_boards_components_only(
    db: Database, fake: FakeDiscord, make_bot: Callable[..., GameBot], game: str, options: dict[str, Any]
) -> None:
    rng = random.Random(24)
    mirror = Mirror(game, options, seed=0)
    players = (fake.alice, fake.bob)
    async with fake.running_bot(make_bot()) as bot:
        bot.service.draw = random.Random(5).choice  # seeded dice: the same game every run
        game_id, board = await challenge_and_accept(fake, game, options)
        mirror.sync(await db.games.moves(game_id))
        mark, moves = fake.mark(), 0
        while not mirror.state.is_over:
            player = players[mirror.state.to_act]
            # Only the player to act gets to move from the board: the other is told so privately.
            other = players[1 - mirror.state.to_act]
            pressed = (
                await fake.click(other, board, roll)
                if (roll := button(board, "roll"))
                else await fake.select(
                    other, board, menus(board)[0]["custom_id"], [menus(board)[0]["options"][0]["value"]]
                )
            )
            assert "not your turn" in (await private_reply(pressed)).content
            before = len(await db.games.moves(game_id))
            board, taps = await tap_a_move(fake, player, board, rng)
            assert len(taps) <= MAX_TAPS
            played = (await db.games.moves(game_id))[before:]
            assert played, "the last tap played nothing"
            # A tap on the board that plays the move is answered by the new board itself: one request. A tap on a
            # private step answers by updating the step (it says the move was played), and the board is posted.
            final = fake.requests_since(mark, interaction=taps[-1])
            assert [record.endpoint for record in final] == ["callback"], final
            on_step = taps[-1].source_message is not None and taps[-1].source_message.ephemeral
            posted = fake.requests_since(mark, endpoint="channel_message")
            assert len(posted) == (1 if on_step else 0), posted
            if not button(taps[-1].source_message or board, "roll"):
                assert f"**{played[0]}**" in board.content or played[0] in board.content
            mirror.sync(await db.games.moves(game_id))
            mark, moves = fake.mark(), moves + 1
        assert "Game over" in board.content
        assert board.custom_ids() == [f"rematch:{game_id}"]  # a finished game's board offers only the rematch
        row = await db.games.game(game_id)
        assert row.status == "finished" and row.scores == mirror.state.result().scores
        assert moves > 10


async def test_a_stranger_is_answered_privately_and_changes_nothing(
    db: Database, fake: FakeDiscord, make_bot: Callable[..., GameBot]
) -> None:
    async with fake.running_bot(make_bot()):
        game_id, board = await challenge_and_accept(fake, "iago", {"variant": "standard"})
        menu = menus(board)[0]
        for pressed in (
            await fake.select(fake.carol, board, menu["custom_id"], [menu["options"][0]["value"]]),
            await fake.click(fake.carol, board, button(board, "resign") or ""),
            await fake.click(fake.carol, board, button(board, "abort") or ""),
        ):
            answer = await private_reply(pressed)
            assert f"for the players of game #{game_id}" in answer.content and "/iago challenge" in answer.content
        assert await db.games.moves(game_id) == [] and (await db.games.game(game_id)).status == "active"


async def test_presses_work_after_a_restart_and_an_outdated_board_is_refused(
    db: Database, fake: FakeDiscord, make_bot: Callable[..., GameBot]
) -> None:
    rng = random.Random(7)
    async with fake.running_bot(make_bot()):
        game_id, first = await challenge_and_accept(fake, "isaac", {})
        second, _ = await tap_a_move(fake, fake.alice, first, rng)
    async with fake.running_bot(make_bot()):  # a fresh process: nothing of the boards lives in memory
        third, taps = await tap_a_move(fake, fake.bob, second, rng)
        assert len(await db.games.moves(game_id)) == 2 and 1 <= len(taps) <= MAX_TAPS
        # alice presses on the first board again: the game has moved on since.
        menu = menus(first)[0]
        stale = await private_reply(
            await fake.select(fake.alice, first, menu["custom_id"], [menu["options"][0]["value"]])
        )
        assert "out of date" in stale.content
        assert (
            "out of date"
            in (await private_reply(await fake.click(fake.alice, first, button(first, "resign") or ""))).content
        )
        # A step opened on the current board, then answered after the opponent... cannot move: it is alice's.
        menu = menus(third)[0]
        step = await (await fake.select(fake.alice, third, menu["custom_id"], [menu["options"][-1]["value"]])).final()
        assert step.ephemeral and menus(step)
        assert len(await db.games.moves(game_id)) == 2


async def test_a_forged_pick_is_refused_and_changes_nothing(
    db: Database, fake: FakeDiscord, make_bot: Callable[..., GameBot]
) -> None:
    async with fake.running_bot(make_bot()):
        game_id, board = await challenge_and_accept(fake, "isaac", {})
        menu = menus(board)[0]
        for value in ("8", "c3-g3", "x" * 100, ""):
            refused = await private_reply(await fake.select(fake.alice, board, menu["custom_id"], [value], forged=True))
            assert "not on offer" in refused.content
        assert await db.games.moves(game_id) == []


async def test_resign_asks_once_more(db: Database, fake: FakeDiscord, make_bot: Callable[..., GameBot]) -> None:
    async with fake.running_bot(make_bot()):
        game_id, board = await challenge_and_accept(fake, "iago", {"variant": "standard"})
        # bob, who is not to move, may resign too.
        confirm = await private_reply(await fake.click(fake.bob, board, button(board, "resign") or ""))
        assert (await db.games.game(game_id)).status == "active"
        finish = await (await fake.click(fake.bob, confirm, button(confirm, "sure") or "")).final()
        assert not finish.ephemeral and "Game over" in finish.content
        row = await db.games.game(game_id)
        assert row.status == "finished" and row.winner == 0 and row.result_reason == "resign"


async def test_a_japanese_server_taps_in_japanese(
    db: Database, fake: FakeDiscord, make_bot: Callable[..., GameBot]
) -> None:
    fake.guild.locale = JA
    reader = Reader(fake)
    rng = random.Random(11)
    players = (fake.alice, fake.bob)
    async with fake.running_bot(make_bot()) as bot:
        bot.service.draw = random.Random(3).choice
        for game, options in (("iago", {"variant": "penalty"}), ("isaac", {}), ("polygo", {"size": 13})):
            game_id = await challenge_in_japanese(fake, game, options)
            board = fake.get_message((await db.games.game(game_id)).challenge_message_id)  # now the first board
            mirror = Mirror(game, options, seed=0)
            for _ in range(6):  # each player's first moves, every step a Japanese member sees on the way
                mirror.sync(await db.games.moves(game_id))
                board, _ = await tap_a_move(fake, players[mirror.state.to_act], board, rng, locale=JA)
            confirm = await private_reply(await fake.click(fake.alice, board, button(board, "resign") or "", locale=JA))
            await (await fake.click(fake.alice, confirm, button(confirm, "sure") or "", locale=JA)).final()
    names = {user.username for user in (fake.alice, fake.bob, fake.carol, fake.bot_user)}
    texts = [text for _, text in reader.texts()]
    assert any("手持ち" in text for text in texts) and any("回転" in text for text in texts)  # menus were read
    leaks = reader.leaks(names)
    assert not leaks, "\n".join(f"{sorted(words)} in {text!r}" for text, words in leaks.items())


async def test_friends_tap_and_abort_in_a_group_dm(
    db: Database, fake: FakeDiscord, make_bot: Callable[..., GameBot]
) -> None:
    """A group DM the bot is not in (docs/dms.md): every step and board is an interaction's answer there too."""
    alice, bob = fake.install_for_user(fake.alice), fake.install_for_user(fake.bob)
    group = fake.add_group_dm(alice, bob, name="friends")
    players, rng = (alice, bob), random.Random(9)
    async with fake.running_bot(make_bot(dev_guild_id=None)):
        options = {"opponent": bob.id, "side": 0}
        challenge = await (await fake.slash(alice, "isaac", "challenge", options=options, channel=group)).final()
        accept = next(cid for cid in challenge.custom_ids() if cid.startswith("challenge:accept:"))
        game_id = int(accept.rsplit(":", 1)[1])
        board = await (await fake.click(bob, challenge, accept)).final()
        for turn in range(2):  # a move each, from the boards' components only
            board, _ = await tap_a_move(fake, players[turn], board, rng)
            assert board.channel_id == group.id
        assert len(await db.games.moves(game_id)) == 2
        told = await (await fake.click(bob, board, button(board, "abort") or "")).final()
        assert not told.ephemeral and alice.mention in told.content and "aborted" in told.content
        assert (await db.games.game(game_id)).status == "cancelled"
    assert [r for r in fake.request_log if r.path.startswith(f"/channels/{group.id}")] == []
