"""Aborts (sessions/aborts.py): while neither player has made two moves, either player ends the game with no result;
a move that lands first wins; nothing is rated or counted."""

from __future__ import annotations

import asyncio

import pytest

import games
from sessions.aborts import ABORTED, abortable, moves_made
from sessions.model import AnnouncementKind, UserError
from sessions.service import GameService
from storage.database import Database
from tests.sessions.play import ALICE, BOB, CAROL, GUILD, start


async def test_either_player_aborts_until_one_has_made_two_moves(db: Database, service: GameService) -> None:
    first = await start(service)
    await service.turns.play(first, ALICE, "E4")
    game, announcement_id = await service.aborts.abort(first, ALICE)  # alice, though it is bob's turn
    assert game.status == "cancelled" and game.result_reason == ABORTED and game.winner is None
    pending = (await db.outbox.pending_for_game(first))[-1]
    assert pending.id == announcement_id and pending.kind == AnnouncementKind.ABORTED
    assert pending.payload["by"] == ALICE
    assert await db.ratings.rating(GUILD, "iago", ALICE) is None and await db.ratings.records_of(GUILD, BOB) == []
    with pytest.raises(UserError, match="not in play"):
        await service.aborts.abort(first, BOB)

    second = await start(service)
    for user, move in ((ALICE, "E4"), (BOB, "D4"), (ALICE, "C3")):
        state = await service.finder.state(await service.finder.game(second))
        assert service.aborts.can_abort(await service.finder.game(second), state)
        await service.turns.play(second, user, move if move in state.legal_moves() else state.legal_moves()[0])
    game = await service.finder.game(second)
    assert not service.aborts.can_abort(game, await service.finder.state(game))
    with pytest.raises(UserError, match="can no longer be aborted"):
        await service.aborts.abort(second, BOB)
    with pytest.raises(UserError, match="not playing"):
        await service.aborts.abort(second, CAROL)
    assert (await service.finder.game(second)).status == "active"


async def test_an_abort_at_a_ply_the_game_has_left_changes_nothing(service: GameService) -> None:
    game_id = await start(service)
    await service.turns.play(game_id, ALICE, "E4")
    with pytest.raises(UserError, match="out of date"):
        await service.aborts.abort(game_id, BOB, ply=0)
    # A move and an abort at the same ply: whichever is written first wins, the other is refused.
    moved, aborted = await asyncio.gather(
        service.turns.play(game_id, BOB, "D4"), service.aborts.abort(game_id, BOB, ply=1), return_exceptions=True
    )
    assert isinstance(moved, UserError) != isinstance(aborted, UserError)
    game = await service.finder.game(game_id)
    assert (game.status, game.ply) == (("active", 2) if isinstance(aborted, UserError) else ("cancelled", 1))


def test_dice_forced_passes_and_taken_back_moves_are_nobodys_moves() -> None:
    entry = games.find("polygo")
    state = entry.new_game(size=9)
    state.play("open 2 5")  # Black's 2 is lower: Black places first, then White, then Black rolls
    for _ in range(2):
        state.play(state.legal_moves()[0])
    state.play("roll 1")
    assert moves_made(entry, {"size": 9}, state) == [1, 1] and abortable(entry, {"size": 9}, state)
    state.play(state.legal_moves()[0])
    assert moves_made(entry, {"size": 9}, state) == [2, 1] and not abortable(entry, {"size": 9}, state)
