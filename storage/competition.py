"""Queries for play with the whole server: tournaments (players, rounds, pairings) and seasons. No policy here
(who may, what is paired, when a season ends): that is the service's. Every change that must happen once, whatever
the number of processes, is a conditional update inside the transaction that does the rest of it (a round and its
games, a season's end and its announcement), so a second process that tries the same finds it done and writes
nothing."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

import sqlalchemy as sa

from storage.engine import Body, T
from storage.outbox import Announce, insert_announcements
from storage.rows import GameRow, GameStatus, MoveRow, RatingRow, Settle
from storage.schema import (
    OPEN_SEASON_INDEX,
    admin_audit,
    competition_settings,
    games,
    moves,
    season_ratings,
    seasons,
    tournament_pairings,
    tournament_players,
    tournaments,
)

SIGNUP, RUNNING, FINISHED, CANCELLED = "signup", "running", "finished", "cancelled"


@dataclass(frozen=True)
class TournamentRow:
    id: int
    guild_id: int
    channel_id: int
    name: str
    game: str
    options: dict[str, Any]
    format: str
    rounds: int
    legs: int
    move_seconds: float
    rated: bool
    signup_deadline: float
    max_players: int
    status: str
    round: int
    revision: int
    winner_role_id: int | None
    message_id: int | None
    created_by: int
    created_at: float
    started_at: float | None
    finished_at: float | None

    @classmethod
    def from_sql(cls, row: sa.RowMapping) -> TournamentRow:
        values = {name: row[name] for name in cls.__dataclass_fields__}
        values["rated"] = bool(values["rated"])
        return cls(**values)


@dataclass(frozen=True)
class EntrantRow:
    user_id: int
    joined_at: float
    seed: int | None
    rating: float | None
    removed_at: float | None


@dataclass(frozen=True)
class PairingRow:
    """A board of a round and how it stands: its game's status and result, or its points when it has no game."""

    round: int
    board: int
    player0_id: int
    player1_id: int | None
    game_id: int | None
    points0: int | None  # half points, for a board without a game
    points1: int | None
    game_status: str | None = None
    winner: int | None = None
    result_reason: str | None = None


@dataclass(frozen=True)
class NewBoard:
    """A board of a round about to start: a game (with its opening chance moves and first announcement), or a bye
    or a forfeit without a game (``points``: half points for player 0 and player 1)."""

    player0: int
    player1: int | None
    opening: list[MoveRow] = field(default_factory=list)
    announce: Announce | None = None
    points: tuple[int, int] | None = None


@dataclass(frozen=True)
class SeasonRow:
    guild_id: int
    number: int
    channel_id: int
    months: int
    starts_at: float
    ends_at: float
    closed_at: float | None


class DuplicateSeason(Exception):
    """The server already has a season running (the database refused a second)."""


class _Storage(Protocol):
    dialect: str

    async def read(self, body: Body[T]) -> T: ...

    async def write(self, body: Body[T]) -> T: ...

    async def _rows(self, statement: sa.Executable, params: dict[str, Any] | None = None) -> list[sa.RowMapping]: ...

    def _insert(self, table: sa.Table) -> Any: ...


