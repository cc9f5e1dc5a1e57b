"""Aborts (sessions/aborts.py): while neither player has made two moves, either player ends the game with no result;
a move that lands first wins; nothing is rated or counted."""

from __future__ import annotations

import asyncio
import random

import pytest

import games
from sessions import aborts
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


def test_the_count_lists_legal_moves_only_before_a_pass_and_counts_as_if_it_listed_them_all() -> None:
    """Every board of a game in play asks whether it may be aborted: the legal moves (thousands after a Polygo
    roll) are listed only before a pass, the one move that may have been forced; the count is the same."""

    def listed_every_time(entry: games.GameEntry, options: dict[str, object], moves: list[str]) -> list[int]:
        replay, made = entry.new_game(**options), [0, 0]
        for move in moves:
            side = replay.turn
            if side is not None and not replay.chance and replay.legal_moves() != ["pass"]:
                made[side] += 1
                if made[side] >= 2:
                    break
            replay.play(move)
        return made

    for entry in games.entries():
        options = {option.name: option.default for option in entry.options} | (
            {"size": 9} if entry.name == "polygo" else {}
        )
        for seed in range(4):
            state, rng = entry.new_game(**options), random.Random(seed)
            while not state.is_over:
                assert moves_made(entry, options, state) == listed_every_time(entry, options, state.moves), state.moves
                passes = [move for move in state.legal_moves() if move == "pass"]
                state.play(passes[0] if passes and rng.random() < 0.2 else rng.choice(state.legal_moves()))


async def test_a_game_past_its_opening_is_known_without_replaying_it_and_a_takeback_reopens_it(
    service: GameService, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every board asks whether its game can be aborted; once a player has made two moves the answer is kept for
    that opening, and a log that no longer begins with it (a move taken back) is counted again."""
    game_id = await start(service)
    for user, move in ((ALICE, "E4"), (BOB, "D4"), (ALICE, "C3")):
        state = await service.finder.state(await service.finder.game(game_id))
        await service.turns.play(game_id, user, move if move in state.legal_moves() else state.legal_moves()[0])
    game = await service.finder.game(game_id)
    state = await service.finder.state(game)
    assert not service.aborts.can_abort(game, state)

    replays: list[int] = []
    counted = aborts._opening

    def counting(*args: object) -> tuple[list[int], int]:
        replays.append(len(args[2].moves))  # type: ignore[attr-defined]
        return counted(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(aborts, "_opening", counting)
    later = state.copy()
    later.play(later.legal_moves()[0])
    assert not service.aborts.can_abort(game, later) and replays == []  # the kept opening answers

    rewound = game.entry.new_game(**game.options)
    for move in state.moves[:2]:  # the third move taken back: each player has made one move again
        rewound.play(move)
    assert service.aborts.can_abort(game, rewound) and replays == [2]  # counted again, from the start
