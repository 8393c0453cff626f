"""The day a text is about, written as the bot writes dates.

Magisterium heads a day's readings and martyrology with the day in its own English
("Wednesday, December 2, 2026"); under a title saying "Wednesday 2 December 2026", or the
German "Mittwoch, 2. Dezember 2026", that reads as two formats. The day is known (it was asked
for), so its English spellings are found and rewritten with :func:`long_date`.
"""

from __future__ import annotations

import datetime as dt
import re

from babel.dates import get_day_names, get_month_names

from bot.dates.parse import long_date

_ORDINAL = r"(?:st|nd|rd|th)?"


def restate_day(text: str, day: dt.date) -> str:
    """``text`` with each English way of writing ``day`` ("December 2, 2026", "Wednesday,
    2nd December 2026") written in the current locale's long date; other dates untouched."""
    return _spellings(day).sub(lambda _match: long_date(day), text)


def _spellings(day: dt.date) -> re.Pattern[str]:
    weekday = get_day_names("wide", locale="en")[day.weekday()]
    month = get_month_names("wide", locale="en")[day.month]
    month_first = rf"{month}\s+{day.day}{_ORDINAL},?\s+{day.year}"
    day_first = rf"(?:the\s+)?{day.day}{_ORDINAL}\s+(?:of\s+)?{month},?\s+{day.year}"
    return re.compile(rf"\b(?:{weekday},?\s+)?(?:{month_first}|{day_first})\b", flags=re.IGNORECASE)
