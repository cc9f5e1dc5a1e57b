"""Puzzles of the shipped set answered by taps alone (issue 29), through the real discord.py client against the fake
Discord: a bot started on a new database stores the shipped set, and a member solves a whole puzzle of each game
from the menus under its board (and the private steps they open), in English and in Japanese, every word in the
reader's language; a puzzle picked by theme; presses on an outdated or finished puzzle's board refused privately,
changing nothing; a streak played by taps to its first miss, counted once, in /stats and on the server's board;
"no puzzles yet", with the game's title in the reader's language."""

from __future__ import annotations

import asyncio
import struct
from collections.abc import Callable
from typing import Any

import pytest

import games
from bot import GameBot
from cogs.components.puzzle_buttons import PUZZLE_OVER
from cogs.presentation.puzzle_text import NEXT_IN_STREAK, RIGHT, STREAK_OVER
from games.move_picker import Step, first_keys
from locales import tr
from sessions.model import NO_PUZZLE_OPEN, STALE_PUZZLE, GameState, theme_name, themes_of
from sessions.puzzles.solving import NO_PUZZLES
from storage.database import Database
from storage.puzzles import PuzzleRow
from tests.e2e.driver import PNG_SIGNATURE, private_reply
from tests.e2e.fake_discord import FakeDiscord, StoredMessage
from tests.e2e.harness import FakeUser
from tests.e2e.taps import menus
from tests.e2e.test_japanese_e2e import JA, Reader

EN = "en-US"
SHIPPED = {"puzzle_mining": False, "shipped_puzzles": True}  # a new server: the shipped set, stored at start-up
GAMES = ("iago", "isaac", "polygo")


def position(row: PuzzleRow, step: int) -> GameState:
    state = games.find(row.game).new_game(**row.options)
    for move in [*row.moves, *row.solution[:step]]:
        state.play(move)
    return state


def path_to(game: str, state: GameState, wanted: Callable[[str], bool]) -> tuple[str, ...]:
    """The picks in the game's picker that lead to the first move ``wanted`` accepts (what a member who knows the
    move taps)."""
    picker = games.find(game).picker

    def walk(path: tuple[str, ...]) -> tuple[str, ...] | None:
        picked = picker.step(state, path)
        if not isinstance(picked, Step):
            return path if wanted(picked) else None
        for key in first_keys(picked):
            found = walk((*path, key))
            if found is not None:
                return found
        return None

    found = walk(())
    assert found is not None, f"no path to the move in {game}"
    return found


async def tap(
    fake: FakeDiscord, user: FakeUser, message: StoredMessage, path: tuple[str, ...], locale: str
) -> tuple[StoredMessage, list[StoredMessage]]:
    """Pick ``path`` from ``message``'s menus, then from the private steps they open; returns the answer to the last
    pick and every message picked on. Everything is private."""
    picked_on = []
    for key in path:
        menu = next(m for m in menus(message) if key in [option["value"] for option in m["options"]])
        picked_on.append(message)
        message = await (await fake.select(user, message, menu["custom_id"], [key], locale=locale)).final()
        assert message.ephemeral and message.attachment().data.startswith(PNG_SIGNATURE)
    return message, picked_on


def attempt_of(message: StoredMessage) -> int:
    return int(next(c for c in message.custom_ids() if c.startswith("puzzle:solution:")).rsplit(":", 1)[1])


def size(png: bytes) -> tuple[int, int]:
    return struct.unpack(">II", png[16:24])


async def solve_by_taps(
    fake: FakeDiscord, db: Database, user: FakeUser, shown: StoredMessage, locale: str
) -> tuple[StoredMessage, list[StoredMessage], PuzzleRow]:
    """Solve the puzzle ``shown`` from its menus only: each right move's answer names it in the reader's language
    and, but at the end, carries the next step's menus. Returns the last answer, the boards picked on, the puzzle."""
    attempt = await db.puzzles.attempt_by_id(attempt_of(shown))
    assert attempt is not None
    row = await db.puzzles.puzzle(attempt.puzzle_id)
    assert row is not None
    message, boards = shown, []
    for index in range(0, len(row.solution), 2):
        move = row.solution[index]
        path = path_to(row.game, position(row, index), lambda m, move=move: m == move)
        message, picked_on = await tap(fake, user, message, path, locale)
        boards += picked_on
        assert tr(locale, RIGHT, move=move) in message.content
        stored = await db.puzzles.attempt_by_id(attempt.id)
        assert stored is not None and stored.step == min(index + 2, len(row.solution))
        if index + 2 < len(row.solution):
            assert menus(message), "the answer carries the next move's menus"
    return message, boards, row


