"""/admin: only members with Manage Server (hidden by the client, refused by the bot when forged), settings that
apply at once, cancelling a game, resetting a leaderboard behind a confirm button, forgetting a member, and the
audit log of all of it."""

from __future__ import annotations

from collections.abc import Callable

import pytest
import sqlalchemy as sa

import cogs.components.reset_confirmation
from bot import GameBot
from sessions.service import GameService
from storage.database import Database
from storage.schema import games, moves, ratings, records
from tests.e2e.driver import challenge_and_accept, private_reply, public_reply
from tests.e2e.fake_discord import FakeDiscord
from tests.e2e.fake_discord_interactions import CommandNotAvailable


async def audit_text(fake: FakeDiscord) -> str:
    message = await private_reply(await fake.slash(fake.alice, "admin", "audit"))
    return message.embeds[0]["description"]


async def seed_scores(db: Database, guild_id: int, *users: int) -> None:
    async with db.transaction() as connection:
        for user in users:
            await connection.execute(
                sa.insert(ratings).values(guild_id=guild_id, game="iago", user_id=user, mu=30, sigma=5, rated_games=3)
            )
            await connection.execute(
                sa.insert(records).values(guild_id=guild_id, game="iago", user_id=user, wins=2, losses=1, draws=0)
            )


async def count(db: Database, statement: sa.Select) -> int:
    async with db.engine.connect() as connection:
        return int(
            (await connection.execute(sa.select(sa.func.count()).select_from(statement.subquery()))).scalar_one()
        )


async def test_members_without_manage_server_cannot_use_admin_even_by_forging(
    fake: FakeDiscord, make_bot: Callable[[], GameBot]
) -> None:
    async with fake.running_bot(make_bot()) as bot:
        with pytest.raises(CommandNotAvailable):
            await fake.slash(fake.bob, "admin", "settings")
        with pytest.raises(CommandNotAvailable):
            await fake.slash(fake.bob, "admin", "set", "game", options={"game": "iago", "enabled": False})
        forged = await private_reply(
            await fake.slash(fake.bob, "admin", "set", "game", options={"game": "iago", "enabled": False}, forged=True)
        )
        assert "Manage Server" in forged.content
        assert (
            "iago" in (await bot.service.server_settings.settings_for(fake.guild.id)).enabled_games
        )  # nothing changed
        assert "No admin actions yet." in await audit_text(fake)
        fake.set_permissions(fake.bob, fake.member_permissions(fake.bob) | 0x20)  # MANAGE_GUILD
        shown = await private_reply(await fake.slash(fake.bob, "admin", "settings"))
        assert "any channel" in shown.embeds[0]["description"]


async def test_settings_apply_at_once_and_are_audited(
    db: Database, fake: FakeDiscord, make_bot: Callable[[], GameBot]
) -> None:
    other = fake.add_text_channel("games")
    async with fake.running_bot(make_bot()) as bot:
        saved = await private_reply(
            await fake.slash(fake.alice, "admin", "set", "game", options={"game": "iago", "enabled": False})
        )
        assert "Iago" not in saved.embeds[0]["description"].split("\n")[0]
        refused = await private_reply(
            await fake.slash(fake.bob, "iago", "challenge", options={"opponent": fake.carol.id})
        )
        assert "turned Iago off" in refused.content
        # Another process on the same database sees the change on its first read.
        other_process = GameService(db)
        assert "iago" not in (await other_process.server_settings.settings_for(fake.guild.id)).enabled_games
        await fake.slash(fake.alice, "admin", "set", "game", options={"game": "iago", "enabled": True})

        await private_reply(await fake.slash(fake.alice, "admin", "set", "challenge-expiry", options={"minutes": 5}))
        await private_reply(await fake.slash(fake.alice, "admin", "set", "reminder", options={"hours": 2}))
        game_id, _ = await challenge_and_accept(fake, "iago")
        row = await db.games.game(game_id)
        assert row is not None and row.expires_at is not None
        assert row.expires_at - row.created_at == pytest.approx(300)
        here = await bot.service.server_settings.settings_for(fake.guild.id)
        assert (here.challenge_minutes, here.reminder_hours) == (5, 2)
        # The reminder comes after this server's 2 h, not the default 24 h.
        bot.service.clock = lambda: (row.last_move_at or 0) + 2 * 3600 + 1
        assert [g.id for g, _ in await bot.service.turns.due_reminders([fake.guild.id])] == [game_id]

        await private_reply(
            await fake.slash(fake.alice, "admin", "set", "channel", options={"channel": other.id, "allowed": True})
        )
        elsewhere = await private_reply(
            await fake.slash(fake.bob, "polygo", "challenge", options={"opponent": fake.carol.id})
        )
        assert "cannot be started in this channel" in elsewhere.content and f"<#{other.id}>" in elsewhere.content
        await private_reply(await fake.slash(fake.alice, "admin", "set", "threads", options={"enabled": False}))
        assert not (await bot.service.server_settings.settings_for(fake.guild.id)).threads
        bounded = await fake.slash(fake.alice, "admin", "set", "reminder", options={"hours": 500}, forged=True)
        assert (await bounded.final()).ephemeral  # refused by Discord's range or the service's bound
        assert (await bot.service.server_settings.settings_for(fake.guild.id)).reminder_hours == 2

        log = await audit_text(fake)
        assert log.count("**/admin set**") == 6 and f"<@{fake.alice.id}>" in log
        assert "Challenge expiry (minutes): 5" in log and "Reminder (hours): 2" in log