class CompetitionQueries:
    """The tournaments and seasons half of :class:`storage.database.Database`."""

    # --- tournaments ------------------------------------------------------------------------------

    async def create_tournament(self: _Storage, **values: Any) -> int:
        """A new tournament open for sign-up; returns its id."""
        insert = sa.insert(tournaments).values(status=SIGNUP, round=0, revision=0, **values).returning(tournaments.c.id)
        return await self.write(lambda connection: int(connection.execute(insert).scalar_one()))

    async def tournament(self: _Storage, tournament_id: int) -> TournamentRow | None:
        rows = await self._rows(sa.select(tournaments).where(tournaments.c.id == tournament_id))
        return TournamentRow.from_sql(rows[0]) if rows else None

    async def tournaments_with_status(
        self: _Storage, statuses: Sequence[str], guild_ids: Sequence[int] | None = None
    ) -> list[TournamentRow]:
        where = [tournaments.c.status.in_(list(statuses))]
        if guild_ids is not None:
            where.append(tournaments.c.guild_id.in_(list(guild_ids)))
        rows = await self._rows(sa.select(tournaments).where(*where).order_by(tournaments.c.id))
        return [TournamentRow.from_sql(row) for row in rows]

    async def set_tournament_message(self: _Storage, tournament_id: int, message_id: int) -> None:
        update = sa.update(tournaments).where(tournaments.c.id == tournament_id).values(message_id=message_id)
        await self.write(lambda connection: connection.execute(update))

    async def entrants(self: _Storage, tournament_id: int) -> list[EntrantRow]:
        """A tournament's players, in the order they joined."""
        rows = await self._rows(
            sa.select(tournament_players)
            .where(tournament_players.c.tournament_id == tournament_id)
            .order_by(tournament_players.c.joined_at, tournament_players.c.user_id)
        )
        return [EntrantRow(r["user_id"], r["joined_at"], r["seed"], r["rating"], r["removed_at"]) for r in rows]

    async def join_tournament(self: _Storage, tournament_id: int, user_id: int, now: float) -> str:
        """Sign a member up: 'joined', or why not: 'closed' (sign-up is over), 'full', 'already'. The tournament
        row is locked first, so two members taking the last place at once cannot both get it."""

        def body(connection: sa.Connection) -> str:
            found = _lock_tournament(connection, tournament_id)
            if found is None or found.status != SIGNUP or found.signup_deadline <= now:
                return "closed"
            key = (tournament_players.c.tournament_id == tournament_id, tournament_players.c.user_id == user_id)
            if connection.execute(sa.select(tournament_players.c.user_id).where(*key)).first() is not None:
                return "already"
            count = connection.execute(
                sa.select(sa.func.count()).where(tournament_players.c.tournament_id == tournament_id)
            ).scalar_one()
            if count >= found.max_players:
                return "full"
            connection.execute(
                sa.insert(tournament_players).values(tournament_id=tournament_id, user_id=user_id, joined_at=now)
            )
            _bump(connection, tournament_id)
            return "joined"

        return await self.write(body)

    async def leave_tournament(self: _Storage, tournament_id: int, user_id: int) -> str:
        """Withdraw before the start: 'left', 'closed' (it has started or ended) or 'absent'."""

        def body(connection: sa.Connection) -> str:
            found = _lock_tournament(connection, tournament_id)
            if found is None or found.status != SIGNUP:
                return "closed"
            gone = connection.execute(
                sa.delete(tournament_players).where(
                    tournament_players.c.tournament_id == tournament_id, tournament_players.c.user_id == user_id
                )
            )
            if gone.rowcount == 0:
                return "absent"
            _bump(connection, tournament_id)
            return "left"

        return await self.write(body)

    async def remove_entrant(
        self: _Storage, tournament_id: int, user_id: int, admin_id: int, guild_id: int, now: float
    ) -> bool:
        """An organiser removes a player: before the start they are gone; after it they are paired no more (their
        games are forfeited by the service). Audited. False if they are not (or no longer) in it."""

        def body(connection: sa.Connection) -> bool:
            found = _lock_tournament(connection, tournament_id)
            if found is None or found.status not in (SIGNUP, RUNNING):
                return False
            key = (tournament_players.c.tournament_id == tournament_id, tournament_players.c.user_id == user_id)
            if found.status == SIGNUP:
                changed = connection.execute(sa.delete(tournament_players).where(*key)).rowcount
            else:
                changed = connection.execute(
                    sa.update(tournament_players)
                    .where(*key, tournament_players.c.removed_at.is_(None))
                    .values(removed_at=now)
                ).rowcount
            if not changed:
                return False
            _bump(connection, tournament_id)
            details = {"tournament_id": tournament_id, "user_id": user_id}
            _audit(connection, guild_id, admin_id, "tournament-remove", details, now)
            return True

        return await self.write(body)

    async def pairings(self: _Storage, tournament_id: int) -> list[PairingRow]:
        """Every board of every round so far, with its game's status and result."""
        p, g = tournament_pairings, games
        rows = await self._rows(
            sa.select(p, g.c.status.label("game_status"), g.c.winner, g.c.result_reason)
            .select_from(p.outerjoin(g, g.c.id == p.c.game_id))
            .where(p.c.tournament_id == tournament_id)
            .order_by(p.c.round, p.c.board)
        )
        return [
            PairingRow(
                r["round"],
                r["board"],
                r["player0_id"],
                r["player1_id"],
                r["game_id"],
                r["points0"],
                r["points1"],
                r["game_status"],
                r["winner"],
                r["result_reason"],
            )
            for r in rows
        ]

    async def start_round(
        self: _Storage,
        tournament_id: int,
        *,
        expected_round: int,
        expected_revision: int,
        boards: Sequence[NewBoard],
        now: float,
        announce: Announce,
        seeds: Sequence[tuple[int, int, float]] = (),
        rounds: int | None = None,
    ) -> list[int | None] | None:
        """Start round ``expected_round + 1``: its boards, a game for each board with two players (active at once,
        its opening moves logged, its first announcement written) and the round's announcement, in one
        transaction, and only if the tournament is still at ``expected_round`` and ``expected_revision`` with
        every game of that round over. Returns the boards' game ids (None for a board without a game), or None
        when another process started the round first or something changed meanwhile.

        The first round also closes the sign-up: ``seeds`` (user, seed, rating) and the number of ``rounds``."""

        def body(connection: sa.Connection) -> list[int | None] | None:
            found = _lock_tournament(connection, tournament_id)
            wanted = SIGNUP if expected_round == 0 else RUNNING
            if (
                found is None
                or found.status != wanted
                or found.round != expected_round
                or found.revision != expected_revision
            ):
                return None
            if _unfinished_games(connection, tournament_id, expected_round):
                return None
            values: dict[str, Any] = {"round": expected_round + 1, "status": RUNNING}
            if expected_round == 0:
                values |= {"started_at": now, "rounds": rounds if rounds is not None else found.rounds}
            connection.execute(sa.update(tournaments).where(tournaments.c.id == tournament_id).values(values))
            for user_id, seed, rating in seeds:
                connection.execute(
                    sa.update(tournament_players)
                    .where(tournament_players.c.tournament_id == tournament_id, tournament_players.c.user_id == user_id)
                    .values(seed=seed, rating=rating)
                )
            game_ids: list[int | None] = []
            for number, board in enumerate(boards, start=1):
                game_id = None
                if board.player1 is not None and board.points is None:
                    game_id = _insert_game(connection, found, board, now)
                game_ids.append(game_id)
                points = board.points or (None, None)
                connection.execute(
                    sa.insert(tournament_pairings).values(
                        tournament_id=tournament_id,
                        round=expected_round + 1,
                        board=number,
                        player0_id=board.player0,
                        player1_id=board.player1,
                        game_id=game_id,
                        points0=points[0],
                        points1=points[1],
                    )
                )
            insert_announcements(
                connection,
                game_id=None,
                guild_id=found.guild_id,
                channel_id=found.channel_id,
                ply=None,
                announce=announce,
                now=now,
            )
            return game_ids

        return await self.write(body)

    async def end_tournament(
        self: _Storage,
        tournament_id: int,
        *,
        status: str,
        now: float,
        announce: Announce,
        expected_round: int | None = None,
        admin_id: int | None = None,
        game_announce: Announce | None = None,
    ) -> list[int] | None:
        """Finish (``status`` 'finished': only at ``expected_round`` with every game over) or cancel (every game
        still on is cancelled with ``game_announce``; audited as the act of ``admin_id``) a tournament, with its
        announcement, once. Returns the games cancelled, or None if it had already ended (or moved on)."""

        def body(connection: sa.Connection) -> list[int] | None:
            found = _lock_tournament(connection, tournament_id)
            if found is None or found.status not in (SIGNUP, RUNNING):
                return None
            if expected_round is not None and found.round != expected_round:
                return None
            if status == FINISHED and _unfinished_games(connection, tournament_id, found.round):
                return None
            connection.execute(
                sa.update(tournaments).where(tournaments.c.id == tournament_id).values(status=status, finished_at=now)
            )
            cancelled = []
            if status == CANCELLED:
                still_on = connection.execute(
                    sa.select(games.c.id, games.c.ply, games.c.thread_id, games.c.channel_id).where(
                        games.c.tournament_id == tournament_id, games.c.status == GameStatus.ACTIVE
                    )
                ).all()
                for game_id, ply, thread_id, channel_id in still_on:
                    connection.execute(
                        sa.update(games)
                        .where(games.c.id == game_id)
                        .values(status=GameStatus.CANCELLED, finished_at=now, result_reason="cancelled")
                    )
                    insert_announcements(
                        connection,
                        game_id=game_id,
                        guild_id=found.guild_id,
                        channel_id=thread_id or channel_id,
                        ply=ply,
                        announce=game_announce,
                        now=now,
                    )
                    cancelled.append(game_id)
                if admin_id is not None:
                    details = {"tournament_id": tournament_id, "cancelled": cancelled}
                    _audit(connection, found.guild_id, admin_id, "tournament-cancel", details, now)
            insert_announcements(
                connection,
                game_id=None,
                guild_id=found.guild_id,
                channel_id=found.channel_id,
                ply=None,
                announce=announce,
                now=now,
            )
            return cancelled

        return await self.write(body)

    async def organiser_role(self: _Storage, guild_id: int) -> int | None:
        rows = await self._rows(
            sa.select(competition_settings.c.organiser_role_id).where(competition_settings.c.guild_id == guild_id)
        )
        return rows[0]["organiser_role_id"] if rows else None

    async def set_organiser_role(self: _Storage, guild_id: int, role_id: int | None, admin_id: int, now: float) -> None:
        values = {"organiser_role_id": role_id, "updated_at": now}
        upsert = (
            self._insert(competition_settings)
            .values(guild_id=guild_id, **values)
            .on_conflict_do_update(index_elements=[competition_settings.c.guild_id], set_=values)
        )

        def body(connection: sa.Connection) -> None:
            connection.execute(upsert)
            _audit(connection, guild_id, admin_id, "tournament-organisers", {"role_id": role_id}, now)

        await self.write(body)

    # --- seasons ----------------------------------------------------------------------------------

    async def seasons_of(self: _Storage, guild_id: int) -> list[SeasonRow]:
        """A server's seasons, the newest first."""
        rows = await self._rows(
            sa.select(seasons).where(seasons.c.guild_id == guild_id).order_by(seasons.c.number.desc())
        )
        return [SeasonRow(**{name: row[name] for name in SeasonRow.__dataclass_fields__}) for row in rows]

    async def seasons_due(self: _Storage, now: float, guild_ids: Sequence[int] | None = None) -> list[SeasonRow]:
        """Running seasons whose end has come."""
        where = [seasons.c.closed_at.is_(None), seasons.c.ends_at <= now]
        if guild_ids is not None:
            where.append(seasons.c.guild_id.in_(list(guild_ids)))
        rows = await self._rows(sa.select(seasons).where(*where).order_by(seasons.c.guild_id))
        return [SeasonRow(**{name: row[name] for name in SeasonRow.__dataclass_fields__}) for row in rows]

    async def start_season(
        self: _Storage, guild_id: int, channel_id: int, months: int, now: float, ends_at: float, admin_id: int
    ) -> int:
        """Turn seasons on: season ``n + 1`` runs from now. :class:`DuplicateSeason` if one is running."""

        def body(connection: sa.Connection) -> int:
            last = connection.execute(
                sa.select(sa.func.max(seasons.c.number)).where(seasons.c.guild_id == guild_id)
            ).scalar_one()
            number = (last or 0) + 1
            connection.execute(
                sa.insert(seasons).values(
                    guild_id=guild_id,
                    number=number,
                    channel_id=channel_id,
                    months=months,
                    starts_at=now,
                    ends_at=ends_at,
                )
            )
            details = {"season": number, "months": months}
            _audit(connection, guild_id, admin_id, "season-start", details, now)
            return number

        try:
            return await self.write(body)
        except sa.exc.IntegrityError as error:
            if OPEN_SEASON_INDEX in str(error.orig) or "seasons" in str(error.orig):
                raise DuplicateSeason(guild_id) from error
            raise

    async def end_season(
        self: _Storage,
        guild_id: int,
        number: int,
        now: float,
        announce: Announce,
        next_ends_at: float | None,
        admin_id: int | None = None,
    ) -> bool:
        """Close season ``number`` with its announcement and, with ``next_ends_at``, open the next one where it
        ended: True for exactly one caller (the conditional close), False if it was closed already. Games that
        finish meanwhile wait for this transaction (they read the open season ``FOR SHARE``), so the closed
        season's ratings are final when it commits."""

        def body(connection: sa.Connection) -> bool:
            closed = connection.execute(
                sa.update(seasons)
                .where(seasons.c.guild_id == guild_id, seasons.c.number == number, seasons.c.closed_at.is_(None))
                .values(closed_at=now)
                .returning(seasons.c.channel_id, seasons.c.months, seasons.c.ends_at)
            ).first()
            if closed is None:
                return False
            channel_id, months, ended = closed
            if next_ends_at is not None:
                connection.execute(
                    sa.insert(seasons).values(
                        guild_id=guild_id,
                        number=number + 1,
                        channel_id=channel_id,
                        months=months,
                        starts_at=ended,
                        ends_at=next_ends_at,
                    )
                )
            if admin_id is not None:
                _audit(connection, guild_id, admin_id, "season-stop", {"season": number}, now)
            insert_announcements(
                connection,
                game_id=None,
                guild_id=guild_id,
                channel_id=channel_id,
                ply=None,
                announce=announce,
                now=now,
            )
            return True

        return await self.write(body)

    async def season_leaderboard(
        self: _Storage, guild_id: int, season: int, game: str | None, limit: int
    ) -> list[tuple[str, int, float, float, int]]:
        """A season's best rated players: (game, user, mu, sigma, rated games), in one game or (None) every game,
        each game's best first, by the conservative estimate as the all-time board."""
        r = season_ratings
        where = [r.c.guild_id == guild_id, r.c.season == season]
        if game is not None:
            where.append(r.c.game == game)
        rows = await self._rows(
            sa.select(r).where(*where).order_by(r.c.game, (r.c.mu - 3 * r.c.sigma).desc(), r.c.user_id)
        )
        board: list[tuple[str, int, float, float, int]] = []
        shown: dict[str, int] = {}
        for row in rows:
            if shown.get(row["game"], 0) >= limit:
                continue
            shown[row["game"]] = shown.get(row["game"], 0) + 1
            board.append((row["game"], row["user_id"], row["mu"], row["sigma"], row["rated_games"]))
        return board