@pytest.mark.parametrize("locale", [EN, JA])
async def test_a_whole_puzzle_of_each_game_is_solved_by_taps_alone(
    db: Database, fake: FakeDiscord, make_bot: Callable[..., GameBot], locale: str
) -> None:
    if locale == JA:
        fake.guild.locale = JA
    reader = Reader(fake)
    async with fake.running_bot(make_bot(**SHIPPED)):
        for game in GAMES:
            # ISAAC's longer lines have the bot's replies: picked by their theme, as a member would.
            options: dict[str, Any] = {"theme": "long-line"} if "long-line" in themes_of(game) else {}
            shown = await private_reply(await fake.slash(fake.alice, game, "puzzle", options=options, locale=locale))
            width, height = size(shown.attachment().data)
            assert height > width, "the puzzle's board is drawn in the portrait layout of a board in play"
            assert menus(shown) and tr(locale, games.find(game).title) in shown.content
            attempt_id = attempt_of(shown)  # the message is replaced by the answers (a one-tap move's, here)
            done, boards, row = await solve_by_taps(fake, db, fake.alice, shown, locale)
            attempt = await db.puzzles.attempt_by_id(attempt_id)
            assert attempt is not None and attempt.status == "solved" and attempt.mistakes == 0
            if options:
                assert "long-line" in row.themes and len(row.solution) >= 3
            # After solving: the puzzle's rating (as the attempt left it) and its themes, in the reader's language.
            row = await db.puzzles.puzzle(row.id) or row
            assert f"#{row.id}" in done.content and str(round(row.mu)) in done.content
            assert all(tr(locale, theme_name(game, theme)) in done.content for theme in row.themes)
            assert not menus(done) and any(c.startswith("puzzle:next:") for c in done.custom_ids())
            # A board picked on earlier and left as it was is refused politely, changing nothing.
            for old in (b for b in boards if b.id != done.id):
                menu = menus(fake.get_message(old.id))[0]
                refused = await private_reply(
                    await fake.select(fake.alice, old, menu["custom_id"], [menu["options"][0]["value"]], locale=locale)
                )
                assert refused.content == tr(locale, PUZZLE_OVER, game=game)
            assert await db.puzzles.attempt_by_id(attempt.id) == attempt
    if locale == JA:
        names = {user.username for user in (fake.alice, fake.bob, fake.carol, fake.bot_user)}
        leaks = reader.leaks(names)
        assert not leaks, "\n".join(f"{sorted(words)} in {text!r}" for text, words in leaks.items())


async def test_a_forged_pick_and_a_board_the_puzzle_moved_past_are_refused_and_presses_work_after_a_restart(
    db: Database, fake: FakeDiscord, make_bot: Callable[..., GameBot]
) -> None:
    game = "isaac"
    if "long-line" not in themes_of(game):
        pytest.skip("the shipped set has no ISAAC line with a reply")  # pragma: no cover
    async with fake.running_bot(make_bot(**SHIPPED)):
        shown = await private_reply(await fake.slash(fake.bob, game, "puzzle", options={"theme": "long-line"}))
        attempt = await db.puzzles.attempt_by_id(attempt_of(shown))
        assert attempt is not None
        row = await db.puzzles.puzzle(attempt.puzzle_id)
        assert row is not None
        # A forged pick (a value the menu does not offer) is refused and changes nothing.
        for value in ("x a1-a2 99", "x" * 100, ""):
            forged = await fake.select(fake.bob, shown, menus(shown)[0]["custom_id"], [value], forged=True)
            assert "not on offer" in (await private_reply(forged)).content
        assert await db.puzzles.attempt_by_id(attempt.id) == attempt
        path = path_to(game, position(row, 0), lambda m: m == row.solution[0])
        answer, _ = await tap(fake, fake.bob, shown, path, EN)
        assert tr(EN, RIGHT, move=row.solution[0]) in answer.content
    async with fake.running_bot(make_bot(**SHIPPED)):  # a fresh process: the menus' custom_ids hold everything
        before = await db.puzzles.attempt_by_id(attempt.id)
        menu = menus(shown)[0]
        stale = await private_reply(await fake.select(fake.bob, shown, menu["custom_id"], [path[0]]))
        assert stale.content == tr(EN, STALE_PUZZLE)
        assert await db.puzzles.attempt_by_id(attempt.id) == before
        following = path_to(game, position(row, 2), lambda m: m == row.solution[2])
        answer, _ = await tap(fake, fake.bob, answer, following, EN)
        assert tr(EN, RIGHT, move=row.solution[2]) in answer.content


