"""The date examples the bot shows, in each language, are dates it reads in that language."""

from __future__ import annotations

import datetime as dt
import re

import pytest

from bot.dates import resolve
from bot.i18n import LANGUAGES, _, using_locale
from cogs._day_feed.day_message import UNKNOWN_DATE_TEXT

TODAY = dt.date(2026, 12, 1)
# The date option's description, as /readings and /saints declare it.
OPTION_EXAMPLES = "today, tomorrow, next Sunday, 19 March, 2026-12-01…"
FORMAT_HINT = re.compile(r"^[A-Z]{4}-[A-Z]{2}-[A-Z]{2}$")  # `YYYY-MM-DD`, `AAAA-MM-JJ`


def _examples(locale: str) -> list[str]:
    with using_locale(locale):
        listed = _(OPTION_EXAMPLES).rstrip("…").split(", ")
        spans = re.findall(r"`([^`]+)`", _(UNKNOWN_DATE_TEXT))
    return [e.strip() for e in [*listed, *spans] if not FORMAT_HINT.match(e.strip())]


@pytest.mark.parametrize("locale", list(LANGUAGES))
def test_every_example_shown_reads_as_a_date(locale: str) -> None:
    examples = _examples(locale)
    assert len(examples) == 10  # five in the description, five in the error's text
    unread = [e for e in examples if resolve(e, today=TODAY, locale=locale) is None]
    assert unread == []


@pytest.mark.parametrize("locale", list(LANGUAGES))
def test_the_examples_name_the_days_they_say(locale: str) -> None:
    today, tomorrow, next_sunday, march_19, iso = _examples(locale)[:5]
    read = [resolve(e, today=TODAY, locale=locale) for e in (today, tomorrow, next_sunday)]
    assert read == [TODAY, dt.date(2026, 12, 2), dt.date(2026, 12, 6)]
    assert resolve(march_19, today=TODAY, locale=locale) == dt.date(2026, 3, 19)
    assert resolve(iso, today=TODAY, locale=locale) == TODAY
