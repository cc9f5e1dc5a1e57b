"""What a member meets on the boards of a game in play (issue 31): the first board of a game against the bot
carries what they tap, whoever moves first; a Polygo board names its Roll button where it carries one; and a
private step from which the move was played says so and carries no menus."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from bot import GameBot
from storage.database import Database
from tests.e2e.driver import challenge_and_accept, private_reply, public_reply
from tests.e2e.fake_discord import FakeDiscord, StoredMessage
from tests.e2e.taps import button, menus, tap_a_move
from tests.e2e.test_computer_e2e import QUICK_AI, SMALL, eventually, replay
from tests.e2e.test_japanese_e2e import JA, challenge_in_japanese

GAMES = ["iago", "isaac", "polygo"]


def opening(member_first: bool) -> Callable[[list[str]], str]:
    """Polygo's opening dice as wanted: Black (side 0, the member) starts with the lower die (engines/polygo.py)."""
    wanted = "open 1 2" if member_first else "open 2 1"
    return lambda options: wanted if wanted in options else options[0]


def carries_what_to_tap(board: StoredMessage) -> bool:
    """The first step of the move (menus, or Roll at a dice point), Resign, and Abort: a move needs no typing."""
    return (
        bool(menus(board) or button(board, "roll")) and bool(button(board, "resign")) and bool(button(board, "abort"))
    )


@pytest.mark.parametrize("member_first", [True, False], ids=["member-first", "bot-first"])
@pytest.mark.parametrize("game", GAMES)
async def test_the_first_board_against_the_bot_carries_the_picker(
    db: Database, fake: FakeDiscord, make_bot: Callable[..., GameBot], game: str, member_first: bool
) -> None:
    async with fake.running_bot(make_bot(game_threads=True, **QUICK_AI)) as bot:
        bot.service.draw = opening(member_first)
        side = 0 if member_first or game == "polygo" else 1  # in Polygo the opening dice decide who starts
        options: dict[str, Any] = {"opponent": fake.bot_user.id, "level": 1, "side": side, **SMALL.get(game, {})}
        header = await public_reply(await fake.slash(fake.alice, game, "challenge", options=options))
        (row,) = await db.games.active_games_of(fake.alice.id)
        thread = next(t for t in fake.threads() if t.id == row.thread_id)
        assert f"<#{thread.id}>" in header.content and not header.custom_ids()
        first = await fake.wait_for_message(thread, lambda m: bool(m.attachments))
        state = await replay(db, row)
        bot_moved = any(len(move.split()) and not move.startswith(("open", "roll")) for move in state.moves)
        assert bot_moved != member_first, state.moves
        assert state.to_act == side, "the member is to act on the first board they see"
        assert carries_what_to_tap(first), (first.content, first.custom_ids())
        ply = (await db.games.game(row.id)).ply  # type: ignore[union-attr]
        assert all(custom_id.startswith(f"tap:{row.id}:{ply}:") for custom_id in first.custom_ids())


@pytest.mark.parametrize("member_first", [True, False], ids=["member-first", "bot-first"])
async def test_the_first_board_against_the_bot_in_its_channel_carries_the_picker(
    db: Database, fake: FakeDiscord, make_bot: Callable[..., GameBot], member_first: bool
) -> None:
    """Threads off: the first board is the answer to the challenge itself, or the bot's first reply."""
    async with fake.running_bot(make_bot(**QUICK_AI)):
        options = {"opponent": fake.bot_user.id, "level": 1, "side": 0 if member_first else 1}
        answer = await (await fake.slash(fake.alice, "isaac", "challenge", options=options)).final()
        (row,) = await db.games.active_games_of(fake.alice.id)

        async def members_turn() -> bool:
            return (await replay(db, row)).to_act == options["side"]

        await eventually(members_turn, "the member's turn")
        await fake.wait_until(lambda: bool(fake.messages[answer.id].attachments), what="the first board")
        first = fake.messages[answer.id]
        assert carries_what_to_tap(first), (first.content, first.custom_ids())


# --- Polygo's Roll button, named on the board that carries it --------------------------------------------------

ROLL_WORDS = {
    "en-US": ("press **Roll the die** below", "roll the die with /polygo roll"),
    JA: ("下の「サイコロを振る」を押してください", "/polygo roll でサイコロを振ってください"),
}


async def board_with_roll(fake: FakeDiscord, db: Database, game_id: int, board: StoredMessage) -> StoredMessage:
    """Play from ``board`` by its components until a board asks to roll; returns it."""
    rng = random.Random(31)
    players = (fake.alice, fake.bob)
    while button(board, "roll") is None:
        state = await replay(db, await db.games.game(game_id))  # type: ignore[arg-type]
        board, _ = await tap_a_move(fake, players[state.to_act], board, rng)  # type: ignore[index]
    return board


