"""The lessons' part of the service: each member's place per server and game, kept across calls and services."""

from __future__ import annotations

import pytest

from lessons import Place
from sessions.model import UserError
from sessions.service import GameService
from storage.database import Database
from tests.sessions.play import Clock

GUILD, OTHER_GUILD, ALICE, BOB = 1, 2, 10, 11


async def test_a_newcomer_starts_at_the_first_lesson_and_a_right_answer_moves_them_on(service: GameService) -> None:
    page = await service.lessons.resume(GUILD, ALICE, "iago")
    assert page.place == Place("goal") and page.number == 1 and not page.completed
    judgement, page = await service.lessons.answer(GUILD, ALICE, "iago", page.place, "E5")
    assert not judgement.correct and page.place == Place("goal")  # the centre is refused: the same step again
    judgement, page = await service.lessons.answer(GUILD, ALICE, "iago", page.place, "c3")
    assert judgement.correct and judgement.move == "C3" and page.place == Place("inner")
    resumed = await service.lessons.resume(GUILD, ALICE, "iago")
    assert resumed.place == Place("inner")
    # Per member, server and game.
    assert (await service.lessons.resume(GUILD, BOB, "iago")).place == Place("goal")
    assert (await service.lessons.resume(OTHER_GUILD, ALICE, "iago")).place == Place("goal")
    assert (await service.lessons.resume(GUILD, ALICE, "isaac")).place == Place("goal")


async def test_the_last_right_answer_completes_the_course_once_and_a_lesson_can_be_opened_again(
    service: GameService, db: Database, clock: Clock
) -> None:
    course = service.lessons.course("polygo")
    place = course.start()
    while not place.done:
        judgement, page = await service.lessons.answer(GUILD, ALICE, "polygo", place, course.right_moves(place)[0])
        assert judgement.correct
        place = page.place
    assert page.done and page.completed
    first = await db.lessons.lesson_progress(GUILD, ALICE, "polygo")
    assert first is not None and first.lesson == "done"
    with pytest.raises(UserError, match="finished this course"):
        await service.lessons.answer(GUILD, ALICE, "polygo", place, "E5 F5")
    clock.now += 60
    again = await service.lessons.open(GUILD, ALICE, "polygo", service.lessons.lesson_key("polygo", 4))
    assert again.place == Place("polygon") and again.completed  # done once stays done
    row = await db.lessons.lesson_progress(GUILD, ALICE, "polygo")
    assert row is not None and row.completed_at == first.completed_at and (row.lesson, row.step) == ("polygon", 0)
    with pytest.raises(UserError, match="from 1 to") as refused:
        service.lessons.lesson_key("polygo", 8)
    assert refused.value.params == {"count": 7}


async def test_a_stored_place_the_course_no_longer_has_resumes_at_the_start(service: GameService, db: Database) -> None:
    await db.lessons.set_lesson_progress(GUILD, ALICE, "isaac", "a-lesson-since-removed", 3, 0.0, completed=False)
    assert (await service.lessons.resume(GUILD, ALICE, "isaac")).place == Place("goal")


async def test_forgetting_a_member_forgets_their_lessons_in_that_server_only(
    service: GameService, db: Database
) -> None:
    await service.lessons.open(GUILD, ALICE, "iago", "release")
    await service.lessons.open(OTHER_GUILD, ALICE, "iago", "release")
    await service.admin.forget_member(GUILD, ALICE, admin_id=BOB)
    assert await db.lessons.lesson_progress(GUILD, ALICE, "iago") is None
    assert await db.lessons.lesson_progress(OTHER_GUILD, ALICE, "iago") is not None