async def test_an_admin_cancels_a_game_with_no_result(
    db: Database, fake: FakeDiscord, make_bot: Callable[[], GameBot]
) -> None:
    async with fake.running_bot(make_bot()):
        game_id, _ = await challenge_and_accept(fake, "iago")
        done = await private_reply(await fake.slash(fake.alice, "admin", "cancel", options={"game": game_id}))
        assert f"#{game_id} cancelled" in done.content
        told = await fake.wait_for_message(predicate=lambda m: "cancelled by a server admin" in m.content)
        assert fake.alice.mention in told.content and fake.bob.mention in told.content
        row = await db.games.game(game_id)
        assert row is not None and (row.status, row.winner) == ("cancelled", None)
        assert await db.ratings.records_of(fake.guild.id, fake.alice.id) == []
        move = await private_reply(
            await fake.slash(fake.alice, "iago", "move", options={"move": "d3", "game": game_id})
        )
        assert "admin cancelled this game" in move.content
        again = await private_reply(await fake.slash(fake.alice, "admin", "cancel", options={"game": game_id}))
        assert "nothing to cancel" in again.content
        assert f"**/admin cancel** Game number: #{game_id}" in await audit_text(fake)


async def test_resetting_a_leaderboard_asks_first(
    db: Database, fake: FakeDiscord, make_bot: Callable[[], GameBot], monkeypatch: pytest.MonkeyPatch
) -> None:
    async with fake.running_bot(make_bot()) as bot:
        await seed_scores(db, fake.guild.id, fake.alice.id, fake.bob.id)
        asked = await private_reply(
            await fake.slash(fake.alice, "admin", "reset-leaderboard", options={"game": "iago"})
        )
        assert "cannot be undone" in asked.content
        delete, _keep = asked.custom_ids()  # Delete first, then Keep
        done = await (await fake.click(fake.alice, asked, delete)).final()
        assert "2 ratings deleted; win/loss records kept" in done.content
        assert await bot.service.ratings.leaderboard(fake.guild.id, "iago") == []
        assert len(await db.ratings.records_of(fake.guild.id, fake.bob.id)) == 1  # records kept by default
        assert "Ratings deleted: 2" in await audit_text(fake)

        monkeypatch.setattr(cogs.components.reset_confirmation, "CONFIRM_SECONDS", 0.2)
        asked = await private_reply(
            await fake.slash(fake.alice, "admin", "reset-leaderboard", options={"game": "iago", "records": True})
        )
        await fake.wait_until(lambda: "expired" in fake.messages[asked.id].content, what="the confirmation expiring")
        assert fake.messages[asked.id].custom_ids() == []
        assert len(await db.ratings.records_of(fake.guild.id, fake.bob.id)) == 1  # nothing deleted


async def test_forgetting_a_member_keeps_their_games_anonymised(
    db: Database, fake: FakeDiscord, make_bot: Callable[[], GameBot]
) -> None:
    async with fake.running_bot(make_bot()) as bot:
        await seed_scores(db, fake.guild.id, fake.alice.id, fake.bob.id)
        game_id, _ = await challenge_and_accept(fake, "iago")
        await public_reply(await fake.slash(fake.alice, "iago", "move", options={"move": "d3"}))
        state = await bot.service.finder.state(await bot.service.finder.game(game_id))
        await public_reply(await fake.slash(fake.bob, "iago", "move", options={"move": state.legal_moves()[0]}))
        done = await private_reply(
            await fake.slash(fake.alice, "admin", "forget-member", options={"member": fake.bob.id})
        )
        assert "1 ratings and 1 records deleted, 1 games anonymised, 1 open games cancelled" in done.content
        bob = fake.bob.id
        assert await count(db, sa.select(ratings).where(ratings.c.user_id == bob)) == 0
        assert await count(db, sa.select(records).where(records.c.user_id == bob)) == 0
        assert (
            await count(db, sa.select(games).where(sa.or_(games.c.player0_id == bob, games.c.player1_id == bob))) == 0
        )
        assert await count(db, sa.select(moves).where(moves.c.user_id == bob)) == 0
        row = await db.games.game(game_id)
        assert row is not None and row.status == "cancelled" and fake.alice.id in row.players
        anonymous = next(player for player in row.players if player != fake.alice.id)
        assert anonymous < 0
        assert len(await db.games.moves(game_id)) == 2  # the move log is kept
        told = await fake.wait_for_message(predicate=lambda m: "cancelled by a server admin" in m.content)
        assert "a former member" in told.content and str(bob) not in told.content
        log = await audit_text(fake)
        assert "**/admin forget-member**" in log and str(bob) not in log and str(anonymous) in log
