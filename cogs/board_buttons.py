"""The buttons under a game's announcement: Rematch under a finished game's last board (games against the bot
included: its rematch is a new game against it, at the same level).

They are plain buttons whose ``custom_id`` the persistent handlers recognise (``cogs/rematch.py`` answers
``rematch:<game id>``), so this module needs none of the handlers and every module that posts a board can use it.
"""

from __future__ import annotations

from typing import Any

import discord

from locales import N_, tr
from sessions.model import Report

REMATCH_LABEL = N_("Rematch")


def rematch_custom_id(game_id: int) -> str:
    return f"rematch:{game_id}"


def rematch_button(game_id: int, locale: Any) -> discord.ui.Button[Any]:
    return discord.ui.Button(
        label=tr(locale, REMATCH_LABEL), style=discord.ButtonStyle.primary, custom_id=rematch_custom_id(game_id)
    )


def rematch_view(game_id: int, locale: Any) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(rematch_button(game_id, locale))
    return view


def report_buttons(report: Report, locale: Any) -> dict[str, Any]:
    """The buttons a report's message carries: Rematch under a finished game's last announcement."""
    if report.finish is None or report.game.tournament_id is not None:  # a tournament pairs its players itself
        return {}
    return {"view": rematch_view(report.game.id, locale)}
