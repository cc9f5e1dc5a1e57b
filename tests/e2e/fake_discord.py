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
  > 10 attachments, an attachment ``description`` (alt text) > 1024,
  > 5 action rows or > 5 components per row, custom_id > 100, button label
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

Slow Discord: ``fake.slow_answers(1.0, 2.5)`` delays the answer to every REST request by a
random time in that range (seeded: the same delays each run) after the request took effect,
as when Discord is slow to answer: the interaction deadline is still checked when the callback
arrives, so a slow answer is no late callback. ``fake.slow_answers(None)`` ends it. Each
:class:`RequestRecord` keeps its ``answered_at``.

Duplicate interactions: ``fake.interaction_copies = 2`` delivers every interaction twice over
the gateway, back to back (same id and token), and ``await fake.redeliver(interaction)``
delivers one again; as on Discord, whichever callback comes second gets ``400`` code 40060.

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

User installs and group DMs: ``fake.install_for_user(user)`` and ``channel = fake.add_group_dm(alice, bob)``;
``fake.slash(user, ..., channel=channel)`` then sends what Discord sends for a user-installed app there: ``user``
instead of ``member``, no ``guild_id``, ``context`` 2, ``authorizing_integration_owners`` ``{"1": <user id>}`` (a
button on a message keeps the installation of the interaction that sent it), the channel as a GROUP_DM with its
other recipients, and ``app_permissions`` of an app whose bot is not there. As the Discord client does, it refuses
(:class:`CommandNotAvailable`) a command that is not global, not installable by users (``integration_types``) or
not allowed in private channels (``contexts``), or a member who did not install the app; a member not in the group
DM cannot act there. The bot is no member: posting, editing, reading the channel or opening a thread there gets
``403`` code 50001 (Missing Access); only the interactions' callbacks, followups and webhook edits work.

Threads: ``POST /channels/{id}/threads`` and ``POST /channels/{id}/messages/{id}/threads``
create threads (THREAD_CREATE is dispatched); ``fake.threads(channel)``,
``fake.channel_messages(thread)`` and ``GET /channels/{thread_id}`` read them;
``fake.add_thread(...)`` makes one from the test side.
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import json
import logging
import random
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
    CALLBACK,
    FOLLOWUP,
    OTHER,
    THREAD,
    WEBHOOK_EDIT,
    Fault,
    InjectedFault,
    RequestLogMixin,
    RequestRecord,
    RequestWindow,
    fault_response,
    lost_response,
)
from tests.e2e.fake_discord_faults import CHANNEL_MESSAGE as CHANNEL_MESSAGE_ENDPOINT
from tests.e2e.fake_discord_interactions import (
    ATTACHMENT,
    BOOLEAN,
    CHANNEL,
    INTEGER,
    MENTIONABLE,
    NUMBER,
    ROLE,
    STRING,
    SUB_COMMAND,
    SUB_COMMAND_GROUP,
    USER,
    ChannelRef,
    CommandNotAvailable,
    InteractionsMixin,
    MessageRef,
    UserRef,
)
from tests.e2e.fake_discord_limits import UPLOAD_LIMIT_BYTES, Pings
from tests.e2e.fake_discord_rest import (
    ALREADY_ACKNOWLEDGED,
    FAKE_JSON,
    UNKNOWN_CHANNEL,
    UNKNOWN_INTERACTION,
    UNKNOWN_MESSAGE,
    RestMixin,
    _error,
    _no_content,
)
from tests.e2e.harness import (
    ADMINISTRATOR,
    ALL_PERMISSIONS,
    BOT_PERMISSIONS,
    DEFAULT_MEMBER_PERMISSIONS,
    GROUP_DM,
    PRIVATE_THREAD,
    PUBLIC_THREAD,
    CallbackRecord,
    FakeChannel,
    FakeGuild,
    FakeInteraction,
    FakeMember,
    FakeUser,
    StoredAttachment,
    StoredMessage,
    snowflake,
)

