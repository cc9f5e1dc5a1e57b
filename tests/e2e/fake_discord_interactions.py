"""The interactions a test sends as members do (slash, autocomplete, click, select, modal submit).

Part of :class:`~tests.e2e.fake_discord.FakeDiscord` (see ``fake_discord.py``): payloads are
built exactly as Discord sends them, after checking what the Discord client itself would check
(the synced option schema, ``default_member_permissions``, DM availability).
"""

from __future__ import annotations

import secrets
from typing import TYPE_CHECKING, Any

import discord

from tests.e2e.harness import (
    ALL_PERMISSIONS,
    PRIVATE_APP_PERMISSIONS,
    FakeChannel,
    FakeGuild,
    FakeInteraction,
    FakeMember,
    FakeUser,
    StoredAttachment,
    StoredMessage,
    snowflake,
)

UserRef = int | str | FakeUser | FakeMember
ChannelRef = int | FakeChannel
MessageRef = int | StoredMessage

# Discord option types (ApplicationCommandOptionType).
SUB_COMMAND, SUB_COMMAND_GROUP = 1, 2
STRING, INTEGER, BOOLEAN, USER, CHANNEL, ROLE, MENTIONABLE, NUMBER, ATTACHMENT = range(3, 12)

# Interaction context types (where a command may run) and installation types (who installed the app).
CONTEXT_GUILD, CONTEXT_BOT_DM, CONTEXT_PRIVATE_CHANNEL = 0, 1, 2
GUILD_INSTALL, USER_INSTALL = 0, 1


class CommandNotAvailable(AssertionError):
    """The Discord client would not send this command for this member (permissions or DM context)."""


class InteractionsMixin:
    """Sending interactions; mixed into :class:`~tests.e2e.fake_discord.FakeDiscord`."""

    guilds: dict[int, FakeGuild]
    messages: dict[int, StoredMessage]
    interactions: dict[str, FakeInteraction]
    application_id: int
    attachment_size_limit: int
    interaction_copies: int
    user_installs: set[int]

    if TYPE_CHECKING:

        def resolve_user(self, ref: UserRef) -> FakeUser: ...
        def _resolve_channel(self, ref: ChannelRef | None) -> FakeChannel: ...
        def dm_channel(self, user: UserRef) -> FakeChannel: ...
        def member_permissions(self, user: UserRef, guild: FakeGuild | None = None) -> int: ...
        def bot_permissions(self, channel: ChannelRef | None = None) -> int: ...
        def find_command(self, name: str, guild_id: int | None = None, type: int = 1) -> dict[str, Any]: ...
        async def dispatch(self, event: str, data: Any, *, guild_id: int | str | None = "infer") -> None: ...
        def _store_attachment(self, filename: str, data: bytes, description: str | None) -> StoredAttachment: ...

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
        if channel.is_group_dm:  # a user-installed app, whose bot is not in the conversation
            if user.id not in {member.id for member in channel.recipients}:
                raise AssertionError(f"{user.username} is not in the group DM {channel.name!r}")
            payload["user"] = user.to_payload()
            payload["context"] = CONTEXT_PRIVATE_CHANNEL
            payload["authorizing_integration_owners"] = {str(USER_INSTALL): str(user.id)}
            payload["app_permissions"] = str(PRIVATE_APP_PERMISSIONS)
            payload["channel"] = channel.to_payload(viewer=user)
        elif channel.is_dm:
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
        for _ in range(max(1, self.interaction_copies)):
            await self.redeliver(interaction)
        return interaction

    async def redeliver(self, interaction: FakeInteraction) -> None:
        """Deliver ``interaction`` (again) over the gateway, as Discord sometimes does: the same payload, id and
        token. Its deadline still runs from the first delivery; the second callback gets 40060."""
        interaction.deliveries += 1
        await self.dispatch("INTERACTION_CREATE", interaction.payload)

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
        any_guild: bool = False,
    ) -> dict[str, Any]:
        if not path:
            raise ValueError("give at least the command name")
        guild_id = channel.guild_id
        if guild_id is None and any_guild and self.guild_commands:  # a forged DM use of a server's command
            guild_id = next(
                gid for gid, commands in self.guild_commands.items() if any(c["name"] == path[0] for c in commands)
            )
        command = self.find_command(path[0], guild_id, type_)
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
        if channel.is_group_dm:
            if command.get("guild_id"):
                raise CommandNotAvailable(f"/{name} is a server's command: it is not available in group DMs")
            if contexts is None or CONTEXT_PRIVATE_CHANNEL not in contexts:
                raise CommandNotAvailable(f"/{name} is not available in DMs and group DMs")
            if USER_INSTALL not in (command.get("integration_types") or [GUILD_INSTALL]):
                raise CommandNotAvailable(f"/{name} cannot be installed by users")
            if user.id not in self.user_installs:
                raise CommandNotAvailable(f"{user.username} has not installed the app, so /{name} is not offered")
            return
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
        forged: bool = False,
        forge: dict[str, dict[str, Any]] | None = None,
    ) -> FakeInteraction:
        """Invoke a synced slash command: ``await fake.slash("alice", "iago", "move", options={...})``.

        ``forged=True`` sends what no Discord client would (a hostile tester's request): the availability
        checks are skipped, and in a DM a command synced only to a server is still sent. ``forge`` sets fields
        of named options in the payload as given, unchecked (``{"game": {"value": "12"}}``: a value of the wrong
        type, which Discord itself would never send); an option not sent yet is added.

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
        data = self._build_command_data(
            where, path, options, focused=None, user=None if forged else who, any_guild=forged
        )
        if forge:
            _forge_options(data, forge)
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
        if where.is_group_dm and msg.interaction_metadata is not None:
            # A button answers for the installation that sent its message, whoever clicks it.
            payload["authorizing_integration_owners"] = msg.interaction_metadata["authorizing_integration_owners"]
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
        forged: bool = False,
    ) -> FakeInteraction:
        """Pick ``values`` in the (string) select menu ``custom_id`` of a stored bot message.

        As the Discord client, only values among the menu's options can be picked, between its ``min_values``
        (default 1) and ``max_values`` (default 1) of them; ``forged=True`` sends any values (a hostile tester)."""
        payload, who, where, msg, component = self._component_interaction(user, message, custom_id, False, locale)
        if not forged and component.get("type", 3) == 3:
            offered = [option["value"] for option in component.get("options", [])]
            unknown = [value for value in values if value not in offered]
            if unknown:
                raise AssertionError(f"select {custom_id!r} offers no {unknown}; it offers {offered}")
            low, high = component.get("min_values", 1), component.get("max_values", 1)
            if not low <= len(values) <= high or len(set(values)) != len(values):
                raise AssertionError(f"select {custom_id!r} takes {low} to {high} distinct values, not {values}")
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


def _forge_options(data: dict[str, Any], forge: dict[str, dict[str, Any]]) -> None:
    """Set fields of the named options at the leaf level of a command's data (after subcommands and groups)."""
    leaf: list[dict[str, Any]] = data.setdefault("options", [])
    while leaf and leaf[0].get("type") in (SUB_COMMAND, SUB_COMMAND_GROUP):
        leaf = leaf[0].setdefault("options", [])
    for name, fields in forge.items():
        option = next((o for o in leaf if o["name"] == name), None)
        if option is None:
            leaf.append({"name": name, **fields})
        else:
            option.update(fields)
