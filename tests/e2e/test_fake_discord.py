"""Proves the fake Discord server with a tiny throwaway bot driven by the real discord.py."""

from __future__ import annotations

import asyncio
import io
import re
import time
from collections.abc import AsyncIterator

import discord
import pytest
from discord import app_commands
from discord.ext import commands

from tests.e2e.fake_discord import BotCrashed, FakeDiscord, start_fake_discord

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
    def __init__(self, guild_id: int, *, crash: bool = False, sync_global: bool = False) -> None:
        # guild_ready_timeout: discord.py waits this long after the last GUILD_CREATE before on_ready.
        super().__init__(command_prefix="!", intents=discord.Intents.default(), guild_ready_timeout=0.1)
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
