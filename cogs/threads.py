"""A thread per game: opened from the challenge message when the challenge is accepted, so the moves, boards,
reminders and result of one game stay together and the channel keeps one line per game (the challenge message:
the players and a link to the thread, and finally the result).

The header is written when the game starts and when it ends, never per move: a move costs one Discord request,
its reply (issue 11). The running score is in the thread, on every board.

Without the permission to open threads the game is played in the channel, and the channel is told why once.
"""

from __future__ import annotations

import logging
from typing import Any

import discord

from cogs import present
from cogs.context import display_names, service_of
from cogs.deadline import in_time
from cogs.tree import clip
from locales import N_, tr
from sessions.model import DatabaseUnavailable, Finish, Game, GameStatus, Report
from sessions.service import GameService

log = logging.getLogger(__name__)

THREAD_NAME_LIMIT = 100  # Discord's cap on a channel name
ARCHIVE_MINUTES = 10080  # a week idle: games are slow, and a thread archived early hides the game from the list
NO_THREADS = N_(
    "I cannot open a thread per game in this channel (I need the Create Public Threads and Send Messages in "
    "Threads permissions), so games here are played in the channel."
)
FOLLOW = N_("Follow the game in {thread}.")
PLAYED_IN = N_("The game was played in {thread}.")
NO_RESULT = N_("The game ended with no result (aborted or cancelled). It was played in {thread}.")
TOURNAMENT_ROUND = N_("**{name}**, round {round}")

# Channels already told why their games are not in threads: once per channel (and per process; after a restart
# a channel may read it once more, which is harmless and lets a fixed permission be noticed).
_told: set[int] = set()


def thread_name(locale: Any, game: Game, names: tuple[str, str]) -> str:
    return clip(
        tr(
            locale,
            "{title} #{id}: {name0} vs {name1}",
            title=present.title(game.name, locale),
            id=game.id,
            name0=names[0],
            name1=names[1],
        ),
        THREAD_NAME_LIMIT,
    )


def header_text(locale: Any, game: Game, heading: str | None = None) -> str:
    """What the challenge message shows while the game is played in its thread: the players and the link, then
    the result and the link. No running score: the header is not edited per move, and a stale score would
    mislead."""
    lines = [heading] if heading else []
    lines.append(
        tr(
            locale,
            "**{title} #{id}**: {player0} ({side0}) vs {player1} ({side1})",
            title=present.title(game.name, locale),
            id=game.id,
            player0=present.mention(game.players[0]),
            side0=present.side_name(locale, game.name, 0),
            player1=present.mention(game.players[1]),
            side1=present.side_name(locale, game.name, 1),
        )
    )
    if game.status == GameStatus.FINISHED and game.scores is not None and game.result_reason is not None:
        finish = Finish(game.winner, game.result_reason, game.scores)
        lines += present.finish_lines(locale, game, finish)[:3]  # "Game over.", why, the final score
        lines.append(tr(locale, PLAYED_IN, thread=present.channel_link(game.thread_id or 0)))
    elif game.status == GameStatus.CANCELLED:
        lines.append(tr(locale, NO_RESULT, thread=present.channel_link(game.thread_id or 0)))
    else:
        lines.append(tr(locale, FOLLOW, thread=present.channel_link(game.thread_id or 0)))
    return "\n".join(lines)


async def wants_thread(interaction: discord.Interaction) -> bool | None:
    """True: open a thread here. False: the bot lacks the permission (say so). None: threads are off (for the
    whole bot, or this server's admins turned them off), or the challenge is already in a thread (a rematch in a
    game's thread is played in that thread)."""
    if (
        interaction.guild_id is None
        or not (await service_of(interaction).server_settings.settings_for(interaction.guild_id)).threads
    ):
        return None
    if not isinstance(interaction.channel, discord.TextChannel):
        return None
    permissions = interaction.app_permissions
    return permissions.create_public_threads and permissions.send_messages_in_threads


