"""Find every message a player can read, so a test can prove each one has a Japanese translation.

Run ``python -m locales.collect`` to list the msgids missing from the Japanese catalogue.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from babel.messages.extract import extract_from_dir
from discord import app_commands

import games
from locales import OPTION_NAME, catalogue, context_key

ROOT = Path(__file__).resolve().parent.parent
SOURCE_DIRS = ("cogs", "sessions", "games", "lessons", "engines", "render", "puzzles")
# tr(locale, message, ...) takes the message second; the others take it first. The engines' refusals and
# phrases are msgids too: they are translated where a player reads them.
KEYWORDS = {
    "tr": (2,),
    "ntr": (2, 3),
    "N_": None,
    "UserError": None,
    "send_private": (2,),
    "IllegalMove": None,
    "Refusal": None,
    "Phrase": None,
}


def source_messages() -> set[str]:
    found: set[str] = set()
    for directory in SOURCE_DIRS:
        for _file, _line, message, _comments, _context in extract_from_dir(
            ROOT / directory, keywords=KEYWORDS, comment_tags=()
        ):
            if isinstance(message, tuple):  # ntr's (singular, plural): the catalogue is keyed by the singular
                message = message[0]
            if isinstance(message, str) and message:
                found.add(message)
    for entry in games.entries():  # data such as option labels and an engine's names, not literals
        found.update(entry.messages())
    return found


def _command_strings(command: app_commands.Command | app_commands.Group) -> Iterator[str]:
    yield str(command.description)
    if isinstance(command, app_commands.Group):
        for child in command.commands:
            yield from _command_strings(child)
        return
    for parameter in command.parameters:
        yield context_key(OPTION_NAME, parameter.name)
        if parameter.description and str(parameter.description) != "…":
            yield str(parameter.description)
        for choice in parameter.choices:
            name = choice.name
            yield name.extras.get("template", name.message) if isinstance(name, app_commands.locale_str) else name


def command_messages(tree: app_commands.CommandTree) -> set[str]:
    """Descriptions, option names (keyed with their context) and choice names, which the Translator localises
    for Discord's client."""
    return {text for command in tree.get_commands() for text in _command_strings(command)}


def missing(messages: set[str], language: str = "ja") -> list[str]:
    known = catalogue(language)
    return sorted(message for message in messages if message not in known)


if __name__ == "__main__":
    import bot

    async def _load() -> set[str]:
        game_bot = bot.create_bot(bot.Settings(_env_file=None, sync_commands=False))
        for cog in game_bot.build_cogs():
            await game_bot.add_cog(cog)
        return command_messages(game_bot.tree)

    import asyncio

    everything = source_messages() | asyncio.run(_load())
    for message in missing(everything):
        print(repr(message))
