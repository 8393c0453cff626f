"""Resolving what a user typed in a date option to one calendar date, locally.

What is typed is read in the person's language and in English, whatever the language: month
and weekday names with or without accents ("19 de marzo", "mercredi 19 mars", "3월 19일"),
relative words ("mañana", "nächsten Sonntag", "w przyszłą niedzielę"), numbers in the locale's
order (``19/03``, ``03/19``, ``19.03.2027``) and ISO ``YYYY-MM-DD``. The dates the bot shows
are written in their language (:func:`long_date`).

Everything takes an explicit ``today``: the caller computes it once, in the person's timezone
(``ResolvedZone.today``), so one request never mixes two days, and tests pass a fixed date.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator, Sequence

from bot.dates.numeric import Typed, first_date, numeric_readings
from bot.dates.text import Token, fold, tokenize
from bot.dates.vocabulary import Vocabulary, vocabulary
from bot.i18n import format_long_date, format_month

_MAX_INPUT = 100  # an option value is at most 100 characters; longer text is not a date


def long_date(day: dt.date) -> str:
    """``Tuesday 1 December 2026``, as the current locale writes it (``Dienstag, 1. Dezember
    2026``); English whatever the process locale."""
    return format_long_date(day)


def long_month(year: int, month: int) -> str:
    """``February 2026``, as the current locale writes a month of a year (``luty 2026``,
    ``2026년 2월``)."""
    return format_month(dt.date(year, month, 1))


def shift(day: dt.date, days: int) -> dt.date | None:
    try:
        return day + dt.timedelta(days=days)
    except OverflowError:
        return None


def weekday_date(weekday: int, today: dt.date, qualifier: str | None = None) -> dt.date | None:
    """Bare or "this": the next such day, today included; "next": strictly after today;
    "last": strictly before. ``weekday`` 0 is Monday."""
    if qualifier == "last":
        return shift(today, -((today.weekday() - weekday) % 7 or 7))
    ahead = (weekday - today.weekday()) % 7
    return shift(today, (ahead or 7) if qualifier == "next" else ahead)


def resolve(text: str | None, *, today: dt.date, locale: str = "en-US") -> dt.date | None:
    """The date ``text`` names (empty means today), or None when it names none.

    ``locale``: the person's Discord locale code (``es-ES``, ``en-GB``, ``ko``) or a catalogue
    code; any other reads as English."""
    if text is None or not text.strip():
        return today
    tokens = _tokens(text)
    if not tokens:
        return None
    words = vocabulary(locale)
    if _has_numbers(tokens):
        return first_date(_calendar_readings(tokens, words, today))
    key = words.key(t.text for t in tokens if t.kind == "word")
    if key in words.relative:
        return shift(today, words.relative[key])
    return _weekday(key, words, today)


def counts_from_today(text: str | None) -> bool:
    """Whether ``text`` names a day by its distance from today ("tomorrow", "next Sunday",
    nothing) rather than on the calendar ("19 March", "2026-03-19")."""
    if text is None or not text.strip():
        return True
    tokens = _tokens(text)
    return tokens is not None and not _has_numbers(tokens)


def missing_day(text: str, *, today: dt.date, locale: str = "en-US") -> Typed | None:
    """The year, month and day of a date typed with a day its month lacks ("2026-02-30",
    "31 April"); None when ``text`` names a date, or nothing that could be one."""
    tokens = _tokens(text)
    if not tokens or not _has_numbers(tokens):
        return None
    readings = _calendar_readings(tokens, vocabulary(locale), today)
    if first_date(readings) is not None:
        return None
    return next((typed for typed in readings if _only_the_day_is_wrong(*typed)), None)


def _only_the_day_is_wrong(year: int, month: int, day: int) -> bool:
    return dt.MINYEAR <= year <= dt.MAXYEAR and 1 <= month <= 12 and day > 0


def _tokens(text: str) -> list[Token] | None:
    if len(text) > _MAX_INPUT:
        return None
    return tokenize(fold(text.strip()))


def _has_numbers(tokens: Sequence[Token]) -> bool:
    return any(t.kind == "num" for t in tokens)


def _weekday(key: str, words: Vocabulary, today: dt.date) -> dt.date | None:
    """ "domingo", "próximo domingo", "domingo que viene", "다음 주 일요일"."""
    for qualifier, rest in _qualified(key, words):
        if " " in rest:
            weekday = words.weekdays.exact.get(rest)  # "segunda feira"
        else:
            weekday = words.weekdays.lookup(rest) if rest else None
        if weekday is not None:
            return weekday_date(weekday, today, qualifier)
    return None


def _qualified(key: str, words: Vocabulary) -> Iterator[tuple[str | None, str]]:
    """Each way to read ``key`` as a qualifier before or after the rest, or none."""
    yield None, key
    for phrase, qualifier in words.qualifiers.items():
        if key.startswith(phrase + " "):
            yield qualifier, key[len(phrase) + 1 :]
        if key.endswith(" " + phrase):
            yield qualifier, key[: -len(phrase) - 1]


def _calendar_readings(tokens: Sequence[Token], words: Vocabulary, today: dt.date) -> list[Typed]:
    """A date with numbers: a month name or the locale's markers ("19 de marzo", "March 19th,
    2027", "2026년 3월 19일"), else numbers only (:func:`numeric_readings`). A weekday name in
    front ("mercredi 19 mars") is skipped. Each way to read it as a year, month and day, in
    order of preference; none may exist ("30 February")."""
    numbers: list[tuple[str, str | None]] = []  # the digits, and what a marker says they are
    months: list[tuple[int, bool]] = []  # a month name's number, and whether it is a weekday's
    numeric: list[Token] = []
    index = 0
    while index < len(tokens):
        token = tokens[index]
        index += 1
        if token.kind == "num":
            role = None
            after = tokens[index] if index < len(tokens) else None
            if after is not None and after.kind == "word":
                if after.text in words.markers:
                    role = words.markers[after.text]
                elif after.glued and after.text in words.ordinals:
                    role = "d"
                index += role is not None
            numbers.append((token.text, role))
            numeric.append(token)
        elif token.kind == "sep":
            if token.text != ",":
                numeric.append(token)
        elif token.text not in words.ignored and token.text not in words.name_tails:
            month = words.months.lookup(token.text)
            weekday = words.weekdays.lookup(token.text)
            if month is not None:
                months.append((month, weekday is not None))
            elif weekday is None:
                return []
    if months or any(role == "m" for _digits, role in numbers):
        written = _written_reading(numbers, months, today)
        return [written] if written is not None else []
    return numeric_readings(numeric, words.order, today)


def _written_reading(
    numbers: list[tuple[str, str | None]], months: list[tuple[int, bool]], today: dt.date
) -> Typed | None:
    named = [number for number, weekday in months if not weekday or len(months) == 1]
    named += [int(digits) for digits, role in numbers if role == "m"]
    if len(named) != 1:  # but "mar 19 mars": "mar" is also Tuesday's
        return None
    (month,) = named
    day: int | None = None
    year: int | None = None
    for digits, marked_as in numbers:
        if marked_as == "m":
            continue
        role = marked_as or ("y" if len(digits) == 4 else "d" if len(digits) <= 2 else None)
        if role == "y" and year is None and len(digits) in (2, 4):
            year = int(digits) + (2000 if len(digits) == 2 else 0)
        elif role == "d" and day is None and len(digits) <= 2:
            day = int(digits)
        else:
            return None
    if day is None:
        return None
    return (year or today.year, month, day)
