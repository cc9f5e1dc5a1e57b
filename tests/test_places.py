"""Where a command may run (cogs/plumbing/places.py, docs/dms.md): a server that added the bot, or a DM or group DM for
the commands that allow it; each DM a scope of its own, never a server's."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from discord import app_commands

from cogs.plumbing.places import NOT_INSTALLED_HERE, PRIVATE_PLACES, SERVER_COMMAND, place_id, place_refusal

SERVER_ONLY = app_commands.AppCommandContext(guild=True)


def interaction(
    guild_id: int | None, channel_id: int = 555, *, guild_install: bool = True, data: dict[str, Any] | None = None
) -> Any:
    return SimpleNamespace(
        guild_id=guild_id,
        channel_id=channel_id,
        data=data or {},
        is_guild_integration=lambda: guild_install and guild_id is not None,
    )


def command(contexts: app_commands.AppCommandContext) -> Any:
    return SimpleNamespace(allowed_contexts=contexts)


def test_a_dm_is_a_scope_of_its_own_that_no_server_id_can_be() -> None:
    assert place_id(interaction(1234, 555)) == 1234
    assert place_id(interaction(None, 555)) == -555  # Discord ids are positive: never a server's
    assert place_id(interaction(None, None)) is None  # type: ignore[arg-type]


def test_game_commands_run_in_servers_and_dms_and_server_commands_in_servers_only() -> None:
    games, admin = command(PRIVATE_PLACES), command(SERVER_ONLY)
    assert place_refusal(interaction(1234), games) is None
    assert place_refusal(interaction(1234), admin) is None
    assert place_refusal(interaction(None), games) is None
    assert place_refusal(interaction(None), admin) == SERVER_COMMAND
    assert place_refusal(interaction(None), None) == SERVER_COMMAND  # a command the tree does not know


def test_a_servers_own_command_sent_in_a_dm_is_refused() -> None:
    """No client sends it (a server's commands show in that server only): a forged request."""
    assert place_refusal(interaction(None, data={"guild_id": "1234"}), command(PRIVATE_PLACES)) == SERVER_COMMAND


def test_a_server_that_did_not_add_the_bot_is_told_so() -> None:
    """A member's own install shows the game commands in every server, but there the bot can neither post nor see."""
    assert place_refusal(interaction(1234, guild_install=False), command(PRIVATE_PLACES)) == NOT_INSTALLED_HERE
