"""The tournament part of the service: what organisers may create, the sign-up closing by itself, removals and
cancellations, and the clock of a tournament game (a reminder, then a loss on time; no claims)."""

from __future__ import annotations

from typing import Any

import pytest
import sqlalchemy as sa

from sessions.model import AnnouncementKind, UserError
from sessions.service import GameService
from storage.database import Database
from storage.schema import announcements
from tests.sessions.play import ALICE, BOB, CAROL, CHANNEL, GUILD, Clock

DAVE = 104


async def create(service: GameService, **overrides: Any) -> int:
    arguments: dict[str, Any] = dict(
        guild_id=GUILD,
        channel_id=CHANNEL,
        creator_id=ALICE,
        name="Club night",
        game="iago",
        options={"variant": "standard"},
        format="swiss",
        rounds=3,
        move_seconds=86400,
        rated=True,
        signup_minutes=60,
        max_players=8,
    )
    return (await service.tournaments.create(**{**arguments, **overrides})).id


async def kinds(db: Database) -> list[str]:
    return await db.read(
        lambda c: list(c.execute(sa.select(announcements.c.kind).order_by(announcements.c.id)).scalars())
    )


@pytest.mark.parametrize(
    ("overrides", "refusal"),
    [
        ({"name": "  "}, "name of 1 to 80"),
        ({"rounds": 13}, "1 to 12 rounds"),
        ({"format": "round_robin", "rounds": 3}, "one or two legs"),
        ({"move_seconds": 60}, "time per move"),
        ({"max_players": 1}, "2 to 64 players"),
        ({"signup_minutes": 0}, "1 minute to 30 days"),
        ({"options": {"variant": "nonsense"}}, "not valid"),
        ({"format": "knockout"}, "Swiss or round robin"),
    ],
)
async def test_a_tournament_that_cannot_be_run_is_refused_and_nothing_is_stored(
    service: GameService, db: Database, overrides: dict[str, Any], refusal: str
) -> None:
    with pytest.raises(UserError) as refused:
        await create(service, **overrides)
    assert refusal in refused.value.message.format(**refused.value.params)
    assert await service.tournaments.of_server(GUILD) == []


async def test_the_sign_up_closes_by_itself_and_one_player_is_not_a_tournament(
    service: GameService, db: Database, clock: Clock
) -> None:
    tournament_id = await create(service)
    await service.tournaments.join(tournament_id, ALICE, GUILD)
    assert await service.tournaments.sweep([GUILD]) == 0  # not yet
    clock.now += 3601
    with pytest.raises(UserError, match="sign-up"):
        await service.tournaments.join(tournament_id, BOB, GUILD)  # too late, even before the sweep
    assert await service.tournaments.sweep([GUILD]) == 1
    assert (await service.tournaments.tournament(tournament_id)).status == "cancelled"
    assert await kinds(db) == [AnnouncementKind.TOURNAMENT_END]
    assert await service.tournaments.sweep([GUILD]) == 0  # once


async def test_a_removed_players_game_is_forfeited_and_a_cancel_ends_the_games_still_on(
    service: GameService, db: Database, clock: Clock
) -> None:
    tournament_id = await create(service, format="round_robin", rounds=1)
    for user in (ALICE, BOB, CAROL, DAVE):
        await service.tournaments.join(tournament_id, user, GUILD)
    assert await service.tournaments.start_now(tournament_id, GUILD)
    view = await service.tournaments.view(tournament_id)
    assert view.tournament.rounds == 3 and len(view.round_boards(1)) == 2
    # Removing DAVE forfeits the game DAVE is playing, unrated, and every later game of DAVE's is a forfeit.
    dave_game = next(board.game_id for board in view.round_boards(1) if DAVE in (board.player0, board.player1))
    assert dave_game is not None
    view = await service.tournaments.remove(tournament_id, DAVE, ALICE, GUILD)
    forfeited = await service.finder.game(dave_game)
    assert forfeited.status == "finished" and forfeited.result_reason == "forfeit"
    assert await service.ratings.rating(GUILD, "iago", DAVE) == await service.ratings.rating(
        GUILD, "iago", 999
    )  # unrated
    with pytest.raises(UserError, match="not playing"):
        await service.tournaments.remove(tournament_id, DAVE, ALICE, GUILD)
    # The other game of round 1 ends: round 2 has DAVE's board decided without a game.
    other = next(board for board in view.round_boards(1) if board.game_id != dave_game)
    assert other.game_id is not None
    await service.turns.resign(other.game_id, other.player0)
    assert await service.tournaments.sweep([GUILD]) == 1
    view = await service.tournaments.view(tournament_id)
    decided = [board for board in view.round_boards(2) if DAVE in (board.player0, board.player1)]
    assert len(decided) == 1 and decided[0].game_id is None and decided[0].reason is None
    assert decided[0].points == ((0, 2) if decided[0].player0 == DAVE else (2, 0))

    cancelled = await service.tournaments.cancel(tournament_id, ALICE, GUILD)
    assert cancelled.status == "cancelled"
    still_on = [board.game_id for board in view.round_boards(2) if board.game_id is not None]
    assert [(await service.finder.game(game_id)).status for game_id in still_on] == ["cancelled"]
    with pytest.raises(UserError, match="over"):
        await service.tournaments.cancel(tournament_id, ALICE, GUILD)
    assert (await kinds(db)).count(AnnouncementKind.TOURNAMENT_END) == 1


async def test_a_tournament_game_has_a_clock_a_reminder_before_it_runs_out_and_no_claims(
    service: GameService, db: Database, clock: Clock
) -> None:
    tournament_id = await create(service, move_seconds=3600)
    for user in (ALICE, BOB):
        await service.tournaments.join(tournament_id, user, GUILD)
    await service.tournaments.start_now(tournament_id, GUILD)
    board = (await service.tournaments.view(tournament_id)).round_boards(1)[0]
    assert board.game_id is not None
    game = await service.finder.game(board.game_id)
    assert game.move_seconds == 3600 and game.tournament_id == tournament_id
    clock.now += 44 * 60
    assert await service.clocks.run([GUILD]) == [] and AnnouncementKind.REMINDER not in await kinds(db)
    clock.now += 2 * 60  # 46 minutes: a quarter of the hour is left
    await service.clocks.run([GUILD])
    await service.clocks.run([GUILD])
    assert (await kinds(db)).count(AnnouncementKind.REMINDER) == 1
    assert await service.turns.due_reminders([GUILD]) == []  # the ordinary reminder leaves clocked games alone
    with pytest.raises(UserError, match="clock"):
        await service.turns.claim(game.id, game.players[1])
    with pytest.raises(UserError, match="cannot be aborted"):  # it counts for the round
        await service.aborts.abort(game.id, game.players[0])
    clock.now += 15 * 60
    flagged = await service.clocks.run([GUILD])
    assert len(flagged) == 1 and flagged[0].finish is not None
    assert flagged[0].finish.reason == "time" and flagged[0].finish.winner == 1  # side 0 was to move
    assert await service.clocks.run([GUILD]) == []
