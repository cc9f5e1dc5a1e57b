"""Games as portable records (issue 22, docs/records.md): ``/<game> history``'s files, and a record read back from an
attachment by ``/<game> replay record:`` and ``/<game> analyse record:``, so a game played elsewhere can be stepped
through (``cogs/components/replay_buttons.py``) and analysed. The format is ``sessions/game_records.py``'s.
"""

from __future__ import annotations

import asyncio
import io
from typing import Any

import discord

from cogs.components.replay_buttons import RECORD_FILE, record_board, record_names, step_message
from cogs.plumbing.host import service_of
from cogs.presentation import game_text
from cogs.presentation.images import positions_animation
from cogs.presentation.markup import QUIET, clip
from locales import N_, tr
from sessions.model import MAX_RECORD_BYTES, TOO_BIG, Game, GameEntry, GameRecord, UserError

NOT_A_FILE = N_("Attach the record as a .json file (from /{game} history).")
BOTH = N_("Give either a game or a record, not both.")
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
    options = game_text.options_text(locale, game.name, game.options)
    title = game_text.title(game.name, locale)
    header = f"{title} #{game.id}"
    if options:
        header = tr(locale, "{title} #{id} ({options})", title=title, id=game.id, options=options)
    lines = [header, *sides, ""]
    lines += [f"{ply:>4}. {game_text.logged_move(locale, move)}" for ply, move in enumerate(moves, start=1)]
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
    place = interaction.guild_locale or interaction.locale
    states = await asyncio.to_thread(record.positions)
    name = f"{record.game}-record.gif"
    file = await positions_animation(service_of(interaction), record.game, states, record.names, place, name)
    title = game_text.title(record.game, place)
    text = tr(place, ANIMATED, title=title, frames=len(states), **record_names(record))
    return {"content": clip(text), "file": file}


# --- /<game> analyse record: ---------------------------------------------------------------------------------------


async def analyse_record(interaction: discord.Interaction, entry: GameEntry, attachment: discord.Attachment) -> None:
    """The moves of a record that cost most, as for a finished game of the server, each with its board."""
    record, _ = await read_record(interaction, attachment, entry.name)
    service = service_of(interaction)
    await interaction.response.defer(ephemeral=True, thinking=True)  # long: every position is searched
    mistakes = await service.computer.analyse_moves(record.game, record.options, record.moves_in_force())
    locale, place = interaction.locale, interaction.guild_locale or interaction.locale
    title = game_text.title(record.game, locale)
    if not mistakes:
        text = tr(
            locale, "{title}, {name0} vs {name1}: no move stands out as a mistake.", title=title, **record_names(record)
        )
        await interaction.followup.send(text, ephemeral=True, allowed_mentions=QUIET)
        return
    lines = [
        tr(
            locale,
            "{title}, {name0} vs {name1}: the moves that cost most, each shown before it was played.",
            title=title,
            **record_names(record),
        )
    ]
    files = []
    for ply, played, better, drop in mistakes:
        lines.append(game_text.mistake_line(locale, ply, played, better, drop))
        before = await asyncio.to_thread(record.after_moves, ply - 1)
        files.append(await record_board(service, record, before, f"record-{ply}.png", place, locale))
    await interaction.followup.send(clip("\n".join(lines)), files=files, ephemeral=True, allowed_mentions=QUIET)


def check_one_source(game: int | None, record: discord.Attachment | None) -> None:
    if game is not None and record is not None:
        raise UserError(BOTH)
