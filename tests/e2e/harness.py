"""Data model of the fake Discord server (see ``fake_discord.py``).

These are plain records: users, members, channels and guilds the fake serves to the
bot, the messages the bot creates (with attachment bytes), and the interactions a
test sends together with what the bot answered. Payload builders produce the exact
JSON shapes discord.py parses; the fields listed here are the ones discord.py reads
with ``data[...]`` (a missing one raises ``KeyError`` deep inside the client).
"""

from __future__ import annotations

import datetime as dt
import itertools
import mimetypes
import threading
import time
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, Protocol

import discord

from tests.e2e.fake_discord_limits import Pings

DISCORD_EPOCH_MS = 1_420_070_400_000
EPHEMERAL = 1 << 6  # MessageFlags.ephemeral
LOADING = 1 << 7  # MessageFlags.loading: the "Bot is thinking..." placeholder of a deferred reply
HAS_THREAD = 1 << 5  # MessageFlags.has_thread

# Callback types of POST /interactions/{id}/{token}/callback.
CHANNEL_MESSAGE = 4
DEFERRED_CHANNEL_MESSAGE = 5
DEFERRED_UPDATE_MESSAGE = 6
UPDATE_MESSAGE = 7
AUTOCOMPLETE_RESULT = 8
MODAL = 9

# Permissions a plain member has; tests can override them per member.
DEFAULT_MEMBER_PERMISSIONS = discord.Permissions(
    view_channel=True,
    send_messages=True,
    read_message_history=True,
    embed_links=True,
    attach_files=True,
    add_reactions=True,
    use_application_commands=True,
    use_external_emojis=True,
).value
# What a user-installed app may do where its bot is no member (a group DM): answer with embeds and files, no more
# (sent as ``app_permissions`` there).
PRIVATE_APP_PERMISSIONS = discord.Permissions(
    embed_links=True, attach_files=True, use_external_emojis=True, send_messages=True
).value
# What the bot may do in the fake guild (sent as ``app_permissions``).
BOT_PERMISSIONS = (discord.Permissions.text() | discord.Permissions(view_channel=True)).value
ADMINISTRATOR = discord.Permissions(administrator=True).value
ALL_PERMISSIONS = discord.Permissions.all().value

# Channel types.
GUILD_TEXT, DM, GROUP_DM, PUBLIC_THREAD, PRIVATE_THREAD = 0, 1, 3, 11, 12
THREAD_TYPES = (PUBLIC_THREAD, PRIVATE_THREAD)

_counter = itertools.count()
_counter_lock = threading.Lock()


def snowflake() -> int:
    """A fresh, strictly increasing snowflake whose timestamp is "now".

    Real timestamps keep ``created_at`` meaningful for bots that look at message age.
    """
    with _counter_lock:
        increment = next(_counter) & 0xFFF
        ms = int(time.time() * 1000) - DISCORD_EPOCH_MS
        return (ms << 22) | (1 << 17) | increment


def iso(moment: dt.datetime) -> str:
    return moment.isoformat()


def now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


@dataclass
class FakeUser:
    """A Discord user (human or bot)."""

    id: int
    username: str
    global_name: str | None = None
    bot: bool = False
    locale: str = "en-US"

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"

    def to_payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "username": self.username,
            "global_name": self.global_name,
            "discriminator": "0",
            "avatar": None,
            "bot": self.bot,
            "public_flags": 0,
            "flags": 0,
            "primary_guild": None,
        }

    def to_pii_payload(self) -> dict[str, Any]:
        """The user as ``GET /users/@me`` and READY show the bot itself: with its own private fields."""
        return {**self.to_payload(), "locale": self.locale, "mfa_enabled": False, "verified": True}


@dataclass
class FakeMember:
    """A user's membership in a guild."""

    user: FakeUser
    guild_id: int
    nick: str | None = None
    roles: list[int] = field(default_factory=list)
    joined_at: dt.datetime = field(default_factory=now)
    permissions: int = DEFAULT_MEMBER_PERMISSIONS

    @property
    def id(self) -> int:
        return self.user.id

    def to_payload(self, *, with_user: bool = True, with_permissions: bool = False) -> dict[str, Any]:
        # ``flags`` and ``joined_at`` are read unconditionally by discord.Member.
        payload: dict[str, Any] = {
            "nick": self.nick,
            "roles": [str(r) for r in self.roles],
            "joined_at": iso(self.joined_at),
            "flags": 0,
            "deaf": False,
            "mute": False,
            "pending": False,
            "avatar": None,
            "banner": None,
            "premium_since": None,
            "communication_disabled_until": None,
        }
        if with_user:
            payload["user"] = self.user.to_payload()
        if with_permissions:
            payload["permissions"] = str(self.permissions)
        return payload