@pytest.mark.parametrize("locale", ["en-US", JA])
async def test_a_polygo_board_with_the_roll_button_names_it(
    db: Database, fake: FakeDiscord, make_bot: Callable[..., GameBot], locale: str
) -> None:
    fake.guild.locale = locale  # a board's words are the server's
    button_words, command_words = ROLL_WORDS[locale]
    async with fake.running_bot(make_bot()) as bot:
        bot.service.draw = random.Random(3).choice
        game_id = await challenge_in_japanese(fake, "polygo", {"size": 9})  # the members' own language aside
        first = fake.get_message((await db.games.game(game_id)).challenge_message_id)  # type: ignore[union-attr]
        board = await board_with_roll(fake, db, game_id, first)
        assert button_words in board.content and "/polygo roll" not in board.content, board.content
        # /polygo board carries the button too; a private board carries none, and names the command.
        shown = await public_reply(await fake.slash(fake.carol, "polygo", "board"))
        assert button(shown, "roll") and button_words in shown.content and "/polygo roll" not in shown.content
        private = await private_reply(
            await fake.slash(fake.alice, "polygo", "board", options={"private": True}, locale=locale)
        )
        assert not private.custom_ids() and command_words in private.content, private.content


# --- a private step from which the move was played --------------------------------------------------------------

STEP_PLAYED = {"en-US": "you played **{move}**", JA: "**{move}** を着手しました"}


async def play_from_a_step(
    fake: FakeDiscord, user: Any, board: StoredMessage, rng: random.Random, locale: str
) -> tuple[StoredMessage, StoredMessage]:
    """Pick on ``board`` until a private step opens, then in it until the move is played; returns the step (as
    it was last shown) and the last answer."""
    message, step = board, None
    while True:
        menu = rng.choice(menus(message))
        pick = rng.choice(menu["options"])["value"]
        answer = await (await fake.select(user, message, menu["custom_id"], [pick], locale=locale)).final()
        if answer.ephemeral and menus(answer):
            message = step = answer
            continue
        assert step is not None, "the move was played from the board: no step to look at"
        return step, answer


@pytest.mark.parametrize("locale", ["en-US", JA])
async def test_a_step_from_which_the_move_was_played_says_so_and_carries_no_menus(
    db: Database, fake: FakeDiscord, make_bot: Callable[..., GameBot], locale: str
) -> None:
    rng = random.Random(4)
    async with fake.running_bot(make_bot()):
        game_id, board = await challenge_and_accept(fake, "isaac", {})  # placing a piece takes two or three picks
        step, answer = await play_from_a_step(fake, fake.alice, board, rng, locale)
        (move,) = await db.games.moves(game_id)
        used = fake.messages[step.id]
        assert used.ephemeral and used.custom_ids() == [] and not used.attachments, used.custom_ids()
        assert STEP_PLAYED[locale].format(move=move) in used.content, used.content
        # The move's board is public, in the game's place, with the next player's components.
        new = await fake.wait_for_message(fake.channel, lambda m: move in m.content and bool(m.attachments))
        assert not new.ephemeral and menus(new) and f"tap:{game_id}:1:" in menus(new)[0]["custom_id"]
        assert answer.id == used.id  # the last pick's answer is the step itself, updated


async def test_a_step_against_the_bot_says_the_move_was_played_and_the_reply_follows_with_its_board(
    db: Database, fake: FakeDiscord, make_bot: Callable[..., GameBot]
) -> None:
    rng = random.Random(5)
    async with fake.running_bot(make_bot(**QUICK_AI)):
        options = {"opponent": fake.bot_user.id, "level": 1, "side": 0}
        board = await public_reply(await fake.slash(fake.alice, "isaac", "challenge", options=options))
        (row,) = await db.games.active_games_of(fake.alice.id)
        step, _ = await play_from_a_step(fake, fake.alice, board, rng, "en-US")
        used = fake.messages[step.id]
        assert used.custom_ids() == [] and "you played" in used.content

        async def bot_replied() -> bool:
            return len(await db.games.moves(row.id)) >= 2

        await eventually(bot_replied, "the bot's reply")
        member, reply = (await db.games.moves(row.id))[:2]
        both = await fake.wait_for_message(fake.channel, lambda m: reply in m.content and bool(m.attachments))
        assert member in both.content and menus(both)