def settle_season(connection: sa.Connection, row: GameRow, settle: Settle) -> None:
    """Inside a rated game's finishing transaction: rate it again in the server's running season, if any, from
    the players' season ratings (a season starts everyone afresh). The season row is read ``FOR SHARE``: a season
    being closed waits for this game, or this game for it."""
    guild_id, game, players = row.guild_id, row.game, sorted(row.players)
    number = connection.execute(
        sa.select(seasons.c.number)
        .where(seasons.c.guild_id == guild_id, seasons.c.closed_at.is_(None))
        .with_for_update(read=True)
    ).scalar()
    if number is None:
        return
    r = season_ratings
    key = (r.c.guild_id == guild_id, r.c.season == number, r.c.game == game)
    found = {
        stored["user_id"]: RatingRow(stored["user_id"], stored["mu"], stored["sigma"], stored["rated_games"])
        for stored in connection.execute(
            sa.select(r).where(*key, r.c.user_id.in_(players)).order_by(r.c.user_id).with_for_update()
        ).mappings()
    }
    for user_id, (mu, sigma, _) in settle(row, {user: found.get(user) for user in players}).items():
        games_played = 1 + (found[user_id].rated_games if user_id in found else 0)
        values = dict(mu=mu, sigma=sigma, rated_games=games_played)
        if user_id in found:
            connection.execute(sa.update(r).where(*key, r.c.user_id == user_id).values(values))
        else:
            connection.execute(
                sa.insert(r).values(guild_id=guild_id, season=number, game=game, user_id=user_id, **values)
            )


