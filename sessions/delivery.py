"""The outbox worker's policy: what is owed is claimed under a lease, handed to the cog's delivery callback (which
does the Discord requests and nothing else), marked delivered, or retried with a backoff and given up at last.

Any process may run it for its own servers: a claim is atomic (``SKIP LOCKED`` on PostgreSQL), so two workers
never take the same announcement, and a worker that dies lets its lease lapse. The announcements of the bot's own
moves are delivered from the reports those moves produced (:meth:`Delivery.deliver_reports`); whatever a process
did not deliver itself is rebuilt from the database (:meth:`Delivery.report`), after a restart say.

An unavailable database never stops a round half-way with rows stuck under their lease: a delivery that failed is
released with its backoff; a mark that failed is kept in memory and written first thing next round (the row is
never released: it would be posted again); a round the database failed under gives the rows it did not try back
at once (``release_claims``). Nothing here logs the outage: the database's tracker says it once.
"""

from __future__ import annotations

import contextlib
import logging
import os
import socket
import time
import uuid
from collections.abc import Callable, Iterable

from sessions.announcements import reply_of
from sessions.events import BotMoved, Owed, RoundComplete, SeasonOver
from sessions.model import AnnouncementKind, GameStatus, MoveKind, PlayedMove, Report, ReportKind
from sessions.model.notices import Bulletin, Deliver, Notice
from sessions.ratings import Ratings
from sessions.table import Table
from storage.database import OutboxRepository
from storage.faults import DatabaseUnavailable
from storage.outbox import AnnouncementRow

log = logging.getLogger(__name__)

LEASE = 60.0  # seconds a claimed announcement is one worker's
BATCH = 20  # announcements claimed at once
MAX_ATTEMPTS = 12  # then it is given up: the channel is gone or the bot was removed
FIRST_RETRY = 2.0  # seconds, doubling with each attempt ...
LAST_RETRY = 300.0  # ... up to five minutes


