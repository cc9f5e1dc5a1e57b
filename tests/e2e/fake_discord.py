"""A fake Discord API (REST + gateway) on loopback that the real discord.py client talks to.

Typical use::

    async with start_fake_discord() as fake:
        async with fake.running_bot(make_bot()) as bot:
            inter = await fake.slash("alice", "iago", "move", options={"move": "E5"})
            msg = await inter.final()
            assert msg.attachment("board.png").data.startswith(b"\\x89PNG")

How it hooks in: discord.py builds every REST URL from ``discord.http.Route.BASE`` and a
non-sharded client connects straight to ``DiscordWebSocket.DEFAULT_GATEWAY`` (it never asks
``/gateway/bot``), so :meth:`FakeDiscord.patched` points both at this server. A bot in another
process calls :func:`point_discord_at` with :attr:`FakeDiscord.base_url` before creating its
client.

Everything the bot does is recorded: created messages with attachment bytes
(:attr:`FakeDiscord.messages`), synced commands, interaction callbacks, followups and edits
(:class:`~tests.e2e.harness.FakeInteraction`). Unknown routes are logged, recorded in
:attr:`FakeDiscord.unknown_requests` and answered with a 404 JSON error.

Strictness (as on Discord; constructor arguments, also plain attributes):

- ``interaction_deadline`` (3.0 s): a first callback later than this after the interaction
  was sent gets ``404`` code 10062 (Unknown interaction). A second callback gets ``400``
  code 40060. ``FakeInteraction.age(seconds)`` moves an interaction into the past.
- ``token_lifetime`` (900 s): followups and webhook reads/edits/deletes on an older
  interaction token get ``401`` code 50027 (Invalid Webhook Token).
- ``enforce_limits`` (True): message bodies (create, edit, callback, followup) over Discord's
  limits get ``400`` code 50035 with Discord's ``errors`` tree: content > 2000, > 10 embeds,
  embed title/description/fields/footer/author limits, embeds > 6000 characters in total,
  > 10 attachments, > 5 action rows or > 5 components per row, custom_id > 100, button label
  > 80, select options > 25, ``allowed_mentions`` with both ``parse`` and ids for a kind;
  autocomplete results with > 25 choices or a choice name/value > 100. Uploads over
  ``attachment_size_limit`` bytes (25 MiB) in total get ``413`` code 40005. The limits are
  in ``fake_discord_limits.py``.
- Mentions: every message keeps the ``allowed_mentions`` it was created with and
  :attr:`StoredMessage.pings` (users, roles, everyone) that actually notified; edits never notify.

Request log: every REST request is a :class:`RequestRecord` (method, path, route template,
endpoint kind, monotonic time, interaction id, status, fault) in :attr:`FakeDiscord.request_log`
(``requests`` keeps the older ``(method, path)`` pairs). ``mark = fake.mark()`` then
``fake.requests_since(mark, endpoint="followup")``, or ``with fake.count_requests() as log:``
then ``log.count("channel_message")``; ``fake.reset_requests()`` clears both lists.

Faults: ``fake.inject(endpoint, fault, times=1)`` with endpoint ``"callback"``, ``"followup"``,
``"webhook_edit"``, ``"channel_message"`` (create and edit; narrow with ``method=``),
``"thread"`` or ``"any"``, and fault a :class:`Fault` or a name: ``"429"`` (rate limit,
``retry_after`` 0.05 s with the headers discord.py reads, so it retries), ``"500"``/``"502"``/
``"503"``/``"504"`` (not applied; discord.py retries 500/502/504 after 1 s, 3 s..., and
webhook/interaction requests on any 5xx), ``"applied_but_lost"`` (applied, answered 502),
``"applied_then_drop"`` / ``"drop"`` (connection closed after / without applying: discord.py
raises at once), ``"outage"`` (callbacks held past the deadline, so they get 10062). The
returned :class:`InjectedFault` lists the requests it ``hits``; ``fake.clear_faults()``.

Shards: ``shard_count`` (1) is what ``GET /gateway/bot`` answers. Gateway connections may
IDENTIFY with ``shard: [id, count]``, several at once (any process); each gets READY and
GUILD_CREATE for its own guilds only, and guild events (INTERACTION_CREATE, GUILD_CREATE,
THREAD_CREATE, ...) go to the connection of shard ``(guild_id >> 22) % count``; DM events go to
shard 0. ``fake.add_guild(name, shard=(1, 2))`` makes a guild that falls on shard 1 of 2.
:meth:`FakeDiscord.running_bot` runs several sharded bots at once (one per shard).

Permissions: the bot's permissions (sent as ``app_permissions``, checked by the REST
endpoints) are set with ``fake.set_bot_permissions(perms, guild=..., channel=...)``
(channel overrides guild; threads inherit their parent). Sending a channel message needs
VIEW_CHANNEL and SEND_MESSAGES (SEND_MESSAGES_IN_THREADS in threads), ATTACH_FILES for files;
creating a public thread needs CREATE_PUBLIC_THREADS and SEND_MESSAGES_IN_THREADS (private:
CREATE_PRIVATE_THREADS): missing ones get ``403`` code 50013. Members' permissions
(``member.permissions`` in interactions) come from ``add_member(permissions=...)`` or
``fake.set_permissions(user, perms)``; the guild owner has all. Like the Discord client,
``slash``/``autocomplete`` refuse (raise :class:`CommandNotAvailable`) a command whose
``default_member_permissions`` the member lacks, or one not allowed in DMs for ``dm=True``.

Threads: ``POST /channels/{id}/threads`` and ``POST /channels/{id}/messages/{id}/threads``
create threads (THREAD_CREATE is dispatched); ``fake.threads(channel)``,
``fake.channel_messages(thread)`` and ``GET /channels/{thread_id}`` read them;
``fake.add_thread(...)`` makes one from the test side.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import mimetypes
import re
import secrets
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from typing import Any

import discord
import discord.gateway
import discord.http
import yarl
from aiohttp import WSMsgType, web

from tests.e2e.fake_discord_faults import (
    ANY,
    CALLBACK,
    ENDPOINTS,
    FOLLOWUP,
    OTHER,
    THREAD,
    WEBHOOK_EDIT,
    Fault,
    InjectedFault,
    RequestRecord,
    RequestWindow,
    fault_response,
    lost_response,
    select_requests,
)
from tests.e2e.fake_discord_faults import CHANNEL_MESSAGE as CHANNEL_MESSAGE_ENDPOINT
from tests.e2e.fake_discord_limits import (
    REQUEST_TOO_LARGE,
    UPLOAD_LIMIT_BYTES,
    ErrorTree,
    Pings,
    compute_pings,
    form_error_body,
    validate_autocomplete,
    validate_message,
)
from tests.e2e.harness import (
    ADMINISTRATOR,
    ALL_PERMISSIONS,
    AUTOCOMPLETE_RESULT,
    BOT_PERMISSIONS,
    CHANNEL_MESSAGE,
    DEFAULT_MEMBER_PERMISSIONS,
    DEFERRED_CHANNEL_MESSAGE,
    DEFERRED_UPDATE_MESSAGE,
    EPHEMERAL,
    LOADING,
    MODAL,
    PRIVATE_THREAD,
    PUBLIC_THREAD,
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
    "CommandNotAvailable",
    "FakeChannel",
    "FakeDiscord",
    "FakeGuild",
    "FakeInteraction",
    "FakeMember",
    "FakeUser",
    "Fault",
    "InjectedFault",
    "Pings",
    "RequestRecord",
    "RequestWindow",
    "StoredAttachment",
    "StoredMessage",
    "point_discord_at",
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
UNKNOWN_WEBHOOK, INVALID_WEBHOOK_TOKEN, MISSING_PERMISSIONS = 10015, 50027, 50013

# Permission bits the REST endpoints check.
VIEW_CHANNEL = discord.Permissions(view_channel=True).value
SEND_MESSAGES = discord.Permissions(send_messages=True).value
ATTACH_FILES = discord.Permissions(attach_files=True).value
CREATE_PUBLIC_THREADS = discord.Permissions(create_public_threads=True).value
CREATE_PRIVATE_THREADS = discord.Permissions(create_private_threads=True).value
SEND_MESSAGES_IN_THREADS = discord.Permissions(send_messages_in_threads=True).value
MENTION_EVERYONE = discord.Permissions(mention_everyone=True).value

# Interaction context types (where a command may run).
CONTEXT_GUILD, CONTEXT_BOT_DM = 0, 1


def point_discord_at(base_url: str) -> None:
    """Point discord.py (REST base and default gateway) at a fake at ``base_url`` for this process.

    For a bot under test in a child process: call it before creating the client, with
    :attr:`FakeDiscord.base_url` of the fake running in the test process.
    """
    base = base_url.rstrip("/")
    discord.http.Route.BASE = f"{base}/api/v10"
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(f"{base.replace('http', 'ws', 1)}/gateway")


class CommandNotAvailable(AssertionError):
    """The Discord client would not send this command for this member (permissions or DM context)."""


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
    """One gateway websocket connection (one bot session, or one shard of it)."""

    def __init__(self, ws: web.WebSocketResponse) -> None:
        self.ws = ws
        self.seq = 0
        self.session_id = secrets.token_hex(8)
        self.identified = False
        self.shard_id = 0
        self.shard_count = 1
        self._lock = asyncio.Lock()

    @property
    def open(self) -> bool:
        return not self.ws.closed

    def handles(self, guild_id: int | None) -> bool:
        """Whether events of ``guild_id`` (None: DMs, which go to shard 0) belong on this connection."""
        if guild_id is None:
            return self.shard_id == 0
        return (guild_id >> 22) % self.shard_count == self.shard_id

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


# Route template placeholders that are not plain snowflakes, and handler keyword names.
_SNOWFLAKE = r"\d+"
_PLACEHOLDER_PATTERNS = {"interaction_token": r"[^/]+", "webhook_message_id": r"@original|\d+", "reaction": r".+"}
_KWARG = {
    "channel_id": "cid",
    "message_id": "mid",
    "webhook_message_id": "mid",
    "application_id": "app",
    "interaction_id": "iid",
    "interaction_token": "token",
}


class _Route:
    """A REST route: ``template`` in Discord's notation, its endpoint kind and handler."""

    def __init__(
        self, method: str, template: str, endpoint: str, handler: Callable[..., Awaitable[web.Response]]
    ) -> None:
        self.method = method
        self.template = template
        self.endpoint = endpoint
        self.handler = handler
        self.pattern = re.compile(re.sub(r"\{(\w+)\}", self._group, template))

    @staticmethod
    def _group(match: re.Match[str]) -> str:
        return f"(?P<{match[1]}>{_PLACEHOLDER_PATTERNS.get(match[1], _SNOWFLAKE)})"


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
        interaction_deadline: seconds the bot has for an interaction's first callback.
        token_lifetime: seconds an interaction token accepts followups and webhook edits.
        enforce_limits: answer bodies over Discord's message limits with 400/413.
        attachment_size_limit: total upload bytes per message (413 above it).
        shard_count: the ``shards`` answered by ``GET /gateway/bot``.
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
        interaction_deadline: float = 3.0,
        token_lifetime: float = 15 * 60.0,
        enforce_limits: bool = True,
        attachment_size_limit: int = UPLOAD_LIMIT_BYTES,
        shard_count: int = 1,
    ) -> None:
        self.timeout = timeout
        self.fail_on_bot_errors = fail_on_bot_errors
        self.error_loggers = error_loggers
        self.heartbeat_interval_ms = heartbeat_interval_ms
        self.poll_interval = 0.02
        self.interaction_deadline = interaction_deadline
        self.token_lifetime = token_lifetime
        self.enforce_limits = enforce_limits
        self.attachment_size_limit = attachment_size_limit
        self.shard_count = shard_count

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
        self.request_log: list[RequestRecord] = []
        self.faults: list[InjectedFault] = []
        self.unknown_requests: list[tuple[str, str]] = []
        self.bot_errors: list[logging.LogRecord] = []
        # The bot's permissions by guild id or channel id (a channel entry wins).
        self.bot_permission_overrides: dict[int, int] = {}

        self._gateways: list[_Gateway] = []
        self._changed = asyncio.Event()
        self._bot_tasks: dict[asyncio.Task[None], discord.Client] = {}
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
        point_discord_at(self.base_url)
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

        Several bots may run at once if each is one shard (``shard_id``/``shard_count``
        set, distinct ids), as a scaled-out bot runs one process per shard.
        """
        self._check_can_run(bot)
        syncs_before = self.sync_count
        first = not self._bot_tasks
        if first:
            self._collector = _ErrorCollector(self._notify)
            for name in self.error_loggers:
                logging.getLogger(name).addHandler(self._collector)
        collector = self._collector
        assert collector is not None
        with self.patched():
            if first:
                self._bot_failure = None
                self._bot_stopped_reason = None
            task = asyncio.create_task(bot.start(token), name="fake-discord-bot")
            self._bot_tasks[task] = bot
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
                self._bot_tasks.pop(task, None)
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(bot.close(), self.timeout)
                if not task.done():
                    with contextlib.suppress(BaseException):
                        await asyncio.wait_for(task, self.timeout)
                elif not task.cancelled():
                    task.exception()  # mark retrieved; _on_bot_done already recorded it
                if not self._bot_tasks:
                    for name in self.error_loggers:
                        logging.getLogger(name).removeHandler(collector)
                    self._collector = None
                    self.bot_errors.extend(collector.records)
                self._gateways = [gw for gw in self._gateways if gw.open]

    def _check_can_run(self, bot: discord.Client) -> None:
        if not self._bot_tasks:
            return
        shards = [b.shard_id for b in [*self._bot_tasks.values(), bot]]
        # AutoShardedClient keeps shard_id None and owns every shard, so it cannot share the fake.
        sharded = not isinstance(bot, discord.AutoShardedClient) and all(s is not None for s in shards)
        if not sharded or len(set(shards)) != len(shards):
            raise RuntimeError(
                "a bot is already running against this fake; stop it first "
                "(several bots may only run as distinct shards)"
            )

    def _on_bot_done(self, task: asyncio.Task[None]) -> None:
        if task not in self._bot_tasks:
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

    def add_guild(
        self,
        name: str,
        *,
        owner: UserRef | None = None,
        channel_name: str = "general",
        shard: tuple[int, int] | None = None,
    ) -> FakeGuild:
        """Add a guild with one text channel and the bot as member.

        ``shard=(shard_id, shard_count)`` picks an id whose events go to that shard. If the
        bot is connected, it receives GUILD_CREATE (as when it joins a server).
        """
        guild_id = snowflake()
        if shard is not None:
            shard_id, count = shard
            if not 0 <= shard_id < count:
                raise ValueError(f"shard {shard_id} is not one of {count} shards")
            # Shift the timestamp part by under ``count`` ms: still a fresh, plausible snowflake.
            guild_id += ((shard_id - (guild_id >> 22)) % count) << 22
        owner_id = self.resolve_user(owner).id if owner is not None else self.bot_user.id
        guild = FakeGuild(id=guild_id, name=name, owner_id=owner_id)
        self.guilds[guild_id] = guild
        channel = FakeChannel(id=snowflake(), name=channel_name, guild_id=guild_id)
        guild.channels[channel.id] = channel
        # The bot's managed role carries its guild permissions, so discord.py's
        # ``permissions_for(guild.me)`` agrees with what the fake enforces.
        role_id = snowflake()
        guild.roles[role_id] = {
            "id": str(role_id),
            "name": self.bot_user.username,
            "permissions": str(BOT_PERMISSIONS),
            "position": 1,
            "color": 0,
            "hoist": False,
            "managed": True,
            "mentionable": False,
            "flags": 0,
            "tags": {"bot_id": str(self.bot_user.id)},
        }
        guild.members[self.bot_user.id] = FakeMember(user=self.bot_user, guild_id=guild_id, roles=[role_id])
        self._fire("GUILD_CREATE", guild.to_payload, guild_id)
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
        self._fire("GUILD_MEMBER_ADD", lambda: {**member.to_payload(), "guild_id": str(guild.id)}, guild.id)
        return member

    def set_permissions(
        self, user: UserRef, permissions: int | discord.Permissions, *, guild: FakeGuild | None = None
    ) -> None:
        """Set a member's permissions (sent as ``member.permissions`` in their interactions)."""
        guild = guild or self.guild
        member = guild.members[self.resolve_user(user).id]
        member.permissions = permissions.value if isinstance(permissions, discord.Permissions) else int(permissions)

    def member_permissions(self, user: UserRef, guild: FakeGuild | None = None) -> int:
        """What Discord reports as the member's permissions: all for the owner and administrators."""
        guild = guild or self.guild
        who = self.resolve_user(user)
        member = guild.members[who.id]
        if who.id == guild.owner_id or member.permissions & ADMINISTRATOR:
            return ALL_PERMISSIONS
        return member.permissions

    def set_bot_permissions(
        self,
        permissions: int | discord.Permissions | None,
        *,
        guild: FakeGuild | None = None,
        channel: ChannelRef | None = None,
    ) -> None:
        """Set what the bot may do in ``channel`` (or, without it, in ``guild``, default guild).

        ``None`` removes the override. The fake checks these on REST calls and sends them as
        ``app_permissions``; discord.py sees them through the bot's role and channel overwrites.
        """
        value = permissions.value if isinstance(permissions, discord.Permissions) else permissions
        if channel is not None:
            target = self._resolve_channel(channel)
            key, owner = target.id, self.guilds[target.guild_id]  # type: ignore[index]
        else:
            owner = guild or self.guild
            key = owner.id
        if value is None:
            self.bot_permission_overrides.pop(key, None)
        else:
            self.bot_permission_overrides[key] = int(value)
        self._sync_bot_access(owner)

    def bot_permissions(self, channel: ChannelRef | None = None) -> int:
        """The bot's permissions in ``channel`` (default channel); threads use their parent's."""
        target = self._resolve_channel(channel)
        if target.is_dm:
            return BOT_PERMISSIONS
        if target.is_thread and target.id not in self.bot_permission_overrides:
            target = self._resolve_channel(target.parent_id)
        if target.id in self.bot_permission_overrides:
            return self.bot_permission_overrides[target.id]
        return self.bot_permission_overrides.get(target.guild_id or 0, BOT_PERMISSIONS)

    def _sync_bot_access(self, guild: FakeGuild) -> None:
        role = next(r for r in guild.roles.values() if r.get("tags", {}).get("bot_id") == str(self.bot_user.id))
        guild_perms = self.bot_permission_overrides.get(guild.id, BOT_PERMISSIONS)
        if role["permissions"] != str(guild_perms):
            role["permissions"] = str(guild_perms)
            self._fire("GUILD_ROLE_UPDATE", lambda: {"guild_id": str(guild.id), "role": dict(role)}, guild.id)
        base = guild_perms | DEFAULT_MEMBER_PERMISSIONS  # @everyone grants its permissions to the bot too
        for channel in guild.channels.values():
            wanted = self.bot_permissions(channel)
            others = [o for o in channel.permission_overwrites if o["id"] != str(self.bot_user.id)]
            if wanted != base:
                allow, deny = wanted & ~base, base & ~wanted
                others.append({"id": str(self.bot_user.id), "type": 1, "allow": str(allow), "deny": str(deny)})
            if others != channel.permission_overwrites:
                channel.permission_overwrites = others
                self._fire("CHANNEL_UPDATE", channel.to_payload, guild.id)

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
        self._sync_bot_access(guild)
        self._fire("CHANNEL_CREATE", channel.to_payload, guild.id)
        return channel

    def add_thread(
        self,
        name: str,
        *,
        parent: ChannelRef | None = None,
        owner: UserRef | None = None,
        private: bool = False,
        message: MessageRef | None = None,
    ) -> FakeChannel:
        """Create a thread in ``parent`` (default channel), as a member or the bot would.

        ``message`` starts it from that message (the thread then has the message's id).
        THREAD_CREATE is sent if the bot is connected.
        """
        where = self._resolve_channel(parent)
        source = None if message is None else self.messages[message if isinstance(message, int) else message.id]
        creator = self.resolve_user(owner) if owner is not None else self.bot_user
        return self._create_thread(where, name, creator, PRIVATE_THREAD if private else PUBLIC_THREAD, source)

    def _create_thread(
        self, parent: FakeChannel, name: str, creator: FakeUser, kind: int, source: StoredMessage | None
    ) -> FakeChannel:
        guild = self.guilds[parent.guild_id]  # type: ignore[index]
        thread = FakeChannel(
            id=source.id if source is not None else snowflake(),
            name=name,
            guild_id=guild.id,
            type=kind,
            parent_id=parent.id,
            owner_id=creator.id,
        )
        guild.threads[thread.id] = thread
        if source is not None:
            source.thread_id = thread.id
        self._fire("THREAD_CREATE", lambda: {**thread.to_payload(), "newly_created": True}, guild.id)
        return thread

    def threads(self, channel: ChannelRef | None = None) -> list[FakeChannel]:
        """Threads whose parent is ``channel`` (default channel), oldest first."""
        parent = self._resolve_channel(channel)
        guild = self.guilds.get(parent.guild_id or 0)
        return [] if guild is None else [t for t in guild.threads.values() if t.parent_id == parent.id]

    def _fire(self, event: str, payload: Callable[[], dict[str, Any]], guild_id: int | None = None) -> None:
        """Dispatch a state-change event if the bot (its shard for ``guild_id``) is connected (world setup is sync)."""
        if self._gateway_for(guild_id) is not None:
            asyncio.get_running_loop().create_task(self.dispatch(event, payload(), guild_id=guild_id))

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
            if channel_id in guild.threads:
                return guild.threads[channel_id]
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

    def _gateway_for(self, guild_id: int | None) -> _Gateway | None:
        """The newest live connection of the shard that owns ``guild_id`` (None: DMs, shard 0)."""
        live = [gw for gw in self._gateways if gw.identified and gw.open and gw.handles(guild_id)]
        return live[-1] if live else None

    @property
    def connected_shards(self) -> list[tuple[int, int]]:
        """``(shard_id, shard_count)`` of every identified, open gateway connection."""
        return [(gw.shard_id, gw.shard_count) for gw in self._gateways if gw.identified and gw.open]

    async def dispatch(self, event: str, data: Any, *, guild_id: int | str | None = "infer") -> None:
        """Send a gateway DISPATCH event to the connection of the shard that owns its guild.

        The guild is taken from ``data`` (``guild_id``, or ``id`` for GUILD_* events) unless
        ``guild_id`` is given; events without a guild go to shard 0.
        """
        if guild_id == "infer":
            fields = data if isinstance(data, dict) else {}
            raw = fields.get("id") if event in ("GUILD_CREATE", "GUILD_UPDATE", "GUILD_DELETE") else None
            raw = raw or fields.get("guild_id")
            guild_id = int(raw) if raw else None
        assert not isinstance(guild_id, str)
        gw = self._gateway_for(guild_id)
        if gw is None:
            self._check_bot()
            if self._active_gateway() is not None:
                shards = self.connected_shards
                raise AssertionError(f"cannot send {event} for guild {guild_id}: its shard is not connected ({shards})")
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
            if d.get("shard"):
                shard_id, shard_count = (int(x) for x in d["shard"])
                if not 0 <= shard_id < shard_count:
                    await gw.ws.close(code=4010, message=b"Invalid shard")
                    return
                gw.shard_id, gw.shard_count = shard_id, shard_count
            mine = [g for g in self.guilds.values() if gw.handles(g.id)]
            await gw.dispatch(
                "READY",
                {
                    "v": 10,
                    "user": self.bot_user.to_payload(),
                    "guilds": [{"id": str(g.id), "unavailable": True} for g in mine],
                    "shard": [gw.shard_id, gw.shard_count],
                    "session_id": gw.session_id,
                    "resume_gateway_url": str(self.gateway_url),
                    "application": {"id": str(self.application_id), "flags": 0},
                    "private_channels": [],
                    "relationships": [],
                },
            )
            for guild in mine:
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
            "attachment_size_limit": self.attachment_size_limit,
            "locale": locale,
            "app_permissions": str(self.bot_permissions(channel)),
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
            payload["member"]["permissions"] = str(self.member_permissions(user, guild))
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
        user: FakeUser | None = None,
    ) -> dict[str, Any]:
        if not path:
            raise ValueError("give at least the command name")
        command = self.find_command(path[0], channel.guild_id, type_)
        if user is not None:
            self._check_command_available(command, user, channel)
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

    def _check_command_available(self, command: dict[str, Any], user: FakeUser, channel: FakeChannel) -> None:
        """Refuse what the Discord client would not even send (hidden or greyed-out command)."""
        name = command["name"]
        contexts = command.get("contexts")
        if channel.is_dm:
            if command.get("dm_permission") is False or (contexts is not None and CONTEXT_BOT_DM not in contexts):
                raise CommandNotAvailable(f"/{name} is not available in DMs")
            return
        if contexts is not None and CONTEXT_GUILD not in contexts:
            raise CommandNotAvailable(f"/{name} is not available in servers")
        required = command.get("default_member_permissions")
        if required is None:
            return
        guild = self.guilds[channel.guild_id]  # type: ignore[index]
        has = self.member_permissions(user, guild)
        missing = int(required) & ~has
        # "0" means administrators only; the owner and administrators have every bit.
        if missing or (int(required) == 0 and has != ALL_PERMISSIONS):
            names = [n for n, v in discord.Permissions(missing) if v] or ["administrator"]
            raise CommandNotAvailable(f"{user.username} cannot use /{name}: missing {names}")

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
        commands, then global ones; ``dm=True`` runs it in the user's DM channel, as Discord
        sends it there: ``user`` instead of ``member``, no ``guild_id``, ``context`` 1, and
        delivered to shard 0. Raises :class:`CommandNotAvailable` if the Discord client would
        not let ``user`` run it (``default_member_permissions``, DM availability).
        """
        who = self.resolve_user(user)
        where = self._interaction_channel(who, channel, dm)
        data = self._build_command_data(where, path, options, focused=None, user=who)
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
        data = self._build_command_data(where, path, {**(options or {}), focused: value}, focused=focused, user=who)
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

    def _build_routes(self) -> list[_Route]:
        e_cb, e_fu, e_we, e_cm, e_th = CALLBACK, FOLLOWUP, WEBHOOK_EDIT, CHANNEL_MESSAGE_ENDPOINT, THREAD
        webhook_message = "/webhooks/{application_id}/{interaction_token}/messages/{webhook_message_id}"
        table: list[tuple[str, str, str, Callable[..., Awaitable[web.Response]]]] = [
            ("GET", "/users/@me", OTHER, self._get_me),
            ("GET", "/users/{user_id}", OTHER, self._get_user),
            ("POST", "/users/@me/channels", OTHER, self._create_dm),
            ("GET", "/applications/@me", OTHER, self._get_application),
            ("GET", "/oauth2/applications/@me", OTHER, self._get_application),
            ("GET", "/gateway", OTHER, self._get_gateway),
            ("GET", "/gateway/bot", OTHER, self._get_gateway),
            ("GET", "/applications/{application_id}/commands", OTHER, self._get_commands),
            ("PUT", "/applications/{application_id}/commands", OTHER, self._put_commands),
            ("GET", "/applications/{application_id}/guilds/{guild_id}/commands", OTHER, self._get_commands),
            ("PUT", "/applications/{application_id}/guilds/{guild_id}/commands", OTHER, self._put_commands),
            ("POST", "/interactions/{interaction_id}/{interaction_token}/callback", e_cb, self._interaction_callback),
            ("POST", "/webhooks/{application_id}/{interaction_token}", e_fu, self._followup),
            ("GET", webhook_message, OTHER, self._wh_get),
            ("PATCH", webhook_message, e_we, self._wh_edit),
            ("DELETE", webhook_message, OTHER, self._wh_delete),
            ("GET", "/channels/{channel_id}", OTHER, self._get_channel),
            ("GET", "/channels/{channel_id}/messages", OTHER, self._list_messages),
            ("POST", "/channels/{channel_id}/messages", e_cm, self._post_message),
            ("GET", "/channels/{channel_id}/messages/{message_id}", OTHER, self._get_channel_message),
            ("PATCH", "/channels/{channel_id}/messages/{message_id}", e_cm, self._edit_channel_message),
            ("DELETE", "/channels/{channel_id}/messages/{message_id}", OTHER, self._delete_channel_message),
            ("POST", "/channels/{channel_id}/threads", e_th, self._start_thread),
            ("POST", "/channels/{channel_id}/messages/{message_id}/threads", e_th, self._start_thread),
            ("POST", "/channels/{channel_id}/typing", OTHER, self._ok_no_content),
            ("PUT", "/channels/{channel_id}/messages/{message_id}/reactions/{reaction}", OTHER, self._ok_no_content),
            ("DELETE", "/channels/{channel_id}/messages/{message_id}/reactions/{reaction}", OTHER, self._ok_no_content),
            ("DELETE", "/channels/{channel_id}/messages/{message_id}/reactions", OTHER, self._ok_no_content),
            ("GET", "/guilds/{guild_id}", OTHER, self._get_guild),
            ("GET", "/guilds/{guild_id}/channels", OTHER, self._get_guild_channels),
            ("GET", "/guilds/{guild_id}/roles", OTHER, self._get_guild_roles),
            ("GET", "/guilds/{guild_id}/members/{user_id}", OTHER, self._get_guild_member),
        ]
        return [_Route(method, template, endpoint, handler) for method, template, endpoint, handler in table]

    def _find_route(self, method: str, path: str) -> tuple[_Route, dict[str, str]] | None:
        for route in self._routes:
            if route.method == method and (match := route.pattern.fullmatch(path)):
                return route, match.groupdict()
        return None

    def _interaction_id_of(self, params: dict[str, str]) -> int | None:
        if "interaction_id" in params:
            return int(params["interaction_id"])
        interaction = self.interactions.get(params.get("interaction_token", ""))
        return interaction.id if interaction is not None else None

    async def _rest_handler(self, request: web.Request) -> web.Response:
        path = "/" + request.match_info["tail"]
        self.requests.append((request.method, path))
        record = RequestRecord(method=request.method, path=path)
        self.request_log.append(record)
        try:
            found = self._find_route(request.method, path.rstrip("/") or "/")
            if found is None:
                log.warning("fake discord: unknown route %s %s", request.method, path)
                self.unknown_requests.append((request.method, path))
                record.status = 404
                return _error(404, f"fake discord has no route {request.method} {path}")
            route, params = found
            record.route, record.endpoint = f"{route.method} {route.template}", route.endpoint
            record.interaction_id = self._interaction_id_of(params)
            response = await self._handle_with_faults(request, route, params, record)
            record.status = None if request.transport is None or request.transport.is_closing() else response.status
            return response
        finally:
            self._notify()

    async def _handle_with_faults(
        self, request: web.Request, route: _Route, params: dict[str, str], record: RequestRecord
    ) -> web.Response:
        injected = next((f for f in self.faults if f.matches(record)), None)
        kwargs = {_KWARG.get(name, name): value for name, value in params.items()}
        if injected is None:
            return await route.handler(request, **kwargs)
        injected.hits.append(record)
        fault = injected.fault
        record.fault = fault.kind
        log.debug("fake discord: %s on %s %s", fault.kind, request.method, request.path)
        if fault.kind == "delay":
            await asyncio.sleep(fault.seconds)
        if not fault.applied:
            response = fault_response(fault) if fault.kind != "drop" else _no_content()
        else:
            response = await route.handler(request, **kwargs)
        if fault.kind == "applied_but_lost":
            response = lost_response(fault.status)
        if fault.kind == "drop":
            if not fault.applied:
                await request.read()  # the request reached Discord, only the answer is lost
            assert request.transport is not None
            request.transport.abort()
        return response

    # ------------------------------------------------------------------ request log and faults

    def mark(self) -> int:
        """A point in :attr:`request_log` to count requests from (see :meth:`requests_since`)."""
        return len(self.request_log)

    def requests_since(
        self,
        mark: int = 0,
        *,
        endpoint: str | None = None,
        method: str | None = None,
        route: str | None = None,
        interaction: FakeInteraction | int | None = None,
        exclude_faulted: bool = False,
    ) -> list[RequestRecord]:
        """Requests logged after ``mark``, filtered by endpoint kind, method, route template or interaction."""
        iid = interaction.id if isinstance(interaction, FakeInteraction) else interaction
        return select_requests(
            self.request_log[mark:],
            endpoint=endpoint,
            method=method,
            route=route,
            interaction_id=iid,
            exclude_faulted=exclude_faulted,
        )

    @contextlib.contextmanager
    def count_requests(self) -> Iterator[RequestWindow]:
        """``with fake.count_requests() as log:`` records the requests made inside the block."""
        window = RequestWindow(self.request_log, len(self.request_log))
        try:
            yield window
        finally:
            window.close()

    def reset_requests(self) -> None:
        """Forget logged requests (``request_log``, ``requests`` and ``unknown_requests``)."""
        self.request_log.clear()
        self.requests.clear()
        self.unknown_requests.clear()

    def inject(
        self,
        endpoint: str = ANY,
        fault: Fault | str | int = "500",
        *,
        times: int | None = 1,
        method: str | None = None,
        interaction: FakeInteraction | int | None = None,
    ) -> InjectedFault:
        """Make the next ``times`` requests to ``endpoint`` fail with ``fault`` (``times=None``: until cleared).

        See the module docstring for endpoints and fault names. Faults are consumed in the
        order they were injected; the returned handle's ``hits`` lists the requests hit.
        """
        if endpoint not in ENDPOINTS:
            raise ValueError(f"unknown endpoint {endpoint!r}; one of {ENDPOINTS}")
        spec = Fault.parse(fault, outage_seconds=self.interaction_deadline + 0.25)
        iid = interaction.id if isinstance(interaction, FakeInteraction) else interaction
        injected = InjectedFault(
            endpoint=endpoint, fault=spec, times=times, method=method.upper() if method else None, interaction_id=iid
        )
        self.faults.append(injected)
        return injected

    def clear_faults(self) -> None:
        """Switch every injected fault off."""
        for injected in self.faults:
            injected.cancel()
        self.faults.clear()

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
            message_reference=payload.get("message_reference"),
        )
        self._record_mentions(msg, payload)
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

    def _record_mentions(self, msg: StoredMessage, payload: dict[str, Any]) -> None:
        msg.allowed_mentions = payload.get("allowed_mentions")
        if msg.ephemeral or msg.loading:
            msg.pings = Pings()  # only the invoker sees it; nobody is notified
            return
        replied = None
        if msg.message_reference and (ref_id := msg.message_reference.get("message_id")):
            referenced = self.messages.get(int(ref_id))
            replied = referenced.author.id if referenced is not None else None
        channel = self.get_channel(msg.channel_id)
        can_everyone = channel is None or bool(self.bot_permissions(channel) & MENTION_EVERYONE)
        msg.pings = compute_pings(
            msg.content, msg.allowed_mentions, replied_user=replied, can_mention_everyone=can_everyone
        )

    def _edit_message(
        self,
        msg: StoredMessage,
        payload: dict[str, Any],
        files: dict[int, StoredAttachment],
        interaction: FakeInteraction | None = None,
    ) -> StoredMessage:
        msg.history.append(msg.to_payload())
        was_placeholder = msg.loading
        for key in ("content", "embeds", "components"):
            if key in payload:
                setattr(msg, key, payload[key] if payload[key] is not None else ("" if key == "content" else []))
        if "attachments" in payload or files:
            msg.attachments = self._attachments_from(payload, files, msg.attachments)
        if payload.get("flags") is not None:
            # Only flags that may change after creation; ephemerality is fixed.
            msg.flags = (msg.flags & EPHEMERAL) | (int(payload["flags"]) & ~(EPHEMERAL | LOADING))
        msg.flags &= ~LOADING
        if was_placeholder:
            # Filling in a "thinking..." placeholder is the message's first real content, which notifies.
            self._record_mentions(msg, payload)
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
                "shards": self.shard_count,
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
        if time.monotonic() - interaction.created_monotonic > self.interaction_deadline:
            return _error(404, "Unknown interaction", UNKNOWN_INTERACTION)
        kind = int(body["type"])
        data = body.get("data") or {}
        flags = int(data.get("flags") or 0)
        if kind in (CHANNEL_MESSAGE, UPDATE_MESSAGE):
            existing = source.attachments if kind == UPDATE_MESSAGE and (source := interaction.source_message) else []
            if (refused := self._refuse_body(data, files, prefix=("data",), existing=existing)) is not None:
                return refused
        elif kind == AUTOCOMPLETE_RESULT and self.enforce_limits and (errors := validate_autocomplete(data)):
            return _json(form_error_body(errors), status=400)
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

    def _token_expired(self, interaction: FakeInteraction) -> web.Response | None:
        if time.monotonic() - interaction.created_monotonic > self.token_lifetime:
            return _error(401, "Invalid Webhook Token", INVALID_WEBHOOK_TOKEN)
        return None

    def _refuse_body(
        self,
        payload: dict[str, Any],
        files: dict[int, StoredAttachment],
        *,
        prefix: tuple[str, ...] = (),
        existing: list[StoredAttachment] | None = None,
    ) -> web.Response | None:
        """A 413/400 answer if a message body breaks Discord's limits (None if it is fine)."""
        if not self.enforce_limits:
            return None
        if sum(len(f.data) for f in files.values()) > self.attachment_size_limit:
            return _error(413, "Request entity too large", REQUEST_TOO_LARGE)
        meta = payload.get("attachments")
        count = len(meta) if meta is not None else len(existing or []) + len(files)
        errors: ErrorTree = validate_message(payload, attachment_count=count, prefix=prefix)
        return _json(form_error_body(errors), status=400) if errors else None

    def _missing_permissions(self, channel: FakeChannel, needed: int) -> web.Response | None:
        if channel.is_dm or not needed & ~self.bot_permissions(channel):
            return None
        return _error(403, "Missing Permissions", MISSING_PERMISSIONS)

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
            return _error(404, "Unknown Webhook", UNKNOWN_WEBHOOK)
        if (expired := self._token_expired(interaction)) is not None:
            return expired
        if interaction.callback is None:
            return _error(404, "Unknown Webhook (interaction not acknowledged yet)", UNKNOWN_WEBHOOK)
        body, files = await self._read_body(request)
        if (refused := self._refuse_body(body, files)) is not None:
            return refused
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
        if interaction is not None and (expired := self._token_expired(interaction)) is not None:
            return expired
        msg = interaction and self._webhook_message(interaction, mid)
        return _json(msg.to_payload()) if msg else _error(404, "Unknown Message", UNKNOWN_MESSAGE)

    async def _wh_edit(self, request: web.Request, app: str, token: str, mid: str) -> web.Response:
        interaction = self._interaction_for(app, token)
        if interaction is not None and (expired := self._token_expired(interaction)) is not None:
            return expired
        msg = interaction and self._webhook_message(interaction, mid)
        if not msg:
            return _error(404, "Unknown Message", UNKNOWN_MESSAGE)
        body, files = await self._read_body(request)
        if (refused := self._refuse_body(body, files, existing=msg.attachments)) is not None:
            return refused
        return _json(self._edit_message(msg, body, files, interaction).to_payload())

    async def _wh_delete(self, request: web.Request, app: str, token: str, mid: str) -> web.Response:
        interaction = self._interaction_for(app, token)
        if interaction is not None and (expired := self._token_expired(interaction)) is not None:
            return expired
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
        channel = self.get_channel(int(cid))
        if channel is None:
            return _error(404, "Unknown Channel", UNKNOWN_CHANNEL)
        body, files = await self._read_body(request)
        needed = VIEW_CHANNEL | (SEND_MESSAGES_IN_THREADS if channel.is_thread else SEND_MESSAGES)
        if files:
            needed |= ATTACH_FILES
        if (refused := self._missing_permissions(channel, needed) or self._refuse_body(body, files)) is not None:
            return refused
        flags = int(body.get("flags") or 0) & ~(EPHEMERAL | LOADING)  # channel messages are never ephemeral
        return _json(self._create_message(int(cid), body, files, flags=flags).to_payload())

    async def _start_thread(self, request: web.Request, cid: str, mid: str | None = None) -> web.Response:
        parent = self.get_channel(int(cid))
        if parent is None or parent.is_dm or parent.is_thread:
            return _error(404, "Unknown Channel", UNKNOWN_CHANNEL)
        body, _ = await self._read_body(request)
        source = None
        if mid is not None:
            source = self._channel_message(cid, mid)
            if source is None:
                return _error(404, "Unknown Message", UNKNOWN_MESSAGE)
            if source.thread_id is not None:
                return _error(400, "A thread has already been created for this message", 160004)
        # A thread from a message is always public; without one Discord defaults to private.
        kind = PUBLIC_THREAD if source is not None else int(body.get("type") or PRIVATE_THREAD)
        if kind not in (PUBLIC_THREAD, PRIVATE_THREAD):
            return _json(form_error_body({"type": {"_errors": [{"code": "BASE_TYPE_CHOICES"}]}}), status=400)
        create = CREATE_PUBLIC_THREADS if kind == PUBLIC_THREAD else CREATE_PRIVATE_THREADS
        if (refused := self._missing_permissions(parent, VIEW_CHANNEL | SEND_MESSAGES_IN_THREADS | create)) is not None:
            return refused
        name = str(body.get("name") or "")
        if not 1 <= len(name) <= 100:
            error = {"code": "BASE_TYPE_BAD_LENGTH", "message": "Must be between 1 and 100 in length."}
            return _json(form_error_body({"name": {"_errors": [error]}}), status=400)
        thread = self._create_thread(parent, name, self.bot_user, kind, source)
        if body.get("auto_archive_duration"):
            thread.auto_archive_duration = int(body["auto_archive_duration"])
        return _json(thread.to_payload(), status=201)

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
        if (refused := self._refuse_body(body, files, existing=msg.attachments)) is not None:
            return refused
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