async def test_a_streak_by_taps_ends_at_the_first_miss_is_counted_once_and_shown(
    db: Database, fake: FakeDiscord, make_bot: Callable[..., GameBot]
) -> None:
    game = "isaac"
    async with fake.running_bot(make_bot(**SHIPPED)):
        shown = await private_reply(await fake.slash(fake.carol, game, "puzzle", options={"streak": True}))
        done, _, first = await solve_by_taps(fake, db, fake.carol, shown, EN)
        assert "Streak: 1!" in done.content
        onward = next(c for c in done.custom_ids() if c.startswith("puzzle:streak:"))
        assert tr(EN, NEXT_IN_STREAK) in [b["label"] for b in done.buttons()]
        # Next in streak, pressed twice at once: one next puzzle, rated higher, shown by both.
        clicks = await asyncio.gather(*(fake.click(fake.carol, done, onward) for _ in range(2)))
        nexts = [await click.final() for click in clicks]
        attempts = {attempt_of(message) for message in nexts}
        assert len(attempts) == 1
        attempt = await db.puzzles.attempt_by_id(attempts.pop())
        assert attempt is not None and attempt.streak_id is not None
        second = await db.puzzles.puzzle(attempt.puzzle_id)
        assert second is not None and second.mu > first.mu
        # A wrong move, by taps: not played, explained, and the streak is over at 1.
        board = fake.get_message(nexts[-1].id)
        wrong = path_to(game, position(second, 0), lambda m: m != second.solution[0])
        missed, _ = await tap(fake, fake.carol, board, wrong, EN)
        assert "is not it" in missed.content and tr(EN, STREAK_OVER, count=1, best=1) in missed.content
        streak = await db.puzzles.streak(attempt.streak_id)
        assert streak is not None and streak.ended_at is not None and streak.solved == 1
        ended = await db.puzzles.attempt_by_id(attempt.id)
        assert ended is not None and ended.status == "failed" and ended.step == 0
        stats = await private_reply(await fake.slash(fake.carol, "stats"))
        assert "**ISAAC** puzzle streak: best 1 puzzle" in stats.embeds[0]["description"]
        board = await (await fake.slash(fake.alice, game, "puzzle-streaks")).final()
        assert not board.ephemeral and f"1. {fake.carol.mention}: 1 puzzle" in board.embeds[0]["description"]
        assert board.pings.users == set()


async def test_no_puzzles_yet_and_the_games_title_in_the_readers_language(
    db: Database, fake: FakeDiscord, make_bot: Callable[..., GameBot]
) -> None:
    async with fake.running_bot(make_bot(puzzle_mining=False)):  # nothing stored: no shipped set, no mining
        for locale in (EN, JA):
            empty = await private_reply(await fake.slash(fake.alice, "isaac", "puzzle", locale=locale))
            assert empty.content == tr(locale, NO_PUZZLES, title=tr(locale, "ISAAC"))
            none = await private_reply(
                await fake.slash(fake.alice, "polygo", "puzzle-move", options={"move": "A1"}, locale=locale)
            )
            assert none.content == tr(locale, NO_PUZZLE_OPEN, title=tr(locale, "Polygo"), game="polygo")
        assert "アイザック" in empty.content and "ポリゴ" in none.content and "polygo で" not in none.content
        assert await db.puzzles.count_puzzles(fake.guild.id, "isaac") == 0
