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

from bot.dates.numeric import numeric_date, safe_date
from bot.dates.text import Token, fold, tokenize
from bot.dates.vocabulary import Vocabulary, vocabulary
from bot.i18n import format_long_date

_MAX_INPUT = 100  # an option value is at most 100 characters; longer text is not a date


def long_date(day: dt.date) -> str:
    """``Tuesday 1 December 2026``, as the current locale writes it (``Dienstag, 1. Dezember
    2026``); English whatever the process locale."""
    return format_long_date(day)


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
    if len(text) > _MAX_INPUT:
        return None
    tokens = tokenize(fold(text.strip()))
    if not tokens:
        return None
    words = vocabulary(locale)
    if any(t.kind == "num" for t in tokens):
        return _calendar_date(tokens, words, today)
    key = words.key(t.text for t in tokens if t.kind == "word")
    if key in words.relative:
        return shift(today, words.relative[key])
    return _weekday(key, words, today)


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


def _calendar_date(tokens: Sequence[Token], words: Vocabulary, today: dt.date) -> dt.date | None:
    """A date with numbers: a month name or the locale's markers ("19 de marzo", "March 19th,
    2027", "2026년 3월 19일"), else numbers only (:func:`numeric_date`). A weekday name in
    front ("mercredi 19 mars") is skipped."""
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
                return None
    if months or any(role == "m" for _digits, role in numbers):
        return _written_date(numbers, months, today)
    return numeric_date(numeric, words.order, today)


def _written_date(
    numbers: list[tuple[str, str | None]], months: list[tuple[int, bool]], today: dt.date
) -> dt.date | None:
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
    return safe_date(year or today.year, month, day)
