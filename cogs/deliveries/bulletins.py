"""What tournaments and seasons say in a server: a tournament game's start (a header in the tournament's channel,
the game's thread opened from it, the first board there), a round with its pairings and standings, a tournament's
end (final standings, the winner's role) and a season's end. Each is an outbox announcement
(``sessions/delivery.py``): these functions only do the Discord requests, and each step can be taken again after
a failure without doing it twice (nonces, the thread already started from the header, a role already given).
"""

from __future__ import annotations

import logging
from typing import Any

import discord

from cogs.components.tournament_buttons import edit_signup
from cogs.plumbing.host import GameService, client_service
from cogs.posting.game_threads import ARCHIVE_MINUTES
from cogs.posting.replies import nonce, report_message
from cogs.presentation import game_text
from cogs.presentation.board_controls import report_components
from cogs.presentation.images import standings_file
from cogs.presentation.markup import QUIET, clip, mention, when
from cogs.presentation.names import display_names
from cogs.presentation.tournament_text import board_line, move_time, points_text, standings_lines, summary
from locales import N_, tr
from sessions.model import AnnouncementKind, Bulletin, Notice, TournamentView

log = logging.getLogger(__name__)

THREAD_ALREADY_CREATED = 160004  # Discord: this message has its thread already (a retry after a lost answer)
NO_ROLE = N_(
    "I could not give {role} to the winner: I need the Manage Roles permission, and my role must be above that "
    "role. An admin can give it by hand."
)
ENDINGS = {
    "finished": N_("**{name}** is over! The winner is {winner} with {points}."),
    "no_pairing": N_(
        "**{name}** is over after round {round}: every further pairing would repeat one. The winner is {winner} "
        "with {points}."
    ),
    "too_few_left": N_("**{name}** is over: fewer than two players are left. The winner is {winner} with {points}."),
    "cancelled": N_("**{name}** was cancelled by an organiser: its games still on end with no result."),
    "too_few": N_("**{name}** was cancelled: fewer than two players signed up."),
}


def _locale(client: discord.Client, guild_id: int) -> Any:
    guild = client.get_guild(guild_id)
    return guild.preferred_locale if guild else None


async def deliver_paired(client: discord.Client, notice: Notice) -> int | None:
    """A tournament game begins: its header in the tournament's channel (mentioning both players), its thread
    from that header, and its first board in the thread. Each step is skipped when an earlier attempt did it."""
    assert notice.report is not None
    service = client_service(client)
    game = await service.finder.game(notice.game.id)
    assert game.tournament_id is not None
    view = await service.tournaments.view(game.tournament_id)
    tournament = view.tournament
    number = view.round_of(game.id)
    guild = client.get_guild(game.guild_id)
    locale = _locale(client, game.guild_id)
    channel = client.get_partial_messageable(game.channel_id, guild_id=game.guild_id)
    header_id = game.challenge_message_id
    if header_id is None:
        text = tr(
            locale,
            "**{name}**, round {round}: {player0} ({side0}) vs {player1} ({side1}). Each move within {time}.",
            name=tournament.name,
            round=number,
            player0=mention(game.players[0]),
            side0=game_text.side_name(locale, game.name, 0),
            player1=mention(game.players[1]),
            side1=game_text.side_name(locale, game.name, 1),
            time=move_time(locale, tournament.move_seconds),
        )
        header = await channel.send(text, nonce=f"h{notice.id}")
        header_id = header.id
        await service.challenges.posted(game.id, header_id)
    thread_id = game.thread_id
    if thread_id is None and await _wants_thread(client, service, game.guild_id, game.channel_id):
        name = game_text.thread_name(locale, game, await display_names(guild, game))
        thread_id = await _open_thread(channel, header_id, name)
        if thread_id is not None:
            game = await service.announcements.follow_thread(game.id, thread_id)
    where = client.get_partial_messageable(thread_id or game.channel_id, guild_id=game.guild_id)
    report = notice.report
    heading = tr(locale, "{title} game #{id} begins!", title=game_text.title(game.name, locale), id=game.id)
    buttons = await report_components(service, report, locale)  # the moves to tap, as under any board in play
    text, file = await report_message(guild, service, locale, report, buttons)
    message = await where.send(f"{heading}\n{text}", file=file, nonce=nonce(notice.id), **buttons)
    return message.id


async def _wants_thread(client: discord.Client, service: GameService, guild_id: int, channel_id: int) -> bool:
    """Threads are on in this server and the bot may open them in the channel (as for a challenge's game)."""
    if not (await service.server_settings.settings_for(guild_id)).threads:
        return False
    guild = client.get_guild(guild_id)
    channel = guild.get_channel(channel_id) if guild else None
    if not isinstance(channel, discord.TextChannel) or guild is None:
        return False
    permissions = channel.permissions_for(guild.me)
    return permissions.create_public_threads and permissions.send_messages_in_threads


async def _open_thread(channel: discord.PartialMessageable, header_id: int, name: str) -> int | None:
    """The game's thread from its header: its id, or None if it cannot be opened (the game stays in the channel)."""
    try:
        thread = await channel.get_partial_message(header_id).create_thread(
            name=name, auto_archive_duration=ARCHIVE_MINUTES
        )
    except discord.Forbidden:
        return None
    except discord.HTTPException as error:
        if error.code == THREAD_ALREADY_CREATED:  # an earlier attempt opened it: a thread has its message's id
            return header_id
        raise
    return thread.id


