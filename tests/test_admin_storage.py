"""Server settings and admin actions in the service and storage, on SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
import sqlalchemy as sa

from engines import Phrase
from locales import tr
from sessions.model import UserError
from sessions.service import GameService, Settings
from storage.database import Database, StalePly
from storage.schema import moves, ratings, records

GUILD, OTHER_GUILD, CHANNEL = 1_234_567_890_123_456_789, 1_234_567_890_123_456_790, 987_654_321_098_765_432
ALICE, BOB, ADMIN = 301_234_567_890_123_456, 302_234_567_890_123_456, 399_234_567_890_123_456
HOUR = 3600.0


@pytest.fixture
async def db(database_url: str) -> AsyncIterator[Database]:
    database = await Database.open(database_url)
    yield database
    await database.close()


@pytest.fixture
def service(db: Database) -> GameService:
    now = [1_000_000.0]
    return GameService(db, Settings(challenge_ttl=900, reminder_after=24 * HOUR, threads=False), clock=lambda: now[0])


async def start_game(service: GameService, guild: int = GUILD) -> int:
    row = await service.challenges.challenge(
        game="iago", guild_id=guild, channel_id=CHANNEL, challenger_id=ALICE, opponent_id=BOB,
        opponent_is_bot=False, options={"variant": "standard"}, side=0, rated=True,
    )  # fmt: skip
    await service.open_challenges.accept(row.id, BOB, guild_id=guild)
    return row.id


async def test_settings_merge_the_servers_choices_over_the_defaults(db: Database, service: GameService) -> None:
    here = await service.server_settings.settings_for(GUILD)
    assert here.enabled_games >= {"iago", "isaac", "polygo"} and here.allowed_channels == frozenset()
    assert (here.threads, here.challenge_minutes, here.reminder_hours) == (False, 15, 24)
    changed = await service.server_settings.change(
        GUILD, ADMIN, game=("isaac", False), channel=(CHANNEL, True), threads=True
    )
    assert "isaac" not in changed.enabled_games and changed.allowed_channels == {CHANNEL} and changed.threads
    assert changed.channel_allowed(CHANNEL) and changed.channel_allowed(5, parent_id=CHANNEL)
    assert not changed.channel_allowed(5)
    for wrong in ({"challenge_minutes": 0}, {"challenge_minutes": 1441}, {"reminder_hours": 169}):
        with pytest.raises(UserError, match="Choose between"):
            await service.server_settings.change(GUILD, ADMIN, **wrong)
    await service.server_settings.change(GUILD, ADMIN, channel=(CHANNEL, False), game=("isaac", True))
    assert (await service.server_settings.settings_for(GUILD)).allowed_channels == frozenset()  # none left: any channel
    assert (
        await service.server_settings.settings_for(OTHER_GUILD)
    ).threads is False  # another server keeps the defaults
    assert [row.action for row in await db.admin.audit_log(GUILD)] == ["set", "set"]


async def test_challenges_use_the_servers_expiry_and_refuse_disabled_games(service: GameService) -> None:
    await service.server_settings.change(GUILD, ADMIN, challenge_minutes=3, game=("polygo", False))
    row = await service.challenges.challenge(
        game="iago", guild_id=GUILD, channel_id=CHANNEL, challenger_id=ALICE, opponent_id=BOB,
        opponent_is_bot=False, options={"variant": "standard"}, side=0, rated=True,
    )  # fmt: skip
    assert row.expires_at == service.clock() + 180
    with pytest.raises(UserError) as refused:
        await service.challenges.challenge(
            game="polygo", guild_id=GUILD, channel_id=CHANNEL, challenger_id=BOB, opponent_id=ADMIN,
            opponent_is_bot=False, options={}, side=0, rated=True,
        )  # fmt: skip
    # the title members read, translated for each reader, not the internal key
    assert refused.value.params == {"game": Phrase("Polygo")}
    assert tr("ja", refused.value.message, **refused.value.params) == tr("ja", refused.value.message, game="ポリゴ")


async def test_reminders_and_claims_follow_each_servers_hours(service: GameService) -> None:
    fast, slow = await start_game(service, GUILD), await start_game(service, OTHER_GUILD)
    await service.server_settings.change(GUILD, ADMIN, reminder_hours=1)
    start = service.clock()
    service.clock = lambda: start + 1.5 * HOUR
    assert [row.id for row, _ in await service.turns.due_reminders()] == [fast]  # compared in SQL, per server
    with pytest.raises(UserError, match="claim the win"):
        await service.turns.claim(fast, BOB)  # it is alice's move; bob may claim after 2 h
    service.clock = lambda: start + 2.5 * HOUR
    report = await service.turns.claim(fast, BOB)
    assert report.finish is not None and report.finish.reason == "timeout"
    service.clock = lambda: start + 25 * HOUR
    assert [row.id for row, _ in await service.turns.due_reminders()] == [slow]


async def test_an_admin_cancel_counts_nothing_and_beats_a_late_move(db: Database, service: GameService) -> None:
    game_id = await start_game(service)
    row = await service.finder.game(game_id)
    cancelled, announcement_id = await service.admin.cancel(game_id, GUILD, ADMIN)
    assert (cancelled.status, cancelled.winner, cancelled.finished_at) == ("cancelled", None, service.clock())
    announcement = await db.outbox.announcement(announcement_id)
    assert announcement is not None and announcement.kind == "cancelled" and announcement.payload["by"] == ADMIN
    with pytest.raises(StalePly):  # a move read before the cancel cannot be written after it
        await db.games.append_moves(game_id, row.ply, [("D3", 0, ALICE)], service.clock())
    with pytest.raises(UserError, match="admin cancelled"):
        await service.turns.play(game_id, ALICE, "D3")
    with pytest.raises(UserError, match="nothing to cancel"):
        await service.admin.cancel(game_id, GUILD, ADMIN)
    with pytest.raises(UserError, match="cannot find"):
        await service.admin.cancel(game_id, OTHER_GUILD, ADMIN)  # another server's game
    assert await db.ratings.records_of(GUILD, ALICE) == []
    assert [(row.action, row.details) for row in await db.admin.audit_log(GUILD)] == [("cancel", {"game_id": game_id})]


async def test_reset_and_forget_delete_what_docs_admin_md_says(db: Database, service: GameService) -> None:
    game_id = await start_game(service)
    await service.turns.play(game_id, ALICE, "D3")
    async with db.transaction() as connection:
        for user in (ALICE, BOB):
            await connection.execute(
                sa.insert(ratings).values(guild_id=GUILD, game="iago", user_id=user, mu=30, sigma=5, rated_games=1)
            )
            await connection.execute(
                sa.insert(records).values(guild_id=GUILD, game="iago", user_id=user, wins=1, losses=0, draws=0)
            )
    actions = service.admin
    assert await actions.reset_leaderboard(GUILD, "iago", ADMIN, with_records=False) == (2, 0)
    assert len(await db.ratings.records_of(GUILD, ALICE)) == 1

    forgotten = await actions.forget_member(GUILD, ALICE, ADMIN)
    assert (forgotten.ratings, forgotten.records, forgotten.games, forgotten.cancelled) == (0, 1, 1, (game_id,))
    row = await service.finder.game(game_id)
    assert row.status == "cancelled" and ALICE not in row.players and forgotten.anonymous_id in row.players
    assert row.challenger_id == forgotten.anonymous_id
    async with db.engine.connect() as connection:
        users = (await connection.execute(sa.select(moves.c.user_id).where(moves.c.game_id == game_id))).scalars()
        assert forgotten.anonymous_id in set(users)
    assert await db.games.moves(game_id) != []  # the move log is kept
    assert await db.ratings.records_of(GUILD, ALICE) == [] and len(await db.ratings.records_of(GUILD, BOB)) == 1
    audit = await db.admin.audit_log(GUILD)
    assert [row.action for row in audit] == ["forget-member", "reset-leaderboard"]
    assert str(ALICE) not in repr(audit)  # the log keeps the anonymous id, not what was forgotten
