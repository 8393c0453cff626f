"""Dates typed as numbers only (``19/03``, ``03/19/2027``, ``19.03.``, ``2026. 3. 19.``), read
in the locale's order."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

from bot.dates.text import Token

Typed = tuple[int, int, int]  # a year, month and day as typed, which may name no date


def safe_date(year: int, month: int, day: int) -> dt.date | None:
    try:
        return dt.date(year, month, day)
    except ValueError:
        return None


def first_date(readings: Sequence[Typed]) -> dt.date | None:
    """The first of ``readings`` that is a date."""
    return next((d for typed in readings if (d := safe_date(*typed)) is not None), None)


def _parts(tokens: Sequence[Token]) -> list[str] | None:
    """The numbers of ``19 / 03 / 2027``: one separator between each two (a trailing one
    too, "19.03."); None for anything else."""
    parts: list[str] = []
    after_number = False
    for token in tokens:
        if token.kind == "num":
            if after_number:
                return None  # "19 03": no separator
            parts.append(token.text)
            after_number = True
        elif parts:
            if not after_number:
                return None  # "19//03"
            after_number = False
    return parts


def numeric_readings(tokens: Sequence[Token], order: str, today: dt.date) -> list[Typed]:
    """``order`` is the locale's (``MDY``, ``DMY``, ``YMD``). A four-digit first number is a
    year followed by month and day, as in ISO; otherwise the locale's order first, then day
    and month swapped (``19/03`` in the US). Empty when the numbers cannot be a date's."""
    parts = _parts(tokens)
    if parts is None or not 2 <= len(parts) <= 3:
        return []
    year = str(today.year)
    iso = len(parts[0]) == 4
    if len(parts) == 3:
        year_first = iso or (len(parts[2]) != 4 and order.startswith("Y"))
        year = parts.pop(0 if year_first else 2)
    if len(year) not in (2, 4) or any(len(p) > 2 for p in parts):
        return []
    full_year = int(year) + (2000 if len(year) == 2 else 0)
    first, second = (int(p) for p in parts)
    day_first = not iso and order.index("D") < order.index("M")
    month, day = (second, first) if day_first else (first, second)
    readings = [(full_year, month, day)]
    if not iso:
        readings.append((full_year, day, month))
    return readings
