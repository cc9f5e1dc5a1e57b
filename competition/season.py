"""Season boundaries in calendar months (UTC): a season that starts on 15 January and lasts three months ends on
15 April; one that starts on 31 January and lasts one month ends on 28 (or 29) February."""

from __future__ import annotations

import calendar
from datetime import UTC, datetime

SEASON_MONTHS = (1, 2, 3, 4, 6, 12)


def add_months(moment: float, months: int) -> float:
    """``moment`` (epoch seconds) moved ``months`` calendar months on, the day clamped to the month's length."""
    when = datetime.fromtimestamp(moment, tz=UTC)
    index = when.month - 1 + months
    year, month = when.year + index // 12, index % 12 + 1
    day = min(when.day, calendar.monthrange(year, month)[1])
    return when.replace(year=year, month=month, day=day).timestamp()
