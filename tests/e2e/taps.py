"""Playing through a board's components only, the way a member on a phone does: pick in its menus (and the private
steps they open), press Roll, until the public board of the move answers."""

from __future__ import annotations

import random
from typing import Any

from tests.e2e.driver import PNG_SIGNATURE
from tests.e2e.fake_discord import FakeDiscord, FakeInteraction, StoredMessage
from tests.e2e.harness import FakeUser

MAX_TAPS = 3  # issue 24: a move costs at most three taps


def menus(message: StoredMessage) -> list[dict[str, Any]]:
    return [component for component in message.all_components() if component.get("type") == 3]


def button(message: StoredMessage, action: str) -> str | None:
    """The custom_id of the board's ``action`` button (roll, resign, abort), if it has one."""
    return next((b["custom_id"] for b in message.buttons() if b["custom_id"].endswith(f":{action}")), None)


async def tap_a_move(
    fake: FakeDiscord, user: FakeUser, board: StoredMessage, rng: random.Random, locale: str = "en-US"
) -> tuple[StoredMessage, list[FakeInteraction]]:
    """Play a move from ``board``'s components only, picking at random among what they offer (or pressing Roll);
    returns the public board of the move and the interactions the move took. Every step before it is a private
    message (it must be: a step is the member's own business); a pick on the board that plays the move is answered
    by the new board, one on a step by the step itself, which then says the move was played and carries nothing
    to press (issue 31), while the board goes to the game's channel (in a DM, a followup of that pick)."""
    message, taps = board, []
    while True:
        roll = button(message, "roll")
        if roll is not None:
            taps.append(await fake.click(user, message, roll, locale=locale))
        else:
            offered = menus(message)
            assert offered, f"no menu to pick from: {message.content!r}"
            menu = rng.choice(offered)
            value = rng.choice(menu["options"])["value"]
            taps.append(await fake.select(user, message, menu["custom_id"], [value], locale=locale))
        answer = await taps[-1].final()
        if not answer.ephemeral:
            assert answer.attachment().data.startswith(PNG_SIGNATURE)
            return answer, taps
        if answer.id == message.id and not answer.custom_ids():  # the move was played from this step
            assert not answer.attachments and "**" in answer.content, answer.content
            played = await fake.wait_for_message(
                answer.channel_id, lambda m: bool(m.attachments) and not m.ephemeral, after=board
            )
            assert played.attachment().data.startswith(PNG_SIGNATURE)
            return played, taps
        assert len(taps) < MAX_TAPS, f"a move took more than {MAX_TAPS} taps: {[t.payload['data'] for t in taps]}"
        assert answer.attachment().data.startswith(PNG_SIGNATURE)  # a step shows its highlighted board
        message = answer