@dataclass
class FakeChannel:
    """A guild text channel (``type`` 0), a DM channel (``type`` 1), a group DM (``type`` 3, its ``recipients``,
    the bot never among them) or a thread (11 public, 12 private).

    Threads have ``parent_id`` (their text channel) and ``owner_id`` (who created them).
    ``permission_overwrites`` is what discord.py sees; the fake keeps the bot's entry in step
    with :meth:`FakeDiscord.set_bot_permissions`.
    """

    id: int
    name: str
    guild_id: int | None = None
    type: int = 0
    position: int = 0
    recipient: FakeUser | None = None
    recipients: list[FakeUser] = field(default_factory=list)  # a group DM's members
    parent_id: int | None = None
    owner_id: int | None = None
    archived: bool = False
    auto_archive_duration: int = 1440
    created_at: dt.datetime = field(default_factory=now)
    permission_overwrites: list[dict[str, Any]] = field(default_factory=list)

    @property
    def is_dm(self) -> bool:
        return self.type == DM

    @property
    def is_group_dm(self) -> bool:
        return self.type == GROUP_DM

    @property
    def is_thread(self) -> bool:
        return self.type in THREAD_TYPES

    @property
    def mention(self) -> str:
        return f"<#{self.id}>"

    def to_payload(self, viewer: FakeUser | None = None) -> dict[str, Any]:
        """The channel as Discord describes it (a group DM as ``viewer`` sees it: the others are its recipients)."""
        if self.is_group_dm:
            return {
                "id": str(self.id),
                "type": GROUP_DM,
                "last_message_id": None,
                "flags": 0,
                "recipients": [u.to_payload() for u in self.recipients if viewer is None or u.id != viewer.id],
                "name": self.name,
                "icon": None,
                "owner_id": str(self.owner_id),
            }
        if self.is_dm:
            assert self.recipient is not None
            return {
                "id": str(self.id),
                "type": 1,
                "recipients": [self.recipient.to_payload()],
                "last_message_id": None,
            }
        if self.is_thread:
            return {
                "id": str(self.id),
                "type": self.type,
                "guild_id": str(self.guild_id),
                "parent_id": str(self.parent_id),
                "owner_id": str(self.owner_id),
                "name": self.name,
                "last_message_id": None,
                "rate_limit_per_user": 0,
                "message_count": 0,
                "member_count": 1,
                "total_message_sent": 0,
                "flags": 0,
                "thread_metadata": {
                    "archived": self.archived,
                    "auto_archive_duration": self.auto_archive_duration,
                    "archive_timestamp": iso(self.created_at),
                    "locked": False,
                    "create_timestamp": iso(self.created_at),
                    **({"invitable": True} if self.type == PRIVATE_THREAD else {}),
                },
            }
        return {
            "id": str(self.id),
            "type": self.type,
            "guild_id": str(self.guild_id),
            "name": self.name,
            "position": self.position,
            "permission_overwrites": self.permission_overwrites,
            "nsfw": False,
            "parent_id": None,
            "topic": None,
            "rate_limit_per_user": 0,
            "last_message_id": None,
        }

    def to_resolved_payload(self) -> dict[str, Any]:
        """Shape of ``resolved.channels`` entries (adds the invoker's permissions)."""
        payload = self.to_payload()
        payload["permissions"] = str(DEFAULT_MEMBER_PERMISSIONS)
        return payload


