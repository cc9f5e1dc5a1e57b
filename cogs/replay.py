"""Replays: step through a game with First / Back / Forward / Last, or get it as an animated GIF.

The step-through is a private message per reader: each click edits only that reader's copy. The buttons are
``DynamicItem``s whose ``custom_id`` holds the game and the ply to show, so they work after a restart.
"""

from __future__ import annotations

import io
import re
from typing import Any, ClassVar

import discord

from cogs import present
from cogs.context import board_image, display_names, remember_members, service_of
from cogs.places import place_id
from cogs.tree import answer_error
from locales import N_, tr
from sessions.model import Game

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
            move=present.logged_move(locale, moves[ply - 1]),
        )
    name = f"{game.name}-{game.id}-replay-{ply}.png"
    file = await board_image(
        interaction.guild, service, game, state, name, locale=interaction.guild_locale, reader=interaction.locale
    )
    return text, file, replay_view(game.id, ply, len(moves), locale)


async def animation_file(interaction: discord.Interaction, game: Game) -> tuple[discord.File, int]:
    """The whole game as a looping GIF, a frame per ply plus the start; drawn off the event loop."""
    names = await display_names(interaction.guild, game)
    service = service_of(interaction)
    gif, frames = await service.boards.animation(game, names, interaction.guild_locale)
    description = await service.boards.describe_animation(game, frames, names, interaction.guild_locale)
    return discord.File(io.BytesIO(gif), filename=f"{game.name}-{game.id}-replay.gif", description=description), frames
