"""A board attachment is drawn in the server's language: the same position reads differently on a Japanese server."""

from __future__ import annotations

import io
from collections.abc import Callable

from PIL import Image, ImageChops

from bot import GameBot
from render.base import HEADER_HEIGHT
from tests.e2e.driver import PNG_SIGNATURE, challenge_and_accept, public_reply
from tests.e2e.fake_discord import FakeDiscord


def header(png: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(png)).convert("RGB")
    return image.crop((0, 0, image.width, HEADER_HEIGHT))


async def test_a_japanese_servers_board_is_drawn_in_japanese(
    fake: FakeDiscord, make_bot: Callable[[], GameBot]
) -> None:
    async with fake.running_bot(make_bot()):
        await challenge_and_accept(fake, "iago", {"variant": "standard"})
        english = (await public_reply(await fake.slash(fake.carol, "iago", "board"))).attachment().data
        again = (await public_reply(await fake.slash(fake.carol, "iago", "board"))).attachment().data
        fake.guild.locale = "ja"
        japanese = (await public_reply(await fake.slash(fake.carol, "iago", "board"))).attachment().data
    assert english.startswith(PNG_SIGNATURE) and japanese.startswith(PNG_SIGNATURE)
    assert again == english  # the same position draws the same picture: only the language differs below
    assert ImageChops.difference(header(english), header(japanese)).getbbox() is not None