@dataclass
class FakeGuild:
    """A guild with its roles, text channels and members."""

    id: int
    name: str
    owner_id: int
    channels: dict[int, FakeChannel] = field(default_factory=dict)
    members: dict[int, FakeMember] = field(default_factory=dict)
    roles: dict[int, dict[str, Any]] = field(default_factory=dict)
    locale: str = "en-US"
    threads: dict[int, FakeChannel] = field(default_factory=dict)

    def shard(self, shard_count: int) -> int:
        """The shard whose gateway connection receives this guild's events."""
        return (self.id >> 22) % shard_count

    @property
    def text_channels(self) -> list[FakeChannel]:
        return [c for c in self.channels.values() if c.type == 0]

    def role_payloads(self) -> list[dict[str, Any]]:
        everyone = {
            "id": str(self.id),  # @everyone shares the guild id
            "name": "@everyone",
            "permissions": str(DEFAULT_MEMBER_PERMISSIONS),
            "position": 0,
            "color": 0,
            "hoist": False,
            "managed": False,
            "mentionable": False,
            "flags": 0,
        }
        return [everyone, *self.roles.values()]

    def to_payload(self) -> dict[str, Any]:
        """The full GUILD_CREATE payload."""
        return {
            "id": str(self.id),
            "name": self.name,
            "owner_id": str(self.owner_id),
            "icon": None,
            "unavailable": False,
            # member_count == len(members) makes discord.py consider the guild chunked,
            # so it never sends REQUEST_GUILD_MEMBERS while waiting for READY.
            "member_count": len(self.members),
            "large": False,
            "preferred_locale": self.locale,
            "features": [],
            "roles": self.role_payloads(),
            "emojis": [],
            "stickers": [],
            "channels": [c.to_payload() for c in self.channels.values()],
            "threads": [t.to_payload() for t in self.threads.values() if not t.archived],
            "members": [m.to_payload() for m in self.members.values()],
            "presences": [],
            "voice_states": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
            "joined_at": iso(now()),
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "mfa_level": 0,
            "nsfw_level": 0,
            "premium_tier": 0,
            "system_channel_id": None,
        }


@dataclass
class StoredAttachment:
    """A file the bot uploaded (or a test attached to an interaction), with its bytes."""

    id: int
    filename: str
    data: bytes
    content_type: str | None = None
    description: str | None = None
    url: str = ""
    # The interaction whose token uploaded it (None: a channel post, or a file a test attached): whose language a
    # private message's alt text is in.
    uploaded_by: int | None = None
    server_locale: str | None = None  # the server's language when it was sent (None: no server)

    def to_payload(self) -> dict[str, Any]:
        payload = {
            "id": str(self.id),
            "filename": self.filename,
            "size": len(self.data),
            "url": self.url,
            "proxy_url": self.url,
            "content_type": self.content_type or mimetypes.guess_type(self.filename)[0],
            "description": self.description,
        }
        return {key: value for key, value in payload.items() if value is not None}  # Discord leaves absent ones out


