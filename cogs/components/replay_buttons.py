"""First / Back / Forward / Last: stepping through a game of the server, or through a game record file, privately.

The step-through is a private message per reader: each click edits only that reader's copy. The buttons are
``DynamicItem``s whose ``custom_id`` holds what to show: a stored game and the ply (``replay:<game id>:<ply>:<slot>``),
or for a record only the ply (``record:<ply>:<slot>``), as the record itself is the message's attachment, so they work
after a restart and keep nothing in the database. The record's format is ``sessions/game_records.py``'s
(docs/records.md).
"""

from __future__ import annotations

import asyncio
import io
import re
from typing import Any, ClassVar

import discord

from cogs.plumbing.host import GameService, service_of
from cogs.plumbing.places import place_id
from cogs.posting.private_answers import answer_error
from cogs.presentation import game_text
from cogs.presentation.images import board_image, position_image
from cogs.presentation.markup import clip, printable
from cogs.presentation.names import remember_members
from locales import N_, tr
from sessions.model import Game, GameRecord, GameState, UserError

RECORD_FILE = "record.json"
STEP = N_("Record of {title}, {name0} vs {name1}: move {ply} of {total}, **{move}**.")
START = N_("Record of {title}, {name0} vs {name1}: the start ({total} moves in all).")

SLOTS: dict[str, str] = {"first": N_("First"), "back": N_("Back"), "forward": N_("Forward"), "last": N_("Last")}


class ReplayButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"replay:(?P<game_id>[0-9]{1,19}):(?P<ply>[0-9]{1,5}):(?P<slot>first|back|forward|last)",
):
    STYLE: ClassVar[discord.ButtonStyle] = discord.ButtonStyle.secondary

    def __init__(self, game_id: int, ply: int, slot: str, *, disabled: bool = False, locale: Any = None) -> None:
        super().__init__(
            discord.ui.Button(
                label=tr(locale, SLOTS[slot]),
                style=self.STYLE,
                custom_id=f"replay:{game_id}:{ply}:{slot}",
                disabled=disabled,
            )
        )
        self.game_id, self.ply = game_id, ply

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> ReplayButton:
        return cls(int(match["game_id"]), int(match["ply"]), match["slot"], locale=interaction.locale)

    async def callback(self, interaction: discord.Interaction) -> None:
        remember_members(interaction)  # in a DM: the place's language
        try:
            place = place_id(interaction)
            assert place is not None
            game = await service_of(interaction).finder.game(self.game_id, place)
            content, file, view = await position_message(interaction, game, self.ply)
            await interaction.response.edit_message(content=content, attachments=[file], view=view)
        except Exception as error:  # a button has no command tree behind it: answer here
            await answer_error(interaction, error)


def replay_view(game_id: int, ply: int, total: int, locale: Any) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    targets = {"first": 0, "back": max(0, ply - 1), "forward": min(total, ply + 1), "last": total}
    for slot, target in targets.items():
        view.add_item(ReplayButton(game_id, target, slot, disabled=target == ply, locale=locale))
    return view


async def position_message(
    interaction: discord.Interaction, game: Game, ply: int
) -> tuple[str, discord.File, discord.ui.View]:
    """The text, board image and buttons of one step of a replay, for this reader."""
    service = service_of(interaction)
    moves = await service.finder.moves(game.id)
    ply = min(ply, len(moves))
    state = await service.finder.position(game, ply)
    locale = interaction.locale
    if ply == 0:
        text = tr(locale, "Replay of game #{id}: the start ({total} moves in all).", id=game.id, total=len(moves))
    else:
        text = tr(
            locale,
            "Replay of game #{id}: move {ply} of {total}, **{move}**.",
            id=game.id,
            ply=ply,
            total=len(moves),
            move=game_text.logged_move(locale, moves[ply - 1]),
        )
    name = f"{game.name}-{game.id}-replay-{ply}.png"
    file = await board_image(
        interaction.guild, service, game, state, name, locale=interaction.guild_locale, reader=interaction.locale
    )
    return text, file, replay_view(game.id, ply, len(moves), locale)


# --- a record file's replay ----------------------------------------------------------------------------------------


async def record_board(
    service: GameService, record: GameRecord, state: GameState, name: str, locale: Any, reader: Any
) -> discord.File:
    """A position of a record as an image, drawn in ``locale``'s language and described in ``reader``'s."""
    return await position_image(service, record.game, state, record.names, name, locale=locale, reader=reader)


def record_names(record: GameRecord) -> dict[str, str]:
    return {"name0": printable(record.names[0]), "name1": printable(record.names[1])}


async def step_message(
    interaction: discord.Interaction, record: GameRecord, ply: int
) -> tuple[str, discord.File, discord.ui.View]:
    """One step of a record's replay, for this reader (the board in the place's language, described in theirs)."""
    total = len(record.log)
    ply = max(0, min(ply, total))
    locale = interaction.locale
    title = game_text.title(record.game, locale)
    if ply == 0:
        text = tr(locale, START, title=title, total=total, **record_names(record))
    else:
        move = game_text.logged_move(locale, record.log[ply - 1].move)
        text = tr(locale, STEP, title=title, ply=ply, total=total, move=move, **record_names(record))
    state = await asyncio.to_thread(record.position, ply)
    place = interaction.guild_locale or interaction.locale
    file = await record_board(service_of(interaction), record, state, f"record-{ply}.png", place, locale)
    return clip(text), file, record_view(ply, total, locale)


class RecordButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"record:(?P<ply>[0-9]{1,5}):(?P<slot>first|back|forward|last)",
):
    """First / Back / Forward / Last under a record's replay: the record is the message's own attachment."""

    STYLE: ClassVar[discord.ButtonStyle] = discord.ButtonStyle.secondary

    def __init__(self, ply: int, slot: str, *, disabled: bool = False, locale: Any = None) -> None:
        super().__init__(
            discord.ui.Button(
                label=tr(locale, SLOTS[slot]), style=self.STYLE, custom_id=f"record:{ply}:{slot}", disabled=disabled
            )
        )
        self.ply = ply

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> RecordButton:
        return cls(int(match["ply"]), match["slot"], locale=interaction.locale)

    async def callback(self, interaction: discord.Interaction) -> None:
        remember_members(interaction)  # in a DM: the place's language
        try:
            message = interaction.message
            attached = next((a for a in message.attachments if a.filename == RECORD_FILE), None) if message else None
            if attached is None:
                raise UserError("This replay has lost its record. Load the record again with /<game> replay.")
            data = await attached.read()
            record = await service_of(interaction).game_records.read(data)
            text, board, view = await step_message(interaction, record, self.ply)
            # The record goes along again as a file of its own (a kept attachment would be sent as its whole
            # description, which Discord's API does not describe for a request).
            again = discord.File(io.BytesIO(data), filename=RECORD_FILE)
            await interaction.response.edit_message(content=text, attachments=[board, again], view=view)
        except Exception as error:  # a button has no command tree behind it: answer here
            await answer_error(interaction, error)


def record_view(ply: int, total: int, locale: Any) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    targets = {"first": 0, "back": max(0, ply - 1), "forward": min(total, ply + 1), "last": total}
    for slot, target in targets.items():
        view.add_item(RecordButton(target, slot, disabled=target == ply, locale=locale))
    return view
