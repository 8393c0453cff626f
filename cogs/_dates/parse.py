"""Resolving what a user typed in a date option to one calendar date, locally.

What is typed is read in English (and ISO ``YYYY-MM-DD``) whatever the person's language; the
dates the bot shows are written in their language (:func:`long_date`).

Everything takes an explicit ``today``: the caller computes it once (:func:`local_today`), so
one request never mixes two days, and tests pass a fixed date.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable

from bot.i18n import format_long_date

WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
MONTHS = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)
RELATIVE = {"today": 0, "tomorrow": 1, "yesterday": -1}

_MAX_INPUT = 100  # an option value is at most 100 characters; longer text is not a date

_ISO = re.compile(r"(\d{4})-(\d{1,2})-(\d{1,2})")
_MONTH = r"([a-z]+)\.?"
_DAY = r"(\d{1,2})(?:st|nd|rd|th)?"
_YEAR = r"(?:,?\s*(\d{4}))?"
_MONTH_DAY = re.compile(rf"{_MONTH}\s+{_DAY}{_YEAR}")
_DAY_MONTH = re.compile(rf"{_DAY}\s+(?:of\s+)?{_MONTH}{_YEAR}")
_WEEKDAY = re.compile(r"(?:(next|this|last)\s+)?([a-z]+)")


def local_today(
    tz: dt.tzinfo = dt.UTC, now: Callable[[dt.tzinfo], dt.datetime] = dt.datetime.now
) -> dt.date:
    """Today's date in ``tz`` (UTC until servers can choose theirs)."""
    return now(tz).date()


def long_date(day: dt.date) -> str:
    """``Tuesday 1 December 2026``, as the current locale writes it (``Dienstag, 1. Dezember
    2026``); English whatever the process locale."""
    return format_long_date(day)


def normalize(text: str) -> str:
    return " ".join(text.lower().replace(",", " , ").split()).replace(" ,", ",").strip(" .,")


def _month_number(name: str) -> int | None:
    if len(name) < 3:
        return None
    for number, month in enumerate(MONTHS, start=1):
        if month.lower().startswith(name):
            return number
    return None


def weekday_number(name: str) -> int | None:
    """0 for Monday...; full names and abbreviations of three letters or more."""
    if len(name) < 3:
        return None
    for number, weekday in enumerate(WEEKDAYS):
        if weekday.lower().startswith(name):
            return number
    return None


def _safe(year: int, month: int, day: int) -> dt.date | None:
    try:
        return dt.date(year, month, day)
    except ValueError:
        return None


def weekday_date(weekday: int, today: dt.date, qualifier: str | None = None) -> dt.date:
    """Bare or "this": the next such day, today included; "next": strictly after today;
    "last": strictly before."""
    if qualifier == "last":
        return today - dt.timedelta(days=(today.weekday() - weekday) % 7 or 7)
    ahead = (weekday - today.weekday()) % 7
    if qualifier == "next":
        return today + dt.timedelta(days=ahead or 7)
    return today + dt.timedelta(days=ahead)


def _calendar_date(text: str, today: dt.date) -> dt.date | None:
    if match := _ISO.fullmatch(text):
        return _safe(int(match[1]), int(match[2]), int(match[3]))
    if match := _MONTH_DAY.fullmatch(text):
        month, day, year = _month_number(match[1]), int(match[2]), match[3]
    elif match := _DAY_MONTH.fullmatch(text):
        month, day, year = _month_number(match[2]), int(match[1]), match[3]
    else:
        return None
    if month is None:
        return None
    return _safe(int(year) if year else today.year, month, day)


def resolve(text: str | None, *, today: dt.date) -> dt.date | None:
    """The date ``text`` names (empty means today), or None when it names none."""
    query = normalize(text or "today")
    if not query:
        return today
    if len(query) > _MAX_INPUT:
        return None
    if query in RELATIVE:
        return today + dt.timedelta(days=RELATIVE[query])
    if (day := _calendar_date(query, today)) is not None:
        return day
    if match := _WEEKDAY.fullmatch(query):
        weekday = weekday_number(match[2])
        if weekday is not None:
            return weekday_date(weekday, today, match[1])
    return None
