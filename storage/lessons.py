"""Queries for the lessons: where a member is in a game's course. No policy here (which step follows, what a
course holds): that is the service's."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa

from storage.schema import lesson_progress
from storage.store import Store


@dataclass(frozen=True)
class ProgressRow:
    lesson: str
    step: int
    completed_at: float | None


class LessonRepository:
    """What the lessons part reads and writes: each member's place in each game's course."""

    def __init__(self, store: Store) -> None:
        self._store = store

    async def lesson_progress(self, guild_id: int, user_id: int, game: str) -> ProgressRow | None:
        rows = await self._store.rows(
            sa.select(lesson_progress).where(
                lesson_progress.c.guild_id == guild_id,
                lesson_progress.c.user_id == user_id,
                lesson_progress.c.game == game,
            )
        )
        if not rows:
            return None
        return ProgressRow(rows[0]["lesson"], rows[0]["step"], rows[0]["completed_at"])

    async def set_lesson_progress(
        self, guild_id: int, user_id: int, game: str, lesson: str, step: int, now: float, *, completed: bool
    ) -> bool:
        """Where the member is now; ``completed`` marks the course finished (the first time only). Returns whether
        the member has finished the course, now or before."""
        values: dict[str, Any] = {"lesson": lesson, "step": step, "updated_at": now}
        changes: dict[str, Any] = dict(values)
        if completed:
            values["completed_at"] = now
            changes["completed_at"] = sa.func.coalesce(lesson_progress.c.completed_at, now)
        upsert = (
            self._store.insert(lesson_progress)
            .values(guild_id=guild_id, user_id=user_id, game=game, **values)
            .on_conflict_do_update(
                index_elements=[lesson_progress.c.guild_id, lesson_progress.c.user_id, lesson_progress.c.game],
                set_=changes,
            )
            .returning(lesson_progress.c.completed_at)
        )
        return bool(await self._store.write(lambda connection: connection.execute(upsert).scalar_one() is not None))
