"""Natural-language date queries ("today", "next Sunday", "Easter Sunday 2026") to dates."""

from __future__ import annotations

import re
from datetime import date, timedelta

from devtools.fake_magisterium.liturgy import easter

SUPPORTED_YEARS = range(1900, 2101)

WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
MONTHS = (
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
)

_RELATIVE = {"today": 0, "tonight": 0, "tomorrow": 1, "yesterday": -1}
_FROM_EASTER = {
    "ash wednesday": -46,
    "palm sunday": -7,
    "holy thursday": -3,
    "maundy thursday": -3,
    "good friday": -2,
    "holy saturday": -1,
    "easter sunday": 0,
    "easter": 0,
    "divine mercy sunday": 7,
    "ascension": 39,
    "pentecost": 49,
    "trinity sunday": 56,
    "corpus christi": 60,
}
_FIXED = {
    "christmas": (12, 25),
    "christmas day": (12, 25),
    "epiphany": (1, 6),
    "st joseph": (3, 19),
    "saint joseph": (3, 19),
    "annunciation": (3, 25),
    "all saints": (11, 1),
    "all saints day": (11, 1),
    "all souls": (11, 2),
    "assumption": (8, 15),
    "immaculate conception": (12, 8),
    "new year": (1, 1),
    "new years day": (1, 1),
}
_FEAST_NAMES = sorted([*_FROM_EASTER, *_FIXED], key=len, reverse=True)
_ISO = re.compile(r"\b(\d{4})-(\d{1,2})-(\d{1,2})\b")
_FEAST = re.compile(r"\b(" + "|".join(_FEAST_NAMES) + r")\b(?:\s+(\d{4}))?")
_MONTH = r"\b(" + "|".join(f"{m}|{m[:3]}" for m in MONTHS) + r"|sept)\b"
_MONTH_DAY = re.compile(_MONTH + r"\s+(\d{1,2})(?:st|nd|rd|th)?(?:\s*,?\s+(\d{4}))?\b")
_DAY_MONTH = re.compile(r"\b(\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?" + _MONTH + r"(?:\s+(\d{4}))?")
_WEEKDAY = re.compile(r"\b(?:(next|last|this|coming)\s+)?(" + "|".join(WEEKDAYS) + r")\b")


def _normalise(query: str) -> str:
    text = query.lower().replace("'", "").replace("st.", "st")
    return re.sub(r"\s+", " ", re.sub(r"[^a-z0-9\- ]", " ", text)).strip()


def _safe_date(year: int, month: int, day: int) -> date | None:
    try:
        return date(year, month, day)
    except ValueError:
        return None


def _month_number(name: str) -> int:
    return next(i for i, m in enumerate(MONTHS, 1) if m.startswith(name[:3]))


def _feast_date(name: str, year: int) -> date | None:
    if name in _FROM_EASTER:
        return easter(year) + timedelta(days=_FROM_EASTER[name])
    month, day = _FIXED[name]
    return _safe_date(year, month, day)


def _weekday_date(qualifier: str | None, weekday: str, today: date) -> date:
    """Bare or "this"/"coming": the next such day, today included; "next": strictly after;
    "last": strictly before."""
    target = WEEKDAYS.index(weekday)
    ahead = (target - today.weekday()) % 7
    if qualifier == "last":
        return today - timedelta(days=(today.weekday() - target) % 7 or 7)
    if qualifier == "next":
        return today + timedelta(days=ahead or 7)
    return today + timedelta(days=ahead)


def parse_date_query(query: str, today: date) -> date | None:
    """The date a query names, or None when it names none."""
    text = _normalise(query)
    if match := _ISO.search(text):
        return _safe_date(*(int(g) for g in match.groups()))
    for word, offset in _RELATIVE.items():
        if re.search(rf"\b{word}\b", text):
            return today + timedelta(days=offset)
    if match := _FEAST.search(text):
        return _feast_date(match[1], int(match[2] or today.year))
    if match := _MONTH_DAY.search(text):
        return _safe_date(int(match[3] or today.year), _month_number(match[1]), int(match[2]))
    if match := _DAY_MONTH.search(text):
        return _safe_date(int(match[3] or today.year), _month_number(match[2]), int(match[1]))
    if match := _WEEKDAY.search(text):
        return _weekday_date(match[1], match[2], today)
    return None


def parse_supported(query: str, today: date) -> date | None:
    """Like parse_date_query, but None outside SUPPORTED_YEARS (and on date overflow)."""
    try:
        day = parse_date_query(query, today)
    except OverflowError:
        return None
    return day if day is not None and day.year in SUPPORTED_YEARS else None
