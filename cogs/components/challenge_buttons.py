"""A challenge's buttons: Accept, Decline and Cancel under a challenge message, and Rematch under a finished game's
last board (a new challenge, sides swapped); and the challenge message they and ``/<game> challenge`` post.

The buttons are ``DynamicItem``s whose ``custom_id`` holds the action and the game id
(``challenge:<accept|decline|cancel>:<game id>``, ``rematch:<game id>``), so they keep working after a restart without
any view kept in memory. Accepting opens the game's thread (or, without one, turns the challenge message into the
first board). Either player may click Rematch once: it challenges the other to the same game again, sides swapped,
same options and rated flag, with the ordinary challenge message posted where the click was. Under a game against the
bot, the member's click starts the new game against it at once (sides swapped, the same level), where the click was.
"""

from __future__ import annotations

import logging
import re
from typing import Any, ClassVar

import discord

from cogs.plumbing.deadline import PUBLIC_PLACEHOLDER, in_time, reply_to
from cogs.plumbing.host import service_of
from cogs.plumbing.places import IN_SERVER_ONLY, place_id
from cogs.posting.game_threads import announce_start, open_practice, parent_of
from cogs.posting.private_answers import answer_error
from cogs.posting.replies import reply_with_closed, tell_played
from cogs.presentation import game_text
from cogs.presentation.board_controls import rematch_button
from cogs.presentation.markup import mention, when
from cogs.presentation.names import remember_members
from locales import N_, tr
from sessions.model import DatabaseUnavailable, Game, UserError

log = logging.getLogger(__name__)

ACTIONS = ("accept", "decline", "cancel")


class ChallengeButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"challenge:(?P<action>accept|decline|cancel):(?P<game_id>[0-9]+)",
):
    """Accept, Decline and Cancel on a challenge message."""

    STYLES: ClassVar[dict[str, discord.ButtonStyle]] = {
        "accept": discord.ButtonStyle.success,
        "decline": discord.ButtonStyle.danger,
        "cancel": discord.ButtonStyle.secondary,
    }
    LABELS: ClassVar[dict[str, str]] = {"accept": N_("Accept"), "decline": N_("Decline"), "cancel": N_("Cancel")}

    def __init__(self, action: str, game_id: int, locale: Any = None) -> None:
        super().__init__(
            discord.ui.Button(
                label=tr(locale, self.LABELS[action]),
                style=self.STYLES[action],
                custom_id=f"challenge:{action}:{game_id}",
            )
        )
        self.action = action
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> ChallengeButton:
        return cls(match["action"], int(match["game_id"]), interaction.guild_locale)

    async def callback(self, interaction: discord.Interaction) -> None:
        remember_members(interaction)
        try:
            await answer_challenge(interaction, self.action, self.game_id)
        except Exception as error:  # a button has no command tree behind it: answer here
            await answer_error(interaction, error)


def challenge_view(game_id: int, locale: Any, *, open_to_all: bool = False) -> discord.ui.View:
    """Accept, Decline and Cancel; an open challenge has nobody to decline it, so Accept and Cancel."""
    view = discord.ui.View(timeout=None)
    for action in ACTIONS:
        if not (open_to_all and action == "decline"):
            view.add_item(ChallengeButton(action, game_id, locale))
    return view


async def answer_challenge(interaction: discord.Interaction, action: str, game_id: int) -> None:
    service = service_of(interaction)
    place = place_id(interaction)
    if place is None:
        raise UserError(IN_SERVER_ONLY)
    message_id = interaction.message.id if interaction.message else None
    where = {"guild_id": place, "message_id": message_id, "reply": reply_to(interaction)}
    if action == "accept":
        # The answer edits the challenge message: deferred as an update if the database keeps it.
        report = await in_time(
            interaction, service.open_challenges.accept(game_id, interaction.user.id, **where), update=True
        )
        try:
            await announce_start(interaction, report)
        except Exception as error:  # accepted and committed: never "try again"; the outbox has the first board
            log.warning("Announcing the start of game %s failed; the outbox will: %r", game_id, error)
            await tell_played(interaction)
        return
    closing = {"decline": service.challenges.decline, "cancel": service.challenges.cancel}[action]
    game, announcement_id = await in_time(interaction, closing(game_id, interaction.user.id, **where), update=True)
    await reply_with_closed(interaction, game.status, announcement_id)