def forget_competitor(connection: sa.Connection, guild_id: int, member_id: int, anonymous_id: int, now: float) -> None:
    """Inside ``forget_member``'s transaction: the member's season ratings go; in the server's tournaments they
    become ``anonymous_id`` (a sign-up is withdrawn, a running tournament pairs them no more: removed)."""
    connection.execute(
        sa.delete(season_ratings).where(season_ratings.c.guild_id == guild_id, season_ratings.c.user_id == member_id)
    )
    here = sa.select(tournaments.c.id).where(tournaments.c.guild_id == guild_id).scalar_subquery()
    signing_up = (
        sa.select(tournaments.c.id)
        .where(tournaments.c.guild_id == guild_id, tournaments.c.status == SIGNUP)
        .scalar_subquery()
    )
    mine = (tournament_players.c.tournament_id.in_(here), tournament_players.c.user_id == member_id)
    touched = connection.execute(sa.select(tournament_players.c.tournament_id).where(*mine)).scalars().all()
    connection.execute(sa.delete(tournament_players).where(*mine, tournament_players.c.tournament_id.in_(signing_up)))
    connection.execute(
        sa.update(tournament_players)
        .where(*mine)
        .values(user_id=anonymous_id, removed_at=sa.func.coalesce(tournament_players.c.removed_at, now))
    )
    for column in ("player0_id", "player1_id"):
        connection.execute(
            sa.update(tournament_pairings)
            .where(tournament_pairings.c.tournament_id.in_(here), tournament_pairings.c[column] == member_id)
            .values({column: anonymous_id})
        )
    connection.execute(
        sa.update(tournaments)
        .where(tournaments.c.guild_id == guild_id, tournaments.c.created_by == member_id)
        .values(created_by=anonymous_id)
    )
    for tournament_id in touched:
        _bump(connection, tournament_id)


