"""Issue 31, point 6: words a Japanese member read wrongly, in English and Japanese through the real client.

- A lesson answer that is legal but not the one asked is not "correct": it says so next to the cross
  (「ルール上は可能な手ですが…」, never 「正しい手ですが」).
- A board's alt text joins a side and its player (「黒（alice）」) and goes on without a stray space
  (「黒（alice）の番」), while English keeps its spaces ("Dark (alice) to play").
- The header of a game played in its thread tells the players themselves where it goes on, not where to
  spectate it (「対局は … で続きます」).
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

import games
from bot import GameBot
from lessons import NOT_THE_ANSWER, Place, course_at
from locales import tr
from tests.e2e.driver import PNG_SIGNATURE, private_reply, public_reply
from tests.e2e.fake_discord import FakeDiscord
from tests.e2e.test_learn_e2e import answer, menu_moves, place_of

LOCALES = ["en-US", "ja"]


@pytest.mark.parametrize("locale", LOCALES)
async def test_a_legal_answer_that_is_not_the_one_asked_is_called_legal_not_correct(
    fake: FakeDiscord, make_bot: Callable[..., GameBot], locale: str
) -> None:
    course = course_at("lessons.iago")
    lesson = course.index("release") + 1  # its first step offers moves the rules allow that release nothing
    async with fake.running_bot(make_bot()):
        page = await private_reply(
            await fake.slash(fake.alice, "iago", "learn", options={"lesson": lesson}, locale=locale)
        )
        place = place_of(page)
        assert place == Place("release", 0) and page.attachment().data.startswith(PNG_SIGNATURE)
        right = course.right_moves(place)
        legal = set(course.position(place).legal_moves())
        move = next(move for move in menu_moves(page) if move in legal and move not in right)
        assert any(message == NOT_THE_ANSWER for message, _ in course.judge(place, move).said)
        reply = await answer(fake, page, move, locale)
    assert reply.content.startswith(tr(locale, "{mark} Not quite.", mark="❌"))
    assert f"**{move}**" in reply.content
    if locale == "ja":
        assert f"**{move}** はルール上は可能な手ですが" in reply.content and "正しい手" not in reply.content
    else:
        assert f"**{move}** is a legal move, but not the one this step asks for" in reply.content


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("game", ["iago", "isaac", "polygo"])
async def test_a_side_and_its_player_are_followed_by_no_stray_space_in_japanese_alt_text(
    fake: FakeDiscord, make_bot: Callable[..., GameBot], game: str, locale: str
) -> None:
    fake.guild.locale = locale  # a board is described in its server's language
    async with fake.running_bot(make_bot()):
        challenge = await (
            await fake.slash(fake.alice, game, "challenge", options={"opponent": fake.bob.id, "side": 0}, locale=locale)
        ).final()
        accept = next(cid for cid in challenge.custom_ids() if cid.startswith("challenge:accept:"))
        board = await public_reply(await fake.click(fake.bob, challenge, accept, locale=locale))
    described = board.attachment().description or ""
    entry = games.find(game)
    who = [
        tr(locale, "{side} ({name})", side=tr(locale, entry.sides[side]), name=name)
        for side, name in ((0, "alice"), (1, "bob"))
    ]
    shown = [phrase for phrase in who if phrase in described]
    assert shown, described  # whose turn it is, with their side
    for phrase in shown:
        if locale == "ja":
            assert phrase.endswith("）") and f"{phrase} " not in described, described
        else:
            assert f"{phrase} " in described, described  # "Dark (alice) to play": English keeps its space
    if locale == "ja":
        assert "。 " not in described  # Japanese sentences follow each other without a space


@pytest.mark.parametrize("locale", LOCALES)
async def test_the_players_read_that_their_game_goes_on_in_its_thread_not_that_they_may_spectate(
    fake: FakeDiscord, make_bot: Callable[..., GameBot], locale: str
) -> None:
    fake.guild.locale = locale
    async with fake.running_bot(make_bot(game_threads=True)):
        challenge = await (
            await fake.slash(fake.alice, "iago", "challenge", options={"opponent": fake.bob.id}, locale=locale)
        ).final()
        accept = next(cid for cid in challenge.custom_ids() if cid.startswith("challenge:accept:"))
        header = await (await fake.click(fake.bob, challenge, accept, locale=locale)).final()
    thread_id = fake.messages[challenge.id].thread_id
    assert thread_id is not None and fake.alice.mention in header.content and fake.bob.mention in header.content
    if locale == "ja":
        assert f"対局は <#{thread_id}> で続きます。" in header.content and "観戦" not in header.content
    else:
        assert f"Follow the game in <#{thread_id}>." in header.content