class Delivery:
    def __init__(self, table: Table, outbox: OutboxRepository, ratings: Ratings) -> None:
        self._table = table
        self._outbox = outbox
        self._ratings = ratings
        self.worker = f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"
        self._owed_marks: list[tuple[int, int | None]] = []  # delivered, but the mark met an unavailable database
        self._orphans_released = False
        self._courier: Deliver | None = None  # the Discord layer's requests for one notice, once attached
        self._guilds: Callable[[], list[int]] = list

    def attach(self, deliver: Deliver, guilds: Callable[[], list[int]]) -> None:
        """The Discord layer's delivery (its requests for one notice) and the servers this process serves: what
        the parts publish as owed is delivered with it at once, not at the next round of the outbox worker."""
        self._courier, self._guilds = deliver, guilds

    async def deliver_now(self, guild_ids: Iterable[int] | None = None) -> int:
        """Deliver what is due in these servers (by default every server of this process) with the attached
        delivery; returns how many were delivered (none before one is attached)."""
        if self._courier is None:
            return 0
        wanted = self._guilds() if guild_ids is None else list(guild_ids)
        return await self.deliver_due(wanted, self._courier)

    async def on_owed(self, event: Owed | RoundComplete | SeasonOver) -> None:
        """Follows what a part wrote that no member's reply carries: delivered now, in the servers it concerns
        (the process that committed it serves them)."""
        await self.deliver_now(event.guild_ids if isinstance(event, Owed) else [event.guild_id])

    async def on_bot_moved(self, event: BotMoved) -> None:
        """Follows the bot's turn: its moves announced from the reports they produced (with the member's action
        before them, in one message), then whatever else it left owed."""
        if self._courier is None:
            return
        await self.deliver_reports(list(event.reports), self._courier)
        if event.owed:
            await self.deliver_now([event.game.guild_id])

    async def deliver_due(self, guild_ids: list[int], deliver: Deliver) -> int:
        """Claim what is due in these servers (this process's) and deliver it; returns how many were delivered."""
        if not guild_ids:
            return 0
        await self._write_owed_marks()
        now = self._table.clock()  # the clock the announcements were written with
        if not self._orphans_released:
            await self._release_dead_workers(now)
        claimed = await self._outbox.claim_pending(self.worker, now, LEASE, BATCH, guild_filter=guild_ids)
        return await self._deliver(claimed, {}, deliver)

    async def deliver_reports(self, reports: list[Report], deliver: Deliver) -> int:
        """Deliver the announcements of these reports now, from the reports themselves (the bot's own moves): each
        is claimed first, so a worker that took it meanwhile delivers it instead, once."""
        by_id = {report.announcement_id: report for report in reports if report.announcement_id is not None}
        if not by_id:
            return 0
        await self._write_owed_marks()
        now = self._table.clock()
        claimed = await self._outbox.claim_pending(self.worker, now, LEASE, len(by_id), ids=list(by_id))
        return await self._deliver(claimed, by_id, deliver)

    async def _deliver(self, claimed: list[AnnouncementRow], reports: dict[int, Report], deliver: Deliver) -> int:
        delivered = 0
        for index, announcement in enumerate(claimed):
            try:
                notice = await self._notice(announcement, reports.get(announcement.id))
                message_id = await deliver(notice)
            except DatabaseUnavailable:  # not this row's fault: give it and the rest back, due again at once
                await self._give_back(claimed[index:])
                return delivered
            except Exception as error:
                await self._retry_later(announcement, error)
                continue
            delivered += 1
            try:
                if not await self._outbox.mark_delivered(announcement.id, message_id):
                    delivered -= 1  # another worker, whose lease had lapsed, marked it first
            except DatabaseUnavailable:  # it is out: mark it later, never post it again
                self._owed_marks.append((announcement.id, message_id))
        return delivered

    async def _write_owed_marks(self) -> None:
        """The marks an earlier round could not write, first: their rows stay claimed meanwhile (raises
        :class:`DatabaseUnavailable` while it still cannot: the round is skipped)."""
        if self._owed_marks:
            owed = list(self._owed_marks)
            await self._outbox.mark_all_delivered(owed, time.time())
            del self._owed_marks[: len(owed)]

    async def _release_dead_workers(self, now: float) -> None:
        """Once, at start-up: claims held by a worker of this host whose process is gone (killed, crashed) are
        given back at once, rather than waiting out their lease; a restarted bot then delivers what it owed."""
        host = socket.gethostname()
        for worker in await self._outbox.claiming_workers(now):
            worker_host, _, rest = worker.partition(":")
            pid = rest.partition(":")[0]
            if worker_host == host and pid.isdigit() and worker != self.worker and not _alive(int(pid)):
                released = await self._outbox.release_claims(worker)
                log.info("Released %d announcements claimed by %s, a process that is gone", released, worker)
        self._orphans_released = True

    async def _give_back(self, untried: list[AnnouncementRow]) -> None:
        with contextlib.suppress(DatabaseUnavailable):  # else their leases lapse instead
            await self._outbox.release_claims(self.worker, [announcement.id for announcement in untried])

    async def _retry_later(self, announcement: AnnouncementRow, error: Exception) -> None:
        log.warning("Announcement %s (%s) not delivered: %s", announcement.id, announcement.kind, error)
        try:
            if announcement.attempts + 1 >= MAX_ATTEMPTS:
                log.error("Giving up announcement %s after %d attempts", announcement.id, MAX_ATTEMPTS)
                await self._outbox.mark_delivered(announcement.id, None)
                return
            backoff = min(LAST_RETRY, FIRST_RETRY * 2**announcement.attempts)
            await self._outbox.release(announcement.id, repr(error), self._table.clock() + backoff)
        except DatabaseUnavailable:
            pass  # its lease lapses instead: tried again then

    async def _notice(self, announcement: AnnouncementRow, report: Report | None) -> Notice | Bulletin:
        kind = AnnouncementKind(announcement.kind)
        payload = announcement.payload
        if announcement.game_id is None:
            return Bulletin(announcement.id, kind, announcement.guild_id, announcement.channel_id, payload)
        if kind.reports and report is None:
            report = await self.report(announcement)
        game = report.game if report is not None else await self._table.game(announcement.game_id)
        claim_at = None
        if kind == AnnouncementKind.REMINDER and "deadline" not in payload:
            # Reminders written before the deadline was stored: it is twice the reminder time after the last move.
            claim_at = payload.get("claim_at") or (game.last_move_at or game.created_at) + 2 * payload["hours"] * 3600
        return Notice(
            id=announcement.id,
            kind=kind,
            game=game,
            channel_id=announcement.channel_id,
            report=report,
            reply=reply_of(payload.get("reply")),
            by=payload.get("by"),
            was=payload.get("was"),
            remind=payload.get("user_id"),
            claim_at=claim_at,
            deadline=payload.get("deadline"),
        )

    async def report(self, announcement: AnnouncementRow) -> Report:
        """The report an announcement tells, rebuilt from the database: the game as it stood at the
        announcement's ply, the moves it announces and, when that ended the game, the result and the rating
        changes."""
        assert announcement.game_id is not None
        game = await self._table.game(announcement.game_id)
        ply = game.ply if announcement.ply is None else announcement.ply
        state = await self._table.position(game, ply)
        payload = announcement.payload
        played = [PlayedMove(move, player, MoveKind(kind)) for move, player, kind in payload.get("played", [])]
        finish = None
        starting = (AnnouncementKind.START, AnnouncementKind.PAIRED)
        if game.status == GameStatus.FINISHED and ply == game.ply and announcement.kind not in starting:
            finish = await self._ratings.finish_of(game)
        kind = ReportKind(announcement.kind)
        return Report(game, state, played, finish, announcement.id, kind, payload.get("by"), ply)


def _alive(pid: int) -> bool:
    """Whether a process ``pid`` runs on this host (a reused pid counts as alive: its claims then lapse)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
