"""Issue 14's "done when": a Japanese server plays each game from challenge to leaderboard and reads no English
outside names and notation; the synced commands carry Japanese option and choice names Discord accepts."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from bot import GameBot
from tests.e2e.fake_discord import FakeDiscord
from tests.e2e.fake_discord_limits import validate_commands


def options_of(command: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """Every option of a synced command that a member fills in (subcommands and groups walked through)."""
    for option in command.get("options") or []:
        if option["type"] in (1, 2):  # a subcommand or a group: its own options
            yield from options_of(option)
        else:
            yield option


def test_the_fake_refuses_command_names_discord_refuses() -> None:
    def command(*names: str, ja: tuple[str, ...] = ()) -> list[dict[str, Any]]:
        options = [
            {"type": 3, "name": name, "description": "x"} | ({"name_localizations": {"ja": ja[i]}} if ja else {})
            for i, name in enumerate(names)
        ]
        return [{"name": "play", "description": "x", "options": options}]

    assert validate_commands(command("opponent", "side", ja=("相手", "色"))) == {}
    assert validate_commands(command("Opponent"))  # upper case where the script has case
    assert validate_commands(command("two words"))
    assert validate_commands(command("opponent", ja=("相手の・名前",)))  # punctuation is no letter
    assert validate_commands(command("opponent", ja=("あ" * 33,)))
    assert validate_commands(command("opponent", "side", ja=("相手", "相手")))  # unique in each language
    assert validate_commands(command("side", "side"))


async def test_synced_commands_name_every_option_and_choice_in_japanese(
    fake: FakeDiscord, make_bot: Callable[[], GameBot]
) -> None:
    async with fake.running_bot(make_bot()):  # the fake refuses a sync Discord would refuse
        commands = fake.commands(fake.guild)
        assert validate_commands(commands) == {}
        options = [option for command in commands for option in options_of(command)]
        assert len(options) > 40
        for option in options:
            japanese = (option.get("name_localizations") or {}).get("ja")
            assert japanese and japanese != option["name"], option["name"]
            for choice in option.get("choices") or []:
                assert (choice.get("name_localizations") or {}).get("ja"), (option["name"], choice["name"])
        iago = next(command for command in commands if command["name"] == "iago")
        challenge = next(option for option in iago["options"] if option["name"] == "challenge")
        named = {option["name"]: option["name_localizations"]["ja"] for option in options_of(challenge)}
        assert named["opponent"] == "相手" and named["side"] == "色"
        # command and group names stay English: everyone in a server types the same commands
        assert all(not command.get("name_localizations") for command in commands)
