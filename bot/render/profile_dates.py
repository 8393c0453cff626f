"""ISO dates in a profile's facts written in the reader's language.

The upstream writes dates as ISO text (``1936-12-17``, ``1998-03``, ``2005-06-03–2016-12-08``)
inside values that may hold anything else. Only whole ISO dates are rewritten: a full date as
the locale's long date, a year and month as the month's name and year, a range of two as the
two joined by an en dash. Years alone, numbers, ids, times and URLs are left as they came.
"""

from __future__ import annotations

import datetime as dt
import re

from bot.i18n.formatting import format_day, format_month

RANGE_DASH = " – "


def _date(suffix: str) -> str:
    return rf"(?P<year{suffix}>\d{{4}})-(?P<month{suffix}>\d{{2}})(?:-(?P<day{suffix}>\d{{2}}))?"


# Not part of a longer token: a time (``T10:00``), a path or URL, an id (``pope-1936-12-17``).
_ISO = re.compile(rf"(?<![\w/.:-]){_date('')}(?:(?P<dash>\s*–\s*){_date('_end')})?(?![\w/-]|\.\w)")


def _formatted(match: re.Match[str], suffix: str) -> str | None:
    year, month, day = (match[f"{part}{suffix}"] for part in ("year", "month", "day"))
    try:
        if day is None:
            return format_month(dt.date(int(year), int(month), 1))
        return format_day(dt.date(int(year), int(month), int(day)))
    except ValueError:  # 2016-13-01, 0000-01-01: not a date
        return None


def _localised(match: re.Match[str]) -> str:
    start = _formatted(match, "")
    if start is None:
        return match[0]
    if match["year_end"] is None:
        return start
    end = _formatted(match, "_end")
    if end is None:
        start_ends = match.end("day") if match["day"] else match.end("month")
        return start + match.string[start_ends : match.end()]  # the rest as it came
    return start + RANGE_DASH + end


def localise_dates(text: str) -> str:
    """``text`` with each ISO date (or range of two) in the current locale's words."""
    return _ISO.sub(_localised, text)
