"""The message catalogue: every word a player reads, in English and Japanese (gettext).

Message ids are the English texts themselves, with ``{named}`` placeholders, so English needs no catalogue and a
missing translation falls back to readable English. The translations are edited in ``<lang>/LC_MESSAGES/*.po``
and loaded from the compiled ``.mo`` next to them (``python -m locales.compile``; a test checks they are fresh)
with the standard library's :class:`gettext.GNUTranslations`, which also applies each language's plural rule.
"""

from __future__ import annotations

import gettext
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

LOCALES_DIR = Path(__file__).parent
DOMAIN = "messages"
SUPPORTED = ("en", "ja")


@cache
def translations(language: str) -> gettext.NullTranslations:
    """The compiled catalogue of ``language``; English (and any language without one) translates nothing."""
    return gettext.translation(DOMAIN, LOCALES_DIR, languages=[language], fallback=True)


@cache
def catalogue(language: str) -> dict[str, str]:
    """Singular msgid -> translation (for a plural message, its first form): what the command translator and the
    tests look messages up in."""
    loaded = translations(language)
    raw: dict[Any, str] = getattr(loaded, "_catalog", {})  # GNUTranslations keeps its table here
    known: dict[str, str] = {}
    for key, text in raw.items():
        msgid = key[0] if isinstance(key, tuple) else key
        if msgid and text and (not isinstance(key, tuple) or key[1] == 0):
            known[msgid] = text
    return known


def language_of(locale: Any) -> str:
    """Map a Discord locale ("ja", "en-US", a discord.Locale, None) to a supported language."""
    text = str(getattr(locale, "value", locale) or "en").lower()
    return "ja" if text.startswith("ja") else "en"


def N_(message: str) -> str:
    """Mark a literal for the catalogue where it is defined; it is translated later with :func:`tr`."""
    return message


# The msgctxt of a command option's name ("opponent"): a name follows Discord's rules (one word, 1-32
# characters), so it is kept apart from the same English word in a sentence.
OPTION_NAME = "option name"


def context_key(context: str, message: str) -> str:
    """How gettext keys a message with a context, as :func:`catalogue` lists it."""
    return f"{context}\x04{message}"


def option_name(locale: Any, name: str) -> str:
    """A command option's name as ``locale``'s members see it in Discord's client (``相手`` for opponent)."""
    return translations(language_of(locale)).pgettext(OPTION_NAME, name)


def nested(value: Any) -> tuple[str, Mapping[str, Any]] | None:
    """A placeholder's value as a nested message, its msgid and params: anything with a ``template`` msgid and its
    ``params``, such as an engine's ``Phrase`` or ``IllegalMove``. None for any other value."""
    template, params = getattr(value, "template", None), getattr(value, "params", None)
    return (template, params) if isinstance(template, str) and isinstance(params, Mapping) else None


def words(locale: Any, value: Any) -> Any:
    """A placeholder's value for ``locale``: a nested message is translated too; other values are kept."""
    message = nested(value)
    return value if message is None else tr(locale, message[0], **message[1])


def tr(locale: Any, message: str, **params: Any) -> str:
    """Translate ``message`` for ``locale`` and fill in its placeholders, translating nested messages."""
    text = translations(language_of(locale)).gettext(message)
    return text.format(**{key: words(locale, value) for key, value in params.items()}) if params else text


def ntr(locale: Any, singular: str, plural: str, count: int, **params: Any) -> str:
    """Translate a message that depends on a number (``"{count} game"`` / ``"{count} games"``) with the plural
    rule of ``locale``'s language, and fill in ``count`` and the other placeholders."""
    text = translations(language_of(locale)).ngettext(singular, plural, count)
    return text.format(count=count, **{key: words(locale, value) for key, value in params.items()})