# Also re-exported: the option type and error code constants modules used to import from here.
__all__ = [
    "ALREADY_ACKNOWLEDGED",
    "ATTACHMENT",
    "BOOLEAN",
    "CHANNEL",
    "INTEGER",
    "MENTIONABLE",
    "NUMBER",
    "ROLE",
    "STRING",
    "SUB_COMMAND",
    "SUB_COMMAND_GROUP",
    "UNKNOWN_CHANNEL",
    "UNKNOWN_INTERACTION",
    "UNKNOWN_MESSAGE",
    "USER",
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


def point_discord_at(base_url: str) -> None:
    """Point discord.py (REST base and default gateway) at a fake at ``base_url`` for this process.

    For a bot under test in a child process: call it before creating the client, with
    :attr:`FakeDiscord.base_url` of the fake running in the test process.
    """
    base = base_url.rstrip("/")
    discord.http.Route.BASE = f"{base}/api/v10"
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(f"{base.replace('http', 'ws', 1)}/gateway")


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


class FakeDiscord(InteractionsMixin, RestMixin, RequestLogMixin):
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
        self.heartbeat_round_trip = 0.02  # seconds before a HEARTBEAT_ACK, as over a network
        self._acks: set[asyncio.Task[None]] = set()
        self.poll_interval = 0.02
        self.interaction_deadline = interaction_deadline
        self.token_lifetime = token_lifetime
        self.enforce_limits = enforce_limits
        self.attachment_size_limit = attachment_size_limit
        self.shard_count = shard_count
        self.answer_delay: tuple[float, float] | None = None
        self._answer_delays = random.Random(0)
        self.interaction_copies = 1
        # Whether the test's fixture checks, at the end, that every image the bot sent carries alt text in the right
        # language (tests/e2e/alt_text_check.py): set for the game bot, not for the fake's own demo bots.
        self.check_alt_text = False

        self.bot_user = FakeUser(id=snowflake(), username=bot_name, bot=True)
        # As on Discord, a bot's application id equals its user id.
        self.application_id = self.bot_user.id
        self.users: dict[int, FakeUser] = {self.bot_user.id: self.bot_user}
        self.guilds: dict[int, FakeGuild] = {}
        self.dm_channels: dict[int, FakeChannel] = {}  # by recipient user id
        self.group_dms: dict[int, FakeChannel] = {}  # by channel id
        self.user_installs: set[int] = set()  # users who installed the app for themselves
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
        self._sessions: dict[str, tuple[int, int]] = {}  # session id -> (shard id, shard count)
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
        """Wait until ``predicate()`` is truthy and return its value (an async predicate is awaited).

        Re-checked after every change the fake sees. Raises :class:`BotCrashed` if the bot
        dies meanwhile and ``AssertionError`` after ``timeout`` (default ``self.timeout``).
        """
        # The deadline is kept by hand, not by an ``asyncio.timeout`` around the loop: on Python 3.11 a
        # ``wait_for`` whose wait ends just as the outer timeout cancels it swallows that cancellation, and the
        # loop then polls forever (CPython gh-86296, fixed in 3.12; seen with twenty tables in bench/busy.py).
        loop = asyncio.get_running_loop()
        deadline = loop.time() + (self.timeout if timeout is None else timeout)
        try:
            while True:
                self._check_bot()
                result = predicate()
                if inspect.isawaitable(result):
                    result = await asyncio.wait_for(result, max(0.0, deadline - loop.time()))
                if result:
                    return result
                left = deadline - loop.time()
                if left <= 0:
                    raise TimeoutError
                # Also poll: some conditions (bot.is_ready(), bot-side state) change
                # without any request reaching the fake.
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._changed.wait(), min(self.poll_interval, left))
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
            "position": 2,  # above the roles a test adds (add_role): the bot may give those
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

    def add_role(self, name: str, *, guild: FakeGuild | None = None, position: int = 1) -> int:
        """A role of ``guild`` (default guild) members can be given; returns its id. The bot may give it only with
        Manage Roles and a role above it (the bot's own role is at position 1)."""
        guild = guild or self.guild
        role_id = snowflake()
        guild.roles[role_id] = {
            "id": str(role_id),
            "name": name,
            "permissions": "0",
            "position": position,
            "color": 0,
            "hoist": False,
            "managed": False,
            "mentionable": False,
            "flags": 0,
        }
        self._fire("GUILD_ROLE_CREATE", lambda: {"guild_id": str(guild.id), "role": guild.roles[role_id]}, guild.id)
        return role_id

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
        if channel_id in self.group_dms:
            return self.group_dms[channel_id]
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

    def install_for_user(self, user: UserRef) -> FakeUser:
        """``user`` installs the app for themselves (a user install): its commands that allow user installs then
        show for them in DMs and group DMs."""
        who = self.resolve_user(user)
        self.user_installs.add(who.id)
        return who

    def add_group_dm(self, *members: UserRef, name: str | None = None) -> FakeChannel:
        """A group DM of ``members`` (the first one owns it). The bot is never in it: a user-installed app answers
        interactions there, and every request of the bot to the channel itself gets ``403`` code 50001."""
        users = [self.resolve_user(member) for member in members]
        if len(users) < 2:
            raise ValueError("a group DM needs at least two members")
        if any(user.id == self.bot_user.id for user in users):
            raise ValueError("a bot cannot be added to a group DM")
        channel = FakeChannel(
            id=snowflake(),
            name=name or ", ".join(user.username for user in users),
            type=GROUP_DM,
            recipients=users,
            owner_id=users[0].id,
        )
        self.group_dms[channel.id] = channel
        return channel

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

    async def _ack_heartbeat(self, gw: _Gateway) -> None:
        await asyncio.sleep(self.heartbeat_round_trip)
        if gw.open:
            with contextlib.suppress(ConnectionResetError, RuntimeError):
                await gw.send(11, None)

    async def _on_gateway_frame(self, gw: _Gateway, op: int, d: Any) -> None:
        if op == 1:  # HEARTBEAT
            # Acknowledged after a round trip, as over a network: an ACK sent at once can reach discord.py before
            # its keep-alive thread has noted the time of the heartbeat, and it then logs "websocket is 41 s behind"
            # (the time since the previous heartbeat).
            ack = asyncio.get_running_loop().create_task(self._ack_heartbeat(gw))
            self._acks.add(ack)
            ack.add_done_callback(self._acks.discard)
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
                    "user": self.bot_user.to_pii_payload(),
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
            self._sessions[gw.session_id] = (gw.shard_id, gw.shard_count)
            self._notify()
        elif op == 6:  # RESUME: nothing was missed, the fake never drops events
            # RESUME carries no shard: the session it resumes tells which shard this connection serves.
            gw.shard_id, gw.shard_count = self._sessions.get(str(d.get("session_id")), (0, 1))
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
            ("PUT", "/guilds/{guild_id}/members/{user_id}/roles/{role_id}", OTHER, self._add_member_role),
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
            if self.answer_delay is not None:
                self._notify()  # the request took effect; only its answer is late
                await asyncio.sleep(self._answer_delays.uniform(*self.answer_delay))
            record.answered_at = time.monotonic()
            record.status = None if request.transport is None or request.transport.is_closing() else response.status
            record.request_json = request.get(FAKE_JSON)
            record.response_body = response.body if isinstance(response.body, bytes) else None
            return response
        finally:
            self._notify()

    def slow_answers(self, low: float | None = 1.0, high: float = 2.5, *, seed: int = 0) -> None:
        """Answer every REST request ``low``..``high`` seconds late (uniformly, seeded), after it took effect;
        ``slow_answers(None)`` answers at once again."""
        if low is None:
            self.answer_delay = None
            return
        if not 0 <= low <= high:
            raise ValueError("need 0 <= low <= high")
        self.answer_delay = (low, high)
        self._answer_delays = random.Random(seed)

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


@contextlib.asynccontextmanager
async def start_fake_discord(**kwargs: Any) -> AsyncIterator[FakeDiscord]:
    """Start a :class:`FakeDiscord` (keyword arguments go to its constructor); stop it on exit."""
    fake = FakeDiscord(**kwargs)
    await fake.start()
    try:
        yield fake
    finally:
        await fake.stop()
