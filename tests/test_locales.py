"""The message catalogue: every message a player can read has a Japanese translation."""

from __future__ import annotations

import re

import pytest

from bot import GameBot, Settings, create_bot
from cogs.presentation.markup import printable
from engines import IllegalMove, Phrase
from locales import catalogue, language_of, ntr, tr
from locales.collect import command_messages, missing, source_messages
from locales.compile import LOCALES_DIR, stale

PLACEHOLDER = re.compile(r"\{[^}]*\}")


@pytest.fixture
async def loaded_bot() -> GameBot:
    bot = create_bot(Settings(_env_file=None, sync_commands=False))
    for cog in bot.build_cogs():
        await bot.add_cog(cog)
    return bot


def test_every_message_in_the_code_has_a_japanese_translation() -> None:
    messages = source_messages()
    assert len(messages) > 50  # the extractor found the catalogue calls
    assert missing(messages) == []


async def test_every_command_description_and_choice_has_a_japanese_translation(loaded_bot: GameBot) -> None:
    messages = command_messages(loaded_bot.tree)
    assert "Play a move in the game's notation." in messages
    assert missing(messages) == []


def test_translations_keep_every_placeholder() -> None:
    wrong = [
        msgid
        for msgid, text in catalogue("ja").items()
        # a language may say a value once where English says it twice (19×19 is 19路盤), but none goes missing
        if set(PLACEHOLDER.findall(msgid)) != set(PLACEHOLDER.findall(text))
    ]
    assert wrong == []


def test_locale_selection_and_fallback() -> None:
    assert language_of("ja") == "ja" and language_of("en-GB") == "en" and language_of(None) == "en"
    assert tr("en-US", "Game #{id} is over.", id=3) == "Game #3 is over."
    japanese = tr("ja", "Game #{id} is over.", id=3)
    assert "3" in japanese and japanese != "Game #3 is over."
    assert tr("ja", "a message nobody translated") == "a message nobody translated"


def test_the_compiled_catalogues_match_their_po_files() -> None:
    assert stale() == [], "run python -m locales.compile"


def test_plurals_follow_each_languages_rule() -> None:
    assert [ntr("en-US", "{count} game", "{count} games", n) for n in (0, 1, 2)] == ["0 games", "1 game", "2 games"]
    assert [ntr("ja", "{count} win", "{count} wins", n) for n in (1, 5)] == ["1勝", "5勝"]  # one form in Japanese
    assert tr("ja", "{rank}. {player}: {rating} ({games})", rank=1, player="A", rating=1500, games="3局").endswith(
        "（3局）"
    )


def test_nested_messages_are_translated_and_cleaned_for_each_reader() -> None:
    refusal = IllegalMove("{piece} is {side}'s piece: remove one of your own.", piece="c3-g3", side=Phrase("White"))
    assert str(refusal) == "c3-g3 is White's piece: remove one of your own."
    japanese = tr("ja", "That move is not legal: {reason}", reason=refusal)
    assert "c3-g3" in japanese and "白" in japanese and "White" not in japanese
    assert tr("en", "That move is not legal: {reason}", reason=refusal).endswith(str(refusal))
    # what a member typed is cleaned inside the nested message too, and it stays translatable
    typed = printable(IllegalMove("'{text}' is not a square: squares go from a1 to j10.", text="@everyone\u202e"))
    assert isinstance(typed, Phrase) and typed.params == {"text": "@\u200beveryone"}
    assert "@everyone" not in tr("ja", typed.template, **typed.params)


def test_no_message_is_defined_twice_in_a_po_file() -> None:
    # Babel quietly keeps the last of two definitions and msgfmt refuses the file; merges of branches that each
    # append a block are where a twin comes from.
    for po in sorted(LOCALES_DIR.glob("*/LC_MESSAGES/*.po")):
        keys = re.findall(r'^(?:msgctxt "(.*)"\n)?msgid "(.*)"\n(?:msgid_plural|msgstr)', po.read_text("utf-8"), re.M)
        twice = sorted({key for key in keys if keys.count(key) > 1})
        assert twice == [], f"{po} defines these more than once: {twice}"


async def test_every_translated_message_is_still_used(loaded_bot: GameBot) -> None:
    # A translation whose English left the code is dead weight that nobody reviews (an old refusal, a renamed
    # option): each msgid of the catalogue is a message the code or a command still says.
    used = source_messages() | command_messages(loaded_bot.tree)
    assert [msgid for msgid in catalogue("ja") if msgid not in used] == []
