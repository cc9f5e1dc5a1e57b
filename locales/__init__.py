"""The message catalogue: every word a player reads, in English and Japanese (gettext .po files via Babel).

Message ids are the English texts themselves, with ``{named}`` placeholders, so English needs no
catalogue and a missing translation falls back to readable English.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

from babel.messages.pofile import read_po

LOCALES_DIR = Path(__file__).parent
DOMAIN = "messages"
SUPPORTED = ("en", "ja")


@cache
def catalogue(language: str) -> dict[str, str]:
    path = LOCALES_DIR / language / "LC_MESSAGES" / f"{DOMAIN}.po"
    if not path.exists():
        return {}
    with path.open("rb") as handle:
        catalog = read_po(handle, locale=language)
    return {str(message.id): str(message.string) for message in catalog if message.id and message.string}


def language_of(locale: Any) -> str:
    """Map a Discord locale ("ja", "en-US", a discord.Locale, None) to a supported language."""
    text = str(getattr(locale, "value", locale) or "en").lower()
    return "ja" if text.startswith("ja") else "en"


def N_(message: str) -> str:
    """Mark a literal for the catalogue where it is defined; it is translated later with :func:`tr`."""
    return message


def tr(locale: Any, message: str, **params: Any) -> str:
    """Translate ``message`` for ``locale`` and fill in its placeholders."""
    text = catalogue(language_of(locale)).get(message, message)
    return text.format(**params) if params else text
