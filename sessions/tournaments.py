"""Tournaments: sign-up, the rounds the bot pairs itself, standings, removals and cancellations.

A tournament is a row with its players and its boards (``storage/competition.py``); its games are ordinary games
with a tournament id and a clock (``Game.move_seconds``), so moves, threads, resignations and the outbox are the
other parts' as for any game, and the clock (``sessions/clocks.py``) replaces the claim rule. What needs deciding
(the pairings, the order of the standings) is pure code in ``competition/``; this part reads the tournament, asks
it, and writes what it decided in one transaction that checks nothing changed meanwhile: a round is started, and a
tournament finished, exactly once however many processes sweep (docs/tournaments.md).
"""

from __future__ import annotations

import logging
from collections import defaultdict
from collections.abc import Awaitable, Callable
from fractions import Fraction
from typing import Any

import games
from competition import round_robin, swiss
from competition.pairing import Pairing
from competition.standings import Outcome, shown, standings
from render.standings import StandingsPicture
from sessions.announcements import Announcements
from sessions.events import GameFinished, Owed, RoundComplete
from sessions.model import (
    AnnouncementKind,
    ChannelLink,
    GameStatus,
    ReportKind,
    TournamentFormat,
    TournamentStatus,
    UserError,
    title_of,
)
from sessions.model.tournaments import (
    FEWEST_PLAYERS,
    FORMATS,
    MOST_PLAYERS,
    MOST_SWISS_ROUNDS,
    MOVE_TIMES,
    SIGNUP_MINUTES,
    TOURNAMENT_ID_MAX,
    Board,
    Tournament,
    TournamentView,
    points_of,
)
from sessions.ratings import Ratings
from sessions.server_settings import ServerSettings
from sessions.table import Table
from sessions.turns import Turns, advance
from storage.competition import NewBoard
from storage.database import TournamentRepository
from storage.outbox import Announce

log = logging.getLogger(__name__)


def standings_picture(view: TournamentView, names: dict[int, str], subtitle: str) -> StandingsPicture:
    """What the standings image shows: a row per player, removed players struck through."""
    rows = [
        (
            str(row.place),
            names.get(row.player, str(row.player)),
            shown(row.points),
            shown(row.buchholz),
            shown(row.sonneborn_berger),
            f"{row.wins}-{row.draws}-{row.losses}",
        )
        for row in view.standings
    ]
    struck = frozenset(index for index, row in enumerate(view.standings) if row.withdrawn)
    return StandingsPicture(view.tournament.name, subtitle, rows, struck)


# Runs a CPU-bound function off the event loop (sessions.drawing.Drawer.run).
Offload = Callable[..., Awaitable[Any]]


