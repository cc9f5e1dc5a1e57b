"""Games in words and as records (issue 22): ``/<game> board text:true``, ``/<game> history``'s files, and a record
read back from an attachment by ``/<game> replay record:`` and ``/<game> analyse record:``, so a game played elsewhere
can be stepped through and analysed.

A record's step-through is a private message that carries the record itself as a file: its First / Back / Forward /
Last buttons (``record:<ply>:<slot>``) read the record from the message they are on, so they work after a restart
and keep nothing in the database. The format is ``sessions/game_records.py``'s (docs/records.md).
"""

from __future__ import annotations

import asyncio
import io
import re
from typing import Any, ClassVar

import discord

import games
from cogs import present
from cogs.context import display_names, remember_members, service_of
from cogs.replay import SLOTS
from cogs.tree import answer_error, clip, printable
from engines import GameState
from games import GameEntry
from locales import N_, language_of, tr
from sessions.board_descriptions import alt_text, animation_alt_text
from sessions.model import MAX_RECORD_BYTES, TOO_BIG, Game, GameRecord, UserError
from sessions.service import GameService

RECORD_FILE = "record.json"
QUIET = discord.AllowedMentions.none()  # names in a file are text, never pings
NOT_A_FILE = N_("Attach the record as a .json file (from /{game} history).")
BOTH = N_("Give either a game or a record, not both.")
STEP = N_("Record of {title}, {name0} vs {name1}: move {ply} of {total}, **{move}**.")
START = N_("Record of {title}, {name0} vs {name1}: the start ({total} moves in all).")
ANIMATED = N_("Record of {title}, {name0} vs {name1}, in {frames} frames, the start first.")


# --- /history ----------------------------------------------------------------------------------------------------


async def history_files(
    interaction: discord.Interaction, entry: GameEntry, game: Game, moves: list[str], names: tuple[str, str]
) -> list[discord.File]:
    """The game as a portable record (JSON, docs/records.md) and as plain text for people: the numbered moves, the
    final score and the position as the text board shows it, in the reader's language."""
    service = service_of(interaction)
    record = await service.game_records.export(game, names)
    position = await service.boards.board_text(game, await service.finder.state(game), names, interaction.locale)
    readable = readable_record(interaction.locale, entry, game, moves, names) + "\n" + position + "\n"
    return [
        discord.File(io.BytesIO(record), filename=f"{game.name}-{game.id}.json"),
        discord.File(io.BytesIO(readable.encode()), filename=f"{game.name}-{game.id}.txt"),
    ]


def readable_record(locale: Any, entry: GameEntry, game: Game, moves: list[str], names: tuple[str, str]) -> str:
    """The record as a person reads it: a header, then one numbered move per line with who played it."""
    sides = [f"{tr(locale, entry.sides[side])}: {names[side]}" for side in (0, 1)]
    options = present.options_text(locale, game.name, game.options)
    title = present.title(game.name, locale)
    header = f"{title} #{game.id}"
    if options:
        header = tr(locale, "{title} #{id} ({options})", title=title, id=game.id, options=options)
    lines = [header, *sides, ""]
    lines += [f"{ply:>4}. {present.logged_move(locale, move)}" for ply, move in enumerate(moves, start=1)]
    if game.scores is not None:
        lines += [
            "",
            tr(
                locale,
                "Final score: {side0} {score0} · {side1} {score1}",
                side0=sides[0],
                score0=game.scores[0],
                side1=sides[1],
                score1=game.scores[1],
            ),
        ]
    return "\n".join(lines) + "\n"


async def send_text_board(
    interaction: discord.Interaction, game: Game, state: GameState, *, private: bool = False
) -> None:
    """``/<game> board text:true``: the position as one message instead of the image, in the place's language, or
    privately in the reader's: whose turn, a monospace diagram, the pieces by rows, the legal moves and the score."""
    service = service_of(interaction)
    names = await display_names(interaction.guild, game)
    locale = interaction.locale if private else interaction.guild_locale or interaction.locale
    text = await service.boards.board_text(game, state, names, locale)
    await interaction.response.send_message(text, allowed_mentions=QUIET, ephemeral=private)


# --- reading a record --------------------------------------------------------------------------------------------