async def deliver_bulletin(client: discord.Client, bulletin: Bulletin) -> int | None:
    """A server's announcement about no one game."""
    return await BULLETINS[bulletin.kind](client, bulletin)


async def _round(client: discord.Client, bulletin: Bulletin) -> int | None:
    """A round begins: its boards (with their threads), and the standings so far as text and image."""
    service = client_service(client)
    locale = _locale(client, bulletin.guild_id)
    number = int(bulletin.payload["round"])
    view = await service.tournaments.view(int(bulletin.payload["tournament"]))
    tournament = view.tournament
    if number == 1:
        await _close_signup(client, view, locale)
    lines = [
        tr(
            locale,
            "**{name}**: round {round} of {rounds} begins. {summary}.",
            name=tournament.name,
            round=number,
            rounds=tournament.rounds,
            summary=summary(locale, tournament),
        ),
        tr(locale, "A player whose time runs out loses the game; I remind them before."),
    ]
    for board in view.round_boards(number):
        thread_id = None
        if board.game_id is not None:
            thread_id = (await service.finder.game(board.game_id)).thread_id
        lines.append(board_line(locale, tournament, board, thread_id))
    files = []
    if number > 1:
        lines.append(tr(locale, "**Standings after round {round}**", round=number - 1))
        lines += standings_lines(locale, view)
        subtitle = tr(locale, "Standings after round {round}", round=number - 1)
        files.append(await standings_file(client, service, view, subtitle, locale))
    channel = client.get_partial_messageable(bulletin.channel_id, guild_id=bulletin.guild_id)
    message = await channel.send(clip("\n".join(lines)), files=files, nonce=nonce(bulletin.id), allowed_mentions=QUIET)
    return message.id


async def _tournament_end(client: discord.Client, bulletin: Bulletin) -> int | None:
    """The final standings and the winner's role, or a cancellation."""
    service = client_service(client)
    locale = _locale(client, bulletin.guild_id)
    why = str(bulletin.payload.get("why", "finished"))
    view = await service.tournaments.view(int(bulletin.payload["tournament"]))
    tournament = view.tournament
    channel = client.get_partial_messageable(bulletin.channel_id, guild_id=bulletin.guild_id)
    if why in ("cancelled", "too_few"):
        await _close_signup(client, view, locale)
        text = tr(locale, ENDINGS[why], name=tournament.name)
        return (await channel.send(text, nonce=nonce(bulletin.id), allowed_mentions=QUIET)).id
    winner = view.standings[0]
    lines = [
        tr(
            locale,
            ENDINGS[why],
            name=tournament.name,
            round=tournament.round,
            winner=mention(winner.player),
            points=points_text(locale, winner.points),
        )
    ]
    if tournament.winner_role_id is not None and not await _give_role(
        client, tournament.guild_id, winner.player, tournament.winner_role_id
    ):
        lines.append(tr(locale, NO_ROLE, role=f"<@&{tournament.winner_role_id}>"))
    lines.append(tr(locale, "**Final standings**"))
    lines += standings_lines(locale, view)
    subtitle = tr(locale, "Final standings")
    file = await standings_file(client, service, view, subtitle, locale)
    message = await channel.send(clip("\n".join(lines)), file=file, nonce=nonce(bulletin.id))
    return message.id


async def _give_role(client: discord.Client, guild_id: int, user_id: int, role_id: int) -> bool:
    """Give the winner's role; False when the bot may not (no Manage Roles, or the role is above the bot's)."""
    try:
        await client.http.add_role(guild_id, user_id, role_id, reason="Tournament winner")
    except discord.Forbidden:
        return False
    except discord.NotFound:  # the role or the member is gone
        log.info("Winner role %s or member %s not found in %s", role_id, user_id, guild_id)
        return False
    return True


async def _close_signup(client: discord.Client, view: TournamentView, locale: Any) -> None:
    """The sign-up message loses its buttons and says who plays (best-effort: the round is announced anyway)."""
    await edit_signup(client, view, locale, None)


async def _season_end(client: discord.Client, bulletin: Bulletin) -> int | None:
    """A season is over: its best players in each game, and when the next one ends."""
    service = client_service(client)
    locale = _locale(client, bulletin.guild_id)
    number = int(bulletin.payload["season"])
    board = await service.seasons.leaderboard(bulletin.guild_id, number, None, limit=3)
    lines = [tr(locale, "**Season {number} is over!**", number=number)]
    if not board:
        lines.append(tr(locale, "Nobody played a rated game this season."))
    for game, rows in board.items():
        top = ", ".join(
            tr(locale, "{rank}. {player} ({rating})", rank=rank, player=mention(user), rating=rating.shown)
            for rank, (user, rating) in enumerate(rows, start=1)
        )
        lines.append(tr(locale, "**{title}**: {top}", title=game_text.title(game, locale), top=top))
    following = bulletin.payload.get("next")
    if following is not None:
        season = await service.seasons.season(bulletin.guild_id, int(following))
        lines.append(
            tr(locale, "Season {number} has begun; it ends {end}.", number=season.number, end=when(season.ends_at))
        )
    else:
        lines.append(tr(locale, "Seasons are now off: the leaderboards rank all rated games again."))
    channel = client.get_partial_messageable(bulletin.channel_id, guild_id=bulletin.guild_id)
    return (await channel.send(clip("\n".join(lines)), nonce=nonce(bulletin.id))).id


BULLETINS = {
    AnnouncementKind.ROUND: _round,
    AnnouncementKind.TOURNAMENT_END: _tournament_end,
    AnnouncementKind.SEASON_END: _season_end,
}
