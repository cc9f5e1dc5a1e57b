"""A board attachment is drawn in the server's language: the same position reads differently on a Japanese server."""

from __future__ import annotations

import io
from collections.abc import Callable

from PIL import Image, ImageChops

from bot import GameBot
from render.base import HEADER_HEIGHT
from tests.e2e.driver import PNG_SIGNATURE, Mirror, challenge_and_accept, public_reply
from tests.e2e.fake_discord import FakeDiscord, FakeUser


def header(png: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(png)).convert("RGB")
    return image.crop((0, 0, image.width, HEADER_HEIGHT))


async def board(fake: FakeDiscord, member: FakeUser) -> bytes:
    return (await public_reply(await fake.slash(member, "iago", "board"))).attachment().data


async def test_a_japanese_servers_boards_are_drawn_in_japanese(
    fake: FakeDiscord, make_bot: Callable[[], GameBot]
) -> None:
    mirror = Mirror("iago", {"variant": "standard"}, seed=3)
    async with fake.running_bot(make_bot()):
        await challenge_and_accept(fake, "iago", {"variant": "standard"})
        english, again = await board(fake, fake.carol), await board(fake, fake.carol)
        fake.guild.locale = "ja"
        japanese = await board(fake, fake.carol)
        move = mirror.choose()
        reply = await public_reply(await fake.slash(fake.alice, "iago", "move", options={"move": move}))
        moved_japanese = reply.attachment().data
        shown_after = await board(fake, fake.bob)  # the same position, by /board on the same server
        fake.guild.locale = "en-US"
        shown_in_english = await board(fake, fake.bob)  # (a member may post four boards in 30 s)
    assert english.startswith(PNG_SIGNATURE) and japanese.startswith(PNG_SIGNATURE)
    assert again == english  # the same position draws the same picture: only the language differs below
    assert ImageChops.difference(header(english), header(japanese)).getbbox() is not None
    # The move's announcement is drawn in the server's language too
    assert moved_japanese == shown_after != shown_in_english
