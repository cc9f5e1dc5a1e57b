"""REST handlers of the fake Discord server and the message store behind them.

Part of :class:`~tests.e2e.fake_discord.FakeDiscord` (see ``fake_discord.py`` for what is
enforced): each handler answers the way Discord does, with Discord's JSON error codes.
"""

from __future__ import annotations

import json
import mimetypes
import re
import time
from typing import TYPE_CHECKING, Any

import discord
import yarl
from aiohttp import web

from tests.e2e.fake_discord_limits import (
    REQUEST_TOO_LARGE,
    ErrorTree,
    Pings,
    compute_pings,
    form_error_body,
    validate_autocomplete,
    validate_commands,
    validate_message,
)
from tests.e2e.harness import (
    AUTOCOMPLETE_RESULT,
    CHANNEL_MESSAGE,
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
    FakeUser,
    StoredAttachment,
    StoredMessage,
    now,
    snowflake,
)

# Where _read_body leaves the JSON it read, for the request log (a typed key where aiohttp has them).
FAKE_JSON: Any = web.RequestKey("fake_json", object) if hasattr(web, "RequestKey") else "fake_json"

# Discord JSON error codes the bot may branch on.
UNKNOWN_CHANNEL, UNKNOWN_MESSAGE, UNKNOWN_INTERACTION, ALREADY_ACKNOWLEDGED = 10003, 10008, 10062, 40060
UNKNOWN_WEBHOOK, INVALID_WEBHOOK_TOKEN, MISSING_PERMISSIONS, MISSING_ACCESS = 10015, 50027, 50013, 50001
THREAD_ALREADY_CREATED = 160004

# Permission bits the REST endpoints check.
VIEW_CHANNEL = discord.Permissions(view_channel=True).value
SEND_MESSAGES = discord.Permissions(send_messages=True).value
ATTACH_FILES = discord.Permissions(attach_files=True).value
CREATE_PUBLIC_THREADS = discord.Permissions(create_public_threads=True).value
CREATE_PRIVATE_THREADS = discord.Permissions(create_private_threads=True).value
SEND_MESSAGES_IN_THREADS = discord.Permissions(send_messages_in_threads=True).value
MENTION_EVERYONE = discord.Permissions(mention_everyone=True).value
MANAGE_ROLES = discord.Permissions(manage_roles=True).value


def _json(data: Any, status: int = 200) -> web.Response:
    # discord.py only decodes JSON when Content-Type is exactly "application/json";
    # web.json_response would append "; charset=utf-8" and the client would get a str.
    return web.Response(body=json.dumps(data).encode(), status=status, content_type="application/json")


def _error(status: int, message: str, code: int = 0) -> web.Response:
    return _json({"message": message, "code": code}, status=status)


def _permissions_text(value: Any) -> str | None:
    return None if value is None else str(value)


def _no_content() -> web.Response:
    return web.Response(status=204)


def _no_access(channel: FakeChannel | None) -> web.Response | None:
    """A group DM is its members' only: the bot, never one of them, may not read or post there (a user-installed app
    answers interactions there, which needs no access to the channel)."""
    if channel is not None and channel.is_group_dm:
        return _error(403, "Missing Access", MISSING_ACCESS)
    return None


SELECTS = (3, 5, 6, 7, 8)  # string, user, role, mentionable and channel selects


