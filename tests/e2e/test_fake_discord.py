"""Proves the fake Discord server with a tiny throwaway bot driven by the real discord.py."""

from __future__ import annotations

import asyncio
import io
import json
import os
import re
import sys
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import discord
import pytest
from discord import app_commands
from discord.ext import commands

from tests.e2e.fake_discord import BotCrashed, CommandNotAvailable, FakeDiscord, Fault, start_fake_discord
from tests.e2e.harness import BOT_PERMISSIONS

# PNG signature plus every byte value, so any text/encoding mangling of uploads shows up.
PNG = b"\x89PNG\r\n\x1a\n" + bytes(range(256))
MOVES = ["E5", "E6", "F4", "D3"]


class PokeView(discord.ui.View):
    """Persistent view (timeout=None + fixed custom_id) that survives bot restarts."""

    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.button(label="Poke", custom_id="demo:poke")
    async def poke(self, interaction: discord.Interaction, button: discord.ui.Button[PokeView]) -> None:
        await interaction.response.edit_message(content=f"poked by {interaction.user.name}", view=self)


class CounterButton(discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]], template=r"demo:count:(?P<n>\d+)"):
    """Stateless counter whose state lives in the custom_id."""

    def __init__(self, n: int) -> None:
        super().__init__(discord.ui.Button(label=str(n), custom_id=f"demo:count:{n}"))
        self.n = n

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[discord.ui.View], match: re.Match[str]
    ) -> CounterButton:
        return cls(int(match["n"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer()  # type 6: deferred update of the clicked message
        view = discord.ui.View(timeout=None).add_item(CounterButton(self.n + 1))
        await interaction.edit_original_response(content=f"count {self.n + 1}", view=view)


class NameModal(discord.ui.Modal, title="Your name"):
    name: discord.ui.TextInput[NameModal] = discord.ui.TextInput(label="Name", custom_id="demo:name")

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"hello {self.name.value}", ephemeral=True)


class DemoCog(commands.Cog):
    demo = app_commands.Group(name="demo", description="Demo commands")

    @demo.command(name="play", description="Challenge someone")
    async def play(self, interaction: discord.Interaction, opponent: discord.Member, move: str) -> None:
        assert isinstance(opponent, discord.Member)
        await interaction.response.send_message(
            f"{interaction.user.name} vs {opponent.name}: {move}",
            file=discord.File(io.BytesIO(PNG), filename="board.png"),
            embed=discord.Embed(title="Board", description=f"locale {interaction.locale.value}"),
            view=PokeView(),
        )

    @play.autocomplete("move")
    async def move_autocomplete(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return [app_commands.Choice(name=m, value=m) for m in MOVES if m.startswith(current.upper())]

    @demo.command(name="secret", description="Ephemeral reply")
    async def secret(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("only you can see this", ephemeral=True)

    @demo.command(name="slow", description="Deferred reply then followups")
    async def slow(self, interaction: discord.Interaction, hidden: bool = False) -> None:
        await interaction.response.defer(thinking=True, ephemeral=hidden)
        await asyncio.sleep(0.05)
        await interaction.followup.send("done", file=discord.File(io.BytesIO(PNG), filename="late.png"))
        await interaction.followup.send("and one more")

    @demo.command(name="counter", description="Dynamic item button")
    async def counter(self, interaction: discord.Interaction) -> None:
        view = discord.ui.View(timeout=None).add_item(CounterButton(0))
        await interaction.response.send_message("count 0", view=view)

    @demo.command(name="announce", description="Messages outside the interaction")
    async def announce(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("ok", ephemeral=True)
        assert isinstance(interaction.channel, discord.TextChannel)
        sent = await interaction.channel.send("announcement", file=discord.File(io.BytesIO(PNG), "a.png"))
        await sent.edit(content="announcement (edited)")
        await interaction.user.send("psst")

    @demo.command(name="upload", description="Echo an uploaded file")
    async def upload(self, interaction: discord.Interaction, file: discord.Attachment) -> None:
        data = await file.read()  # downloaded from the fake's CDN
        await interaction.response.send_message(
            f"{file.filename}: {len(data)} bytes", file=discord.File(io.BytesIO(data), "echo.png")
        )

    @demo.command(name="where", description="Where am I")
    async def where(self, interaction: discord.Interaction) -> None:
        place = "dm" if isinstance(interaction.channel, discord.DMChannel) else f"guild {interaction.guild_id}"
        await interaction.response.send_message(place, ephemeral=True)

    @demo.command(name="ask", description="Opens a modal")
    async def ask(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_modal(NameModal())

    @demo.command(name="broken", description="Raises")
    async def broken(self, interaction: discord.Interaction) -> None:
        raise ValueError("handler exploded")


class DemoBot(commands.Bot):
    def __init__(self, guild_id: int, *, crash: bool = False, sync_global: bool = False, **options: Any) -> None:
        # guild_ready_timeout: discord.py waits this long after the last GUILD_CREATE before on_ready.
        super().__init__(command_prefix="!", intents=discord.Intents.default(), guild_ready_timeout=0.1, **options)
        self.guild_id = guild_id
        self.crash = crash
        self.sync_global = sync_global

    async def setup_hook(self) -> None:
        if self.crash:
            raise RuntimeError("boom at start")
        await self.add_cog(DemoCog())
        self.add_view(PokeView())
        self.add_dynamic_items(CounterButton)
        if self.sync_global:
            await self.tree.sync()
            return
        guild = discord.Object(self.guild_id)
        self.tree.copy_global_to(guild=guild)
        await self.tree.sync(guild=guild)


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    async with start_fake_discord(timeout=3.0) as server:
        yield server


@pytest.fixture
async def running(fake: FakeDiscord) -> AsyncIterator[FakeDiscord]:
    async with fake.running_bot(DemoBot(fake.guild.id)):
        yield fake


async def test_commands_synced_to_guild(running: FakeDiscord) -> None:
    fake = running
    (demo,) = fake.commands(fake.guild)
    assert demo["name"] == "demo"
    assert demo["guild_id"] == str(fake.guild.id)
    assert {o["name"] for o in demo["options"]} >= {"play", "secret", "slow", "counter"}
    assert fake.commands() == []  # nothing global
    assert fake.unknown_requests == []


async def test_slash_reply_with_attachment_and_button(running: FakeDiscord) -> None:
    fake = running
    inter = await fake.slash("alice", "demo", "play", options={"opponent": fake.bob.id, "move": "E5"}, locale="fr")
    callback = await inter.response()
    assert callback.type == 4 and not callback.ephemeral
    msg = await inter.final()
    assert msg.content == "alice vs bob: E5"
    assert msg.attachment("board.png").data == PNG
    assert msg.embeds[0]["description"] == "locale fr"
    assert msg.custom_ids() == ["demo:poke"]
    assert fake.channel_messages() == [msg]

    click = await fake.click("carol", msg, "demo:poke")
    assert (await click.response()).type == 7
    assert fake.get_message(msg.id).content == "poked by carol"
    assert fake.get_message(msg.id).attachment().data == PNG  # edits keep attachments


async def test_autocomplete(running: FakeDiscord) -> None:
    choices = await running.autocomplete("alice", "demo", "play", focused="move", value="e")
    assert [c["value"] for c in choices] == ["E5", "E6"]


async def test_ephemeral_reply(running: FakeDiscord) -> None:
    inter = await running.slash("bob", "demo", "secret")
    msg = await inter.final()
    assert (await inter.response()).ephemeral
    assert msg.ephemeral and msg.content == "only you can see this"
    assert running.channel_messages() == []  # ephemeral messages are not channel history


@pytest.mark.parametrize("hidden", [False, True])
async def test_deferred_then_followups(running: FakeDiscord, hidden: bool) -> None:
    inter = await running.slash("alice", "demo", "slow", options={"hidden": hidden})
    callback = await inter.response()
    assert callback.type == 5 and callback.deferred
    first, second = await inter.followups(2)
    # The first followup replaces the "thinking" placeholder, keeping its ephemerality.
    assert first.id == inter.original_id and not first.loading
    assert first.ephemeral is hidden
    assert first.attachment("late.png").data == PNG
    assert second.content == "and one more" and not second.ephemeral
    assert (await inter.final()).id == second.id


async def test_dynamic_item_deferred_update(running: FakeDiscord) -> None:
    fake = running
    msg = await (await fake.slash("alice", "demo", "counter")).final()
    for expected in (1, 2):
        click = await fake.click("bob", fake.get_message(msg.id), f"demo:count:{expected - 1}")
        assert (await click.response()).type == 6
        edited = await click.final()
        assert edited.id == msg.id and edited.content == f"count {expected}"
    assert fake.get_message(msg.id).custom_ids() == ["demo:count:2"]


async def test_channel_and_dm_messages(running: FakeDiscord) -> None:
    fake = running
    inter = await fake.slash("carol", "demo", "announce")
    assert (await inter.final()).ephemeral
    announced = await fake.wait_for_message(predicate=lambda m: m.content == "announcement (edited)")
    assert announced.attachment("a.png").data == PNG and not announced.ephemeral
    dm = await fake.wait_for_message(fake.dm_channel("carol"))
    assert dm.content == "psst"
    assert fake.dm_messages(fake.carol) == [dm]


async def test_bot_error_fails_fast(running: FakeDiscord) -> None:
    inter = await running.slash("alice", "demo", "broken")
    start = time.monotonic()
    with pytest.raises(BotCrashed, match="handler exploded"):
        await inter.response()
    assert time.monotonic() - start < 1.0


async def test_option_validation(running: FakeDiscord) -> None:
    with pytest.raises(AssertionError, match="missing required"):
        await running.slash("alice", "demo", "play", options={"move": "E5"})
    with pytest.raises(AssertionError, match="unknown option"):
        await running.slash("alice", "demo", "play", options={"opponent": "bob", "move": "E5", "nope": 1})
    with pytest.raises(AssertionError, match="not synced"):
        await running.slash("alice", "missing")


async def test_crash_at_start_fails_fast(fake: FakeDiscord) -> None:
    start = time.monotonic()
    with pytest.raises(BotCrashed) as excinfo:
        async with fake.running_bot(DemoBot(fake.guild.id, crash=True)):
            pytest.fail("the bot should not become ready")
    assert isinstance(excinfo.value.__cause__, RuntimeError)
    assert "boom at start" in str(excinfo.value)
    assert time.monotonic() - start < 2.0


async def test_restart_keeps_messages_and_persistent_views(fake: FakeDiscord) -> None:
    async with fake.running_bot(DemoBot(fake.guild.id)):
        msg = await (await fake.slash("alice", "demo", "play", options={"opponent": "bob", "move": "F4"})).final()
        command_id = fake.commands(fake.guild)[0]["id"]

    with pytest.raises(AssertionError, match="no bot is connected"):
        await fake.click("bob", msg, "demo:poke")

    async with fake.running_bot(DemoBot(fake.guild.id)) as bot:
        assert bot.is_ready()
        assert fake.commands(fake.guild)[0]["id"] == command_id  # ids stable across re-syncs
        click = await fake.click("bob", msg, "demo:poke")
        assert (await click.final()).content == "poked by bob"
        second = await (await fake.slash("carol", "demo", "secret")).final()
        assert second.ephemeral


async def test_attachment_option_round_trip(running: FakeDiscord) -> None:
    inter = await running.slash("alice", "demo", "upload", options={"file": ("in.png", PNG)})
    msg = await inter.final()
    assert msg.content == f"in.png: {len(PNG)} bytes"
    assert msg.attachment("echo.png").data == PNG


async def test_expected_bot_error_can_be_consumed(running: FakeDiscord) -> None:
    inter = await running.slash("alice", "demo", "broken")
    with pytest.raises(BotCrashed):
        await inter.response()
    (record,) = running.take_bot_errors()
    assert "broken" in record.getMessage()
    assert (await (await running.slash("alice", "demo", "secret")).final()).ephemeral  # bot still usable


async def test_world_changes_reach_running_bot(fake: FakeDiscord) -> None:
    async with fake.running_bot(DemoBot(fake.guild.id)) as bot:
        channel = fake.add_text_channel("games")
        other = fake.add_guild("Second Guild", owner="bob")
        await fake.wait_until(lambda: bot.get_channel(channel.id) and bot.get_guild(other.id))
        inter = await fake.slash("alice", "demo", "play", options={"opponent": "bob", "move": "D3"}, channel=channel)
        assert (await inter.final()).channel_id == channel.id


async def test_global_commands_and_dm(fake: FakeDiscord) -> None:
    async with fake.running_bot(DemoBot(fake.guild.id, sync_global=True)):
        assert fake.commands(fake.guild) == [] and fake.commands()[0]["name"] == "demo"
        in_guild = await fake.slash("bob", "demo", "where")
        assert "guild_id" not in in_guild.payload["data"]
        assert (await in_guild.final()).content == f"guild {fake.guild.id}"
        in_dm = await fake.slash("bob", "demo", "where", dm=True)
        msg = await in_dm.final()
        assert msg.content == "dm" and msg.channel_id == fake.dm_channel("bob").id


async def test_modal_round_trip(running: FakeDiscord) -> None:
    opened = await running.slash("carol", "demo", "ask")
    assert (await opened.response()).modal["title"] == "Your name"
    submitted = await running.submit_modal("carol", opened, {"demo:name": "Carol"})
    assert (await submitted.final()).content == "hello Carol"


# ---------------------------------------------------------------- strictness, faults, shards, threads, permissions

Seen = list[tuple[Any, ...]]


def seen_of(interaction: discord.Interaction) -> Seen:
    return interaction.client.seen  # type: ignore[attr-defined]


def record_error(interaction: discord.Interaction, where: str, exc: Exception) -> None:
    """What a bot would see: discord.py's HTTPException (status, Discord code) or a connection error."""
    if isinstance(exc, discord.HTTPException):
        seen_of(interaction).append((where, exc.status, exc.code))
    else:
        seen_of(interaction).append((where, type(exc).__name__, None))


class StrictCog(commands.Cog):
    strict = app_commands.Group(name="strict", description="Commands that probe the fake's strictness")

    @strict.command(name="late", description="Answers after a delay")
    async def late(self, interaction: discord.Interaction, delay: float = 0.0) -> None:
        await asyncio.sleep(delay)
        try:
            await interaction.response.send_message("late", ephemeral=True)
        except discord.HTTPException as exc:
            record_error(interaction, "callback", exc)

    @strict.command(name="say", description="Answers with a message of the given length")
    async def say(self, interaction: discord.Interaction, size: int) -> None:
        try:
            await interaction.response.send_message("x" * size)
        except discord.HTTPException as exc:
            record_error(interaction, "callback", exc)

    @strict.command(name="post", description="Posts text in the channel")
    async def post(self, interaction: discord.Interaction, text: str) -> None:
        await interaction.response.send_message("ok", ephemeral=True)
        assert isinstance(interaction.channel, discord.TextChannel)
        try:
            await interaction.channel.send(text)
            seen_of(interaction).append(("post", "sent", None))
        except (discord.HTTPException, aiohttp.ClientError) as exc:
            record_error(interaction, "post", exc)

    @strict.command(name="later", description="Deferred reply then a followup")
    async def later(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True)
        try:
            await interaction.followup.send("followed up", ephemeral=True)
        except discord.HTTPException as exc:
            record_error(interaction, "followup", exc)

    @strict.command(name="ping", description="Mentions people, pinging only bob")
    async def ping(self, interaction: discord.Interaction, target: discord.Member, other: discord.Member) -> None:
        await interaction.response.send_message("ok", ephemeral=True)
        assert isinstance(interaction.channel, discord.TextChannel)
        await interaction.channel.send(
            f"{target.mention} {other.mention} @everyone",
            allowed_mentions=discord.AllowedMentions(everyone=False, users=[target], roles=False),
        )

    @strict.command(name="thread", description="Opens a thread")
    async def thread(self, interaction: discord.Interaction, from_message: bool = False) -> None:
        await interaction.response.send_message("ok", ephemeral=True)
        channel = interaction.channel
        assert isinstance(channel, discord.TextChannel)
        try:
            if from_message:
                message = await channel.send("challenge")
                thread = await message.create_thread(name="game")
                await message.edit(content="challenge (thread open)")
            else:
                thread = await channel.create_thread(name="game", type=discord.ChannelType.public_thread)
            await thread.send("inside the thread")
            seen_of(interaction).append(("thread", thread.id, None))
        except discord.HTTPException as exc:
            record_error(interaction, "thread", exc)

    @strict.command(name="whoami", description="Which shard and what permissions")
    async def whoami(self, interaction: discord.Interaction) -> None:
        perms, app = interaction.permissions, interaction.app_permissions
        await interaction.response.send_message(
            f"shard {interaction.client.shard_id} manage_guild={perms.manage_guild} "
            f"threads={app.create_public_threads}",
            ephemeral=True,
        )

    @app_commands.command(name="admin", description="Managers only")
    @app_commands.default_permissions(manage_guild=True)
    async def admin(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("admin ok", ephemeral=True)

    @app_commands.command(name="serveronly", description="Not in DMs")
    @app_commands.guild_only()
    async def serveronly(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("server ok", ephemeral=True)


class StrictBot(DemoBot):
    def __init__(self, guild_id: int, **options: Any) -> None:
        super().__init__(guild_id, **options)
        self.seen: Seen = []

    async def setup_hook(self) -> None:
        await self.add_cog(StrictCog())
        await super().setup_hook()


@pytest.fixture
async def strict(fake: FakeDiscord) -> AsyncIterator[tuple[FakeDiscord, StrictBot]]:
    async with fake.running_bot(StrictBot(fake.guild.id)) as bot:
        assert isinstance(bot, StrictBot)
        yield fake, bot


async def raw(fake: FakeDiscord, method: str, path: str, *, json_body: Any = None, data: Any = None) -> tuple[int, Any]:
    """A REST call straight to the fake, for what discord.py would refuse to send or would retry."""
    async with (
        aiohttp.ClientSession() as session,
        session.request(
            method, fake.api_base + path, json=json_body, data=data, headers={"Authorization": "Bot test-token"}
        ) as response,
    ):
        text = await response.text()
        return response.status, json.loads(text) if text else None


async def test_callback_after_the_deadline_is_unknown_interaction(strict: tuple[FakeDiscord, StrictBot]) -> None:
    fake, bot = strict
    fake.interaction_deadline = 0.2
    on_time = await fake.slash("alice", "strict", "late", options={"delay": 0.0})
    assert (await on_time.final()).content == "late"
    late = await fake.slash("alice", "strict", "late", options={"delay": 0.4})
    await fake.wait_until(lambda: bot.seen)
    assert bot.seen == [("callback", 404, 10062)]
    assert late.callback is None


async def test_second_callback_is_already_acknowledged(strict: tuple[FakeDiscord, StrictBot]) -> None:
    fake, _ = strict
    inter = await fake.slash("bob", "demo", "secret")
    await inter.final()
    status, body = await raw(
        fake,
        "POST",
        f"/interactions/{inter.id}/{inter.token}/callback",
        json_body={"type": 4, "data": {"content": "2"}},
    )
    assert (status, body["code"]) == (400, 40060)
    assert body["message"] == "Interaction has already been acknowledged."
    assert (await inter.response()).type == 4  # the first answer stands


async def test_interaction_token_expires_for_followups_and_edits(strict: tuple[FakeDiscord, StrictBot]) -> None:
    fake, _ = strict
    inter = await fake.slash("bob", "demo", "secret")
    await inter.final()
    followup = f"/webhooks/{fake.application_id}/{inter.token}"
    assert (await raw(fake, "POST", followup, json_body={"content": "fresh"}))[0] == 200
    inter.age(15 * 60 + 1)
    status, body = await raw(fake, "POST", followup, json_body={"content": "stale"})
    assert (status, body["code"]) == (401, 50027)
    status, body = await raw(fake, "PATCH", f"{followup}/messages/@original", json_body={"content": "stale"})
    assert (status, body["code"]) == (401, 50027)
    assert inter.original is not None and inter.original.content == "only you can see this"


async def test_bot_reply_over_2000_characters_is_invalid_form_body(strict: tuple[FakeDiscord, StrictBot]) -> None:
    fake, bot = strict
    ok = await fake.slash("alice", "strict", "say", options={"size": 2000})
    assert len((await ok.final()).content) == 2000
    too_long = await fake.slash("alice", "strict", "say", options={"size": 2001})
    await fake.wait_until(lambda: bot.seen)
    assert bot.seen == [("callback", 400, 50035)]
    assert too_long.callback is None


BUTTON = {"type": 2, "style": 1, "label": "b", "custom_id": "button"}


def select_row(count: int, **fields: Any) -> dict[str, Any]:
    """An action row holding one string select of ``count`` options; ``label``/``value`` set every option's (a
    value shared by all makes duplicates), other fields go to the select."""
    label, value = fields.pop("label", None), fields.pop("value", None)
    options = [{"label": label or f"option {i}", "value": value or f"v{i}"} for i in range(count)]
    select = {"type": 3, "custom_id": fields.pop("custom_id", f"select{count}"), "options": options, **fields}
    return {"type": 1, "components": [select]}


@pytest.mark.parametrize(
    ("body", "error_path"),
    [
        ({"content": "x" * 2001}, ["content"]),
        ({"embeds": [{"title": "e"}] * 11}, ["embeds"]),
        ({"embeds": [{"description": "d" * 4097}]}, ["embeds", "0", "description"]),
        ({"embeds": [{"description": "d" * 3001}, {"description": "d" * 3000}]}, ["embeds"]),
        (
            {"components": [{"type": 1, "components": [{"type": 2, "label": "b", "custom_id": "c"}]}] * 6},
            ["components"],
        ),
        (
            {
                "components": [
                    {"type": 1, "components": [{"type": 2, "label": "b", "custom_id": f"c{i}"} for i in range(6)]}
                ]
            },
            ["components", "0", "components"],
        ),
        (
            {"components": [{"type": 1, "components": [{"type": 2, "label": "b", "custom_id": "c" * 101}]}]},
            ["components", "0", "components", "0", "custom_id"],
        ),
        (
            {"components": [{"type": 1, "components": [{"type": 2, "label": "l" * 81, "custom_id": "c"}]}]},
            ["components", "0", "components", "0", "label"],
        ),
        ({"content": "<@1>", "allowed_mentions": {"parse": ["users"], "users": ["1"]}}, ["allowed_mentions"]),
        ({"components": [select_row(26)]}, ["components", "0", "components", "0", "options"]),
        ({"components": [select_row(0)]}, ["components", "0", "components", "0", "options"]),
        (
            {"components": [select_row(2, label="l" * 101)]},
            ["components", "0", "components", "0", "options", "0", "label"],
        ),
        (
            {"components": [select_row(2, value="v" * 101)]},
            ["components", "0", "components", "0", "options", "0", "value"],
        ),
        ({"components": [select_row(2, value="same")]}, ["components", "0", "components", "0", "options"]),
        ({"components": [select_row(2, placeholder="p" * 151)]}, ["components", "0", "components", "0", "placeholder"]),
        ({"components": [select_row(2, max_values=3)]}, ["components", "0", "components", "0", "max_values"]),
        (  # a select menu takes its whole row
            {"components": [{**select_row(2), "components": [*select_row(2)["components"], BUTTON]}]},
            ["components", "0", "components"],
        ),
        ({"components": [select_row(2, custom_id="dup"), select_row(2, custom_id="dup")]}, ["components"]),
        (
            {"attachments": [{"id": "0", "filename": "a.png", "description": "d" * 1025}]},
            ["attachments", "0", "description"],
        ),
    ],
)
async def test_message_limits(fake: FakeDiscord, body: dict[str, Any], error_path: list[str]) -> None:
    status, answer = await raw(fake, "POST", f"/channels/{fake.channel.id}/messages", json_body=body)
    assert (status, answer["code"]) == (400, 50035), answer
    node = answer["errors"]
    for key in error_path:
        node = node[key]
    assert node["_errors"], answer
    assert fake.channel_messages() == []


async def test_four_full_select_menus_and_a_row_of_buttons_fit(fake: FakeDiscord) -> None:
    rows = [select_row(25, custom_id=f"menu{n}", placeholder="p" * 150) for n in range(4)]
    rows[0]["components"][0]["options"][0] |= {"label": "l" * 100, "value": "v" * 100, "description": "d" * 100}
    buttons = {"type": 1, "components": [{**BUTTON, "custom_id": f"b{i}"} for i in range(5)]}
    status, answer = await raw(
        fake, "POST", f"/channels/{fake.channel.id}/messages", json_body={"components": [*rows, buttons]}
    )
    assert status == 200, answer


async def test_message_limits_allow_the_maximum(fake: FakeDiscord) -> None:
    def row(n: int) -> dict[str, Any]:
        return {
            "type": 1,
            "components": [{"type": 2, "label": "l" * 80, "custom_id": f"{n}{i}" * 50} for i in range(5)],
        }

    body = {
        "content": "x" * 2000,
        "embeds": [{"description": "d" * 4096}, {"title": "t" * 256}],
        "components": [row(n) for n in range(5)],
        "attachments": [{"id": "0", "filename": "a.png", "description": "d" * 1024}],
    }
    status, answer = await raw(fake, "POST", f"/channels/{fake.channel.id}/messages", json_body=body)
    assert status == 200, answer
    assert len(fake.channel_messages()) == 1


async def test_attachment_count_and_size_limits(fake: FakeDiscord) -> None:
    def form(sizes: list[int]) -> aiohttp.FormData:
        data = aiohttp.FormData(quote_fields=False)
        data.add_field("payload_json", json.dumps({"content": "files"}), content_type="application/json")
        for i, size in enumerate(sizes):
            data.add_field(f"files[{i}]", b"\0" * size, filename=f"f{i}.bin")
        return data

    path = f"/channels/{fake.channel.id}/messages"
    status, answer = await raw(fake, "POST", path, data=form([1] * 11))
    assert (status, answer["code"]) == (400, 50035) and "attachments" in answer["errors"]
    status, answer = await raw(fake, "POST", path, data=form([25 * 1024 * 1024 + 1]))
    assert (status, answer["code"]) == (413, 40005)
    assert (await raw(fake, "POST", path, data=form([1] * 10)))[0] == 200
    assert [len(m.attachments) for m in fake.channel_messages()] == [10]


async def test_autocomplete_result_limits(strict: tuple[FakeDiscord, StrictBot]) -> None:
    fake, _ = strict
    choice = {"name": "n", "value": "v"}
    for data, path in [
        ({"choices": [choice] * 26}, ["data", "choices"]),
        ({"choices": [{"name": "n" * 101, "value": "v"}]}, ["data", "choices", "0", "name"]),
        ({"choices": [{"name": "n", "value": "v" * 101}]}, ["data", "choices", "0", "value"]),
    ]:
        inter = await fake.slash("bob", "strict", "late", options={"delay": 5.0})  # the bot stays silent meanwhile
        callback = f"/interactions/{inter.id}/{inter.token}/callback"
        status, answer = await raw(fake, "POST", callback, json_body={"type": 8, "data": data})
        assert (status, answer["code"]) == (400, 50035)
        node = answer["errors"]
        for key in path:
            node = node[key]
        assert node["_errors"]
        assert inter.callback is None
        ok = await raw(fake, "POST", callback, json_body={"type": 8, "data": {"choices": [choice] * 25}})
        assert ok[0] == 200


async def test_allowed_mentions_decide_who_is_pinged(strict: tuple[FakeDiscord, StrictBot]) -> None:
    fake, _ = strict
    await fake.slash("alice", "strict", "ping", options={"target": "bob", "other": "carol"})
    msg = await fake.wait_for_message(predicate=lambda m: "@everyone" in m.content)
    assert msg.allowed_mentions is not None and [int(u) for u in msg.allowed_mentions["users"]] == [fake.bob.id]
    assert msg.pings.users == {fake.bob.id} and not msg.pings.everyone and not msg.pings.roles
    # Without allowed_mentions everything mentioned notifies; ephemeral messages notify nobody.
    content = f"{fake.bob.mention} {fake.carol.mention} @here"
    status, body = await raw(fake, "POST", f"/channels/{fake.channel.id}/messages", json_body={"content": content})
    assert status == 200
    plain = fake.get_message(int(body["id"]))
    assert plain.pings.users == {fake.bob.id, fake.carol.id} and plain.pings.everyone
    secret = await (await fake.slash("bob", "demo", "secret")).final()
    assert not secret.pings


async def test_request_log_counts_requests_per_interaction(strict: tuple[FakeDiscord, StrictBot]) -> None:
    fake, _ = strict
    with fake.count_requests() as log:
        inter = await fake.slash("bob", "demo", "secret")
        await inter.final()
    (record,) = log.records
    assert record.route == "POST /interactions/{interaction_id}/{interaction_token}/callback"
    assert record.endpoint == "callback" and record.interaction_id == inter.id and record.status == 200
    assert log.count("callback") == 1 and log.count("followup") == 0

    mark = fake.mark()
    slow = await fake.slash("alice", "demo", "slow")
    await slow.followups(2)
    assert [r.endpoint for r in fake.requests_since(mark, interaction=slow)] == ["callback", "followup", "followup"]
    assert len(log) == 1  # the window closed with its block
    fake.reset_requests()
    assert fake.request_log == [] and fake.requests == []


async def test_rate_limit_is_retried_and_applied_once(strict: tuple[FakeDiscord, StrictBot]) -> None:
    fake, bot = strict
    on_post = fake.inject("channel_message", "429", times=1)
    on_callback = fake.inject("callback", Fault.rate_limit(retry_after=0.05), times=1)
    mark = fake.mark()
    await fake.slash("alice", "strict", "post", options={"text": "after a 429"})
    await fake.wait_until(lambda: bot.seen)
    assert bot.seen == [("post", "sent", None)]
    assert [m.content for m in fake.channel_messages()] == ["after a 429"]
    posts = fake.requests_since(mark, endpoint="channel_message")
    assert [(r.status, r.fault) for r in posts] == [(429, "rate_limit"), (200, None)]
    callbacks = fake.requests_since(mark, endpoint="callback")
    assert [r.status for r in callbacks] == [429, 200]
    assert len(on_post.hits) == len(on_callback.hits) == 1 and not on_post.active


async def test_faults_on_webhook_edits_and_channel_message_edits(running: FakeDiscord) -> None:
    fake = running
    fake.inject("webhook_edit", "429")
    edit_only = fake.inject("channel_message", "429", method="PATCH")
    mark = fake.mark()
    msg = await (await fake.slash("alice", "demo", "counter")).final()
    click = await fake.click("bob", msg, "demo:count:0")
    assert (await click.final()).content == "count 1"  # deferred update, then PATCH @original
    assert [r.status for r in fake.requests_since(mark, endpoint="webhook_edit")] == [429, 200]
    await fake.slash("carol", "demo", "announce")
    await fake.wait_for_message(predicate=lambda m: m.content == "announcement (edited)")
    assert [(r.method, r.status) for r in fake.requests_since(mark, endpoint="channel_message")] == [
        ("POST", 200),
        ("PATCH", 429),
        ("PATCH", 200),
    ]
    assert [r.method for r in edit_only.hits] == ["PATCH"]


async def test_server_errors_are_retried_or_raised_as_discord_py_does(strict: tuple[FakeDiscord, StrictBot]) -> None:
    fake, bot = strict
    # Webhook (followup) requests are retried on any 5xx, after 1 s.
    fake.inject("followup", "500", times=1)
    mark = fake.mark()
    later = await fake.slash("alice", "strict", "later")
    assert (await later.final()).content == "followed up"
    assert [r.status for r in fake.requests_since(mark, endpoint="followup")] == [500, 200]
    # The bot's REST client does not retry a 503: the bot sees the error, nothing is created.
    fake.inject("channel_message", "503", times=1)
    mark = fake.mark()
    await fake.slash("alice", "strict", "post", options={"text": "never"})
    await fake.wait_until(lambda: bot.seen)
    assert bot.seen == [("post", 503, 0)]
    assert len(fake.requests_since(mark, endpoint="channel_message")) == 1
    assert fake.channel_messages() == []


async def test_applied_but_lost_answers(strict: tuple[FakeDiscord, StrictBot]) -> None:
    fake, bot = strict
    # The message is created but the connection drops: the bot sees an error, the message exists.
    fake.inject("channel_message", "applied_then_drop")
    mark = fake.mark()
    await fake.slash("alice", "strict", "post", options={"text": "did it send?"})
    await fake.wait_until(lambda: bot.seen)
    assert bot.seen == [("post", "ServerDisconnectedError", None)]
    assert [m.content for m in fake.channel_messages()] == ["did it send?"]
    assert [r.status for r in fake.requests_since(mark, endpoint="channel_message")] == [None]

    # A callback applied but answered 502: discord.py retries it, and the retry is refused with 40060.
    bot.seen.clear()
    fake.inject("callback", "applied_but_lost")
    inter = await fake.slash("alice", "strict", "say", options={"size": 3})
    await fake.wait_until(lambda: bot.seen)
    assert bot.seen == [("callback", 400, 40060)]
    assert inter.callback is not None and (await inter.final()).content == "xxx"
    assert [r.status for r in fake.requests_since(mark, endpoint="callback")] == [200, 502, 400]


async def test_callback_outage_makes_interactions_unknown(strict: tuple[FakeDiscord, StrictBot]) -> None:
    fake, bot = strict
    fake.interaction_deadline = 0.2
    outage = fake.inject("callback", "outage", times=None)
    inter = await fake.slash("alice", "strict", "late")
    await fake.wait_until(lambda: bot.seen)
    assert bot.seen == [("callback", 404, 10062)] and inter.callback is None
    fake.clear_faults()
    assert not outage.active
    assert (await (await fake.slash("alice", "strict", "late")).final()).content == "late"


async def test_slow_answers_come_late_but_the_callback_counts_when_it_arrives(
    strict: tuple[FakeDiscord, StrictBot],
) -> None:
    fake, bot = strict
    fake.interaction_deadline = 0.5
    fake.slow_answers(0.8, 1.0)  # each answer later than the deadline itself
    mark = fake.mark()
    inter = await fake.slash("alice", "strict", "late")
    assert (await inter.final()).content == "late"  # taken on arrival, not refused as late
    await fake.wait_until(lambda: all(r.answered_at for r in fake.requests_since(mark)))
    (callback,) = fake.requests_since(mark, endpoint="callback")
    assert callback.status == 200 and callback.answered_at is not None and callback.answered_at - callback.at >= 0.8
    assert bot.seen == []
    fake.slow_answers(None)
    assert fake.answer_delay is None


async def test_an_interaction_delivered_twice_is_acknowledged_once(strict: tuple[FakeDiscord, StrictBot]) -> None:
    fake, bot = strict
    fake.interaction_copies = 2
    mark = fake.mark()
    inter = await fake.slash("alice", "strict", "late")
    await fake.wait_until(lambda: bot.seen)
    assert inter.deliveries == 2 and (await inter.final()).content == "late"
    assert bot.seen == [("callback", 400, 40060)]  # both copies answered; Discord took the first
    assert sorted(r.status for r in fake.requests_since(mark, endpoint="callback")) == [200, 400]
    fake.interaction_copies = 1
    again = await fake.slash("alice", "strict", "late")
    await again.final()
    await fake.redeliver(again)  # a late duplicate, after the answer
    await fake.wait_until(lambda: len(bot.seen) == 2)
    assert again.deliveries == 2 and bot.seen[1] == ("callback", 400, 40060)


async def test_shards_get_their_own_guilds_and_events() -> None:
    async with start_fake_discord(timeout=3.0, shard_count=2) as fake:
        guilds = [fake.add_guild(f"shard {n}", shard=(n, 2)) for n in (0, 1)]
        for guild in guilds:
            fake.add_member(fake.alice.id, guild=guild)
        status, gateway = await raw(fake, "GET", "/gateway/bot")
        assert status == 200 and gateway["shards"] == 2
        bots = [StrictBot(fake.guild.id, sync_global=True, shard_id=n, shard_count=2) for n in (0, 1)]
        async with fake.running_bot(bots[0]), fake.running_bot(bots[1]):
            assert sorted(fake.connected_shards) == [(0, 2), (1, 2)]
            for n, (bot, guild) in enumerate(zip(bots, guilds, strict=True)):
                assert bot.get_guild(guild.id) is not None and bot.get_guild(guilds[1 - n].id) is None
                inter = await fake.slash("alice", "strict", "whoami", channel=guild.text_channels[0])
                assert (await inter.final()).content.startswith(f"shard {n} ")
            in_dm = await fake.slash("alice", "strict", "whoami", dm=True)
            assert (await in_dm.final()).content.startswith("shard 0 ")
            # A guild added later reaches only its shard.
            late = fake.add_guild("late", shard=(1, 2))
            await fake.wait_until(lambda: bots[1].get_guild(late.id))
            assert bots[0].get_guild(late.id) is None


CHILD_BOT = """
import asyncio, os, sys
import discord
from discord import app_commands
from tests.e2e.fake_discord import point_discord_at

point_discord_at(os.environ["FAKE_DISCORD_URL"])
guild = discord.Object(int(os.environ["FAKE_GUILD_ID"]))
client = discord.Client(intents=discord.Intents.default(), shard_id=1, shard_count=2)
tree = app_commands.CommandTree(client)

@tree.command(name="pid", description="Which process answers", guild=guild)
async def pid(interaction: discord.Interaction) -> None:
    await interaction.response.send_message(f"pid {os.getpid()} shard {client.shard_id}")

@client.event
async def setup_hook() -> None:
    await tree.sync(guild=guild)

client.run("test-token", log_handler=None)
"""


async def test_bot_in_another_process_serves_its_shard() -> None:
    async with start_fake_discord(timeout=20.0, shard_count=2) as fake:
        own, other = fake.add_guild("shard 1", shard=(1, 2)), fake.add_guild("shard 0", shard=(0, 2))
        for guild in (own, other):
            fake.add_member(fake.alice.id, guild=guild)
        env = {**os.environ, "FAKE_DISCORD_URL": fake.base_url, "FAKE_GUILD_ID": str(own.id)}
        root = Path(__file__).resolve().parents[2]
        child = await asyncio.create_subprocess_exec(sys.executable, "-c", CHILD_BOT, cwd=root, env=env)
        try:
            await fake.wait_until(lambda: fake.commands(own) and (1, 2) in fake.connected_shards, what="the child bot")
            inter = await fake.slash("alice", "pid", channel=own.text_channels[0])
            content = (await inter.final(timeout=10.0)).content
            assert content.startswith("pid ") and content != f"pid {os.getpid()} shard 1"
            assert content.endswith("shard 1")
            fake.guild_commands[other.id] = fake.commands(own)
            with pytest.raises(AssertionError, match="shard is not connected"):
                await fake.slash("alice", "pid", channel=other.text_channels[0])
        finally:
            child.terminate()
            await child.wait()


async def test_threads_with_and_without_permission(strict: tuple[FakeDiscord, StrictBot]) -> None:
    fake, bot = strict
    await fake.slash("alice", "strict", "thread", options={"from_message": True})
    await fake.wait_until(lambda: bot.seen)
    (thread,) = fake.threads()
    assert bot.seen == [("thread", thread.id, None)] and thread.type == 11 and thread.parent_id == fake.channel.id
    challenge = fake.get_message(thread.id)  # a thread from a message shares its id
    assert challenge.content == "challenge (thread open)" and challenge.thread_id == thread.id
    assert [m.content for m in fake.channel_messages(thread)] == ["inside the thread"]
    assert isinstance(bot.get_channel(thread.id), discord.Thread)  # THREAD_CREATE reached the bot
    status, payload = await raw(fake, "GET", f"/channels/{thread.id}")
    assert status == 200 and payload["type"] == 11 and payload["parent_id"] == str(fake.channel.id)

    bot.seen.clear()
    no_threads = BOT_PERMISSIONS & ~discord.Permissions(create_public_threads=True).value
    fake.set_bot_permissions(no_threads, channel=fake.channel)

    def bot_sees_no_thread_permission() -> bool:
        channel = bot.get_channel(fake.channel.id)
        assert isinstance(channel, discord.TextChannel)
        return not channel.permissions_for(channel.guild.me).create_public_threads

    await fake.wait_until(bot_sees_no_thread_permission, what="the CHANNEL_UPDATE with the bot's overwrite")
    await fake.slash("alice", "strict", "thread")
    await fake.wait_until(lambda: bot.seen)
    assert bot.seen == [("thread", 403, 50013)]
    assert len(fake.threads()) == 1
    whoami = await (await fake.slash("alice", "strict", "whoami")).final()
    assert "threads=False" in whoami.content  # app_permissions follow the channel override


async def test_member_permissions_and_default_member_permissions(strict: tuple[FakeDiscord, StrictBot]) -> None:
    fake, _ = strict
    with pytest.raises(CommandNotAvailable, match="manage_guild"):
        await fake.slash("bob", "admin")
    bob = await (await fake.slash("bob", "strict", "whoami")).final()
    assert "manage_guild=False" in bob.content
    fake.set_permissions("bob", discord.Permissions(manage_guild=True, send_messages=True))
    assert (await (await fake.slash("bob", "admin")).final()).content == "admin ok"
    bob = await (await fake.slash("bob", "strict", "whoami")).final()
    assert "manage_guild=True" in bob.content
    # The owner holds every permission, as Discord reports it.
    assert (await (await fake.slash("alice", "admin")).final()).content == "admin ok"


async def test_dm_interactions_look_like_discord(fake: FakeDiscord) -> None:
    async with fake.running_bot(StrictBot(fake.guild.id, sync_global=True)):
        inter = await fake.slash("carol", "strict", "whoami", dm=True)
        payload = inter.payload
        assert "guild_id" not in payload and "member" not in payload
        assert payload["user"]["id"] == str(fake.carol.id) and payload["context"] == 1
        assert payload["channel"]["type"] == 1
        assert (await inter.final()).channel_id == fake.dm_channel("carol").id
        with pytest.raises(CommandNotAvailable, match="DMs"):
            await fake.slash("carol", "serveronly", dm=True)
        assert (await (await fake.slash("carol", "serveronly")).final()).content == "server ok"


async def test_a_resend_with_the_same_enforced_nonce_returns_the_first_message() -> None:
    async with start_fake_discord(timeout=3.0) as fake:
        channel = fake.channel
        url = f"{fake.api_base}/channels/{channel.id}/messages"
        headers = {"Authorization": "Bot test-token"}
        async with aiohttp.ClientSession() as session:
            ids = []
            for body in (
                {"content": "board", "nonce": "a17", "enforce_nonce": True},
                {"content": "board", "nonce": "a17", "enforce_nonce": True},  # the retry after a lost answer
                {"content": "other", "nonce": "a18", "enforce_nonce": True},
            ):
                async with session.post(url, json=body, headers=headers) as response:
                    ids.append((await response.json())["id"])
        assert ids[0] == ids[1] != ids[2]
        assert [m.content for m in fake.channel_messages(channel)] == ["board", "other"]
