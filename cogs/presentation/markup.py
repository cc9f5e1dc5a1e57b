"""Discord's markup, the one place that writes it: a member, a channel, a moment; what a refusal names, made fit to
quote back; and Discord's limits on a message.

The service names members and channels by id only (``Mention``, ``ChannelLink``); the Discord layer writes them here.
"""

from __future__ import annotations

import unicodedata
from datetime import UTC, datetime
from typing import Any

import discord

from locales import nested
from sessions.model import ChannelLink, Mention, Phrase

MESSAGE_LIMIT = 2000  # Discord's cap on a message's content
QUIET = discord.AllowedMentions.none()  # a message that repeats members' mentions without pinging them


def mention(user_id: int) -> str:
    """A member, in Discord's markup (the service names members by id only)."""
    return f"<@{user_id}>"


def channel_link(channel_id: int) -> str:
    """A channel or thread, in Discord's markup."""
    return f"<#{channel_id}>"


def when(moment: float, style: str = "R") -> str:
    """A moment as a Discord timestamp: each reader sees it in their own language and time zone."""
    return discord.utils.format_dt(datetime.fromtimestamp(moment, tz=UTC), style)  # type: ignore[arg-type]


def clip(text: str, limit: int = MESSAGE_LIMIT) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def printable(value: Any) -> Any:
    """A refusal's parameter as the reader sees it. Text a member typed is fit to quote back: no control or
    direction-override characters that would garble the answer around it, and never a mass mention. A nested
    message (an engine's refusal) is cleaned inside, and stays translatable. What the service names (a moment, a
    member, channels) is written in Discord's markup here, the only place that knows it."""
    message = nested(value)
    if message is not None:
        template, params = message
        return Phrase(template, **{key: printable(inner) for key, inner in params.items()})
    if isinstance(value, datetime):  # a moment: Discord shows it in each reader's language and time zone
        return discord.utils.format_dt(value, "R")
    if isinstance(value, Mention):
        return mention(value.user_id)
    if isinstance(value, ChannelLink):
        return channel_link(value.channel_id)
    if isinstance(value, tuple):  # several of them: a list in the sentence
        return ", ".join(str(printable(item)) for item in value)
    if not isinstance(value, str):
        return value
    shown = "".join(char for char in value if unicodedata.category(char) not in ("Cc", "Cf") or char == "\n")
    return shown.replace("@everyone", "@\u200beveryone").replace("@here", "@\u200bhere")
