"""An interaction delivered twice over the gateway (the same id: Discord does this now and then) is handled once.

The second copy is dropped before discord.py builds anything from it: answering it too would race the first
copy's answer, and whichever came second would be refused by Discord (40060), so a member could read "this
challenge is no longer open" for the click that accepted it, and the real answer be lost. Ids are kept for the
last ``REMEMBERED`` interactions, far more than arrive within an interaction's fifteen-minute life.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from sessions.model import LruCache

log = logging.getLogger(__name__)

REMEMBERED = 10_000
EVENT = "INTERACTION_CREATE"


def handle_interactions_once(parsers: dict[str, Callable[[Any], None]]) -> None:
    """Wrap the gateway's interaction parser (discord.py's ``ConnectionState.parsers``) so that an interaction id
    seen before is ignored."""
    parse = parsers[EVENT]
    seen: LruCache[int, bool] = LruCache(REMEMBERED)

    def once(data: Any) -> None:
        interaction_id = int(data["id"])
        if seen.get(interaction_id):
            log.info("Interaction %s was delivered again; the copy is ignored", interaction_id)
            return
        seen.put(interaction_id, True)
        parse(data)

    parsers[EVENT] = once
