"""Queries for tournaments: their players, rounds, pairings and games. No policy here (who may, what is paired,
when a round starts): that is the service's (sessions/tournaments.py). Every change that must happen once, whatever
the number of processes, is a conditional update inside the transaction that does the rest of it (a round and its
games, a tournament's end and its announcement), so a second process that tries the same finds it done and writes
nothing."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import sqlalchemy as sa

from storage.competition import EntrantRow, NewBoard, PairingRow, TournamentRow
from storage.games import log_opening
from storage.outbox import Announce, insert_announcements
from storage.rows import GameRow, GameStatus, TournamentStatus
from storage.schema import competition_settings, games, tournament_pairings, tournament_players, tournaments
from storage.store import Store, write_audit


class TournamentRepository:
    """What the tournaments part reads and writes: a tournament, its players, its rounds and their games, and who
    may organise them."""

    def __init__(self, store: Store) -> None:
        self._store = store

    async def create_tournament(self, **values: Any) -> int:
        """A new tournament open for sign-up; returns its id."""
        insert = (
            sa.insert(tournaments)
            .values(status=TournamentStatus.SIGNUP, round=0, revision=0, **values)
            .returning(tournaments.c.id)
        )
        return await self._store.write(lambda connection: int(connection.execute(insert).scalar_one()))

    async def tournament(self, tournament_id: int) -> TournamentRow | None:
        rows = await self._store.rows(sa.select(tournaments).where(tournaments.c.id == tournament_id))
        return TournamentRow.from_sql(rows[0]) if rows else None

    async def tournaments_with_status(
        self, statuses: Sequence[str], guild_ids: Sequence[int] | None = None
    ) -> list[TournamentRow]:
        where = [tournaments.c.status.in_(list(statuses))]
        if guild_ids is not None:
            where.append(tournaments.c.guild_id.in_(list(guild_ids)))
        rows = await self._store.rows(sa.select(tournaments).where(*where).order_by(tournaments.c.id))
        return [TournamentRow.from_sql(row) for row in rows]

    async def set_tournament_message(self, tournament_id: int, message_id: int) -> None:
        update = sa.update(tournaments).where(tournaments.c.id == tournament_id).values(message_id=message_id)
        await self._store.write(lambda connection: connection.execute(update))

    async def entrants(self, tournament_id: int) -> list[EntrantRow]:
        """A tournament's players, in the order they joined."""
        rows = await self._store.rows(
            sa.select(tournament_players)
            .where(tournament_players.c.tournament_id == tournament_id)
            .order_by(tournament_players.c.joined_at, tournament_players.c.user_id)
        )
        return [EntrantRow(r["user_id"], r["joined_at"], r["seed"], r["rating"], r["removed_at"]) for r in rows]

    async def join_tournament(self, tournament_id: int, user_id: int, now: float) -> str:
        """Sign a member up: 'joined', or why not: 'closed' (sign-up is over), 'full', 'already'. The tournament
        row is locked first, so two members taking the last place at once cannot both get it."""

        def body(connection: sa.Connection) -> str:
            found = _lock_tournament(connection, tournament_id)
            if found is None or found.status != TournamentStatus.SIGNUP or found.signup_deadline <= now:
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

        return await self._store.write(body)

    async def leave_tournament(self, tournament_id: int, user_id: int) -> str:
        """Withdraw before the start: 'left', 'closed' (it has started or ended) or 'absent'."""

        def body(connection: sa.Connection) -> str:
            found = _lock_tournament(connection, tournament_id)
            if found is None or found.status != TournamentStatus.SIGNUP:
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

        return await self._store.write(body)

    async def remove_entrant(self, tournament_id: int, user_id: int, admin_id: int, guild_id: int, now: float) -> bool:
        """An organiser removes a player: before the start they are gone; after it they are paired no more (their
        games are forfeited by the service). Audited. False if they are not (or no longer) in it."""

        def body(connection: sa.Connection) -> bool:
            found = _lock_tournament(connection, tournament_id)
            if found is None or found.status not in (TournamentStatus.SIGNUP, TournamentStatus.RUNNING):
                return False
            key = (tournament_players.c.tournament_id == tournament_id, tournament_players.c.user_id == user_id)
            if found.status == TournamentStatus.SIGNUP:
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
            write_audit(connection, guild_id, admin_id, "tournament-remove", details, now)
            return True

        return await self._store.write(body)

    async def pairings(self, tournament_id: int) -> list[PairingRow]:
        """Every board of every round so far, with its game's status and result."""
        p, g = tournament_pairings, games
        rows = await self._store.rows(
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

    async def tournament_games(self, tournament_id: int, status: str | None = None) -> list[GameRow]:
        where = [games.c.tournament_id == tournament_id]
        if status is not None:
            where.append(games.c.status == status)
        return await self._store.games_where(*where)

    async def start_round(
        self,
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
            wanted = TournamentStatus.SIGNUP if expected_round == 0 else TournamentStatus.RUNNING
            if (
                found is None
                or found.status != wanted
                or found.round != expected_round
                or found.revision != expected_revision
            ):
                return None
            if _unfinished_games(connection, tournament_id, expected_round):
                return None
            values: dict[str, Any] = {"round": expected_round + 1, "status": TournamentStatus.RUNNING}
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

        return await self._store.write(body)

    async def end_tournament(
        self,
        tournament_id: int,
        *,
        status: TournamentStatus,
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
            if found is None or found.status not in (TournamentStatus.SIGNUP, TournamentStatus.RUNNING):
                return None
            if expected_round is not None and found.round != expected_round:
                return None
            if status == TournamentStatus.FINISHED and _unfinished_games(connection, tournament_id, found.round):
                return None
            connection.execute(
                sa.update(tournaments).where(tournaments.c.id == tournament_id).values(status=status, finished_at=now)
            )
            cancelled = []
            if status == TournamentStatus.CANCELLED:
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
                    write_audit(connection, found.guild_id, admin_id, "tournament-cancel", details, now)
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

        return await self._store.write(body)

    async def organiser_role(self, guild_id: int) -> int | None:
        rows = await self._store.rows(
            sa.select(competition_settings.c.organiser_role_id).where(competition_settings.c.guild_id == guild_id)
        )
        return rows[0]["organiser_role_id"] if rows else None

    async def set_organiser_role(self, guild_id: int, role_id: int | None, admin_id: int, now: float) -> None:
        values = {"organiser_role_id": role_id, "updated_at": now}
        upsert = (
            self._store.insert(competition_settings)
            .values(guild_id=guild_id, **values)
            .on_conflict_do_update(index_elements=[competition_settings.c.guild_id], set_=values)
        )

        def body(connection: sa.Connection) -> None:
            connection.execute(upsert)
            write_audit(connection, guild_id, admin_id, "tournament-organisers", {"role_id": role_id}, now)

        await self._store.write(body)


def forget_competitor(connection: sa.Connection, guild_id: int, member_id: int, anonymous_id: int, now: float) -> None:
    """Inside ``forget_member``'s transaction: in the server's tournaments the member becomes ``anonymous_id`` (a
    sign-up is withdrawn, a running tournament pairs them no more: removed)."""
    here = sa.select(tournaments.c.id).where(tournaments.c.guild_id == guild_id).scalar_subquery()
    signing_up = (
        sa.select(tournaments.c.id)
        .where(tournaments.c.guild_id == guild_id, tournaments.c.status == TournamentStatus.SIGNUP)
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
    log_opening(connection, game_id, board.opening, now)
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
