"""Challenges (sessions/challenges.py): offered, answered, expired, limited, raced."""

from __future__ import annotations

import asyncio
import dataclasses

import pytest

import games
from locales import tr
from sessions.model import Game, UserError
from sessions.service import GameService
from storage.database import Database
from tests.fourth_game.entry import ENTRY as FOURTH_GAME
from tests.sessions.play import ALICE, BOB, CAROL, CHANNEL, GUILD, Clock, challenge


async def test_challenge_refuses_self_bots_and_a_second_open_challenge(service: GameService) -> None:
    base = dict(game="iago", guild_id=GUILD, channel_id=CHANNEL, options={}, side=None, rated=True)
    with pytest.raises(UserError, match="yourself"):
        await service.challenges.challenge(challenger_id=ALICE, opponent_id=ALICE, opponent_is_bot=False, **base)
    with pytest.raises(UserError, match="Bots"):
        await service.challenges.challenge(challenger_id=ALICE, opponent_id=BOB, opponent_is_bot=True, **base)
    await service.challenges.challenge(challenger_id=ALICE, opponent_id=BOB, opponent_is_bot=False, **base)
    with pytest.raises(UserError, match="already an open challenge"):
        await service.challenges.challenge(challenger_id=BOB, opponent_id=ALICE, opponent_is_bot=False, **base)


async def test_bad_options_are_refused_with_the_allowed_values(service: GameService) -> None:
    with pytest.raises(UserError) as caught:
        await challenge(service, options={"variant": "wild"})
    reason = caught.value.params["reason"]
    assert "standard" in str(reason)
    assert "ヴァリアント" in tr("ja", caught.value.message, reason=reason)  # the reason is translated too


async def test_only_the_opponent_accepts_and_only_the_challenger_cancels(service: GameService) -> None:
    row = await challenge(service, side=1)
    assert row.players == (BOB, ALICE)  # the challenger asked for side 1
    for stranger_action in (service.open_challenges.accept, service.challenges.decline, service.challenges.cancel):
        with pytest.raises(UserError):
            await stranger_action(row.id, CAROL, guild_id=GUILD)
    with pytest.raises(UserError, match="own challenge"):
        await service.open_challenges.accept(row.id, ALICE, guild_id=GUILD)
    with pytest.raises(UserError, match="Only the challenger"):
        await service.challenges.cancel(row.id, BOB, guild_id=GUILD)
    assert (await service.finder.game(row.id)).status == "challenge"
    cancelled, _ = await service.challenges.cancel(row.id, ALICE, guild_id=GUILD)
    assert cancelled.status == "cancelled"
    with pytest.raises(UserError, match="no longer open"):
        await service.open_challenges.accept(row.id, BOB, guild_id=GUILD)


async def test_a_challenge_is_answered_only_in_its_server_and_from_its_own_message(
    service: GameService, db: Database
) -> None:
    row = await challenge(service)
    await db.challenges.set_message(row.id, "challenge_message_id", 555)
    with pytest.raises(UserError, match="cannot find game"):
        await service.open_challenges.accept(row.id, BOB, guild_id=GUILD + 1, message_id=555)
    with pytest.raises(UserError, match="does not belong"):
        await service.open_challenges.accept(
            row.id, BOB, guild_id=GUILD, message_id=556
        )  # a button copied onto another message
    assert (await service.finder.game(row.id)).status == "challenge"
    await service.open_challenges.accept(row.id, BOB, guild_id=GUILD, message_id=555)
    assert (await service.finder.game(row.id)).status == "active"


async def test_a_member_holds_at_most_five_open_challenges(service: GameService) -> None:
    for opponent in range(200, 205):
        await challenge(service, opponent_id=opponent)
    with pytest.raises(UserError, match="open challenges") as refused:
        await challenge(service, opponent_id=300)
    assert refused.value.params == {"count": 5}
    other_server = await challenge(service, opponent_id=300, guild_id=GUILD + 1)  # the cap is per server
    assert other_server.status == "challenge"


async def test_challenge_expires_after_its_time(service: GameService, clock: Clock) -> None:
    row = await challenge(service, side=0)
    clock.now += 901
    expired = await service.challenges.expire_challenges()
    assert [r.id for r in expired] == [row.id]
    with pytest.raises(UserError, match="no longer open"):
        await service.open_challenges.accept(row.id, BOB, guild_id=GUILD)


async def test_racing_challenges_between_two_members_leave_one_open(
    db: Database, service: GameService, database_url: str, clock: Clock
) -> None:
    other = GameService(await Database.open(database_url), service.settings, clock=clock)  # a second process
    try:
        results = await asyncio.gather(
            challenge(service), challenge(other, challenger_id=BOB, opponent_id=ALICE), return_exceptions=True
        )
    finally:
        await other.close()
    assert sum(isinstance(r, Game) for r in results) == 1
    assert all(isinstance(r, Game) or "already an open challenge" in str(r) for r in results)
    assert len(await db.games.games_with_status("challenge")) == 1


async def test_the_bot_is_challenged_only_to_a_game_whose_entry_names_an_ai_and_at_a_level_it_has(
    service: GameService, db: Database
) -> None:
    without_ai = dataclasses.replace(FOURTH_GAME, ai=None)
    games.register(without_ai)
    try:
        computer = dict(guild_id=GUILD, channel_id=CHANNEL, member_id=ALICE, bot_id=999, options={}, side=0)
        with pytest.raises(UserError, match="do not play") as refused:
            await service.challenges.challenge_computer(game=without_ai.name, level=None, **computer)
        assert str(refused.value.params["title"]) == "Tic-tac-toe"
        with pytest.raises(UserError, match="levels 1 to 4"):
            await service.challenges.challenge_computer(
                game="iago", level=5, **{**computer, "options": {"variant": "standard"}}
            )
        assert await db.games.games_with_status("challenge") == [] and await db.games.games_with_status("active") == []
    finally:
        games.unregister(without_ai.name)
