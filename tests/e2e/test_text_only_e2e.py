"""A screen-reader user's path (issue 22): a whole game of each game played using only text.

The players never look at an image: before each turn they read ``/<game> board text:true`` (whose turn, the diagram,
the legal moves, the score), take a move from the command's autocomplete (the legal moves) and play it with the game's
own commands (``/polygo roll``, ``/polygo place``, ``/isaac remove``...). The game ends when the text says so, and the
final text board agrees with the stored game.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable

import pytest

from bot import GameBot
from storage.database import Database
from tests.e2e.driver import private_reply, public_reply
from tests.e2e.fake_discord import FakeDiscord, FakeUser

TO_ACT = re.compile(r"\((alice|bob)\) to (play|place|remove|roll)")
OPTIONS = {"iago": {"variant": "standard"}, "isaac": {}, "polygo": {"size": 9}}
# How each game's moves are typed with its own commands: the command and the option the autocomplete fills.
COMMANDS = {
    ("iago", "play"): ("move", "move"),
    ("isaac", "place"): ("move", "move"),
    ("isaac", "remove"): ("remove", "piece"),
    ("polygo", "place"): ("place", "stones"),
}


async def read_board(fake: FakeDiscord, user: FakeUser, game: str, game_id: int) -> str:
    """The text board, privately: a player may read it before every move without flooding the channel."""
    options = {"text": True, "private": True, "game": game_id}
    message = await private_reply(await fake.slash(user, game, "board", options=options))
    assert not message.attachments and len(message.content) <= 2000  # words only, one message
    return message.content


@pytest.mark.parametrize("game", ["iago", "isaac", "polygo"])
async def test_a_whole_game_is_played_from_the_text_board_and_the_autocomplete(
    db: Database, fake: FakeDiscord, make_bot: Callable[..., GameBot], game: str
) -> None:
    rng = random.Random(22)
    users = {"alice": fake.alice, "bob": fake.bob}
    async with fake.running_bot(make_bot()):
        challenge = await fake.slash(fake.alice, game, "challenge", options={"opponent": fake.bob.id, **OPTIONS[game]})
        message = await challenge.final()
        accept = next(cid for cid in message.custom_ids() if cid.startswith("challenge:accept:"))
        await (await fake.click(fake.bob, message, accept)).final()
        game_id = int(accept.rsplit(":", 1)[1])
        turns, reader = 0, fake.alice  # each player reads the board before their turn, and at the end
        while True:
            text = await read_board(fake, reader, game, game_id)
            assert "```" in text  # the monospace diagram
            found = TO_ACT.search(text)
            if found is None:
                break
            name, action = found.groups()
            user = reader = users[name]
            if action == "roll":
                await public_reply(await fake.slash(user, game, "roll"))
                continue
            assert "Legal" in text or "legal" in text  # the moves are on the text board too
            command, option = COMMANDS[(game, action)]
            choices = await fake.autocomplete(user, game, command, focused=option, value="")
            assert choices, text
            move = rng.choice(choices)["value"]
            reply = await public_reply(await fake.slash(user, game, command, options={option: move}))
            assert "**" in reply.content  # the move, said in words
            turns += 1
        assert "Game over" in text and turns > 5
        public = await public_reply(
            await fake.slash(fake.carol, game, "board", options={"text": True, "game": game_id})
        )
        assert public.content == text  # the same words for everyone here, in the server's language
        (row,) = [row for row in await db.games.games_with_status("finished") if row.game == game]
        assert str(row.scores[0]) in text and str(row.scores[1]) in text