def reset_season_ratings(connection: sa.Connection, guild_id: int, game: str) -> int:
    """Inside ``reset_leaderboard``'s transaction: every season's ratings of the server in ``game`` go too."""
    gone = connection.execute(
        sa.delete(season_ratings).where(season_ratings.c.guild_id == guild_id, season_ratings.c.game == game)
    )
    return int(gone.rowcount)


def _lock_tournament(connection: sa.Connection, tournament_id: int) -> sa.Row[Any] | None:
    # FOR UPDATE: every change of a tournament (a join, a round, its end) waits for the one before it.
    return connection.execute(
        sa.select(
            tournaments.c.id,
            tournaments.c.status,
            tournaments.c.round,
            tournaments.c.revision,
            tournaments.c.max_players,
            tournaments.c.signup_deadline,
            tournaments.c.guild_id,
            tournaments.c.channel_id,
            tournaments.c.game,
            tournaments.c.options,
            tournaments.c.rated,
            tournaments.c.move_seconds,
            tournaments.c.rounds,
        )
        .where(tournaments.c.id == tournament_id)
        .with_for_update()
    ).first()


def _bump(connection: sa.Connection, tournament_id: int) -> None:
    connection.execute(
        sa.update(tournaments).where(tournaments.c.id == tournament_id).values(revision=tournaments.c.revision + 1)
    )


