"""A tournament's sign-up message and its buttons: Join and Leave, which edit the message to say who is in. The
buttons are ``DynamicItem``s (``tournament:<join|leave>:<tournament id>``), so they work after a restart."""

from __future__ import annotations

import logging
import re
from typing import Any, ClassVar

import discord

from cogs.plumbing.host import service_of
from cogs.plumbing.places import IN_SERVER_ONLY
from cogs.posting.private_answers import answer_error
from cogs.presentation.markup import QUIET
from cogs.presentation.names import remember_members
from cogs.presentation.tournament_text import signup_text
from locales import N_, tr
from sessions.model import TournamentView, UserError

log = logging.getLogger(__name__)


class TournamentButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"tournament:(?P<action>join|leave):(?P<tournament_id>[0-9]{1,19})",
):
    """Join and Leave on a tournament's sign-up message."""

    LABELS: ClassVar[dict[str, str]] = {"join": N_("Join"), "leave": N_("Leave")}
    STYLES: ClassVar[dict[str, discord.ButtonStyle]] = {
        "join": discord.ButtonStyle.success,
        "leave": discord.ButtonStyle.secondary,
    }

    def __init__(self, action: str, tournament_id: int, locale: Any = None) -> None:
        super().__init__(
            discord.ui.Button(
                label=tr(locale, self.LABELS[action]),
                style=self.STYLES[action],
                custom_id=f"tournament:{action}:{tournament_id}",
            )
        )
        self.action = action
        self.tournament_id = tournament_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> TournamentButton:
        return cls(match["action"], int(match["tournament_id"]), interaction.guild_locale)

    async def callback(self, interaction: discord.Interaction) -> None:
        remember_members(interaction)
        try:
            await self.answer(interaction)
        except Exception as error:  # a button has no command tree behind it: answer here
            await answer_error(interaction, error)

    async def answer(self, interaction: discord.Interaction) -> None:
        if interaction.guild_id is None:
            raise UserError(IN_SERVER_ONLY)
        if interaction.user.bot:
            raise UserError("Bots cannot play. Challenge a person instead.")
        tournaments = service_of(interaction).tournaments
        message_id = interaction.message.id if interaction.message else None
        act = tournaments.join if self.action == "join" else tournaments.leave
        tournament = await act(self.tournament_id, interaction.user.id, interaction.guild_id, message_id)
        view = await tournaments.view(tournament.id)
        locale = interaction.guild_locale
        text = signup_text(locale, tournament, [player.user_id for player in view.players])
        await interaction.response.edit_message(
            content=text, view=signup_view(tournament.id, locale), allowed_mentions=discord.AllowedMentions.none()
        )


def signup_view(tournament_id: int, locale: Any) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(TournamentButton("join", tournament_id, locale))
    view.add_item(TournamentButton("leave", tournament_id, locale))
    return view


async def edit_signup(
    client: discord.Client, view: TournamentView, locale: Any, buttons: discord.ui.View | None
) -> None:
    """The sign-up message says who is in now, with ``buttons`` (None: closed). Best-effort: a deleted message
    changes nothing about the tournament itself."""
    tournament = view.tournament
    if tournament.message_id is None:
        return
    channel = client.get_partial_messageable(tournament.channel_id, guild_id=tournament.guild_id)
    text = signup_text(locale, tournament, [player.user_id for player in view.players])
    try:
        await channel.get_partial_message(tournament.message_id).edit(
            content=text, view=buttons, allowed_mentions=QUIET
        )
    except discord.HTTPException as error:
        log.info("Could not update the sign-up message of tournament %s: %s", tournament.id, error)
