"""Issue 31, point 3, through the real client in English and Japanese: Polygo's anchor step on 19x19, tapped.

Every menu a member meets on the way (the board's areas, the private anchor step, the way the block is turned) has
a placeholder a phone shows whole (at most 60 columns, a Japanese character counting two; the anchor's placeholder
was about 125 characters), the rule for the anchor is in the step's message above its board, and the step's board
rings exactly the anchors its menu lists: the picture differs from the public board at those points and nowhere
else on the board (it used to ring every point the area's placements cover, past the area).
"""

from __future__ import annotations

import random
import re
import unicodedata
from collections.abc import Callable

import numpy as np
import pytest

from bot import GameBot
from engines import polygo as engine
from render import polygo as polygo_view
from storage.database import Database
from tests.e2e.driver import PNG_SIGNATURE, Mirror, challenge_and_accept
from tests.e2e.fake_discord import FakeDiscord
from tests.e2e.harness import StoredMessage
from tests.e2e.taps import menus
from tests.e2e.test_japanese_e2e import challenge_in_japanese
from tests.render_compare import decode

PLACEHOLDER_COLUMNS = 60
RULE = {"en-US": "its lowest point", "ja": "最も下の点"}


def columns(text: str) -> int:
    return sum(2 if unicodedata.east_asian_width(char) in "WF" else 1 for char in text)


def placeholders_fit(message: StoredMessage) -> list[str]:
    shown = [menu.get("placeholder") or "" for menu in menus(message)]
    assert shown and all(columns(text) <= PLACEHOLDER_COLUMNS for text in shown), shown
    return shown


def ringed_points(step: StoredMessage, board: StoredMessage, game: engine.PolygoGame) -> set[str]:
    """The points around which the step's picture differs from the public board's (the same position)."""
    pictures = [np.asarray(decode(message.attachment().data), dtype=np.int16) for message in (step, board)]
    assert pictures[0].shape == pictures[1].shape
    changed = np.abs(pictures[0] - pictures[1]).max(axis=2) > 40
    layout = polygo_view.layout_of("portrait")
    reach = round(polygo_view._spacing(game.size, layout) * 0.35)
    found = set()
    for column in range(game.size):
        for row in range(game.size):
            point = engine.point_name(column, row)
            x, y = (round(v) for v in polygo_view.point_center(game, point, "portrait"))
            if changed[y - reach : y + reach + 1, x - reach : x + reach + 1].any():
                found.add(point)
    return found


@pytest.mark.parametrize("locale", ["en-US", "ja"])
async def test_the_anchor_step_fits_a_phone_says_its_rule_above_the_board_and_rings_only_its_anchors(
    db: Database, fake: FakeDiscord, make_bot: Callable[..., GameBot], locale: str
) -> None:
    fake.guild.locale = locale  # the boards are drawn in the server's language, the steps' words in the member's
    players = (fake.alice, fake.bob)
    async with fake.running_bot(make_bot()) as bot:
        bot.service.draw = random.Random(2).choice  # seeded opening dice
        if locale == "ja":
            game_id = await challenge_in_japanese(fake, "polygo", {"size": 19})
            board = fake.get_message((await db.games.game(game_id)).challenge_message_id)
        else:
            game_id, board = await challenge_and_accept(fake, "polygo", {"size": 19})
        mirror = Mirror("polygo", {"size": 19}, seed=0)
        mirror.sync(await db.games.moves(game_id))
        state = mirror.state
        assert isinstance(state, engine.PolygoGame) and state.die is not None
        player = players[state.to_act]
        areas = menus(board)
        placeholders_fit(board)
        middle = max(
            (option for menu in areas for option in menu["options"]),
            key=lambda option: int(re.findall(r"\d+", option["description"])[0]),  # "96 placements", "96通り"
        )
        menu_id = next(menu["custom_id"] for menu in areas if middle in menu["options"])
        step = await (await fake.select(player, board, menu_id, [middle["value"]], locale=locale)).final()
        assert step.ephemeral and step.attachment().data.startswith(PNG_SIGNATURE)
        placeholders_fit(step)
        assert RULE[locale] in step.content  # the rule moved from the placeholder to the words above the board
        anchors = {option["value"] for menu in menus(step) for option in menu["options"]}
        assert anchors and all(len(anchor.split()) == 1 for anchor in anchors)  # the anchor step
        assert ringed_points(step, board, state) == anchors
        anchor = sorted(anchors)[0]
        turned = await (await fake.select(player, step, menus(step)[0]["custom_id"], [anchor], locale=locale)).final()
        if turned.ephemeral:  # more than one way at this anchor: how it is turned
            placeholders_fit(turned)
            assert anchor in (menus(turned)[0].get("placeholder") or "")