def _unfinished_games(connection: sa.Connection, tournament_id: int, round_number: int) -> int:
    p = tournament_pairings
    return int(
        connection.execute(
            sa.select(sa.func.count())
            .select_from(p.join(games, games.c.id == p.c.game_id))
            .where(
                p.c.tournament_id == tournament_id,
                p.c.round == round_number,
                games.c.status.in_([GameStatus.CHALLENGE, GameStatus.ACTIVE]),
            )
        ).scalar_one()
    )


def _insert_game(connection: sa.Connection, found: sa.Row[Any], board: NewBoard, now: float) -> int:
    """A tournament game, active from the start (nobody accepts it), its opening chance moves logged."""
    assert board.player1 is not None
    game_id = int(
        connection.execute(
            sa.insert(games)
            .values(
                guild_id=found.guild_id,
                channel_id=found.channel_id,
                game=found.game,
                options=found.options,
                player0_id=board.player0,
                player1_id=board.player1,
                challenger_id=board.player0,
                rated=found.rated,
                status=GameStatus.ACTIVE,
                ply=len(board.opening),
                created_at=now,
                started_at=now,
                last_move_at=now,
                tournament_id=found.id,
                move_seconds=found.move_seconds,
            )
            .returning(games.c.id)
        ).scalar_one()
    )
    if board.opening:
        connection.execute(
            sa.insert(moves),
            [
                dict(game_id=game_id, ply=ply, move=move, player=player, user_id=user, created_at=now)
                for ply, (move, player, user) in enumerate(board.opening)
            ],
        )
    insert_announcements(
        connection,
        game_id=game_id,
        guild_id=found.guild_id,
        channel_id=found.channel_id,
        ply=len(board.opening),
        announce=board.announce,
        now=now,
    )
    return game_id


def _audit(
    connection: sa.Connection, guild_id: int, user_id: int, action: str, details: dict[str, Any], now: float
) -> None:
    connection.execute(
        sa.insert(admin_audit).values(
            guild_id=guild_id, user_id=user_id, action=action, details=details, created_at=now
        )
    )