async def read_record(
    interaction: discord.Interaction, attachment: discord.Attachment, game: str
) -> tuple[GameRecord, bytes]:
    """The record in ``attachment``, checked move by move against the engine (off the event loop); the size is
    checked before anything is downloaded."""
    if attachment.size > MAX_RECORD_BYTES:
        raise UserError(TOO_BIG, size=-(-attachment.size // 1024), limit=MAX_RECORD_BYTES // 1024)
    if not attachment.filename.lower().endswith((".json", ".txt")):
        raise UserError(NOT_A_FILE, game=game)
    try:
        data = await attachment.read()
    except discord.HTTPException as error:
        raise UserError(NOT_A_FILE, game=game) from error
    return await service_of(interaction).game_records.read(data, wanted=game), data


async def record_board(
    service: GameService, record: GameRecord, state: GameState, locale: Any, reader: Any, name: str
) -> discord.File:
    """A position of a record as an image, drawn in ``locale``'s language and described in ``reader``'s."""
    entry = _entry(record)
    png = await service.boards.render_position(entry.name, state, record.names, locale)
    description = await asyncio.to_thread(alt_text, entry, state.copy(), record.names, language_of(reader))
    return discord.File(io.BytesIO(png), filename=name, description=description)


def _entry(record: GameRecord) -> GameEntry:
    return games.find(record.game)


def _names(record: GameRecord) -> dict[str, str]:
    return {"name0": printable(record.names[0]), "name1": printable(record.names[1])}


async def step_message(
    interaction: discord.Interaction, record: GameRecord, ply: int
) -> tuple[str, discord.File, discord.ui.View]:
    """One step of a record's replay, for this reader (the board in the place's language, described in theirs)."""
    total = len(record.log)
    ply = max(0, min(ply, total))
    locale = interaction.locale
    title = present.title(record.game, locale)
    if ply == 0:
        text = tr(locale, START, title=title, total=total, **_names(record))
    else:
        move = present.logged_move(locale, record.log[ply - 1].move)
        text = tr(locale, STEP, title=title, ply=ply, total=total, move=move, **_names(record))
    state = await asyncio.to_thread(record.position, ply)
    place = interaction.guild_locale or interaction.locale
    file = await record_board(service_of(interaction), record, state, place, locale, f"record-{ply}.png")
    return clip(text), file, record_view(ply, total, locale)


# --- /<game> replay record: ----------------------------------------------------------------------------------------


async def replay_record(
    interaction: discord.Interaction, entry: GameEntry, attachment: discord.Attachment, animated: bool
) -> None:
    """Step through a record privately, or post it as an animation (then the names it holds are the players')."""
    record, data = await read_record(interaction, attachment, entry.name)
    if animated:
        await interaction.response.defer(thinking=True)
        await interaction.followup.send(**await _animation(interaction, record), allowed_mentions=QUIET)
        return
    await interaction.response.defer(ephemeral=True, thinking=True)
    text, board, view = await step_message(interaction, record, len(record.log))
    await interaction.followup.send(
        text, files=[board, discord.File(io.BytesIO(data), filename=RECORD_FILE)], view=view, ephemeral=True
    )


async def _animation(interaction: discord.Interaction, record: GameRecord) -> dict[str, Any]:
    service = service_of(interaction)
    entry, place = _entry(record), interaction.guild_locale or interaction.locale
    states = await asyncio.to_thread(record.positions)
    gif = await service.boards.animate_positions(entry.name, states, record.names, place)
    description = await asyncio.to_thread(
        animation_alt_text, entry, 0, len(states), states[-1], record.names, language_of(place)
    )
    title = present.title(record.game, place)
    text = tr(place, ANIMATED, title=title, frames=len(states), **_names(record))
    file = discord.File(io.BytesIO(gif), filename=f"{record.game}-record.gif", description=description)
    return {"content": clip(text), "file": file}


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


# --- /<game> analyse record: ---------------------------------------------------------------------------------------


async def analyse_record(interaction: discord.Interaction, entry: GameEntry, attachment: discord.Attachment) -> None:
    """The moves of a record that cost most, as for a finished game of the server, each with its board."""
    record, _ = await read_record(interaction, attachment, entry.name)
    service = service_of(interaction)
    await interaction.response.defer(ephemeral=True, thinking=True)  # long: every position is searched
    mistakes = await service.computer.analyse_moves(record.game, record.options, record.moves_in_force())
    locale, place = interaction.locale, interaction.guild_locale or interaction.locale
    title = present.title(record.game, locale)
    if not mistakes:
        text = tr(
            locale, "{title}, {name0} vs {name1}: no move stands out as a mistake.", title=title, **_names(record)
        )
        await interaction.followup.send(text, ephemeral=True, allowed_mentions=QUIET)
        return
    lines = [
        tr(
            locale,
            "{title}, {name0} vs {name1}: the moves that cost most, each shown before it was played.",
            title=title,
            **_names(record),
        )
    ]
    files = []
    for ply, played, better, drop in mistakes:
        lines.append(present.mistake_line(locale, ply, played, better, drop))
        before = await asyncio.to_thread(record.after_moves, ply - 1)
        files.append(await record_board(service, record, before, place, locale, f"record-{ply}.png"))
    await interaction.followup.send(clip("\n".join(lines)), files=files, ephemeral=True, allowed_mentions=QUIET)


def check_one_source(game: int | None, record: discord.Attachment | None) -> None:
    if game is not None and record is not None:
        raise UserError(BOTH)
