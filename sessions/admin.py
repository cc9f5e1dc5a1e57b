"""What a server's admins may do to games and data: cancel a game, reset a leaderboard, forget a member, and
read the audit log. Who may do it is the cog's check; every action here is audited in its own transaction."""

from __future__ import annotations

import secrets

import games
from sessions.events import Owed
from sessions.model import AnnouncementKind, Game, UserError
from sessions.table import Table
from storage.admin import AuditRow, Forgotten
from storage.database import AdminRepository, OutboxRepository
from storage.outbox import Announce
from storage.rows import OPEN

AUDIT_SHOWN = 20


def anonymous_id() -> int:
    """A random negative id: never a Discord snowflake (those are positive), and not derived from the member's
    id, so it cannot be traced back. One per forgotten member, shared by all their games in the server."""
    return -(secrets.randbits(62) + 1)


class AdminActions:
    def __init__(self, table: Table, admin: AdminRepository, outbox: OutboxRepository) -> None:
        self._table = table
        self._admin = admin
        self._outbox = outbox

    async def cancel(self, game_id: int, guild_id: int, admin_id: int) -> tuple[Game, int]:
        """End a game (or an open challenge) of this server with no result: unrated, nothing counted. Both
        players are told by a 'cancelled' announcement in the game's channel. Returns the game and the
        announcement's id."""
        async with self._table.locks(game_id):
            game = await self._table.game(game_id, guild_id)
            if game.status not in OPEN:
                raise UserError("Game #{id} is not open or in play, so there is nothing to cancel.", id=game_id)
            announce = Announce(AnnouncementKind.CANCELLED, {"by": admin_id, "was": game.status})
            if not await self._admin.cancel_game(game_id, guild_id, admin_id, self._table.clock(), announce):
                raise UserError("Game #{id} is not open or in play, so there is nothing to cancel.", id=game_id)
            self._table.forget(game_id)
            pending = await self._outbox.pending_for_game(game_id)
            cancelled = await self._table.game(game_id), pending[-1].id
        self._table.events.publish(Owed((guild_id,)))  # both players are told now
        return cancelled

    async def reset_leaderboard(
        self, guild_id: int, game: str, admin_id: int, *, with_records: bool
    ) -> tuple[int, int]:
        games.find(game)
        return await self._admin.reset_leaderboard(
            guild_id, game, admin_id, self._table.clock(), with_records=with_records
        )

    async def forget_member(self, guild_id: int, member_id: int, admin_id: int) -> Forgotten:
        announce = Announce(AnnouncementKind.CANCELLED, {"by": admin_id, "was": "forgotten"})
        forgotten = await self._admin.forget_member(
            guild_id, member_id, anonymous_id(), admin_id, self._table.clock(), announce
        )
        for game_id in forgotten.cancelled:
            self._table.forget(game_id)
        if forgotten.cancelled:
            self._table.events.publish(Owed((guild_id,)))
        return forgotten

    async def audit_log(self, guild_id: int) -> list[AuditRow]:
        return await self._admin.audit_log(guild_id, AUDIT_SHOWN)