class Tournaments:
    def __init__(
        self,
        table: Table,
        tournaments: TournamentRepository,
        ratings: Ratings,
        turns: Turns,
        announcements: Announcements,
        server_settings: ServerSettings,
        offload: Offload,
    ) -> None:
        self._offload = offload  # the Swiss pairing runs in a drawing worker: a big round takes a while
        self._table = table
        self._tournaments = tournaments
        self._ratings = ratings
        self._turns = turns
        self._announcements = announcements
        self._server_settings = server_settings

    # --- organisers --------------------------------------------------------------------------------

    async def organiser_role(self, guild_id: int) -> int | None:
        """The role whose members may organise tournaments here besides the admins (None: admins only)."""
        return await self._tournaments.organiser_role(guild_id)

    async def set_organiser_role(self, guild_id: int, role_id: int | None, admin_id: int) -> None:
        await self._tournaments.set_organiser_role(guild_id, role_id, admin_id, self._table.clock())

    # --- sign-up -----------------------------------------------------------------------------------

    async def create(
        self,
        *,
        guild_id: int,
        channel_id: int,
        creator_id: int,
        name: str,
        game: str,
        options: dict[str, Any],
        format: str,
        rounds: int,
        move_seconds: int,
        rated: bool,
        signup_minutes: int,
        max_players: int,
        winner_role_id: int | None = None,
        parent_id: int | None = None,
    ) -> Tournament:
        """A new tournament open for sign-up. ``rounds`` is the number of Swiss rounds, or a round robin's legs
        (1 or 2)."""
        name = " ".join(name.split())
        if not name or len(name) > 80:
            raise UserError("Give the tournament a name of 1 to 80 characters.")
        if format not in FORMATS:
            raise UserError("The format is Swiss or round robin.")
        if format == TournamentFormat.SWISS and not 1 <= rounds <= MOST_SWISS_ROUNDS:
            raise UserError("A Swiss tournament has 1 to {most} rounds.", most=MOST_SWISS_ROUNDS)
        if format == TournamentFormat.ROUND_ROBIN and rounds not in (1, 2):
            raise UserError("A round robin has one or two legs: set rounds to 1 or 2.")
        if move_seconds not in MOVE_TIMES:
            raise UserError("Choose a time per move from the list.")
        if not FEWEST_PLAYERS <= max_players <= MOST_PLAYERS:
            raise UserError("A tournament takes {low} to {high} players.", low=FEWEST_PLAYERS, high=MOST_PLAYERS)
        if not SIGNUP_MINUTES[0] <= signup_minutes <= SIGNUP_MINUTES[1]:
            raise UserError("The sign-up lasts from 1 minute to 30 days.")
        try:
            games.find(game).new_game(**options)
        except ValueError as error:
            raise UserError("Those game options are not valid: {reason}", reason=error) from error
        here = await self._server_settings.settings_for(guild_id)
        if game not in here.enabled_games:
            raise UserError("The admins of this server have turned {game} off.", game=title_of(game))
        if not here.channel_allowed(channel_id, parent_id):
            raise UserError(
                "Games cannot be started in this channel. Try one of these: {channels}",
                channels=tuple(ChannelLink(channel) for channel in sorted(here.allowed_channels)),
            )
        now = self._table.clock()
        tournament_id = await self._tournaments.create_tournament(
            guild_id=guild_id,
            channel_id=channel_id,
            name=name,
            game=game,
            options=options,
            format=format,
            rounds=rounds if format == TournamentFormat.SWISS else 0,
            legs=rounds if format == TournamentFormat.ROUND_ROBIN else 1,
            move_seconds=float(move_seconds),
            rated=rated,
            signup_deadline=now + signup_minutes * 60,
            max_players=max_players,
            winner_role_id=winner_role_id,
            created_by=creator_id,
            created_at=now,
        )
        return await self.tournament(tournament_id, guild_id)

    async def posted(self, tournament_id: int, message_id: int) -> None:
        """The sign-up message, whose Join and Leave buttons answer only there."""
        await self._tournaments.set_tournament_message(tournament_id, message_id)

    async def tournament(self, tournament_id: int, guild_id: int | None = None) -> Tournament:
        found = await self._tournaments.tournament(tournament_id) if 0 < tournament_id <= TOURNAMENT_ID_MAX else None
        if found is None or (guild_id is not None and found.guild_id != guild_id):
            raise UserError("I cannot find tournament #{id}.", id=tournament_id)
        return found

    async def of_server(self, guild_id: int) -> list[Tournament]:
        """The server's tournaments in sign-up or running, then the last five that ended, the newest first."""
        on = await self._tournaments.tournaments_with_status(
            [TournamentStatus.SIGNUP, TournamentStatus.RUNNING], [guild_id]
        )
        ended = await self._tournaments.tournaments_with_status(
            [TournamentStatus.FINISHED, TournamentStatus.CANCELLED], [guild_id]
        )
        return sorted(on, key=lambda t: -t.id) + sorted(ended, key=lambda t: -t.id)[:5]

    async def join(self, tournament_id: int, user_id: int, guild_id: int, message_id: int | None = None) -> Tournament:
        tournament = await self._signup_of(tournament_id, guild_id, message_id)
        outcome = await self._tournaments.join_tournament(tournament_id, user_id, self._table.clock())
        if outcome == "already":
            raise UserError("You are already signed up for {name}.", name=tournament.name)
        if outcome == "full":
            raise UserError("{name} is full ({count} players).", name=tournament.name, count=tournament.max_players)
        if outcome == "closed":
            raise UserError("The sign-up for {name} is over.", name=tournament.name)
        return await self.tournament(tournament_id)

    async def leave(self, tournament_id: int, user_id: int, guild_id: int, message_id: int | None = None) -> Tournament:
        tournament = await self._signup_of(tournament_id, guild_id, message_id)
        outcome = await self._tournaments.leave_tournament(tournament_id, user_id)
        if outcome == "absent":
            raise UserError("You are not signed up for {name}.", name=tournament.name)
        if outcome == "closed":
            raise UserError("{name} has started: ask an organiser to remove you.", name=tournament.name)
        return await self.tournament(tournament_id)

    async def _signup_of(self, tournament_id: int, guild_id: int, message_id: int | None) -> Tournament:
        tournament = await self.tournament(tournament_id, guild_id)
        if message_id is not None and tournament.message_id not in (None, message_id):
            raise UserError("This button does not belong to that tournament. Use the buttons on its own message.")
        if tournament.status != TournamentStatus.SIGNUP or tournament.signup_deadline <= self._table.clock():
            raise UserError("The sign-up for {name} is over.", name=tournament.name)
        return tournament

    # --- reading -----------------------------------------------------------------------------------

    async def view(self, tournament_id: int, guild_id: int | None = None) -> TournamentView:
        """A tournament with its players, its boards and its standings now."""
        tournament = await self.tournament(tournament_id, guild_id)
        players = await self._tournaments.entrants(tournament_id)
        if tournament.status != TournamentStatus.SIGNUP:
            players.sort(key=lambda player: (player.seed is None, player.seed or 0, player.joined_at))
        rows = await self._tournaments.pairings(tournament_id)
        boards = [
            Board(
                row.round,
                row.board,
                row.player0_id,
                row.player1_id,
                row.game_id,
                points_of(row),
                row.result_reason if row.game_status != GameStatus.CANCELLED else "cancelled",
            )
            for row in rows
        ]
        outcomes = [
            Outcome(board.player0, board.player1, Fraction(board.points[0], 2), Fraction(board.points[1], 2))
            for board in boards
            if board.points is not None
        ]
        removed = frozenset(player.user_id for player in players if player.removed_at is not None)
        table = standings([player.user_id for player in players], outcomes, removed)
        return TournamentView(tournament, players, boards, table)

    # --- organisers' actions -----------------------------------------------------------------------

    async def start_now(self, tournament_id: int, guild_id: int) -> bool:
        """An organiser closes the sign-up early and starts round 1 (or cancels, with too few players)."""
        tournament = await self.tournament(tournament_id, guild_id)
        if tournament.status != TournamentStatus.SIGNUP:
            raise UserError("{name} has already started or ended.", name=tournament.name)
        return self._round_written(tournament, await self._start(tournament))

    async def remove(self, tournament_id: int, user_id: int, admin_id: int, guild_id: int) -> TournamentView:
        """Remove a player: before the start they are simply gone; after it they are paired no more and their
        remaining games are forfeited (the game being played now, and in a round robin every later one)."""
        tournament = await self.tournament(tournament_id, guild_id)
        if tournament.status not in (TournamentStatus.SIGNUP, TournamentStatus.RUNNING):
            raise UserError("{name} is over: nothing can change now.", name=tournament.name)
        if not await self._tournaments.remove_entrant(tournament_id, user_id, admin_id, guild_id, self._table.clock()):
            raise UserError("That member is not playing in {name}.", name=tournament.name)
        await self._forfeit_removed(tournament)
        self._round_written(tournament, await self._advance(await self.tournament(tournament_id)))
        self._table.events.publish(Owed((guild_id,)))  # the forfeits' results
        return await self.view(tournament_id)

    async def cancel(self, tournament_id: int, admin_id: int, guild_id: int) -> Tournament:
        """End a tournament with no result: its games still on are cancelled (nothing rated, nothing counted)."""
        tournament = await self.tournament(tournament_id, guild_id)
        announce = Announce(AnnouncementKind.TOURNAMENT_END, {"tournament": tournament_id, "why": "cancelled"})
        game_announce = Announce(AnnouncementKind.CANCELLED, {"by": admin_id, "was": GameStatus.ACTIVE})
        cancelled = await self._tournaments.end_tournament(
            tournament_id,
            status=TournamentStatus.CANCELLED,
            now=self._table.clock(),
            announce=announce,
            admin_id=admin_id,
            game_announce=game_announce,
        )
        if cancelled is None:
            raise UserError("{name} is over: nothing can change now.", name=tournament.name)
        for game_id in cancelled:
            self._table.forget(game_id)
        self._table.events.publish(Owed((guild_id,)))
        return await self.tournament(tournament_id)

    # --- the sweep ---------------------------------------------------------------------------------

    async def sweep(self, guild_ids: list[int] | None = None) -> int:
        """Start what is due and advance what can: tournaments whose sign-up is over start (or are cancelled
        with too few players), a removed player's games still on are forfeited, a round whose last game ended is
        followed by the next, or by the final standings. Returns how many changes were written."""
        changed = 0
        now = self._table.clock()
        for tournament in await self._tournaments.tournaments_with_status(
            [TournamentStatus.SIGNUP, TournamentStatus.RUNNING], guild_ids
        ):
            try:
                if tournament.status == TournamentStatus.SIGNUP:
                    if tournament.signup_deadline <= now and self._round_written(
                        tournament, await self._start(tournament)
                    ):
                        changed += 1
                    continue
                await self._forfeit_removed(tournament)
                if self._round_written(tournament, await self._advance(tournament)):
                    changed += 1
            except Exception:  # one tournament's trouble must not stop the others'
                log.exception("Tournament %s could not advance", tournament.id)
        return changed

    async def follow_finish(self, event: GameFinished) -> None:
        """Follows a finished game: a tournament's, it may complete its round, so the next round (or the end) is
        written now rather than at the next sweep."""
        game = event.report.game
        if game.tournament_id is not None:
            await self.sweep([game.guild_id])

    def _round_written(self, tournament: Tournament, written: bool) -> bool:
        """Publish that a round (or the end) of ``tournament`` was just written, when it was."""
        if written:
            self._table.events.publish(RoundComplete(tournament.guild_id, tournament.id))
        return written

    async def _start(self, tournament: Tournament) -> bool:
        """Close the sign-up: seed the players by rating and start round 1, or cancel with too few players."""
        players = await self._tournaments.entrants(tournament.id)
        if len(players) < FEWEST_PLAYERS:
            announce = Announce(AnnouncementKind.TOURNAMENT_END, {"tournament": tournament.id, "why": "too_few"})
            done = await self._tournaments.end_tournament(
                tournament.id, status=TournamentStatus.CANCELLED, now=self._table.clock(), announce=announce
            )
            return done is not None
        rated = []
        for player in players:
            rating = await self._ratings.rating(tournament.guild_id, tournament.game, player.user_id)
            rated.append((player, rating.mu))
        rated.sort(key=lambda pair: (-pair[1], pair[0].joined_at, pair[0].user_id))
        seeds = [(player.user_id, seed, mu) for seed, (player, mu) in enumerate(rated, start=1)]
        order = [user for user, _, _ in seeds]
        if tournament.format == TournamentFormat.SWISS:
            rounds = min(tournament.rounds, swiss.most_rounds(len(order)))
            first = await self._offload(
                swiss.pair_round, [swiss.Entrant(user, rank) for rank, user in enumerate(order)]
            )
        else:
            rounds = round_robin.rounds_needed(len(order), tournament.legs)
            first = round_robin.schedule(order, tournament.legs)[0]
        assert first is not None  # a first round can always be paired
        return await self._write_round(tournament, 0, first, frozenset(), seeds=seeds, rounds=rounds)

    async def _advance(self, tournament: Tournament) -> bool:
        """After the last game of a round: the next round, or the end."""
        if tournament.status != TournamentStatus.RUNNING:
            return False
        view = await self.view(tournament.id)
        current = view.round_boards(tournament.round)
        if any(board.points is None for board in current):
            return False
        removed = frozenset(p.user_id for p in view.players if p.removed_at is not None)
        if tournament.round >= tournament.rounds:
            return await self._finish(tournament, "finished")
        if len(view.active_players) < FEWEST_PLAYERS:
            return await self._finish(tournament, "too_few_left")
        if tournament.format == TournamentFormat.SWISS:
            pairings = await self._offload(swiss.pair_round, self._entrants(view))
            if pairings is None:
                return await self._finish(tournament, "no_pairing")
        else:
            order = [player.user_id for player in view.players]
            pairings = round_robin.schedule(order, tournament.legs)[tournament.round]
        return await self._write_round(tournament, tournament.round, pairings, removed)

    @staticmethod
    def _entrants(view: TournamentView) -> list[swiss.Entrant]:
        """The players still in, as the Swiss pairing sees them: score, opponents, sides and byes so far."""
        score: dict[int, int] = defaultdict(int)
        met: dict[int, set[int]] = defaultdict(set)
        sides: dict[int, list[int]] = defaultdict(list)
        byes: dict[int, int] = defaultdict(int)
        for board in view.boards:
            if board.points is None:
                continue
            score[board.player0] += board.points[0]
            if board.player1 is None:
                byes[board.player0] += 1
                continue
            score[board.player1] += board.points[1]
            met[board.player0].add(board.player1)
            met[board.player1].add(board.player0)
            if board.game_id is not None:
                sides[board.player0].append(0)
                sides[board.player1].append(1)
        return [
            swiss.Entrant(
                player.user_id,
                rank,
                score[player.user_id],
                frozenset(met[player.user_id]),
                tuple(sides[player.user_id]),
                byes[player.user_id],
            )
            for rank, player in enumerate(view.players)
            if player.removed_at is None
        ]

    async def _write_round(
        self,
        tournament: Tournament,
        after: int,
        pairings: list[Pairing],
        removed: frozenset[int],
        *,
        seeds: list[tuple[int, int, float]] | None = None,
        rounds: int | None = None,
    ) -> bool:
        """Store round ``after + 1``: a game for each board of two players still in (its opening dice drawn now),
        a bye or a forfeit for the others, and the round's announcement; False if another process was first."""
        entry = games.find(tournament.game)
        boards = []
        for pairing in pairings:
            if pairing.player1 is None:
                boards.append(NewBoard(pairing.player0, None, points=(0 if pairing.player0 in removed else 2, 0)))
                continue
            gone = (pairing.player0 in removed, pairing.player1 in removed)
            if any(gone):
                boards.append(
                    NewBoard(pairing.player0, pairing.player1, points=(0 if gone[0] else 2, 0 if gone[1] else 2))
                )
                continue
            state = entry.new_game(**tournament.options)
            played = advance(state, self._table.draw)
            announce = self._announcements.of_report(ReportKind.PAIRED, played, None, None)
            announce.payload["tournament"] = tournament.id
            announce.payload["round"] = after + 1
            opening = [(p.move, p.player, None) for p in played]
            boards.append(NewBoard(pairing.player0, pairing.player1, opening=opening, announce=announce))
        announce = Announce(AnnouncementKind.ROUND, {"tournament": tournament.id, "round": after + 1})
        started = await self._tournaments.start_round(
            tournament.id,
            expected_round=after,
            expected_revision=tournament.revision,
            boards=boards,
            now=self._table.clock(),
            announce=announce,
            seeds=seeds or (),
            rounds=rounds,
        )
        return started is not None

    async def _finish(self, tournament: Tournament, why: str) -> bool:
        announce = Announce(AnnouncementKind.TOURNAMENT_END, {"tournament": tournament.id, "why": why})
        done = await self._tournaments.end_tournament(
            tournament.id,
            status=TournamentStatus.FINISHED,
            now=self._table.clock(),
            announce=announce,
            expected_round=tournament.round,
        )
        return done is not None

    async def _forfeit_removed(self, tournament: Tournament) -> None:
        """Forfeit the games still on of players an organiser removed (done again by the next sweep if the process
        died in between)."""
        if tournament.status != TournamentStatus.RUNNING:
            return
        removed = {p.user_id for p in await self._tournaments.entrants(tournament.id) if p.removed_at is not None}
        if not removed:
            return
        for row in await self._tournaments.tournament_games(tournament.id, GameStatus.ACTIVE):
            for player in row.players:
                if player in removed:
                    await self._turns.forfeit(row.id, player)
                    break
