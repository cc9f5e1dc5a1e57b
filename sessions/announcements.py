"""Announcing what was committed: the outbox rows an action writes, and this process's own replies.

Every action writes its announcement in the same transaction (``storage/outbox.py``). The member's own reply
carries it (the cog says so with :meth:`Announcements.sending`, then :meth:`Announcements.delivered`); the next
action on the game waits a moment for that reply to be on its way, so announcements come in order, and then goes
on whatever became of it: the previous action is committed, and a reply that truly failed is the outbox's. This
process knows whether the replies of the actions it committed are out; for any other action (a restart, another
process) it asks the outbox. Whatever no reply delivered, :mod:`sessions.delivery` hands to the outbox worker.
"""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass
from typing import Any

from sessions.memory import LruCache
from sessions.model import FOLLOW_THE_GAME, REPORTED, AnnouncementKind, Game, MoveKind, PlayedMove, ReplyTo, ReportKind
from sessions.table import STATE_CACHE_SIZE, Table
from storage.database import OutboxRepository
from storage.faults import DatabaseUnavailable
from storage.outbox import Announce, AnnouncementRow

log = logging.getLogger(__name__)

# Seconds an action waits for the previous move's reply to be on its way (Discord wants an answer within 3), then
# goes on: the previous action is committed, and the outbox delivers a reply that truly failed.
ANNOUNCE_WAIT = 1.0
MARK_RETRY_FIRST = 0.5  # seconds before a batch of marks that met an unavailable database is written again ...
MARK_RETRY_LAST = 10.0  # ... doubling up to this
FLUSH_LIMIT = 5.0  # seconds closing waits for the marks still queued; the outbox worker finds the rest
# How long a member's action in a game against the bot waits for the bot's reply to announce both in one message
# (at least): past it, any outbox worker announces the action alone, and the bot's reply comes on its own.
BOT_REPLY_HOLD = 60.0


@dataclass
class Announcing:
    """The announcement of the last action this process committed in a game, while its own reply may be under
    way: what the next action would otherwise ask the outbox."""

    ply: int  # the game's ply once that action was written
    announcement_id: int
    until: float  # the end of its grace (the service's clock): past it, the outbox worker owns it
    delivered: bool = False
    sent: bool = False  # the reply's request went out: what follows it lands after it
    held: bool = False  # it waits for the bot's reply, which carries it (once the member's reply holds its place)


