"""Dates and numbers as the current locale writes them (Babel, CLDR data)."""

from __future__ import annotations

import datetime as dt

from babel.dates import format_date, format_skeleton
from babel.numbers import format_decimal

from bot.i18n.context import current_locale
from bot.i18n.locales import DEFAULT_LOCALE


def format_long_date(day: dt.date) -> str:
    """``Monday 30 November 2026``; ``Montag, 30. November 2026``; ``2026년 11월 30일 월요일``."""
    locale = current_locale()
    if locale == DEFAULT_LOCALE:
        return format_date(day, format="EEEE d MMMM y", locale="en")  # the bot's own English
    return format_date(day, format="full", locale=locale)


def format_day(day: dt.date) -> str:
    """Without its weekday: ``17 December 1936``; ``17. Dezember 1936``; ``1936년 12월 17일``."""
    return format_date(day, format="long", locale=_date_locale())


def format_month(day: dt.date) -> str:
    """The month of ``day``: ``December 1936``; ``Dezember 1936``; ``grudzień 1936``."""
    return format_skeleton("yMMMM", day, locale=_date_locale())


def format_number(value: float, *, decimals: int = 0) -> str:
    """``1,494,712`` · ``1.494.712`` · ``1 494 712``, as the current locale groups digits."""
    pattern = "#,##0" if decimals == 0 else "#,##0." + "0" * decimals
    return format_decimal(value, format=pattern, locale=_babel_locale())


def format_percent_change(change: float) -> str:
    """A signed change in percent with one decimal: ``+8.9%``, ``−1,7 %``."""
    sign = "+" if change >= 0 else "−"
    return sign + format_decimal(abs(change), format="0.0", locale=_babel_locale()) + "%"


def _date_locale() -> str:
    locale = current_locale()
    return "en_GB" if locale == DEFAULT_LOCALE else locale  # day first, as format_long_date


def _babel_locale() -> str:
    locale = current_locale()
    return "en_US" if locale == DEFAULT_LOCALE else locale
