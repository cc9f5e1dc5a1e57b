"""The chores no member's action starts: challenges that expire, reminders of idle players, the clocks of
tournament games, tournaments whose sign-up closed or whose round ended unnoticed, seasons whose time came, and bot
turns that a dead process never took.

The bot sweeps its own servers every minute (with shards, each process its own). Every chore writes its
announcement in the transaction of its change and is conditional in the database, so several processes sweeping
at once make each change once; what the sweep wrote is then published as owed, and delivered at once.
"""

from __future__ import annotations

from sessions.challenges import Challenges
from sessions.clocks import Clocks
from sessions.computer import ComputerPlayer
from sessions.events import Owed
from sessions.seasons import Seasons
from sessions.table import Table
from sessions.tournaments import Tournaments
from sessions.turns import Turns


class Housekeeping:
    def __init__(
        self,
        table: Table,
        challenges: Challenges,
        turns: Turns,
        clocks: Clocks,
        tournaments: Tournaments,
        seasons: Seasons,
        computer: ComputerPlayer,
    ) -> None:
        self._table = table
        self._challenges = challenges
        self._turns = turns
        self._clocks = clocks
        self._tournaments = tournaments
        self._seasons = seasons
        self._computer = computer

    async def sweep(self, guild_ids: list[int]) -> None:
        """Every chore of these servers (this process's), then what they wrote delivered now."""
        await self._challenges.expire_challenges(guild_ids)
        await self._turns.due_reminders(guild_ids)
        await self._clocks.run(guild_ids)  # reminders before a clock runs out; losses on time
        await self._tournaments.sweep(guild_ids)  # sign-ups that closed, rounds whose last game ended
        await self._seasons.roll(guild_ids)  # seasons whose end has come
        await self._computer.resume(guild_ids)  # a turn a dead process never took
        self._table.events.publish(Owed(tuple(guild_ids)))
