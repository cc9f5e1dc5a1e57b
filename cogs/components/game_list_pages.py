"""A game list's pages (``/games all``, ``/games mine``): ten games to a page, with Previous / Next buttons.

A list is one reader's: it is ephemeral, so only its reader can click its buttons, and ``mine`` is always the
clicker's own. The buttons are ``DynamicItem``s whose ``custom_id`` holds the list and the page
(``games:<all|mine>:<page>:<prev|next>``), so they work after a restart.
"""

from __future__ import annotations

import re
from typing import Any

import discord

from cogs.plumbing.host import GameService, service_of
from cogs.plumbing.places import IN_SERVER_ONLY
from cogs.posting.private_answers import answer_error
from cogs.presentation import game_text
from cogs.presentation.markup import channel_link, clip, mention, when
from locales import N_, tr
from sessions.model import UserError

PER_PAGE = 10

STEPS = {"prev": N_("Previous"), "next": N_("Next")}

EMPTY = {"all": N_("No games are on in this server."), "mine": N_("You have no games on in this server.")}

HEADINGS = {
    "all": N_("Games on in this server:"),
    "mine": N_("Your games in this server, those waiting for you first:"),
}


class GamesPageButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"games:(?P<scope>all|mine):(?P<page>[0-9]{1,6}):(?P<step>prev|next)",
):
    def __init__(self, scope: str, page: int, step: str, *, disabled: bool = False, locale: Any = None) -> None:
        super().__init__(
            discord.ui.Button(
                label=tr(locale, STEPS[step]),
                style=discord.ButtonStyle.secondary,
                custom_id=f"games:{scope}:{page}:{step}",
                disabled=disabled,
            )
        )
        self.scope, self.page = scope, page

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> GamesPageButton:
        return cls(match["scope"], int(match["page"]), match["step"], locale=interaction.locale)

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            content, view = await games_page(interaction, self.scope, self.page)
            await interaction.response.edit_message(content=content, view=view)
        except Exception as error:  # a button has no command tree behind it: answer here
            await answer_error(interaction, error)


async def games_page(interaction: discord.Interaction, scope: str, page: int) -> tuple[str, discord.ui.View | None]:
    """One page of a list for this reader: the text and, past one page, the buttons (the page is the one the
    button names, clamped: games may have ended since)."""
    if interaction.guild_id is None:
        raise UserError(IN_SERVER_ONLY)
    service = service_of(interaction)
    locale = interaction.locale
    mine = interaction.user.id if scope == "mine" else None
    listed, pages = await service.finder.game_list(interaction.guild_id, mine, page, PER_PAGE)
    if page >= pages:
        page = pages - 1
        listed, pages = await service.finder.game_list(interaction.guild_id, mine, page, PER_PAGE)
    seeking = await open_challenge_lines(interaction, service) if scope == "all" and page == 0 else []
    if not listed:
        return clip("\n".join([*seeking, tr(locale, EMPTY[scope])])), None
    lines = [*seeking, tr(locale, HEADINGS[scope])]
    for game, state in listed:
        side = state.to_act
        turn = mention(game.players[side]) if side is not None else "-"
        lines.append(
            tr(
                locale,
                "**{title} #{id}**: {player0} vs {player1}, move {ply}, {turn} to play, in {where}",
                title=game_text.title(game.name, locale),
                id=game.id,
                player0=mention(game.players[0]),
                player1=mention(game.players[1]),
                ply=game.ply,
                turn=turn,
                where=channel_link(game.announce_channel_id),
            )
        )
    if pages == 1:
        return clip("\n".join(lines)), None
    lines.append(tr(locale, "Page {page} of {pages}", page=page + 1, pages=pages))
    view = discord.ui.View(timeout=None)
    view.add_item(GamesPageButton(scope, max(0, page - 1), "prev", disabled=page == 0, locale=locale))
    view.add_item(GamesPageButton(scope, min(pages - 1, page + 1), "next", disabled=page == pages - 1, locale=locale))
    return clip("\n".join(lines)), view


async def open_challenge_lines(interaction: discord.Interaction, service: GameService) -> list[str]:
    """The server's open challenges, each with a link to its message (where Accept is), above the games."""
    assert interaction.guild_id is not None
    locale = interaction.locale
    found = await service.open_challenges.listed(interaction.guild_id)
    if not found:
        return []
    lines = [tr(locale, "Open challenges anyone may accept:")]
    for game in found[:PER_PAGE]:
        where = channel_link(game.channel_id)
        if game.challenge_message_id is not None:
            where = f"https://discord.com/channels/{game.guild_id}/{game.channel_id}/{game.challenge_message_id}"
        rated = tr(locale, "rated") if game.rated else tr(locale, "unrated")
        line = tr(
            locale,
            "**{title}** by {player} ({rated}), expires {expires}: {where}",
            title=game_text.title(game.name, locale),
            player=mention(game.challenger_id),
            rated=rated,
            expires=when(game.expires_at or 0),
            where=where,
        )
        if game.rating_min is not None or game.rating_max is not None:
            low = game.rating_min if game.rating_min is not None else 0
            high = game.rating_max if game.rating_max is not None else 4000
            line += " " + tr(locale, "(ratings {low}-{high})", low=low, high=high)
        lines.append(line)
    return lines
