"""``/<game> learn`` through the bot: every game's course completed end to end, in English and in Japanese.

Each step is answered from the menu under its board, a wrong answer first where the menu offers one (and its
explanation checked), then the right one; halfway through the bot is restarted, and the course carries on from
the member's place (``/<game> learn`` resumes it) and from the old message's menu (a DynamicItem). At the end the
course offers a first game against the bot at level 1, which starts with a click.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

import games
from bot import GameBot
from lessons import Place, course_at
from locales import tr
from storage.database import Database
from tests.e2e.driver import PNG_SIGNATURE, private_reply, public_reply
from tests.e2e.fake_discord import FakeDiscord
from tests.e2e.harness import StoredMessage

GAMES = [entry.name for entry in games.entries() if entry.course is not None]
LANGUAGES = {"en": "en-US", "ja": "ja"}


def menu_id(message: StoredMessage) -> str:
    (found,) = [c["custom_id"] for c in message.all_components() if c.get("type") == 3]
    return found


def menu_moves(message: StoredMessage) -> list[str]:
    (menu,) = [c for c in message.all_components() if c.get("type") == 3]
    return [option["value"] for option in menu["options"]]


def place_of(message: StoredMessage) -> Place:
    _, _, lesson, step = menu_id(message).split(":")
    return Place(lesson, int(step))


async def answer(fake: FakeDiscord, page: StoredMessage, move: str, locale: str) -> StoredMessage:
    reply = await (await fake.select(fake.alice, page, menu_id(page), [move], locale=locale)).final()
    assert reply.id == page.id and reply.ephemeral  # the same private message, edited
    return reply


@pytest.mark.parametrize("language", list(LANGUAGES))
@pytest.mark.parametrize("game", GAMES)
async def test_a_course_is_completed_end_to_end_with_wrong_answers_explained_and_a_restart_halfway(
    db: Database, fake: FakeDiscord, make_bot: Callable[..., GameBot], game: str, language: str
) -> None:
    locale = LANGUAGES[language]
    entry = games.find(game)
    assert entry.course is not None
    course = course_at(entry.course)
    steps = sum(len(lesson.steps) for lesson in course.lessons)
    right_word, wrong_word = tr(locale, "{mark} Right!", mark="✅"), tr(locale, "{mark} Not quite.", mark="❌")
    answered = 0
    wrong_explained = 0
    async with fake.running_bot(make_bot()):
        page = await private_reply(await fake.slash(fake.alice, game, "learn", locale=locale))
        assert page.attachment().data.startswith(PNG_SIGNATURE)
        assert tr(locale, course.welcome)[:40] in page.content  # the course begins with the goal of the game
        while answered < steps // 2:
            page, explained = await answer_step(fake, course, page, locale, right_word, wrong_word)
            answered, wrong_explained = answered + 1, wrong_explained + explained
        stored = await db.lessons.lesson_progress(fake.guild.id, fake.alice.id, game)
        assert stored is not None and Place(stored.lesson, stored.step) == place_of(page)
        old_page = page

    async with fake.running_bot(make_bot()):  # a new process: the place is the database's, the menu a DynamicItem
        resumed = await private_reply(await fake.slash(fake.alice, game, "learn", locale=locale))
        assert place_of(resumed) == place_of(old_page)
        assert (
            tr(locale, course.step(place_of(old_page)).prompt, **course.step(place_of(old_page)).params)[:30]
            in resumed.content
        )
        page = fake.messages[old_page.id]
        while answered < steps:
            page, explained = await answer_step(fake, course, page, locale, right_word, wrong_word)
            answered, wrong_explained = answered + 1, wrong_explained + explained
        assert tr(locale, course.farewell)[:40] in page.content and not page.attachments
        stored = await db.lessons.lesson_progress(fake.guild.id, fake.alice.id, game)
        assert stored is not None and stored.lesson == "done" and stored.completed_at is not None
        assert wrong_explained >= steps // 2  # most steps offer a tempting wrong move, and each was answered

        play = next(cid for cid in page.custom_ids() if cid.endswith(":play"))
        first_game = await public_reply(await fake.click(fake.alice, page, play, locale=locale))
        assert first_game.attachment().data.startswith(PNG_SIGNATURE)
        (row,) = await db.games.active_games_of(fake.alice.id)
        assert row.game == game and row.against_bot and row.ai_level == 1 and not row.rated


async def answer_step(
    fake: FakeDiscord, course: Any, page: StoredMessage, locale: str, right_word: str, wrong_word: str
) -> tuple[StoredMessage, int]:
    """Answer the step ``page`` shows: a wrong move from its menu first (if any), then a right one. Returns the
    next page and whether a wrong answer was explained."""
    place = place_of(page)
    right = course.right_moves(place)
    offered = menu_moves(page)
    wrong = [move for move in offered if move not in right]
    explained = 0
    if wrong:
        again = await answer(fake, page, wrong[0], locale)
        judged = course.judge(place, wrong[0])
        assert again.content.startswith(wrong_word) and place_of(again) == place
        for message, params in judged.said:  # the engine's reason and the course's words, in this language
            assert tr(locale, message, **params) in again.content
        explained = 1
    good = next(move for move in offered if move in right)
    after = await answer(fake, page, good, locale)
    assert after.content.startswith(right_word), after.content
    assert tr(locale, course.step(place).right, move=good, **course.step(place).params) in after.content
    if not course.after(place).done:
        assert place_of(after) == course.after(place)
        assert after.attachment().data.startswith(PNG_SIGNATURE)
    return after, explained


async def test_a_step_is_answered_by_command_with_autocomplete_and_the_answer_can_be_shown(
    db: Database, fake: FakeDiscord, make_bot: Callable[..., GameBot]
) -> None:
    course = course_at("lessons.iago")
    async with fake.running_bot(make_bot()):
        lesson = await private_reply(await fake.slash(fake.alice, "iago", "learn", options={"lesson": 3}))
        assert place_of(lesson) == Place("capture") and "Capture" in lesson.content
        choices = await fake.autocomplete(fake.alice, "iago", "learn", focused="move", value="d")
        assert [choice["value"] for choice in choices] == ["D6"]  # the legal moves: a capture is forced
        titles = await fake.autocomplete(fake.alice, "iago", "learn", focused="lesson", value="", locale="ja")
        assert titles[2] == {"name": "3. キャプチャ", "value": 3}

        refused = await private_reply(await fake.slash(fake.alice, "iago", "learn", options={"move": "E5"}))
        assert "You must capture 1 disk: play one of D6." in refused.content
        assert place_of(refused) == Place("capture")
        show = next(cid for cid in refused.custom_ids() if cid.endswith(":show"))
        shown = await (await fake.click(fake.alice, refused, show)).final()
        assert "The answer: **D6**" in shown.content and shown.id == refused.id
        right = await private_reply(await fake.slash(fake.alice, "iago", "learn", options={"move": "d6"}))
        assert right.content.startswith("✅ Right!") and place_of(right) == course.after(Place("capture"))

        nonsense = await private_reply(await fake.slash(fake.alice, "iago", "learn", options={"move": "@everyone"}))
        assert nonsense.content.startswith("❌") and "@everyone" not in nonsense.content.replace("@\u200beveryone", "")
        both = await private_reply(await fake.slash(fake.alice, "iago", "learn", options={"lesson": 1, "move": "C3"}))
        assert "either a lesson or a move" in both.content
        beyond = await private_reply(await fake.slash(fake.alice, "iago", "learn", options={"lesson": 99}))
        assert "from 1 to" in beyond.content
    stored = await db.lessons.lesson_progress(fake.guild.id, fake.alice.id, "iago")
    assert stored is not None and Place(stored.lesson, stored.step) == course.after(Place("capture"))
    assert await db.lessons.lesson_progress(fake.guild.id, fake.bob.id, "iago") is None  # one member's progress only
