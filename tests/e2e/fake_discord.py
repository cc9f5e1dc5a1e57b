"""A fake Discord API (REST + gateway) on loopback that the real discord.py client talks to.

Typical use::

    async with start_fake_discord() as fake:
        async with fake.running_bot(make_bot()) as bot:
            inter = await fake.slash("alice", "iago", "move", options={"move": "E5"})
            msg = await inter.final()
            assert msg.attachment("board.png").data.startswith(b"\\x89PNG")

How it hooks in: discord.py builds every REST URL from ``discord.http.Route.BASE`` and a
non-sharded client connects straight to ``DiscordWebSocket.DEFAULT_GATEWAY`` (it never asks
``/gateway/bot``), so :meth:`FakeDiscord.patched` points both at this server.

Everything the bot does is recorded: created messages with attachment bytes
(:attr:`FakeDiscord.messages`), synced commands, interaction callbacks, followups and edits
(:class:`~tests.e2e.harness.FakeInteraction`). Unknown routes are logged, recorded in
:attr:`FakeDiscord.unknown_requests` and answered with a 404 JSON error.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import mimetypes
import re
import secrets
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from typing import Any

import discord
import discord.gateway
import discord.http
import yarl
from aiohttp import WSMsgType, web

from tests.e2e.harness import (
    AUTOCOMPLETE_RESULT,
    BOT_PERMISSIONS,
    CHANNEL_MESSAGE,
    DEFERRED_CHANNEL_MESSAGE,
    DEFERRED_UPDATE_MESSAGE,
    EPHEMERAL,
    LOADING,
    MODAL,
    UPDATE_MESSAGE,
    CallbackRecord,
    FakeChannel,
    FakeGuild,
    FakeInteraction,
    FakeMember,
    FakeUser,
    StoredAttachment,
    StoredMessage,
    now,
    snowflake,
)

__all__ = [
    "BotCrashed",
    "CallbackRecord",
    "FakeChannel",
    "FakeDiscord",
    "FakeGuild",
    "FakeInteraction",
    "FakeMember",
    "FakeUser",
    "StoredAttachment",
    "StoredMessage",
    "start_fake_discord",
]

log = logging.getLogger("tests.e2e.fake_discord")

UserRef = int | str | FakeUser | FakeMember
ChannelRef = int | FakeChannel
MessageRef = int | StoredMessage

# Discord option types (ApplicationCommandOptionType).
SUB_COMMAND, SUB_COMMAND_GROUP = 1, 2
STRING, INTEGER, BOOLEAN, USER, CHANNEL, ROLE, MENTIONABLE, NUMBER, ATTACHMENT = range(3, 12)

# Discord JSON error codes the bot may branch on.
UNKNOWN_CHANNEL, UNKNOWN_MESSAGE, UNKNOWN_INTERACTION, ALREADY_ACKNOWLEDGED = 10003, 10008, 10062, 40060


class BotCrashed(AssertionError):
    """The bot task ended (crashed or stopped) while a test was waiting on it.

    The bot's exception, if any, is chained as ``__cause__``.
    """


class _ErrorCollector(logging.Handler):
    """Collects ERROR records from the ``discord`` loggers.

    discord.py swallows exceptions raised in commands, views and events and only logs
    them, so without this a broken handler looks like a bot that never answers.
    """

    def __init__(self, on_error: Callable[[], None]) -> None:
        super().__init__(level=logging.ERROR)
        self.records: list[logging.LogRecord] = []
        self._on_error = on_error

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)
        self._on_error()


def _json(data: Any, status: int = 200) -> web.Response:
    # discord.py only decodes JSON when Content-Type is exactly "application/json";
    # web.json_response would append "; charset=utf-8" and the client would get a str.
    return web.Response(body=json.dumps(data).encode(), status=status, content_type="application/json")


def _error(status: int, message: str, code: int = 0) -> web.Response:
    return _json({"message": message, "code": code}, status=status)


def _no_content() -> web.Response:
    return web.Response(status=204)


class _Gateway:
    """One gateway websocket connection (one bot session)."""

    def __init__(self, ws: web.WebSocketResponse) -> None:
        self.ws = ws
        self.seq = 0
        self.session_id = secrets.token_hex(8)
        self.identified = False
        self._lock = asyncio.Lock()

    @property
    def open(self) -> bool:
        return not self.ws.closed

    async def send(self, op: int, d: Any, t: str | None = None) -> None:
        frame: dict[str, Any] = {"op": op, "d": d, "s": None, "t": t}
        async with self._lock:
            if op == 0:
                self.seq += 1
                frame["s"] = self.seq
            # Plain text frames: discord.py only runs zlib on binary frames.
            await self.ws.send_str(json.dumps(frame))

    async def dispatch(self, event: str, data: Any) -> None:
        await self.send(0, data, event)


class FakeDiscord:
    """Fake Discord API server with one default guild.

    The default guild ``guild`` has a text channel ``channel`` (#general), the bot and three
    humans: ``alice`` (owner), ``bob`` and ``carol``. Users can be referred to everywhere by
    id, username, :class:`FakeUser` or :class:`FakeMember`.

    Args:
        timeout: default seconds every wait helper waits before failing the test.
        fail_on_bot_errors: make waits raise as soon as one of ``error_loggers`` logs an
            ERROR (discord.py logs exceptions from commands, views and events and swallows
            them) instead of timing out. Use :meth:`take_bot_errors` to consume expected ones.
        error_loggers: logger names watched for ERROR records while a bot runs.
        heartbeat_interval_ms: gateway heartbeat interval sent in HELLO.
    """

    def __init__(
        self,
        *,
        timeout: float = 5.0,
        fail_on_bot_errors: bool = True,
        error_loggers: tuple[str, ...] = ("discord",),
        heartbeat_interval_ms: int = 41_250,
        bot_name: str = "TestBot",
        guild_name: str = "Test Guild",
    ) -> None:
        self.timeout = timeout
        self.fail_on_bot_errors = fail_on_bot_errors
        self.error_loggers = error_loggers
        self.heartbeat_interval_ms = heartbeat_interval_ms
        self.poll_interval = 0.02

        self.bot_user = FakeUser(id=snowflake(), username=bot_name, bot=True)
        # As on Discord, a bot's application id equals its user id.
        self.application_id = self.bot_user.id
        self.users: dict[int, FakeUser] = {self.bot_user.id: self.bot_user}
        self.guilds: dict[int, FakeGuild] = {}
        self.dm_channels: dict[int, FakeChannel] = {}  # by recipient user id
        self.messages: dict[int, StoredMessage] = {}
        self.attachments: dict[int, StoredAttachment] = {}
        self.global_commands: list[dict[str, Any]] = []
        self.guild_commands: dict[int, list[dict[str, Any]]] = {}
        self.sync_count = 0
        self.interactions: dict[str, FakeInteraction] = {}  # by token
        self.requests: list[tuple[str, str]] = []
        self.unknown_requests: list[tuple[str, str]] = []
        self.bot_errors: list[logging.LogRecord] = []

        self._gateways: list[_Gateway] = []
        self._changed = asyncio.Event()
        self._bot_task: asyncio.Task[None] | None = None
        self._collector: _ErrorCollector | None = None
        self._bot_failure: BaseException | None = None
        self._bot_stopped_reason: str | None = None
        self._runner: web.AppRunner | None = None
        self._routes = self._build_routes()
        self.port = 0

        self.guild = self.add_guild(guild_name, owner=None)
        self.channel = self.guild.text_channels[0]
        self.alice = self.add_member(name="alice").user
        self.guild.owner_id = self.alice.id
        self.bob = self.add_member(name="bob").user
        self.carol = self.add_member(name="carol").user

    # ------------------------------------------------------------------ lifecycle

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def api_base(self) -> str:
        return f"{self.base_url}/api/v10"

    @property
    def gateway_url(self) -> yarl.URL:
        return yarl.URL(f"ws://127.0.0.1:{self.port}/gateway")

    async def start(self) -> None:
        """Start the server on a free loopback port."""
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_get("/gateway", self._gateway_handler)
        app.router.add_get("/attachments/{id}/{filename}", self._cdn_handler)
        app.router.add_route("*", "/api/v10/{tail:.*}", self._rest_handler)
        self._runner = web.AppRunner(app, handle_signals=False, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        server = site._server
        assert server is not None and server.sockets  # type: ignore[attr-defined]
        self.port = server.sockets[0].getsockname()[1]  # type: ignore[attr-defined]
        log.debug("fake discord listening on %s", self.base_url)

    async def stop(self) -> None:
        """Close gateway connections and the server."""
        for gw in self._gateways:
            with contextlib.suppress(Exception):
                await gw.ws.close()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    @contextlib.contextmanager
    def patched(self) -> Iterator[None]:
        """Point discord.py's REST base and default gateway at this server (restored on exit)."""
        old_base = discord.http.Route.BASE
        old_gateway = discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
        discord.http.Route.BASE = self.api_base
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = self.gateway_url
        try:
            yield
        finally:
            discord.http.Route.BASE = old_base
            discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = old_gateway

    @contextlib.asynccontextmanager
    async def running_bot(
        self,
        bot: discord.Client,
        token: str = "test-token",
        *,
        wait_for_sync: bool = True,
        until: Callable[[], Any] | None = None,
        timeout: float | None = None,
    ) -> AsyncIterator[discord.Client]:
        """Run ``bot.start(token)`` against the fake for the duration of the block.

        Waits until the bot is ready, and (``wait_for_sync``) has synced commands during
        this run, and ``until()`` is truthy. If the bot task dies at any point, waits raise
        :class:`BotCrashed` chained to the bot's exception. On exit the bot is closed and
        its task awaited, so a fresh bot can be started against the same fake.

        Pass a small ``guild_ready_timeout`` to the bot (e.g. ``commands.Bot(...,
        guild_ready_timeout=0.1)``): discord.py waits that long after the last
        GUILD_CREATE before firing ``on_ready`` (default 2 s).
        """
        if self._bot_task is not None:
            raise RuntimeError("a bot is already running against this fake; stop it first")
        syncs_before = self.sync_count
        self._collector = collector = _ErrorCollector(self._notify)
        for name in self.error_loggers:
            logging.getLogger(name).addHandler(collector)
        with self.patched():
            self._bot_failure = None
            self._bot_stopped_reason = None
            task = asyncio.create_task(bot.start(token), name="fake-discord-bot")
            self._bot_task = task
            task.add_done_callback(self._on_bot_done)
            try:
                await self.wait_until(bot.is_ready, timeout=timeout, what="the bot to become ready")
                if wait_for_sync:
                    await self.wait_until(
                        lambda: self.sync_count > syncs_before, timeout=timeout, what="the bot to sync commands"
                    )
                if until is not None:
                    await self.wait_until(until, timeout=timeout, what="the bot start-up condition")
                yield bot
            finally:
                self._bot_task = None
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(bot.close(), self.timeout)
                if not task.done():
                    with contextlib.suppress(BaseException):
                        await asyncio.wait_for(task, self.timeout)
                elif not task.cancelled():
                    task.exception()  # mark retrieved; _on_bot_done already recorded it
                for name in self.error_loggers:
                    logging.getLogger(name).removeHandler(collector)
                self._collector = None
                self.bot_errors.extend(collector.records)
                self._gateways = [gw for gw in self._gateways if gw.open]

    def _on_bot_done(self, task: asyncio.Task[None]) -> None:
        if task is not self._bot_task:
            return  # a deliberate shutdown from running_bot's exit
        if task.cancelled():
            self._bot_stopped_reason = "the bot task was cancelled"
        elif (exc := task.exception()) is not None:
            self._bot_failure = exc
            self._bot_stopped_reason = f"the bot crashed: {exc!r}"
        else:
            self._bot_stopped_reason = "the bot stopped (Client.start returned)"
        self._notify()

    # ------------------------------------------------------------------ waiting

    def _notify(self) -> None:
        """Wake every waiter so it re-checks its predicate."""
        self._changed.set()
        self._changed = asyncio.Event()

    def _check_bot(self) -> None:
        if self._bot_stopped_reason is not None:
            raise BotCrashed(self._bot_stopped_reason) from self._bot_failure
        if self.fail_on_bot_errors and self._collector_errors():
            record = self._collector_errors()[0]
            text = logging.Formatter().format(record)
            raise BotCrashed(f"the bot logged an error ({record.name}):\n{text}")

    def _collector_errors(self) -> list[logging.LogRecord]:
        return [] if self._collector is None else self._collector.records

    def take_bot_errors(self) -> list[logging.LogRecord]:
        """Return and forget the ERROR records logged so far by the running bot.

        For tests that provoke an error on purpose (they would otherwise fail fast).
        """
        records = list(self._collector_errors())
        if self._collector is not None:
            self._collector.records.clear()
        self.bot_errors.extend(records)
        return records

    async def wait_until(
        self, predicate: Callable[[], Any], *, timeout: float | None = None, what: str = "condition"
    ) -> Any:
        """Wait until ``predicate()`` is truthy and return its value.

        Re-checked after every change the fake sees. Raises :class:`BotCrashed` if the bot
        dies meanwhile and ``AssertionError`` after ``timeout`` (default ``self.timeout``).
        """
        try:
            async with asyncio.timeout(self.timeout if timeout is None else timeout):
                while True:
                    self._check_bot()
                    if result := predicate():
                        return result
                    # Also poll: some conditions (bot.is_ready(), bot-side state) change
                    # without any request reaching the fake.
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(self._changed.wait(), self.poll_interval)
        except TimeoutError:
            details = ""
            if self.unknown_requests:
                details += f"\nunknown routes called: {self.unknown_requests}"
            if errors := self._collector_errors():
                details += f"\nerrors logged by discord.py: {[r.getMessage() for r in errors]}"
            raise AssertionError(f"timed out waiting for {what}{details}") from None

    # ------------------------------------------------------------------ world setup

    def add_guild(self, name: str, *, owner: UserRef | None = None, channel_name: str = "general") -> FakeGuild:
        """Add a guild with one text channel and the bot as member.

        If the bot is connected, it receives GUILD_CREATE (as when it joins a server).
        """
        guild_id = snowflake()
        owner_id = self.resolve_user(owner).id if owner is not None else self.bot_user.id
        guild = FakeGuild(id=guild_id, name=name, owner_id=owner_id)
        self.guilds[guild_id] = guild
        channel = FakeChannel(id=snowflake(), name=channel_name, guild_id=guild_id)
        guild.channels[channel.id] = channel
        guild.members[self.bot_user.id] = FakeMember(user=self.bot_user, guild_id=guild_id)
        self._fire("GUILD_CREATE", guild.to_payload)
        return guild

    def add_member(
        self,
        user_id: int | None = None,
        name: str | None = None,
        *,
        guild: FakeGuild | None = None,
        bot: bool = False,
        nick: str | None = None,
        permissions: int | None = None,
        global_name: str | None = None,
    ) -> FakeMember:
        """Add a (possibly already known) user as a member of ``guild`` (default guild).

        Sends GUILD_MEMBER_ADD if the bot is connected.
        """
        guild = guild or self.guild
        user = self.users.get(user_id) if user_id is not None else None
        if user is None:
            uid = user_id if user_id is not None else snowflake()
            user = FakeUser(id=uid, username=name or f"user{uid}", global_name=global_name, bot=bot)
            self.users[uid] = user
        member = FakeMember(user=user, guild_id=guild.id, nick=nick)
        if permissions is not None:
            member.permissions = permissions
        guild.members[user.id] = member
        self._fire("GUILD_MEMBER_ADD", lambda: {**member.to_payload(), "guild_id": str(guild.id)})
        return member

    def add_user(self, name: str, user_id: int | None = None) -> FakeUser:
        """A user who is in no guild (e.g. only reachable by DM)."""
        user = FakeUser(id=user_id or snowflake(), username=name)
        self.users[user.id] = user
        return user

    def add_text_channel(self, name: str, *, guild: FakeGuild | None = None) -> FakeChannel:
        """Add a text channel (CHANNEL_CREATE is sent if the bot is connected)."""
        guild = guild or self.guild
        channel = FakeChannel(id=snowflake(), name=name, guild_id=guild.id, position=len(guild.channels))
        guild.channels[channel.id] = channel
        self._fire("CHANNEL_CREATE", channel.to_payload)
        return channel

    def _fire(self, event: str, payload: Callable[[], dict[str, Any]]) -> None:
        """Dispatch a state-change event if a bot is connected (world setup is sync)."""
        if self._active_gateway() is not None:
            asyncio.get_running_loop().create_task(self.dispatch(event, payload()))

    def resolve_user(self, ref: UserRef) -> FakeUser:
        """A user by id, username, FakeUser or FakeMember."""
        if isinstance(ref, FakeUser):
            return ref
        if isinstance(ref, FakeMember):
            return ref.user
        if isinstance(ref, int):
            return self.users[ref]
        for user in self.users.values():
            if user.username == ref:
                return user
        raise KeyError(f"unknown user {ref!r}")

    def get_channel(self, channel_id: int) -> FakeChannel | None:
        for guild in self.guilds.values():
            if channel_id in guild.channels:
                return guild.channels[channel_id]
        return next((c for c in self.dm_channels.values() if c.id == channel_id), None)

    def _resolve_channel(self, ref: ChannelRef | None) -> FakeChannel:
        if ref is None:
            return self.channel
        if isinstance(ref, FakeChannel):
            return ref
        channel = self.get_channel(ref)
        if channel is None:
            raise KeyError(f"unknown channel {ref!r}")
        return channel

    def dm_channel(self, user: UserRef) -> FakeChannel:
        """The DM channel between the bot and ``user`` (created on first use)."""
        recipient = self.resolve_user(user)
        if recipient.id not in self.dm_channels:
            self.dm_channels[recipient.id] = FakeChannel(
                id=snowflake(), name=f"dm-{recipient.username}", type=1, recipient=recipient
            )
        return self.dm_channels[recipient.id]

    # ------------------------------------------------------------------ inspection

    def get_message(self, message_id: int) -> StoredMessage:
        return self.messages[message_id]

    def channel_messages(
        self, channel: ChannelRef | None = None, *, include_ephemeral: bool = False
    ) -> list[StoredMessage]:
        """Non-deleted messages in ``channel`` (default channel), oldest first."""
        channel_id = self._resolve_channel(channel).id
        return [
            m
            for m in self.messages.values()
            if m.channel_id == channel_id and not m.deleted and (include_ephemeral or not m.ephemeral)
        ]

    def dm_messages(self, user: UserRef) -> list[StoredMessage]:
        """Messages the bot sent to ``user`` by DM, oldest first."""
        return self.channel_messages(self.dm_channel(user))

    async def wait_for_message(
        self,
        channel: ChannelRef | None = None,
        predicate: Callable[[StoredMessage], Any] | None = None,
        *,
        timeout: float | None = None,
        after: MessageRef | None = None,
        include_ephemeral: bool = False,
        any_channel: bool = False,
    ) -> StoredMessage:
        """First (oldest) message matching ``predicate`` in ``channel`` (default channel).

        Already-stored messages count too, so there is no race with a bot that answers
        before the test starts waiting; use ``after`` (a message or id) to only consider
        newer messages. Edits are seen: the predicate is re-checked on every change.
        """
        after_id = after.id if isinstance(after, StoredMessage) else (after or 0)
        channel_id = None if any_channel else self._resolve_channel(channel).id

        def find() -> StoredMessage | None:
            for m in self.messages.values():
                if m.deleted or m.id <= after_id or (m.ephemeral and not include_ephemeral):
                    continue
                if channel_id is not None and m.channel_id != channel_id:
                    continue
                if predicate is None or predicate(m):
                    return m
            return None

        return await self.wait_until(find, timeout=timeout, what=f"a message in channel {channel_id}")

    def commands(self, guild: FakeGuild | int | None = None) -> list[dict[str, Any]]:
        """Synced command payloads: global ones, or those of ``guild``."""
        if guild is None:
            return self.global_commands
        guild_id = guild.id if isinstance(guild, FakeGuild) else guild
        return self.guild_commands.get(guild_id, [])

    def find_command(self, name: str, guild_id: int | None = None, type: int = 1) -> dict[str, Any]:
        """The synced command ``name`` visible in ``guild_id`` (guild commands first)."""
        candidates = [*self.guild_commands.get(guild_id, []), *self.global_commands] if guild_id else []
        candidates = candidates or self.global_commands
        for command in candidates:
            if command["name"] == name and command.get("type", 1) == type:
                return command
        synced = {gid: [c["name"] for c in cmds] for gid, cmds in self.guild_commands.items()}
        raise AssertionError(
            f"command {name!r} not synced for guild {guild_id}; global: "
            f"{[c['name'] for c in self.global_commands]}, guild: {synced}"
        )

    # ------------------------------------------------------------------ gateway

    def _active_gateway(self) -> _Gateway | None:
        live = [gw for gw in self._gateways if gw.identified and gw.open]
        return live[-1] if live else None

    async def dispatch(self, event: str, data: Any) -> None:
        """Send a gateway DISPATCH event to the connected bot."""
        gw = self._active_gateway()
        if gw is None:
            self._check_bot()
            raise AssertionError(f"cannot send {event}: no bot is connected to the fake gateway")
        await gw.dispatch(event, data)

    async def _gateway_handler(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(max_msg_size=0)
        await ws.prepare(request)
        gw = _Gateway(ws)
        self._gateways.append(gw)
        await gw.send(10, {"heartbeat_interval": self.heartbeat_interval_ms})
        try:
            async for msg in ws:
                if msg.type != WSMsgType.TEXT:
                    continue
                frame = json.loads(msg.data)
                await self._on_gateway_frame(gw, frame["op"], frame.get("d"))
        finally:
            self._notify()
        return ws

    async def _on_gateway_frame(self, gw: _Gateway, op: int, d: Any) -> None:
        if op == 1:  # HEARTBEAT
            await gw.send(11, None)
        elif op == 2:  # IDENTIFY
            await gw.dispatch(
                "READY",
                {
                    "v": 10,
                    "user": self.bot_user.to_payload(),
                    "guilds": [{"id": str(g), "unavailable": True} for g in self.guilds],
                    "session_id": gw.session_id,
                    "resume_gateway_url": str(self.gateway_url),
                    "application": {"id": str(self.application_id), "flags": 0},
                    "private_channels": [],
                    "relationships": [],
                },
            )
            for guild in self.guilds.values():
                await gw.dispatch("GUILD_CREATE", guild.to_payload())
            gw.identified = True
            self._notify()
        elif op == 6:  # RESUME: nothing was missed, the fake never drops events
            gw.identified = True
            await gw.dispatch("RESUMED", {})
            self._notify()
        elif op == 8:  # REQUEST_GUILD_MEMBERS
            guild = self.guilds.get(int(d["guild_id"]))
            members = list(guild.members.values()) if guild else []
            if d.get("user_ids"):
                wanted = {int(u) for u in d["user_ids"]} if isinstance(d["user_ids"], list) else {int(d["user_ids"])}
                members = [m for m in members if m.id in wanted]
            await gw.dispatch(
                "GUILD_MEMBERS_CHUNK",
                {
                    "guild_id": d["guild_id"],
                    "members": [m.to_payload() for m in members],
                    "chunk_index": 0,
                    "chunk_count": 1,
                    "nonce": d.get("nonce"),
                },
            )
        # op 3 (presence) and 4 (voice state) need no answer.

    # ------------------------------------------------------------------ interactions

    def _base_interaction(
        self, type_: int, user: FakeUser, channel: FakeChannel, locale: str, data: dict[str, Any]
    ) -> dict[str, Any]:
        payload: dict[str, Any] = {
            "id": str(snowflake()),
            "application_id": str(self.application_id),
            "type": type_,
            "token": f"itoken-{secrets.token_urlsafe(16)}",
            "version": 1,
            "attachment_size_limit": 25 * 1024 * 1024,
            "locale": locale,
            "app_permissions": str(BOT_PERMISSIONS),
            "entitlements": [],
            "channel_id": str(channel.id),
            "channel": channel.to_payload(),
            "data": data,
        }
        if channel.is_dm:
            payload["user"] = user.to_payload()
            payload["context"] = 1
            payload["authorizing_integration_owners"] = {"0": "0"}  # guild-install owner "0" in DMs
        else:
            guild = self.guilds[channel.guild_id]  # type: ignore[index]
            member = guild.members.get(user.id)
            if member is None:
                raise AssertionError(f"{user.username} is not a member of guild {guild.name!r}")
            payload["guild_id"] = str(guild.id)
            payload["guild"] = {"id": str(guild.id), "locale": guild.locale, "features": []}
            payload["guild_locale"] = guild.locale
            payload["member"] = member.to_payload(with_permissions=True)
            payload["context"] = 0
            payload["authorizing_integration_owners"] = {"0": str(guild.id)}
        return payload

    async def _send_interaction(
        self, payload: dict[str, Any], user: FakeUser, channel: FakeChannel, source: StoredMessage | None = None
    ) -> FakeInteraction:
        interaction = FakeInteraction(self, payload, user, channel, source)
        self.interactions[interaction.token] = interaction
        await self.dispatch("INTERACTION_CREATE", payload)
        return interaction

    def _interaction_channel(self, user: FakeUser, channel: ChannelRef | None, dm: bool) -> FakeChannel:
        return self.dm_channel(user) if dm else self._resolve_channel(channel)

    def _build_command_data(
        self,
        channel: FakeChannel,
        path: tuple[str, ...],
        options: dict[str, Any] | None,
        focused: str | None,
        type_: int = 1,
    ) -> dict[str, Any]:
        if not path:
            raise ValueError("give at least the command name")
        command = self.find_command(path[0], channel.guild_id, type_)
        resolved: dict[str, dict[str, Any]] = {}
        schema: list[dict[str, Any]] = command.get("options", [])
        top: list[dict[str, Any]] = []
        leaf = top
        for name in path[1:]:
            sub = next((o for o in schema if o["name"] == name and o["type"] in (1, 2)), None)
            if sub is None:
                raise AssertionError(f"{' '.join(path)}: no subcommand/group {name!r} in {path[0]!r}")
            node: dict[str, Any] = {"name": name, "type": sub["type"], "options": []}
            leaf.append(node)
            leaf = node["options"]
            schema = sub.get("options", [])
        if any(o["type"] in (1, 2) for o in schema):
            raise AssertionError(f"{' '.join(path)} is a group; name one of its subcommands")
        leaf.extend(self._build_options(schema, options or {}, focused, resolved, channel, " ".join(path)))
        data: dict[str, Any] = {"id": command["id"], "name": command["name"], "type": type_, "options": top}
        if command.get("guild_id"):
            # discord.py looks the command up among guild commands by this key.
            data["guild_id"] = command["guild_id"]
        if resolved:
            data["resolved"] = resolved
        return data

    def _build_options(
        self,
        schema: list[dict[str, Any]],
        values: dict[str, Any],
        focused: str | None,
        resolved: dict[str, dict[str, Any]],
        channel: FakeChannel,
        where: str,
    ) -> list[dict[str, Any]]:
        by_name = {o["name"]: o for o in schema}
        unknown = set(values) - set(by_name)
        if unknown:
            raise AssertionError(f"{where}: unknown option(s) {sorted(unknown)}; known: {sorted(by_name)}")
        if focused is None:
            missing = [o["name"] for o in schema if o.get("required") and o["name"] not in values]
            if missing:
                raise AssertionError(f"{where}: missing required option(s) {missing}")
        built = []
        for name, value in values.items():
            opt = by_name[name]
            if name == focused:
                # Discord sends the raw text typed so far for the focused option.
                built.append({"name": name, "type": opt["type"], "value": str(value), "focused": True})
                continue
            built.append(
                {"name": name, "type": opt["type"], "value": self._option_value(opt, value, resolved, channel)}
            )
        if focused is not None and focused not in values:
            raise AssertionError(f"{where}: focused option {focused!r} needs a value")
        return built

    def _option_value(
        self, opt: dict[str, Any], value: Any, resolved: dict[str, dict[str, Any]], channel: FakeChannel
    ) -> Any:
        kind = opt["type"]
        if kind == STRING:
            return str(value)
        if kind == INTEGER:
            return int(value)
        if kind == NUMBER:
            return float(value)
        if kind == BOOLEAN:
            return bool(value)
        if kind in (USER, MENTIONABLE) and not (kind == MENTIONABLE and self._is_role(value, channel)):
            user = self.resolve_user(value)
            resolved.setdefault("users", {})[str(user.id)] = user.to_payload()
            guild = self.guilds.get(channel.guild_id or 0)
            if guild is not None and user.id in guild.members:
                member_payload = guild.members[user.id].to_payload(with_user=False, with_permissions=True)
                resolved.setdefault("members", {})[str(user.id)] = member_payload
            return str(user.id)
        if kind in (ROLE, MENTIONABLE):
            guild = self.guilds[channel.guild_id]  # type: ignore[index]
            role = next(r for r in guild.role_payloads() if int(r["id"]) == int(value))
            resolved.setdefault("roles", {})[role["id"]] = role
            return role["id"]
        if kind == CHANNEL:
            target = self._resolve_channel(value)
            resolved.setdefault("channels", {})[str(target.id)] = target.to_resolved_payload()
            return str(target.id)
        if kind == ATTACHMENT:
            # value: (filename, bytes) — served by the fake CDN so Attachment.read() works.
            filename, data = value
            att = self._store_attachment(filename, bytes(data), None)
            resolved.setdefault("attachments", {})[str(att.id)] = att.to_payload()
            return str(att.id)
        raise AssertionError(f"unsupported option type {kind} for {opt['name']!r}")

    def _is_role(self, value: Any, channel: FakeChannel) -> bool:
        guild = self.guilds.get(channel.guild_id or 0)
        return (
            isinstance(value, int) and guild is not None and any(int(r["id"]) == value for r in guild.role_payloads())
        )

    async def slash(
        self,
        user: UserRef,
        *path: str,
        options: dict[str, Any] | None = None,
        channel: ChannelRef | None = None,
        dm: bool = False,
        locale: str = "en-US",
    ) -> FakeInteraction:
        """Invoke a synced slash command: ``await fake.slash("alice", "iago", "move", options={...})``.

        ``path`` is the command name followed by group/subcommand names. Options are checked
        against the synced schema (unknown names and missing required options fail the
        test). USER/MENTIONABLE values may be ids, usernames or FakeUser/FakeMember: the fake
        fills ``resolved.users``/``resolved.members``; CHANNEL takes a channel or id; ATTACHMENT
        takes ``(filename, bytes)``. The command is looked up among the channel guild's
        commands, then global ones; ``dm=True`` runs it in the user's DM channel.
        """
        who = self.resolve_user(user)
        where = self._interaction_channel(who, channel, dm)
        data = self._build_command_data(where, path, options, focused=None)
        payload = self._base_interaction(2, who, where, locale, data)
        return await self._send_interaction(payload, who, where)

    async def autocomplete(
        self,
        user: UserRef,
        *path: str,
        focused: str,
        value: str,
        options: dict[str, Any] | None = None,
        channel: ChannelRef | None = None,
        dm: bool = False,
        locale: str = "en-US",
        timeout: float | None = None,
    ) -> list[dict[str, Any]]:
        """Send an autocomplete interaction while ``user`` types ``value`` into ``focused``.

        Returns the choices (``[{"name", "value"}, ...]``) the bot answered with (type 8).
        """
        who = self.resolve_user(user)
        where = self._interaction_channel(who, channel, dm)
        data = self._build_command_data(where, path, {**(options or {}), focused: value}, focused=focused)
        payload = self._base_interaction(4, who, where, locale, data)
        interaction = await self._send_interaction(payload, who, where)
        return await interaction.choices(timeout)

    def _component_interaction(
        self, user: UserRef, message: MessageRef, custom_id: str, allow_disabled: bool, locale: str
    ) -> tuple[dict[str, Any], FakeUser, FakeChannel, StoredMessage, dict[str, Any]]:
        msg = message if isinstance(message, StoredMessage) else self.messages[message]
        msg = self.messages[msg.id]  # current state, not a stale reference
        component = msg.find_component(custom_id)
        if component is None:
            raise AssertionError(f"message {msg.id} has no component {custom_id!r}; it has {msg.custom_ids()}")
        if component.get("disabled") and not allow_disabled:
            raise AssertionError(f"component {custom_id!r} on message {msg.id} is disabled")
        who = self.resolve_user(user)
        where = self._resolve_channel(msg.channel_id)
        payload = self._base_interaction(3, who, where, locale, {})
        payload["message"] = msg.to_payload()
        return payload, who, where, msg, component

    async def click(
        self,
        user: UserRef,
        message: MessageRef,
        custom_id: str,
        *,
        allow_disabled: bool = False,
        locale: str = "en-US",
    ) -> FakeInteraction:
        """Click the button ``custom_id`` on a stored bot message (a MESSAGE_COMPONENT interaction).

        Fails if the message has no such component or it is disabled (Discord would not
        let the user click it).
        """
        payload, who, where, msg, component = self._component_interaction(
            user, message, custom_id, allow_disabled, locale
        )
        payload["data"] = {"custom_id": custom_id, "component_type": component.get("type", 2)}
        return await self._send_interaction(payload, who, where, msg)

    async def select(
        self,
        user: UserRef,
        message: MessageRef,
        custom_id: str,
        values: list[str],
        *,
        locale: str = "en-US",
    ) -> FakeInteraction:
        """Pick ``values`` in the (string) select menu ``custom_id`` of a stored bot message."""
        payload, who, where, msg, component = self._component_interaction(user, message, custom_id, False, locale)
        payload["data"] = {"custom_id": custom_id, "component_type": component.get("type", 3), "values": values}
        return await self._send_interaction(payload, who, where, msg)

    async def submit_modal(
        self,
        user: UserRef,
        opened_by: FakeInteraction,
        values: dict[str, str | list[str]],
        *,
        locale: str = "en-US",
    ) -> FakeInteraction:
        """Submit the modal the bot opened in answer to ``opened_by`` (callback type 9).

        ``values`` maps text-input custom_ids to text (or select custom_ids to value lists).
        """
        modal = (await opened_by.response()).modal
        who = self.resolve_user(user)

        def answer(component: dict[str, Any]) -> dict[str, Any] | None:
            if component.get("type") == 1:
                inner = [a for c in component.get("components", []) if (a := answer(c)) is not None]
                return {"type": 1, "components": inner}
            if component.get("type") == 18:  # Label wrapping one input
                inner_answer = answer(component["component"])
                return None if inner_answer is None else {"type": 18, "component": inner_answer}
            custom_id = component.get("custom_id")
            if custom_id is None:
                return None
            value = values.get(custom_id, component.get("value", ""))
            key = "values" if isinstance(value, list) else "value"
            return {"type": component["type"], "custom_id": custom_id, key: value}

        components = [a for c in modal.get("components", []) if (a := answer(c)) is not None]
        payload = self._base_interaction(
            5, who, opened_by.channel, locale, {"custom_id": modal["custom_id"], "components": components}
        )
        if opened_by.source_message is not None:
            payload["message"] = self.messages[opened_by.source_message.id].to_payload()
        return await self._send_interaction(payload, who, opened_by.channel, opened_by.source_message)

    # ------------------------------------------------------------------ REST plumbing

    def _build_routes(self) -> list[tuple[str, re.Pattern[str], Callable[..., Awaitable[web.Response]]]]:
        table: list[tuple[str, str, Callable[..., Awaitable[web.Response]]]] = [
            ("GET", r"/users/@me", self._get_me),
            ("GET", r"/users/(?P<user_id>\d+)", self._get_user),
            ("POST", r"/users/@me/channels", self._create_dm),
            ("GET", r"/(?:oauth2/)?applications/@me", self._get_application),
            ("GET", r"/gateway(?:/bot)?", self._get_gateway),
            ("GET", r"/applications/(?P<app>\d+)/commands", self._get_commands),
            ("PUT", r"/applications/(?P<app>\d+)/commands", self._put_commands),
            ("GET", r"/applications/(?P<app>\d+)/guilds/(?P<guild_id>\d+)/commands", self._get_commands),
            ("PUT", r"/applications/(?P<app>\d+)/guilds/(?P<guild_id>\d+)/commands", self._put_commands),
            ("POST", r"/interactions/(?P<iid>\d+)/(?P<token>[^/]+)/callback", self._interaction_callback),
            ("POST", r"/webhooks/(?P<app>\d+)/(?P<token>[^/]+)", self._followup),
            ("GET", r"/webhooks/(?P<app>\d+)/(?P<token>[^/]+)/messages/(?P<mid>@original|\d+)", self._wh_get),
            ("PATCH", r"/webhooks/(?P<app>\d+)/(?P<token>[^/]+)/messages/(?P<mid>@original|\d+)", self._wh_edit),
            ("DELETE", r"/webhooks/(?P<app>\d+)/(?P<token>[^/]+)/messages/(?P<mid>@original|\d+)", self._wh_delete),
            ("GET", r"/channels/(?P<cid>\d+)", self._get_channel),
            ("GET", r"/channels/(?P<cid>\d+)/messages", self._list_messages),
            ("POST", r"/channels/(?P<cid>\d+)/messages", self._post_message),
            ("GET", r"/channels/(?P<cid>\d+)/messages/(?P<mid>\d+)", self._get_channel_message),
            ("PATCH", r"/channels/(?P<cid>\d+)/messages/(?P<mid>\d+)", self._edit_channel_message),
            ("DELETE", r"/channels/(?P<cid>\d+)/messages/(?P<mid>\d+)", self._delete_channel_message),
            ("POST", r"/channels/(?P<cid>\d+)/typing", self._ok_no_content),
            ("PUT", r"/channels/(?P<cid>\d+)/messages/(?P<mid>\d+)/reactions/.+", self._ok_no_content),
            ("DELETE", r"/channels/(?P<cid>\d+)/messages/(?P<mid>\d+)/reactions/.*", self._ok_no_content),
            ("GET", r"/guilds/(?P<guild_id>\d+)", self._get_guild),
            ("GET", r"/guilds/(?P<guild_id>\d+)/channels", self._get_guild_channels),
            ("GET", r"/guilds/(?P<guild_id>\d+)/roles", self._get_guild_roles),
            ("GET", r"/guilds/(?P<guild_id>\d+)/members/(?P<user_id>\d+)", self._get_guild_member),
        ]
        return [(method, re.compile(pattern + r"/?"), handler) for method, pattern, handler in table]

    async def _rest_handler(self, request: web.Request) -> web.Response:
        path = "/" + request.match_info["tail"]
        self.requests.append((request.method, path))
        try:
            for method, pattern, handler in self._routes:
                if method == request.method and (match := pattern.fullmatch(path)):
                    return await handler(request, **match.groupdict())
            log.warning("fake discord: unknown route %s %s", request.method, path)
            self.unknown_requests.append((request.method, path))
            return _error(404, f"fake discord has no route {request.method} {path}")
        finally:
            self._notify()

    async def _read_body(self, request: web.Request) -> tuple[dict[str, Any], dict[int, StoredAttachment]]:
        """JSON body or multipart ``payload_json`` + ``files[n]`` (bytes kept verbatim)."""
        files: dict[int, StoredAttachment] = {}
        if request.content_type.startswith("multipart/"):
            payload: dict[str, Any] = {}
            reader = await request.multipart()
            async for part in reader:
                name = part.name or ""  # type: ignore[union-attr]
                if name == "payload_json":
                    payload = json.loads(await part.text())  # type: ignore[union-attr]
                elif m := re.fullmatch(r"files\[(\d+)\]", name):
                    data = bytes(await part.read())  # type: ignore[union-attr]
                    filename = part.filename or f"file{m.group(1)}"  # type: ignore[union-attr]
                    files[int(m.group(1))] = StoredAttachment(id=0, filename=filename, data=data)
            return payload, files
        if request.can_read_body:
            return await request.json(), files
        return {}, files

    def _store_attachment(self, filename: str, data: bytes, description: str | None) -> StoredAttachment:
        att_id = snowflake()
        att = StoredAttachment(
            id=att_id,
            filename=filename,
            data=data,
            content_type=mimetypes.guess_type(filename)[0],
            description=description,
            url=f"{self.base_url}/attachments/{att_id}/{filename}",
        )
        self.attachments[att_id] = att
        return att

    def _attachments_from(
        self,
        payload: dict[str, Any],
        files: dict[int, StoredAttachment],
        existing: list[StoredAttachment] | None = None,
    ) -> list[StoredAttachment]:
        """Resolve the ``attachments`` array against uploaded files and kept attachments.

        Entries whose id is a small index refer to ``files[index]``; entries whose id is an
        existing attachment's snowflake keep it (edits). Without an ``attachments`` array,
        edits keep what was there and uploaded files are appended.
        """
        kept = {a.id: a for a in existing or []}
        meta = payload.get("attachments")
        if meta is None:
            result = list(existing or [])
            meta = [{"id": i} for i in sorted(files)]
        else:
            result = []
        for entry in meta:
            ref = int(entry["id"])
            if ref in kept:
                result.append(kept[ref])
            elif ref in files:
                upload = files[ref]
                result.append(
                    self._store_attachment(
                        entry.get("filename") or upload.filename, upload.data, entry.get("description")
                    )
                )
        return result

    def _create_message(
        self,
        channel_id: int,
        payload: dict[str, Any],
        files: dict[int, StoredAttachment],
        *,
        flags: int = 0,
        interaction: FakeInteraction | None = None,
    ) -> StoredMessage:
        channel = self.get_channel(channel_id)
        msg = StoredMessage(
            id=snowflake(),
            channel_id=channel_id,
            guild_id=channel.guild_id if channel else None,
            author=self.bot_user,
            content=payload.get("content") or "",
            embeds=payload.get("embeds") or [],
            components=payload.get("components") or [],
            attachments=self._attachments_from(payload, files),
            flags=flags,
        )
        if interaction is not None:
            msg.interaction_id = interaction.id
            msg.webhook_id = self.application_id
            msg.interaction_metadata = {
                "id": str(interaction.id),
                "type": interaction.type,
                "user": interaction.user.to_payload(),
                "authorizing_integration_owners": interaction.payload.get("authorizing_integration_owners", {}),
            }
            if interaction.source_message is not None:
                msg.interaction_metadata["interacted_message_id"] = str(interaction.source_message.id)
            interaction._touch(msg.id)
        self.messages[msg.id] = msg
        return msg

    def _edit_message(
        self,
        msg: StoredMessage,
        payload: dict[str, Any],
        files: dict[int, StoredAttachment],
        interaction: FakeInteraction | None = None,
    ) -> StoredMessage:
        msg.history.append(msg.to_payload())
        for key in ("content", "embeds", "components"):
            if key in payload:
                setattr(msg, key, payload[key] if payload[key] is not None else ("" if key == "content" else []))
        if "attachments" in payload or files:
            msg.attachments = self._attachments_from(payload, files, msg.attachments)
        if payload.get("flags") is not None:
            # Only flags that may change after creation; ephemerality is fixed.
            msg.flags = (msg.flags & EPHEMERAL) | (int(payload["flags"]) & ~(EPHEMERAL | LOADING))
        msg.flags &= ~LOADING
        msg.edited_at = now()
        msg.revision += 1
        if interaction is not None:
            interaction._touch(msg.id)
        return msg

    # ------------------------------------------------------------------ REST handlers

    async def _ok_no_content(self, request: web.Request, **_: str) -> web.Response:
        return _no_content()

    async def _get_me(self, request: web.Request) -> web.Response:
        return _json(self.bot_user.to_payload())

    async def _get_user(self, request: web.Request, user_id: str) -> web.Response:
        user = self.users.get(int(user_id))
        return _json(user.to_payload()) if user else _error(404, "Unknown User", 10013)

    async def _get_application(self, request: web.Request) -> web.Response:
        return _json(
            {
                "id": str(self.application_id),
                "name": self.bot_user.username,
                "description": "",
                "icon": None,
                "bot_public": True,
                "bot_require_code_grant": False,
                "owner": self.alice.to_payload(),
                "verify_key": "0" * 64,
                "flags": 0,
                "team": None,
                "summary": "",
                "bot": self.bot_user.to_payload(),
                "interactions_endpoint_url": None,
            }
        )

    async def _get_gateway(self, request: web.Request) -> web.Response:
        return _json(
            {
                "url": str(self.gateway_url),
                "shards": 1,
                "session_start_limit": {"total": 1000, "remaining": 1000, "reset_after": 0, "max_concurrency": 1},
            }
        )

    async def _create_dm(self, request: web.Request) -> web.Response:
        body, _ = await self._read_body(request)
        return _json(self.dm_channel(int(body["recipient_id"])).to_payload())

    async def _get_commands(self, request: web.Request, app: str, guild_id: str | None = None) -> web.Response:
        return _json(self.commands(int(guild_id) if guild_id else None))

    async def _put_commands(self, request: web.Request, app: str, guild_id: str | None = None) -> web.Response:
        body, _ = await self._read_body(request)
        gid = int(guild_id) if guild_id else None
        previous = {(c["name"], c.get("type", 1)): c["id"] for c in self.commands(gid)}
        stored = []
        for command in body:
            # Keep ids stable across re-syncs, like Discord does for unchanged names.
            key = (command["name"], command.get("type", 1))
            entry = {
                "type": 1,
                "description": "",
                "options": [],
                "default_member_permissions": None,
                "nsfw": False,
                **command,
                "id": previous.get(key) or str(snowflake()),
                "application_id": str(self.application_id),
                "version": str(snowflake()),
            }
            if gid is not None:
                entry["guild_id"] = str(gid)
            stored.append(entry)
        if gid is None:
            self.global_commands = stored
        else:
            self.guild_commands[gid] = stored
        self.sync_count += 1
        return _json(stored)

    async def _interaction_callback(self, request: web.Request, iid: str, token: str) -> web.Response:
        interaction = self.interactions.get(token)
        if interaction is None or interaction.id != int(iid):
            return _error(404, "Unknown interaction", UNKNOWN_INTERACTION)
        if interaction.callback is not None:
            return _error(400, "Interaction has already been acknowledged.", ALREADY_ACKNOWLEDGED)
        body, files = await self._read_body(request)
        kind = int(body["type"])
        data = body.get("data") or {}
        flags = int(data.get("flags") or 0)
        message: StoredMessage | None = None
        source = interaction.source_message
        if kind == CHANNEL_MESSAGE:
            message = self._create_message(
                interaction.channel.id, data, files, flags=flags & ~LOADING, interaction=interaction
            )
            interaction.original_id = message.id
        elif kind == DEFERRED_CHANNEL_MESSAGE:
            # Discord shows a "thinking..." placeholder that becomes the @original message.
            message = self._create_message(
                interaction.channel.id, {}, {}, flags=LOADING | (flags & EPHEMERAL), interaction=interaction
            )
            interaction.original_id = message.id
            interaction.touched.clear()  # the placeholder itself is not a visible answer
        elif kind in (DEFERRED_UPDATE_MESSAGE, UPDATE_MESSAGE):
            if source is None:
                return _error(400, "Interaction has no message to update", 50035)
            interaction.original_id = source.id
            if kind == UPDATE_MESSAGE:
                message = self._edit_message(self.messages[source.id], data, files, interaction)
        elif kind not in (AUTOCOMPLETE_RESULT, MODAL):
            return _error(400, f"fake discord: unsupported callback type {kind}", 50035)
        interaction.callback = CallbackRecord(type=kind, data=data, message=message)
        info: dict[str, Any] = {"id": str(interaction.id), "type": interaction.type}
        if interaction.original_id is not None:
            original = self.messages[interaction.original_id]
            info["response_message_id"] = str(original.id)
            info["response_message_loading"] = original.loading
            info["response_message_ephemeral"] = original.ephemeral
        resource: dict[str, Any] = {"type": kind}
        if message is not None:
            resource["message"] = message.to_payload()
        return _json({"interaction": info, "resource": resource})

    def _interaction_for(self, app: str, token: str) -> FakeInteraction | None:
        if int(app) != self.application_id:
            return None
        return self.interactions.get(token)

    def _webhook_message(self, interaction: FakeInteraction, mid: str) -> StoredMessage | None:
        if mid == "@original":
            return None if interaction.original_id is None else self.messages[interaction.original_id]
        msg = self.messages.get(int(mid))
        if msg is None or msg.deleted:
            return None
        # A token may only touch its own messages (and the message it was invoked from).
        mine = msg.interaction_id == interaction.id or msg.id == interaction.original_id
        return msg if mine else None

    async def _followup(self, request: web.Request, app: str, token: str) -> web.Response:
        interaction = self._interaction_for(app, token)
        if interaction is None:
            return _error(404, "Unknown Webhook", 10015)
        if interaction.callback is None:
            return _error(404, "Unknown Webhook (interaction not acknowledged yet)", 10015)
        body, files = await self._read_body(request)
        original = interaction.original
        if (
            interaction.callback.type == DEFERRED_CHANNEL_MESSAGE
            and original is not None
            and original.loading
            and not interaction.followup_ids
        ):
            # Discord: the first followup after a deferred reply replaces the placeholder
            # (keeping the placeholder's ephemerality).
            msg = self._edit_message(original, body, files, interaction)
        else:
            flags = int(body.get("flags") or 0) & ~LOADING
            msg = self._create_message(interaction.channel.id, body, files, flags=flags, interaction=interaction)
        interaction.followup_ids.append(msg.id)
        if request.query.get("wait") in ("0", "false"):
            return _no_content()
        return _json(msg.to_payload())

    async def _wh_get(self, request: web.Request, app: str, token: str, mid: str) -> web.Response:
        interaction = self._interaction_for(app, token)
        msg = interaction and self._webhook_message(interaction, mid)
        return _json(msg.to_payload()) if msg else _error(404, "Unknown Message", UNKNOWN_MESSAGE)

    async def _wh_edit(self, request: web.Request, app: str, token: str, mid: str) -> web.Response:
        interaction = self._interaction_for(app, token)
        msg = interaction and self._webhook_message(interaction, mid)
        if not msg:
            return _error(404, "Unknown Message", UNKNOWN_MESSAGE)
        body, files = await self._read_body(request)
        return _json(self._edit_message(msg, body, files, interaction).to_payload())

    async def _wh_delete(self, request: web.Request, app: str, token: str, mid: str) -> web.Response:
        interaction = self._interaction_for(app, token)
        msg = interaction and self._webhook_message(interaction, mid)
        if not msg:
            return _error(404, "Unknown Message", UNKNOWN_MESSAGE)
        msg.deleted = True
        return _no_content()

    async def _get_channel(self, request: web.Request, cid: str) -> web.Response:
        channel = self.get_channel(int(cid))
        return _json(channel.to_payload()) if channel else _error(404, "Unknown Channel", UNKNOWN_CHANNEL)

    async def _list_messages(self, request: web.Request, cid: str) -> web.Response:
        if self.get_channel(int(cid)) is None:
            return _error(404, "Unknown Channel", UNKNOWN_CHANNEL)
        limit = int(request.query.get("limit", 50))
        newest_first = list(reversed(self.channel_messages(int(cid))))
        return _json([m.to_payload() for m in newest_first[:limit]])

    async def _post_message(self, request: web.Request, cid: str) -> web.Response:
        if self.get_channel(int(cid)) is None:
            return _error(404, "Unknown Channel", UNKNOWN_CHANNEL)
        body, files = await self._read_body(request)
        flags = int(body.get("flags") or 0) & ~(EPHEMERAL | LOADING)  # channel messages are never ephemeral
        return _json(self._create_message(int(cid), body, files, flags=flags).to_payload())

    def _channel_message(self, cid: str, mid: str) -> StoredMessage | None:
        msg = self.messages.get(int(mid))
        if msg is None or msg.deleted or msg.channel_id != int(cid) or msg.ephemeral:
            return None
        return msg

    async def _get_channel_message(self, request: web.Request, cid: str, mid: str) -> web.Response:
        msg = self._channel_message(cid, mid)
        return _json(msg.to_payload()) if msg else _error(404, "Unknown Message", UNKNOWN_MESSAGE)

    async def _edit_channel_message(self, request: web.Request, cid: str, mid: str) -> web.Response:
        msg = self._channel_message(cid, mid)
        if msg is None:
            return _error(404, "Unknown Message", UNKNOWN_MESSAGE)
        body, files = await self._read_body(request)
        return _json(self._edit_message(msg, body, files).to_payload())

    async def _delete_channel_message(self, request: web.Request, cid: str, mid: str) -> web.Response:
        msg = self._channel_message(cid, mid)
        if msg is None:
            return _error(404, "Unknown Message", UNKNOWN_MESSAGE)
        msg.deleted = True
        return _no_content()

    async def _get_guild(self, request: web.Request, guild_id: str) -> web.Response:
        guild = self.guilds.get(int(guild_id))
        return _json(guild.to_payload()) if guild else _error(404, "Unknown Guild", 10004)

    async def _get_guild_channels(self, request: web.Request, guild_id: str) -> web.Response:
        guild = self.guilds.get(int(guild_id))
        if guild is None:
            return _error(404, "Unknown Guild", 10004)
        return _json([c.to_payload() for c in guild.channels.values()])

    async def _get_guild_roles(self, request: web.Request, guild_id: str) -> web.Response:
        guild = self.guilds.get(int(guild_id))
        return _json(guild.role_payloads()) if guild else _error(404, "Unknown Guild", 10004)

    async def _get_guild_member(self, request: web.Request, guild_id: str, user_id: str) -> web.Response:
        guild = self.guilds.get(int(guild_id))
        member = guild.members.get(int(user_id)) if guild else None
        return _json(member.to_payload()) if member else _error(404, "Unknown Member", 10007)

    async def _cdn_handler(self, request: web.Request) -> web.Response:
        att = self.attachments.get(int(request.match_info["id"]))
        if att is None:
            return web.Response(status=404)
        return web.Response(body=att.data, content_type=att.content_type or "application/octet-stream")


@contextlib.asynccontextmanager
async def start_fake_discord(**kwargs: Any) -> AsyncIterator[FakeDiscord]:
    """Start a :class:`FakeDiscord` (keyword arguments go to its constructor); stop it on exit."""
    fake = FakeDiscord(**kwargs)
    await fake.start()
    try:
        yield fake
    finally:
        await fake.stop()
