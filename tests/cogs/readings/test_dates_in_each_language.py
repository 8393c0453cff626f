"""Dates typed in each of the bot's languages through the harness, as Discord sees them: the
date option's autocomplete and the command, in each locale (the parser's own table is
tests/bot/dates/test_locales.py).

``today`` is fixed: Monday 30 November 2026.
"""

from __future__ import annotations

import asyncio
import datetime as dt

import pytest

from bot.dates import long_date
from bot.i18n import _, catalogue_locale, using_locale
from devtools.discord import Harness
from devtools.fake_magisterium import FakeMagisterium
from tests.support.day_clock import set_cog_clock

MONDAY = dt.date(2026, 11, 30)
MONDAY_NOON = dt.datetime(2026, 11, 30, 12, tzinfo=dt.UTC)
TOMORROW = dt.date(2026, 12, 1)
AFTER_TOMORROW = dt.date(2026, 12, 2)
BEFORE_YESTERDAY = dt.date(2026, 11, 28)
SUNDAY = dt.date(2026, 12, 6)  # the coming Sunday, and "next Sunday"
NEXT_MONDAY = dt.date(2026, 12, 7)
MARCH_19 = dt.date(2026, 3, 19)
APRIL_3 = dt.date(2026, 4, 3)

DISCORD_LOCALES = ("en-US", "en-GB", "ko", "es-ES", "es-419", "pt-BR", "it", "fr", "de", "pl")


@pytest.fixture
def clocked(harness: Harness) -> Harness:
    set_cog_clock(harness, lambda: MONDAY_NOON)
    return harness


TYPED = {
    "en-US": ("next sun", SUNDAY),
    "en-GB": ("03/04", APRIL_3),
    "ko": ("다음 주 일요일", SUNDAY),
    "es-ES": ("pasado mañana", AFTER_TOMORROW),
    "es-419": ("antier", BEFORE_YESTERDAY),
    "pt-BR": ("próxima segunda", NEXT_MONDAY),
    "it": ("dopodomani", AFTER_TOMORROW),
    "fr": ("lundi prochain", NEXT_MONDAY),
    "de": ("übermorgen", AFTER_TOMORROW),
    "pl": ("w przyszłą niedzielę", SUNDAY),
}


def _in_language(locale: str, day: dt.date) -> str:
    with using_locale(locale):
        return long_date(day)


def _check_choices(choices: list[dict[str, object]], locale: str) -> None:
    assert 1 <= len(choices) <= 25
    for choice in choices:
        name, value = str(choice["name"]), str(choice["value"])
        assert 1 <= len(name) <= 100 and len(value) <= 100
        day = dt.date.fromisoformat(value)
        assert name.endswith(" — " + _in_language(locale, day))


@pytest.mark.parametrize("locale", DISCORD_LOCALES)
@pytest.mark.parametrize("command", ["saints", "readings"])
async def test_autocomplete_reads_what_is_typed_in_each_language(
    clocked: Harness, fake: FakeMagisterium, locale: str, command: str
) -> None:
    typed, expected = TYPED[locale]
    async with asyncio.timeout(3):  # Discord's deadline for autocomplete
        choices = list(await clocked.autocomplete(command, "date", typed, locale=locale))
    _check_choices(choices, locale)
    assert choices[0]["value"] == expected.isoformat()
    assert fake.count() == 0


@pytest.mark.parametrize("locale", DISCORD_LOCALES)
async def test_autocomplete_names_the_days_in_each_language(
    clocked: Harness, fake: FakeMagisterium, locale: str
) -> None:
    async with asyncio.timeout(3):
        everything = list(await clocked.autocomplete("saints", "date", "", locale=locale))
    _check_choices(everything, locale)
    with using_locale(locale):
        today = _("Today")
    assert everything[0] == {
        "name": f"{today} — {_in_language(locale, MONDAY)}",
        "value": MONDAY.isoformat(),
    }
    if catalogue_locale(locale) != "en":
        assert not str(everything[0]["name"]).startswith("Today")


@pytest.mark.parametrize(
    ("locale", "typed", "expected"),
    [
        ("es-ES", "pasado mañana", AFTER_TOMORROW),
        ("de", "19.03.", MARCH_19),
        ("ko", "내일", TOMORROW),
    ],
)
async def test_the_command_reads_a_date_typed_in_the_persons_language(
    clocked: Harness, fake: FakeMagisterium, locale: str, typed: str, expected: dt.date
) -> None:
    result = await clocked.slash("readings", date=typed, locale=locale)
    assert not result.ephemeral
    assert fake.requests[-1].parts == [{"kind": "text", "text": expected.isoformat()}]


@pytest.mark.parametrize(
    ("locale", "title", "asked"),
    [
        ("en-US", "Saints of the day — Wednesday 4 March 2026", "2026-03-04"),
        ("en-GB", "Saints of the day — Friday 3 April 2026", "2026-04-03"),
    ],
)
async def test_an_ambiguous_date_follows_the_language_and_the_title_says_which(
    clocked: Harness, fake: FakeMagisterium, locale: str, title: str, asked: str
) -> None:
    result = await clocked.slash("saints", date="03/04", locale=locale)
    assert result.embeds[0]["title"] == title
    assert fake.requests[-1].parts[0]["data"]["date"] == asked
