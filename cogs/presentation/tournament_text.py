"""Tournaments and seasons in the words members read: a tournament's description, its sign-up message, a round's
boards, the standings as text. Public messages take the server's locale, private answers the member's."""

from __future__ import annotations

from typing import Any

from cogs.presentation.game_text import options_text, side_name, title
from cogs.presentation.markup import channel_link, mention, when
from locales import N_, ntr, tr
from sessions.model import Board, Tournament, TournamentView, shown

FORMATS = {"swiss": N_("Swiss"), "round_robin": N_("round robin")}
STATUSES = {
    "signup": N_("sign-up open"),
    "running": N_("running"),
    "finished": N_("finished"),
    "cancelled": N_("cancelled"),
}
STANDINGS_SHOWN = 20  # rows of the text standings; the image has them all


def move_time(locale: Any, seconds: float) -> str:
    """A time per move in words: "1 day", "6 hours"."""
    if seconds >= 86400 and seconds % 86400 == 0:
        return ntr(locale, "{count} day", "{count} days", int(seconds // 86400))
    if seconds >= 3600:
        return ntr(locale, "{count} hour", "{count} hours", round(seconds / 3600))
    return ntr(locale, "{count} minute", "{count} minutes", max(1, round(seconds / 60)))


def rounds_text(locale: Any, tournament: Tournament) -> str:
    if tournament.format == "swiss":
        return ntr(locale, "{count} round", "{count} rounds", tournament.rounds)
    if tournament.legs == 2:
        return tr(locale, "two legs")
    return tr(locale, "one leg")


def summary(locale: Any, tournament: Tournament) -> str:
    """What the tournament is: "<title> (standard rules), Swiss, 3 rounds, 1 day a move, rated"."""
    options = options_text(locale, tournament.game, tournament.options) or tr(locale, "standard rules")
    return tr(
        locale,
        "{title} ({options}), {format}, {rounds}, {time} a move, {rated}",
        title=title(tournament.game, locale),
        options=options,
        format=tr(locale, FORMATS[tournament.format]),
        rounds=rounds_text(locale, tournament),
        time=move_time(locale, tournament.move_seconds),
        rated=tr(locale, "rated") if tournament.rated else tr(locale, "unrated"),
    )


def signup_text(locale: Any, tournament: Tournament, players: list[int]) -> str:
    """The sign-up message: what it is, until when, who is in."""
    lines = [
        tr(
            locale,
            "**{name}** (tournament #{id}): {summary}.",
            name=tournament.name,
            id=tournament.id,
            summary=summary(locale, tournament),
        ),
        tr(locale, "Organised by {organiser}.", organiser=mention(tournament.created_by)),
    ]
    if tournament.winner_role_id is not None:
        lines.append(tr(locale, "The winner gets the role {role}.", role=f"<@&{tournament.winner_role_id}>"))
    if tournament.status == "signup":
        lines.append(
            tr(
                locale,
                "Press Join to play. The sign-up closes {deadline}; then I pair every round myself.",
                deadline=when(tournament.signup_deadline),
            )
        )
    else:
        lines.append(tr(locale, "The sign-up is closed ({status}).", status=tr(locale, STATUSES[tournament.status])))
    listed = ", ".join(mention(player) for player in players) or "-"
    lines.append(
        tr(
            locale,
            "Players ({count}/{most}): {players}",
            count=len(players),
            most=tournament.max_players,
            players=listed,
        )
    )
    return "\n".join(lines)


def board_line(locale: Any, tournament: Tournament, board: Board, thread_id: int | None) -> str:
    if board.player1 is None:
        return tr(locale, "Bye: {player} (a point without a game)", player=mention(board.player0))
    where = channel_link(thread_id) if thread_id else tr(locale, "game #{id}", id=board.game_id or "-")
    if board.game_id is None:  # a forfeit of a removed player, decided without a game
        where = tr(locale, "forfeit")
    return tr(
        locale,
        "Board {number}: {player0} ({side0}) vs {player1} ({side1}), {where}",
        number=board.number,
        player0=mention(board.player0),
        side0=side_name(locale, tournament.game, 0),
        player1=mention(board.player1),
        side1=side_name(locale, tournament.game, 1),
        where=where,
    )


def points_text(locale: Any, points: Any) -> str:
    """A score in points: "1 point", "2½ points" (a fraction is no count for a plural rule)."""
    return tr(locale, "1 point") if points == 1 else tr(locale, "{points} points", points=shown(points))


def standings_lines(locale: Any, view: TournamentView) -> list[str]:
    lines = []
    for row in view.standings[:STANDINGS_SHOWN]:
        player = mention(row.player)
        if row.withdrawn:
            player = tr(locale, "{player} (removed)", player=player)
        lines.append(
            tr(
                locale,
                "{place}. {player}: {points} (Buchholz {buchholz}, S-B {sb})",
                place=row.place,
                player=player,
                points=points_text(locale, row.points),
                buchholz=shown(row.buchholz),
                sb=shown(row.sonneborn_berger),
            )
        )
    if len(view.standings) > STANDINGS_SHOWN:
        lines.append(tr(locale, "…and {count} more in the picture.", count=len(view.standings) - STANDINGS_SHOWN))
    return lines


def view_heading(locale: Any, view: TournamentView) -> str:
    tournament = view.tournament
    if tournament.status == "running":
        stage = tr(locale, "round {round} of {rounds}", round=tournament.round, rounds=tournament.rounds)
    else:
        stage = tr(locale, STATUSES[tournament.status])
    return tr(locale, "**{name}** (#{id}), {stage}", name=tournament.name, id=tournament.id, stage=stage)