async def open_game_thread(interaction: discord.Interaction, report: Report) -> tuple[discord.Thread | None, bool]:
    """Open the accepted game's thread from the challenge message, record it, and answer the click by turning
    the challenge message into the game's header (the interaction's one response). Returns the thread, or None
    when the game stays in the channel (the caller then answers the click with the first board, as without
    threads), and whether the channel should be told why (:func:`tell_once`, after that answer)."""
    try:
        wanted = await wants_thread(interaction)
    except DatabaseUnavailable:  # the game is committed: it is played in the channel rather than not announced
        wanted = None
    if not wanted or interaction.message is None:
        return None, wanted is False
    service = service_of(interaction)
    game = report.game
    name = thread_name(interaction.guild_locale, game, await display_names(interaction.guild, game))
    try:  # a slow Discord may take seconds to open it: the click is held meanwhile
        creating = interaction.message.create_thread(name=name, auto_archive_duration=ARCHIVE_MINUTES)
        thread = await in_time(interaction, creating, update=True)
    except discord.Forbidden:  # the permissions changed, or a channel override the interaction did not show
        return None, True
    except (discord.HTTPException, TimeoutError, OSError) as error:
        log.warning("Could not open a thread for game %s; it is played in the channel: %s", game.id, error)
        return None, False
    try:
        game = await service.announcements.follow_thread(
            game.id, thread.id
        )  # what the game still owes goes to the thread too
    except DatabaseUnavailable:  # the game is not recorded in its thread: it is played in the channel
        log.warning("Could not move game %s into its thread: the database is unavailable", game.id)
        return None, False
    locale = interaction.guild_locale
    header = {"content": header_text(locale, game, present.heading(locale, report)), "view": None}
    try:
        if interaction.response.is_done():  # held while the thread was opened
            await interaction.edit_original_response(**header, allowed_mentions=QUIET)
        else:
            await interaction.response.edit_message(**header, allowed_mentions=QUIET)
    except (discord.HTTPException, TimeoutError, OSError) as error:  # the game's end rewrites the header
        log.warning("Could not turn challenge %s into its header: %s", game.id, error)
    return thread, False


QUIET = discord.AllowedMentions.none()  # a header repeats the players' mentions; it must not ping them


async def tell_once(interaction: discord.Interaction) -> None:
    """Say in the channel, once, why its games are not in threads: a public followup of the click, sent after
    its own answer (a followup is a webhook message, so it needs no channel permission of the bot)."""
    channel_id = interaction.channel_id
    if channel_id is None or channel_id in _told or not interaction.response.is_done():
        return
    _told.add(channel_id)
    try:
        await interaction.followup.send(tr(interaction.guild_locale, NO_THREADS))
    except (discord.HTTPException, TimeoutError, OSError) as error:
        log.info("Could not say why there are no threads in %s: %s", channel_id, error)


async def update_header(client: discord.Client, service: GameService, report: Report) -> None:
    """Write the result into the challenge message of a game played in a thread, when ``report`` ended it; any
    other action leaves the header alone (one request per move). Best-effort: it runs after the last move was
    announced, and a failure must never touch the move."""
    if report.finish is None or report.game.thread_id is None:
        return
    game_id = report.game.id
    try:
        game = await service.finder.game(game_id)
        if game.thread_id is None or game.challenge_message_id is None:
            return
        guild = client.get_guild(game.guild_id)
        locale = guild.preferred_locale if guild else None
        heading = None
        if game.tournament_id is not None:  # a tournament game's header keeps saying which tournament and round
            view = await service.tournaments.view(game.tournament_id)
            heading = tr(locale, TOURNAMENT_ROUND, name=view.tournament.name, round=view.round_of(game.id))
        channel = client.get_partial_messageable(game.channel_id, guild_id=game.guild_id)
        await channel.get_partial_message(game.challenge_message_id).edit(
            content=header_text(locale, game, heading), view=None, allowed_mentions=QUIET
        )
    except Exception as error:
        log.info("Could not update the header of game %s: %s", game_id, error)