class Announcements:
    def __init__(self, table: Table, outbox: OutboxRepository) -> None:
        self._table = table
        self._outbox = outbox
        # game -> its last action committed here and its reply's progress; bounded like the states
        self._announcing: LruCache[int, Announcing] = LruCache(STATE_CACHE_SIZE)
        self._deliveries: list[tuple[int, int | None]] = []  # replies sent, their marks not yet written
        self._marking: asyncio.Task[None] | None = None

    # --- what an action writes ----------------------------------------------------------------------

    def of_report(
        self,
        kind: ReportKind,
        played: list[PlayedMove],
        by: int | None,
        reply: ReplyTo | None,
        *,
        held: bool = False,
        at_once: bool = False,
    ) -> Announce:
        """The announcement of an action that a report tells (its board): written with the action. ``held``: the
        bot acts next and its reply will carry this one (:meth:`joined`); ``at_once``: the process delivers it
        itself right away (the bot's own moves), so it is due now whatever reply it names."""
        payload: dict[str, Any] = {
            "played": [[p.move, p.player, p.kind] for p in played],
            "by": by,
            "reply": reply_payload(reply),
        }
        if held:
            payload["held"] = True
            delay = self.hold()
        else:
            delay = 0.0 if at_once else self._grace(reply)
        return Announce(AnnouncementKind(kind), payload, delay=delay)

    def hold(self) -> float:
        """How long a held announcement waits for the bot's reply before a worker announces it alone."""
        thinking = self._table.settings.ai_move_seconds or 0.0
        return self._table.settings.announce_grace + max(BOT_REPLY_HOLD, 3 * thinking)

    async def held(self, game_id: int) -> AnnouncementRow | None:
        """The game's announcement still waiting for the bot's reply, if any."""
        pending = [row for row in await self._outbox.pending_for_game(game_id) if row.payload.get("held")]
        return pending[-1] if pending else None

    async def release_held(self, game_id: int) -> bool:
        """The bot cannot answer now: what waited for its reply is announced on its own, now (its member's reply
        is left "thinking" otherwise until the hold is over). True if there was one."""
        owed = await self.held(game_id)
        return owed is not None and await self._outbox.make_due([owed.id], self._table.clock()) > 0

    def joined(
        self, owed: AnnouncementRow, played: list[PlayedMove], *, held: bool
    ) -> tuple[Announce, ReportKind, list[PlayedMove], int | None]:
        """The bot's action announced with the held one before it, in one message: the announcement (naming the
        member's reply, which it completes), its kind (the member's: a start, a move), every move it tells and
        who acted."""
        payload = owed.payload
        before = [PlayedMove(move, player, MoveKind(kind)) for move, player, kind in payload.get("played", [])]
        kind = ReportKind(owed.kind)
        everything = [*before, *played]
        by = payload.get("by")
        announce = self.of_report(kind, everything, by, reply_of(payload.get("reply")), held=held, at_once=True)
        return announce, kind, everything, by

    async def stuck(self, game: Game) -> int:
        """Say in the game that the bot cannot take its turn now (its search failed), and how to go on: written
        to the outbox on its own, due at once."""
        member = next((player for side, player in enumerate(game.players) if side != game.ai_side), game.players[0])
        announce = Announce(AnnouncementKind.STUCK, {"member": member})
        return await self._outbox.announce(
            game.id, game.guild_id, game.announce_channel_id, game.ply, announce, self._table.clock()
        )

    def of_closing(self, by: int, reply: ReplyTo | None) -> Announce:
        """The announcement that a challenge was declined or withdrawn."""
        payload = {"by": by, "reply": reply_payload(reply)}
        return Announce(AnnouncementKind.CLOSED, payload, delay=self._grace(reply))

    def _grace(self, reply: ReplyTo | None) -> float:
        """A member's own reply goes first; what no reply carries is the outbox worker's at once."""
        return self._table.settings.announce_grace if reply is not None else 0.0

    async def follow_thread(self, game_id: int, thread_id: int) -> Game:
        """The game is played in its own thread from now on: what it still owes (its first board, say, written
        before the thread existed) goes there too, no longer by the click that accepted it."""
        await self._outbox.set_thread(game_id, thread_id, FOLLOW_THE_GAME)
        return await self._table.game(game_id)

    # --- this process's own replies -----------------------------------------------------------------

    def committed(self, game: Game, announcement_id: int, reply: ReplyTo | None, held: bool = False) -> None:
        """Remember the action just committed here: the next one waits for its reply, without asking the outbox.
        Held for the bot's reply, the bot waits for the member's reply to hold its place (:meth:`sending`): the
        bot's reply fills that place in, and a reply that came later would hold a place nobody fills."""
        until = self._table.clock() + self._grace(reply)
        self._announcing.put(game.id, Announcing(game.ply, announcement_id, until, held=held))

    def sending(self, game_id: int, announcement_id: int) -> None:
        """The acting member's reply to this announcement is being sent: Discord takes it when the request
        arrives, however slow its answer, so the next action need not wait for that answer to keep the order.
        For an announcement held for the bot's reply: the member's reply holds its place now (or could not:
        then the bot's reply is posted on its own)."""
        known = self._announcing.get(game_id)
        if known is not None and known.announcement_id == announcement_id:
            known.sent = True

    def delivered(self, game_id: int | None, announcement_id: int, message_id: int | None) -> None:
        """The acting member's reply carried this announcement of ``game_id``: the game may go on at once. The
        mark is written by one background task, with the marks of the replies sent meanwhile, in one transaction.
        Were the process to die first, the outbox worker finds the reply through its interaction and only marks
        it, as for a reply whose mark failed."""
        known = None if game_id is None else self._announcing.get(game_id)
        if known is not None and known.announcement_id == announcement_id:
            known.delivered = True
        self._deliveries.append((announcement_id, message_id))
        if self._marking is None or self._marking.done():
            self._marking = asyncio.create_task(self._write_deliveries(), name="mark announcements delivered")

    async def _write_deliveries(self) -> None:
        """Write the queued marks, a batch at a time. A batch that meets an unavailable database is kept and
        written again after a pause (never dropped: the outbox worker would otherwise find each reply again); the
        tracker has logged the outage."""
        pause = MARK_RETRY_FIRST
        while self._deliveries:
            batch, self._deliveries = self._deliveries, []
            try:
                await self._outbox.mark_all_delivered(batch, time.time())
            except DatabaseUnavailable:
                self._deliveries = batch + self._deliveries
                await asyncio.sleep(pause)
                pause = min(MARK_RETRY_LAST, 2 * pause)
                continue
            except Exception:  # a bug, not an outage: the outbox worker will find these replies and mark them
                log.exception("Could not mark %d announcements delivered", len(batch))
            pause = MARK_RETRY_FIRST

    async def flush(self, limit: float = FLUSH_LIMIT) -> None:
        """Wait until every delivery noted so far is written (before closing the database), for at most
        ``limit`` seconds: with the database down, what is left is the outbox worker's after a restart."""
        deadline = asyncio.get_running_loop().time() + limit
        while self._marking is not None and not self._marking.done():
            left = deadline - asyncio.get_running_loop().time()
            if left <= 0:
                self._marking.cancel()
                await asyncio.gather(self._marking, return_exceptions=True)
                log.warning("Closing with %d delivery marks unwritten; the outbox finds them", len(self._deliveries))
                return
            await asyncio.wait({self._marking}, timeout=left)

    async def wait(self, game_id: int, limit: float = ANNOUNCE_WAIT, ply: int | None = None) -> None:
        """Let the last move's own reply get on its way before the next action (a quick opponent, a double
        click), so announcements come in order; past ``limit`` seconds go on all the same: that action is
        committed, and if its reply truly failed the outbox delivers it. Never refuses.

        When this process wrote the game's last action (at ``ply``), it knows whether that reply is out: no query.
        Otherwise (a restart, another process) the outbox is asked."""
        waited = 0.0
        while waited < limit and await self._awaited(game_id, ply):
            await asyncio.sleep(0.05)
            waited += 0.05

    async def _awaited(self, game_id: int, ply: int | None) -> bool:
        known = self._announcing.get(game_id)
        if known is not None and ply is not None and known.ply == ply:
            return not (known.delivered or known.sent) and known.until > self._table.clock()
        return any(self._being_announced(pending) for pending in await self._outbox.pending_for_game(game_id))

    def _being_announced(self, pending: AnnouncementRow) -> bool:
        """A move whose own reply is still under way (within its grace): the next action waits for it."""
        return (
            pending.kind in REPORTED
            and not pending.payload.get("held")
            and pending.attempts == 0
            and pending.next_attempt_at > self._table.clock()
        )


def reply_payload(reply: ReplyTo | None) -> dict[str, Any] | None:
    if reply is None:
        return None
    return {"application_id": reply.application_id, "token": reply.token, "created_at": reply.created_at}


def reply_of(payload: dict[str, Any] | None) -> ReplyTo | None:
    return None if not payload else ReplyTo(payload["application_id"], payload["token"], payload["created_at"])
