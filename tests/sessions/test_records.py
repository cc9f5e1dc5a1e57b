"""Ratings and records (sessions/ratings.py): what a finish writes and reports, leaderboards, stats."""

from __future__ import annotations

import pytest

from sessions.model import UserError
from sessions.service import GameService
from tests.sessions.play import ALICE, BOB, GUILD, play_to_end, start


async def test_a_full_rated_game_updates_records_and_the_leaderboard(service: GameService) -> None:
    game_id = await start(service)
    await play_to_end(service, game_id)
    row = await service.finder.game(game_id)
    state = await service.finder.state(row)
    result = state.result()
    assert row.status == "finished" and row.winner == result.winner and row.scores == tuple(result.scores)
    board = await service.ratings.leaderboard(GUILD, "iago")
    assert {user for user, _ in board} == {ALICE, BOB}
    winner = row.players[result.winner]
    assert board[0][0] == winner and board[0][1].rated_games == 1 and board[0][1].provisional
    stats = dict((g, (w, lo, d)) for g, w, lo, d, _ in await service.ratings.stats(GUILD, winner))
    assert stats["iago"] == (1, 0, 0)
    with pytest.raises(UserError, match="already over"):
        await service.turns.play(game_id, ALICE, "E4")


async def test_resigning_gives_the_win_and_an_unrated_game_keeps_ratings(service: GameService) -> None:
    game_id = await start(service, rated=False)
    report = await service.turns.resign(game_id, BOB)  # resigning is allowed out of turn
    assert report.finish is not None and report.finish.winner == 0 and report.finish.reason == "resign"
    assert report.finish.rating_changes == {}
    assert await service.ratings.leaderboard(GUILD, "iago") == []
    assert [(g, w, lo) for g, w, lo, _, _ in await service.ratings.stats(GUILD, ALICE)] == [("iago", 1, 0)]


async def test_a_finish_reports_the_ratings_it_wrote(service: GameService) -> None:
    first = await start(service)
    await service.turns.resign(first, BOB)
    second = await start(service)
    report = await service.turns.resign(second, BOB)
    assert report.finish is not None
    alice = await service.ratings.rating(GUILD, "iago", ALICE)
    before, after = report.finish.rating_changes[ALICE]
    assert after == alice.shown and before < after and alice.rated_games == 2