async def post_challenge(interaction: discord.Interaction, game: Game) -> None:
    """Answer the interaction with the public challenge of ``game`` (a new challenge, or a rematch) and its
    buttons, and remember the message: its buttons answer only there."""
    service = service_of(interaction)
    locale = interaction.guild_locale
    # A Discord timestamp: each reader sees the time counted down in their own language and time zone.
    expires = when(game.expires_at or 0)
    described = game_text.options_text(locale, game.name, game.options)
    if game.open_seat is not None:
        text, view = _open_challenge_message(locale, game, expires, described)
    else:
        text = tr(
            locale,
            "{opponent}, {challenger} challenges you to {title} ({options}; {rated}). "
            "{challenger} plays {side}. The challenge expires {expires}.",
            opponent=mention(game.opponent_id),
            challenger=mention(game.challenger_id),
            title=game_text.title(game.name, locale),
            options=described or tr(locale, "standard rules"),
            rated=tr(locale, "rated") if game.rated else tr(locale, "unrated"),
            side=game_text.side_name(locale, game.name, game.side_of(game.challenger_id) or 0),
            expires=expires,
        )
        view = challenge_view(game.id, locale)
    if interaction.response.is_done():  # deferred while the database was slow: the followup fills it in
        message_id: int | None = (await interaction.followup.send(text, view=view, wait=True)).id
        interaction.extras.pop(PUBLIC_PLACEHOLDER, None)
    else:  # the callback names the message: no second request to look it up
        message_id = (await interaction.response.send_message(text, view=view)).message_id
    if message_id is None:
        return
    try:
        await service.challenges.posted(game.id, message_id)
    except DatabaseUnavailable:  # the challenge is stored and shown: its buttons then answer on any message
        log.warning("Could not note the message of challenge %s: the database is unavailable", game.id)


def _open_challenge_message(locale: Any, game: Game, expires: str, described: str) -> tuple[str, discord.ui.View]:
    """An open challenge: anyone here may accept (within its rating range), the first to press Accept plays."""
    lines = [
        tr(
            locale,
            "{challenger} is looking for an opponent: {title} ({options}; {rated}). {challenger} plays {side}. "
            "Anyone here may accept; the first to press Accept plays. The challenge expires {expires}.",
            challenger=mention(game.challenger_id),
            title=game_text.title(game.name, locale),
            options=described or tr(locale, "standard rules"),
            rated=tr(locale, "rated") if game.rated else tr(locale, "unrated"),
            side=game_text.side_name(locale, game.name, game.side_of(game.challenger_id) or 0),
            expires=expires,
        )
    ]
    if game.rating_min is not None or game.rating_max is not None:
        lines.append(
            tr(
                locale,
                "Open to ratings from {low} to {high}.",
                low=game.rating_min if game.rating_min is not None else 0,
                high=game.rating_max if game.rating_max is not None else 4000,
            )
        )
    return "\n".join(lines), challenge_view(game.id, locale, open_to_all=True)


class RematchButton(discord.ui.DynamicItem[discord.ui.Button], template=r"rematch:(?P<game_id>[0-9]{1,19})"):
    def __init__(self, game_id: int, locale: Any = None) -> None:
        super().__init__(rematch_button(game_id, locale))
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> RematchButton:
        return cls(int(match["game_id"]), interaction.guild_locale)

    async def callback(self, interaction: discord.Interaction) -> None:
        remember_members(interaction)
        try:
            place = place_id(interaction)
            if place is None or interaction.channel_id is None:
                raise UserError(IN_SERVER_ONLY)
            service = service_of(interaction)
            if (await service.finder.game(self.game_id, place)).against_bot:
                report = await service.challenges.rematch_computer(
                    self.game_id,
                    interaction.user.id,
                    guild_id=place,
                    channel_id=interaction.channel_id,
                    reply=reply_to(interaction),
                    parent_id=parent_of(interaction),
                )
                await open_practice(interaction, report)
                return
            offering = service.challenges.rematch(
                self.game_id, interaction.user.id, guild_id=place, channel_id=interaction.channel_id
            )
            await post_challenge(interaction, await in_time(interaction, offering))
        except Exception as error:  # a button has no command tree behind it: answer here
            await answer_error(interaction, error)
