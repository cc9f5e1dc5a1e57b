"""Alt text on every board image (issue 22): public boards described in the server's language, private ones in
their reader's, the replay's animation too, and the run-wide check (tests/e2e/alt_text_check.py) finds what is
missing or in the wrong language.

Every e2e test that runs the game bot ends with that check over all its messages (tests/e2e/conftest.py), so
these tests only add what the others do not reach: a member whose language differs from the server's.
"""

from __future__ import annotations

from collections.abc import Callable

from bot import GameBot
from storage.database import Database
from tests.e2e.alt_text_check import KANA, board_alt_text_problems, board_messages
from tests.e2e.driver import Mirror, challenge_and_accept, private_reply, public_reply
from tests.e2e.fake_discord import FakeDiscord, StoredAttachment, StoredMessage
from tests.e2e.test_computer_e2e import QUICK_AI, play_to_the_end


async def start_game(fake: FakeDiscord, game: str) -> tuple[int, StoredMessage]:
    """alice challenges bob, bob accepts (in any server language); the game id and the first board."""
    challenge = await fake.slash(fake.alice, game, "challenge", options={"opponent": fake.bob.id, "side": 0})
    message = await challenge.final()
    accept_id = next(cid for cid in message.custom_ids() if cid.startswith("challenge:accept:"))
    board = await (await fake.click(fake.bob, message, accept_id)).final()
    return int(accept_id.rsplit(":", 1)[1]), board


def described(message_description: str | None) -> str:
    assert message_description, "an image without alt text"
    return message_description


async def test_public_boards_speak_the_servers_language_and_private_ones_the_readers(
    db: Database, fake: FakeDiscord, make_bot: Callable[..., GameBot]
) -> None:
    fake.guild.locale = "ja"  # a Japanese server; alice reads Discord in English
    mirror = Mirror("iago", {"variant": "standard"}, seed=3)
    players = (fake.alice, fake.bob)
    async with fake.running_bot(make_bot()):
        game_id, first = await start_game(fake, "iago")
        assert KANA.search(described(first.attachment().description))  # the accepted challenge's board
        for _ in range(4):
            move = mirror.choose()
            reply = await public_reply(
                await fake.slash(players[mirror.state.turn], "iago", "move", options={"move": move})
            )
            mirror.state.play(move)
            description = described(reply.attachment().description)
            assert KANA.search(description) and move in description  # the last move, said in Japanese
        board = await public_reply(await fake.slash(fake.carol, "iago", "board"))
        assert KANA.search(described(board.attachment().description))

        replay = await private_reply(await fake.slash(fake.alice, "iago", "replay", options={"game": game_id}))
        english = described(replay.attachment().description)
        assert not KANA.search(english) and "Iago" in english and "Dark disks" in english
        stepped = await (await fake.click(fake.carol, replay, f"replay:{game_id}:0:first", locale="ja")).final()
        assert KANA.search(described(stepped.attachment().description))  # the clicker reads Japanese

        animated = await public_reply(
            await fake.slash(fake.alice, "iago", "replay", options={"game": game_id, "animated": True})
        )
        gif = described(animated.attachment().description)
        assert KANA.search(gif) and "5" in gif  # five frames: the start and four moves
        assert len(board_messages(fake)) >= 8
        assert board_alt_text_problems(fake) == []


async def test_hints_and_analyses_are_described_to_their_reader(
    db: Database, fake: FakeDiscord, make_bot: Callable[..., GameBot]
) -> None:
    fake.guild.locale = "ja"
    async with fake.running_bot(make_bot(**QUICK_AI)):
        options = {"opponent": fake.bot_user.id, "level": 1, "side": 0}
        await public_reply(await fake.slash(fake.alice, "iago", "challenge", options=options))
        (row,) = await db.games.active_games_of(fake.alice.id)
        hint = await private_reply(await fake.slash(fake.alice, "iago", "hint", locale="en-US"))
        description = described(hint.attachment().description)
        assert not KANA.search(description) and "Iago" in description
        await play_to_the_end(fake, db, row, fake.alice, seed=4)
        analysis = await private_reply(await fake.slash(fake.alice, "iago", "analyse", options={"game": row.id}))
        assert analysis.attachments  # random moves against level 1: some of them cost
        for attachment in analysis.attachments:
            assert not KANA.search(described(attachment.description))
        assert board_alt_text_problems(fake) == []


async def test_the_run_wide_check_finds_missing_long_and_wrongly_languaged_alt_text(
    fake: FakeDiscord, make_bot: Callable[..., GameBot]
) -> None:
    async with fake.running_bot(make_bot()):
        _, board = await challenge_and_accept(fake, "iago")
    original = board.attachment()
    assert board_alt_text_problems(fake) == []
    cases = {
        None: "no alt text",
        "x" * 1025: "1025 characters",
        "イアーゴ、標準ルール。": "is not in English",
    }
    for description, problem in cases.items():
        board.attachments = [StoredAttachment(id=1, filename="b.png", data=b"", description=description)]
        (found,) = board_alt_text_problems(fake)
        assert problem in found
    board.attachments = [original]
    original.server_locale = "ja"  # the same English text on a Japanese server's public board is wrong
    (found,) = board_alt_text_problems(fake)
    assert "is not in Japanese" in found
    original.server_locale = "en-US"