def _walk_components(components: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """Every component, depth first, through action rows, containers, sections and labels."""
    for component in components:
        yield component
        yield from _walk_components(component.get("components", []))
        if "accessory" in component:
            yield from _walk_components([component["accessory"]])
        if "component" in component:
            yield from _walk_components([component["component"]])


SELECT_TYPES = (3, 5, 6, 7, 8)  # string, user, role, mentionable and channel selects


def numbered(components: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A copy of ``components`` in which each one has its ``id``: Discord numbers those a message was sent without,
    1, 2, 3... depth first, and answers with them."""
    taken = {c["id"] for c in _walk_components(components) if "id" in c}
    counter = itertools.count(1)

    def next_id() -> int:
        return next(n for n in counter if n not in taken)

    def copy(component: dict[str, Any]) -> dict[str, Any]:
        result = {**component, "id": component.get("id") or next_id()}
        if component.get("type") in SELECT_TYPES:  # "required" is a modal's; a message's select never shows it
            result.pop("required", None)
        if "components" in component:
            result["components"] = [copy(c) for c in component["components"]]
        if "accessory" in component:
            result["accessory"] = copy(component["accessory"])
        if "component" in component:
            result["component"] = copy(component["component"])
        return result

    return [copy(c) for c in components]


@dataclass
class StoredMessage:
    """A message the bot created, in its current (latest edited) state.

    ``revision`` is bumped on every edit so waiters can notice changes.
    """

    id: int
    channel_id: int
    guild_id: int | None
    author: FakeUser
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    attachments: list[StoredAttachment] = field(default_factory=list)
    flags: int = 0
    created_at: dt.datetime = field(default_factory=now)
    edited_at: dt.datetime | None = None
    interaction_id: int | None = None
    webhook_id: int | None = None
    deleted: bool = False
    revision: int = 0
    history: list[dict[str, Any]] = field(default_factory=list)
    interaction_metadata: dict[str, Any] | None = None
    nonce: str | None = None  # as sent with enforce_nonce: a resend with it returns this message
    # ``allowed_mentions`` as sent at creation (None: not sent), and who that notified.
    allowed_mentions: dict[str, Any] | None = None
    pings: Pings = field(default_factory=Pings)
    thread_id: int | None = None  # the thread started from this message
    message_reference: dict[str, Any] | None = None

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)

    @property
    def loading(self) -> bool:
        """True while this is an unedited "thinking..." placeholder of a deferred reply."""
        return bool(self.flags & LOADING)

    def all_components(self) -> list[dict[str, Any]]:
        return list(_walk_components(self.components))

    def custom_ids(self) -> list[str]:
        """custom_ids of every interactive component, in display order."""
        return [c["custom_id"] for c in self.all_components() if "custom_id" in c]

    def find_component(self, custom_id: str) -> dict[str, Any] | None:
        return next((c for c in self.all_components() if c.get("custom_id") == custom_id), None)

    def buttons(self) -> list[dict[str, Any]]:
        return [c for c in self.all_components() if c.get("type") == 2]

    def attachment(self, filename: str | None = None) -> StoredAttachment:
        """The attachment named ``filename`` (or the only/first one)."""
        for att in self.attachments:
            if filename is None or att.filename == filename:
                return att
        raise AssertionError(f"message {self.id} has no attachment {filename!r}: {self.attachments!r}")

    def text(self) -> str:
        """Content plus all embed text (title, description, fields, footer) and text displays.

        Handy for ``"E5" in msg.text()`` style assertions regardless of layout.
        """
        parts = [self.content]
        for embed in self.embeds:
            parts += [embed.get("title", ""), embed.get("description", "")]
            for f in embed.get("fields", []):
                parts += [f.get("name", ""), f.get("value", "")]
            parts.append(embed.get("footer", {}).get("text", ""))
            parts.append(embed.get("author", {}).get("name", ""))
        parts += [c.get("content", "") for c in self.all_components() if c.get("type") == 10]
        return "\n".join(p for p in parts if p)

    def to_payload(self) -> dict[str, Any]:
        """A full message object, as Discord's REST answers carry it (no ``guild_id``: only the gateway's
        MESSAGE_CREATE adds one), its components numbered as Discord numbers them."""
        payload: dict[str, Any] = {
            "id": str(self.id),
            "channel_id": str(self.channel_id),
            "author": self.author.to_payload(),
            "content": self.content,
            "timestamp": iso(self.created_at),
            "edited_timestamp": iso(self.edited_at) if self.edited_at else None,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [a.to_payload() for a in self.attachments],
            "embeds": self.embeds,
            "components": numbered(self.components),
            "reactions": [],
            "pinned": False,
            "type": 0,
            "flags": self.flags,
        }
        if self.webhook_id is not None:
            payload["webhook_id"] = str(self.webhook_id)
            payload["application_id"] = str(self.webhook_id)
        if self.interaction_metadata is not None:
            payload["interaction_metadata"] = self.interaction_metadata
        if self.message_reference is not None:
            payload["message_reference"] = self.message_reference
        if self.thread_id is not None:
            payload["flags"] = self.flags | HAS_THREAD
        return payload


@dataclass
class CallbackRecord:
    """The bot's answer to an interaction (POST .../callback)."""

    type: int
    data: dict[str, Any]
    message: StoredMessage | None = None

    @property
    def deferred(self) -> bool:
        return self.type in (DEFERRED_CHANNEL_MESSAGE, DEFERRED_UPDATE_MESSAGE)

    @property
    def ephemeral(self) -> bool:
        return bool(int(self.data.get("flags") or 0) & EPHEMERAL)

    @property
    def choices(self) -> list[dict[str, Any]]:
        """Autocomplete choices (type 8): ``[{"name": ..., "value": ...}, ...]``."""
        assert self.type == AUTOCOMPLETE_RESULT, f"callback type {self.type} is not an autocomplete result"
        return list(self.data.get("choices", []))

    @property
    def modal(self) -> dict[str, Any]:
        """The modal (type 9): ``{"custom_id", "title", "components"}``."""
        assert self.type == MODAL, f"callback type {self.type} is not a modal"
        return self.data


class _Waiter(Protocol):
    def wait_until(
        self, predicate: Callable[[], Any], *, timeout: float | None = None, what: str = "condition"
    ) -> Awaitable[Any]: ...

    def get_message(self, message_id: int) -> StoredMessage: ...


class FakeInteraction:
    """An interaction the test sent, plus everything the bot did with its token.

    Awaitable helpers time out (default: the fake's ``timeout``) with an
    ``AssertionError`` describing what was missing, and fail fast if the bot died.
    """

    def __init__(
        self,
        waiter: _Waiter,
        payload: dict[str, Any],
        user: FakeUser,
        channel: FakeChannel,
        source_message: StoredMessage | None = None,
    ) -> None:
        self._waiter = waiter
        self.payload = payload
        self.id = int(payload["id"])
        self.token: str = payload["token"]
        self.type: int = payload["type"]
        self.user = user
        self.channel = channel
        self.source_message = source_message
        # Discord's 3 s / 15 min clocks run from the moment the interaction is sent.
        self.created_monotonic = time.monotonic()
        self.callback: CallbackRecord | None = None
        self.original_id: int | None = None
        self.followup_ids: list[int] = []
        # Message ids this interaction created or edited, in order of last touch.
        self.touched: list[int] = []
        self.deliveries = 0  # times it was sent over the gateway (more than once: a duplicate)

    @property
    def guild_id(self) -> int | None:
        return int(self.payload["guild_id"]) if "guild_id" in self.payload else None

    def age(self, seconds: float) -> None:
        """Pretend this interaction was sent ``seconds`` earlier (to cross a deadline without waiting)."""
        self.created_monotonic -= seconds

    def __repr__(self) -> str:
        return f"<FakeInteraction id={self.id} type={self.type} callback={self.callback and self.callback.type}>"

    def _touch(self, message_id: int) -> None:
        if message_id in self.touched:
            self.touched.remove(message_id)
        self.touched.append(message_id)

    @property
    def original(self) -> StoredMessage | None:
        """Current state of the ``@original`` message (None before a message-creating callback)."""
        return None if self.original_id is None else self._waiter.get_message(self.original_id)

    @property
    def messages(self) -> list[StoredMessage]:
        """Original response (if any) followed by all followups, in their current state."""
        ids = ([self.original_id] if self.original_id is not None else []) + [
            i for i in self.followup_ids if i != self.original_id
        ]
        return [self._waiter.get_message(i) for i in ids]

    async def response(self, timeout: float | None = None) -> CallbackRecord:
        """Wait for the interaction callback (the bot's first answer)."""
        await self._waiter.wait_until(
            lambda: self.callback is not None, timeout=timeout, what=f"a callback to {self!r}"
        )
        assert self.callback is not None
        return self.callback

    async def followups(self, n: int = 1, timeout: float | None = None) -> list[StoredMessage]:
        """Wait until at least ``n`` followups were sent; return all of them (current state).

        A followup sent after a deferred (type 5) reply replaces the "thinking" placeholder
        (as Discord does), so it is the original message and a followup at once.
        """
        await self._waiter.wait_until(
            lambda: len(self.followup_ids) >= n, timeout=timeout, what=f"{n} followup(s) to {self!r}"
        )
        return [self._waiter.get_message(i) for i in self.followup_ids]

    async def choices(self, timeout: float | None = None) -> list[dict[str, Any]]:
        """Autocomplete choices returned by the bot."""
        return (await self.response(timeout)).choices

    async def final(self, timeout: float | None = None) -> StoredMessage:
        """The message a user ends up looking at after this interaction.

        Waits for the callback, then for deferred replies until the placeholder was
        filled in (edit of @original or first followup) and, for deferred updates
        (type 6), until the clicked message was edited. Returns the message this
        interaction touched last.
        """
        callback = await self.response(timeout)

        def settled() -> StoredMessage | None:
            if callback.type == DEFERRED_CHANNEL_MESSAGE:
                original = self.original
                if original is None or original.loading:
                    return None
            elif callback.type == DEFERRED_UPDATE_MESSAGE and not self.touched:
                return None
            if not self.touched:
                return None
            return self._waiter.get_message(self.touched[-1])

        return await self._waiter.wait_until(settled, timeout=timeout, what=f"a visible message from {self!r}")