def stored_components(components: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Components as Discord stores and answers them: a select sent without ``min_values``/``max_values`` (one value,
    Discord's default) comes back with both."""
    stored = []
    for component in components:
        component = dict(component)
        if component.get("type") in SELECTS:
            component.setdefault("min_values", 1)
            component.setdefault("max_values", 1)
        if isinstance(component.get("components"), list):
            component["components"] = stored_components(component["components"])
        stored.append(component)
    return stored


class RestMixin:
    """REST handlers and message storage; mixed into :class:`~tests.e2e.fake_discord.FakeDiscord`."""

    bot_user: FakeUser
    alice: FakeUser
    application_id: int
    users: dict[int, FakeUser]
    guilds: dict[int, FakeGuild]
    messages: dict[int, StoredMessage]
    attachments: dict[int, StoredAttachment]
    interactions: dict[str, FakeInteraction]
    global_commands: list[dict[str, Any]]
    guild_commands: dict[int, list[dict[str, Any]]]
    sync_count: int
    shard_count: int
    interaction_deadline: float
    token_lifetime: float
    enforce_limits: bool
    attachment_size_limit: int

    if TYPE_CHECKING:

        @property
        def base_url(self) -> str: ...
        @property
        def gateway_url(self) -> yarl.URL: ...
        def get_channel(self, channel_id: int) -> FakeChannel | None: ...
        def commands(self, guild: FakeGuild | int | None = None) -> list[dict[str, Any]]: ...
        def dm_channel(self, user: int | str | FakeUser) -> FakeChannel: ...
        def channel_messages(self, channel: int | FakeChannel | None = None) -> list[StoredMessage]: ...
        def bot_permissions(self, channel: int | FakeChannel | None = None) -> int: ...
        def _create_thread(
            self, parent: FakeChannel, name: str, creator: FakeUser, kind: int, source: StoredMessage | None
        ) -> FakeChannel: ...

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
            request[FAKE_JSON] = payload
            return payload, files
        if request.can_read_body:
            request[FAKE_JSON] = body = await request.json()
            return body, files
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
        interaction: FakeInteraction | None = None,
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
                stored = self._store_attachment(
                    entry.get("filename") or upload.filename, upload.data, entry.get("description")
                )
                stored.uploaded_by = None if interaction is None else interaction.id
                channel = interaction.channel if interaction is not None else None
                guild = self.guilds.get(channel.guild_id or 0) if channel is not None else None
                stored.server_locale = guild.locale if guild is not None else None
                result.append(stored)
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
            components=stored_components(payload.get("components") or []),
            attachments=self._attachments_from(payload, files, interaction=interaction),
            flags=flags,
            message_reference=payload.get("message_reference"),
        )
        guild = self.guilds.get(msg.guild_id or 0)
        for attachment in msg.attachments:
            attachment.server_locale = attachment.server_locale or (guild.locale if guild is not None else None)
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
        msg.components = stored_components(msg.components)
        if "attachments" in payload or files:
            msg.attachments = self._attachments_from(payload, files, msg.attachments, interaction)
            guild = self.guilds.get(msg.guild_id or 0)
            for attachment in msg.attachments:
                attachment.server_locale = attachment.server_locale or (guild.locale if guild is not None else None)
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
        return _json(self.bot_user.to_pii_payload())

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
                "type": None,
                "bot_public": True,
                "bot_require_code_grant": False,
                "owner": self.alice.to_payload(),
                "verify_key": "0" * 64,
                "flags": 0,
                "flags_new": "0",
                "team": None,
                "bot": self.bot_user.to_payload(),
                "redirect_uris": [],
                "interactions_endpoint_url": None,
                "role_connections_verification_url": None,
                "approximate_guild_count": len(self.guilds),
                "approximate_user_install_count": 0,
                "approximate_user_authorization_count": 0,
                "explicit_content_filter": 0,
                "eligible_oauth2_scopes": [],
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
        errors = validate_commands(body)
        if errors:
            return _json(form_error_body(errors), status=400)
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
                "nsfw": False,
                **command,
                # Discord answers with these normalised: permissions as a string, the installs as a list.
                "default_member_permissions": _permissions_text(command.get("default_member_permissions")),
                "integration_types": command.get("integration_types") or [0],
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
        source = interaction.source_message
        if kind in (CHANNEL_MESSAGE, UPDATE_MESSAGE):
            existing = source.attachments if kind == UPDATE_MESSAGE and source is not None else []
            if (refused := self._refuse_body(data, files, prefix=("data",), existing=existing)) is not None:
                return refused
        elif kind == AUTOCOMPLETE_RESULT and self.enforce_limits and (errors := validate_autocomplete(data)):
            return _json(form_error_body(errors), status=400)
        message: StoredMessage | None = None
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
        answer: dict[str, Any] = {"interaction": info}
        if kind in (CHANNEL_MESSAGE, UPDATE_MESSAGE) and message is not None:
            # Only a message sent or updated is a resource; a deferral, an autocomplete or a modal has none.
            answer["resource"] = {"type": kind, "message": message.to_payload()}
        return _json(answer)

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
            if interaction.original_id is None or self.messages[interaction.original_id].deleted:
                return None  # never answered, or its answer deleted
            return self.messages[interaction.original_id]
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
            and not original.deleted
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
        if (refused := _no_access(channel)) is not None:
            return refused
        return _json(channel.to_payload()) if channel else _error(404, "Unknown Channel", UNKNOWN_CHANNEL)

    async def _list_messages(self, request: web.Request, cid: str) -> web.Response:
        if (refused := _no_access(self.get_channel(int(cid)))) is not None:
            return refused
        if self.get_channel(int(cid)) is None:
            return _error(404, "Unknown Channel", UNKNOWN_CHANNEL)
        limit = int(request.query.get("limit", 50))
        newest_first = list(reversed(self.channel_messages(int(cid))))
        return _json([m.to_payload() for m in newest_first[:limit]])

    async def _post_message(self, request: web.Request, cid: str) -> web.Response:
        channel = self.get_channel(int(cid))
        if channel is None:
            return _error(404, "Unknown Channel", UNKNOWN_CHANNEL)
        if (refused := _no_access(channel)) is not None:
            await request.read()
            return refused
        body, files = await self._read_body(request)
        needed = VIEW_CHANNEL | (SEND_MESSAGES_IN_THREADS if channel.is_thread else SEND_MESSAGES)
        if files:
            needed |= ATTACH_FILES
        if (refused := self._missing_permissions(channel, needed) or self._refuse_body(body, files)) is not None:
            return refused
        flags = int(body.get("flags") or 0) & ~(EPHEMERAL | LOADING)  # channel messages are never ephemeral
        # Discord's enforce_nonce: a second send with the same nonce by the same author in the same channel
        # (a retry after a lost answer) returns the first message instead of posting a duplicate.
        nonce = body.get("nonce")
        if nonce is not None and body.get("enforce_nonce"):
            for earlier in self.messages.values():
                if earlier.channel_id == int(cid) and earlier.nonce == str(nonce):
                    return _json(earlier.to_payload())
        message = self._create_message(int(cid), body, files, flags=flags)
        message.nonce = None if nonce is None else str(nonce)
        return _json(message.to_payload())

    async def _start_thread(self, request: web.Request, cid: str, mid: str | None = None) -> web.Response:
        parent = self.get_channel(int(cid))
        if (refused := _no_access(parent)) is not None:
            return refused
        if parent is None or parent.is_dm or parent.is_thread:
            return _error(404, "Unknown Channel", UNKNOWN_CHANNEL)
        body, _ = await self._read_body(request)
        source = None
        if mid is not None:
            source = self._channel_message(cid, mid)
            if source is None:
                return _error(404, "Unknown Message", UNKNOWN_MESSAGE)
            if source.thread_id is not None:
                return _error(400, "A thread has already been created for this message", THREAD_ALREADY_CREATED)
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
        """A message the bot may reach through its channel (never one of a group DM: :func:`_no_access`)."""
        msg = self.messages.get(int(mid))
        if msg is None or msg.deleted or msg.channel_id != int(cid) or msg.ephemeral:
            return None
        return msg

    async def _get_channel_message(self, request: web.Request, cid: str, mid: str) -> web.Response:
        if (refused := _no_access(self.get_channel(int(cid)))) is not None:
            return refused
        msg = self._channel_message(cid, mid)
        return _json(msg.to_payload()) if msg else _error(404, "Unknown Message", UNKNOWN_MESSAGE)

    async def _edit_channel_message(self, request: web.Request, cid: str, mid: str) -> web.Response:
        if (refused := _no_access(self.get_channel(int(cid)))) is not None:
            await request.read()
            return refused
        msg = self._channel_message(cid, mid)
        if msg is None:
            return _error(404, "Unknown Message", UNKNOWN_MESSAGE)
        body, files = await self._read_body(request)
        if (refused := self._refuse_body(body, files, existing=msg.attachments)) is not None:
            return refused
        return _json(self._edit_message(msg, body, files).to_payload())

    async def _delete_channel_message(self, request: web.Request, cid: str, mid: str) -> web.Response:
        if (refused := _no_access(self.get_channel(int(cid)))) is not None:
            return refused
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

    async def _add_member_role(self, request: web.Request, guild_id: str, user_id: str, role_id: str) -> web.Response:
        """Add Guild Member Role: needs Manage Roles, and a role below the bot's highest (as Discord checks)."""
        guild = self.guilds.get(int(guild_id))
        member = guild.members.get(int(user_id)) if guild else None
        if guild is None:
            return _error(404, "Unknown Guild", 10004)
        role = guild.roles.get(int(role_id))
        if role is None:
            return _error(404, "Unknown Role", 10011)
        if member is None:
            return _error(404, "Unknown Member", 10007)
        channel = guild.text_channels[0]
        own = max(int(r["position"]) for r in guild.roles.values() if r.get("tags", {}).get("bot_id"))
        if not self.bot_permissions(channel) & MANAGE_ROLES or int(role["position"]) >= own:
            return _error(403, "Missing Permissions", MISSING_PERMISSIONS)
        if int(role_id) not in member.roles:
            member.roles.append(int(role_id))
        return _no_content()

    async def _cdn_handler(self, request: web.Request) -> web.Response:
        att = self.attachments.get(int(request.match_info["id"]))
        if att is None:
            return web.Response(status=404)
        return web.Response(body=att.data, content_type=att.content_type or "application/octet-stream")
