"""bot.dates: local date resolution and autocomplete choices, with a fixed ``today``."""

from __future__ import annotations

import datetime as dt
import gettext

import pytest

from bot.dates import long_date, resolve, suggestions
from bot.i18n import compiled_catalogues, using_locale

MONDAY = dt.date(2026, 11, 30)  # a Monday


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("", MONDAY),
        ("today", MONDAY),
        ("  Today ", MONDAY),
        ("tomorrow", dt.date(2026, 12, 1)),
        ("yesterday", dt.date(2026, 11, 29)),
        ("Monday", MONDAY),  # bare weekday: today included
        ("next monday", dt.date(2026, 12, 7)),  # "next": strictly after
        ("last monday", dt.date(2026, 11, 23)),
        ("Sunday", dt.date(2026, 12, 6)),
        ("next Sunday", dt.date(2026, 12, 6)),
        ("wed", dt.date(2026, 12, 2)),
        ("2026-12-01", dt.date(2026, 12, 1)),
        ("2027-2-3", dt.date(2027, 2, 3)),
        ("March 19", dt.date(2026, 3, 19)),
        ("19 March", dt.date(2026, 3, 19)),
        ("19th of march", dt.date(2026, 3, 19)),
        ("Mar 19, 2027", dt.date(2027, 3, 19)),
        ("25 December 2030", dt.date(2030, 12, 25)),
    ],
)
def test_resolve(text: str, expected: dt.date) -> None:
    assert resolve(text, today=MONDAY) == expected


@pytest.mark.parametrize(
    "text",
    ["banana", "2026-02-30", "February 30", "13-2026-01", "next", "mo", "x" * 200, "32 March"],
)
def test_nonsense_resolves_to_none(text: str) -> None:
    assert resolve(text, today=MONDAY) is None


def test_long_date() -> None:
    assert long_date(dt.date(2026, 12, 1)) == "Tuesday 1 December 2026"


def test_suggestions_show_the_resolved_date() -> None:
    choices = suggestions("tom", today=MONDAY)
    assert [(c.name, c.value) for c in choices] == [
        ("Tomorrow — Tuesday 1 December 2026", "2026-12-01")
    ]


def test_suggestions_offer_a_typed_iso_date_first() -> None:
    choices = suggestions("2027-01-06", today=MONDAY)
    assert choices[0].name == "2027-01-06 — Wednesday 6 January 2027"
    assert choices[0].value == "2027-01-06"
    assert suggestions("2027-02-30", today=MONDAY) == []


def test_suggestions_for_weekdays_and_free_dates() -> None:
    values = {c.name: c.value for c in suggestions("sun", today=MONDAY)}
    assert values == {
        "Sunday — Sunday 6 December 2026": "2026-12-06",
        "Next Sunday — Sunday 6 December 2026": "2026-12-06",
        "Last Sunday — Sunday 29 November 2026": "2026-11-29",
    }
    assert [c.value for c in suggestions("19 march", today=MONDAY)] == ["2026-03-19"]


@pytest.mark.parametrize("typed", ["", "a", "day", "next", "z" * 300])
def test_suggestions_stay_within_discord_limits(typed: str) -> None:
    choices = suggestions(typed, today=MONDAY)
    assert len(choices) <= 25
    for c in choices:
        assert 1 <= len(c.name) <= 100
        assert len(c.value) <= 100
        assert dt.date.fromisoformat(c.value)


def test_empty_input_offers_today_first() -> None:
    choices = suggestions("", today=MONDAY)
    assert choices[0].name == "Today — Monday 30 November 2026"
    assert len(choices) == 24


# --- other languages: dates shown in the person's language, read in it and in English


GERMAN = {"Tomorrow": "Morgen", "Next Sunday": "Nächster Sonntag"}


class Dictionary(gettext.NullTranslations):
    """A German catalogue of a few messages; the source text for any other."""

    def gettext(self, message: str) -> str:
        return GERMAN.get(message, message)


@pytest.fixture
def some_german(monkeypatch: pytest.MonkeyPatch) -> None:
    def translations(locale: str) -> gettext.NullTranslations:
        return Dictionary() if locale == "de" else gettext.NullTranslations()

    monkeypatch.setattr(compiled_catalogues, "translations", translations)


@pytest.mark.parametrize(
    ("locale", "expected"),
    [
        ("en", "Tuesday 1 December 2026"),
        ("de", "Dienstag, 1. Dezember 2026"),
        ("pl", "wtorek, 1 grudnia 2026"),
        ("ko", "2026년 12월 1일 화요일"),
        ("es_419", "martes, 1 de diciembre de 2026"),
    ],
)
def test_long_date_in_each_language(locale: str, expected: str) -> None:
    with using_locale(locale):
        assert long_date(dt.date(2026, 12, 1)) == expected


def test_suggestions_name_dates_in_the_persons_language_with_iso_values() -> None:
    with using_locale("de"):
        choices = suggestions("tom", today=MONDAY)
        everything = suggestions("", today=MONDAY)
    (tomorrow,) = choices  # its label is the catalogue's
    assert tomorrow.name.endswith(" — Dienstag, 1. Dezember 2026")
    assert tomorrow.value == "2026-12-01"
    assert everything[0].name.endswith(" — Montag, 30. November 2026")
    assert everything[0].value == "2026-11-30"


def test_translated_labels_match_what_is_typed_in_either_language(some_german: None) -> None:
    with using_locale("de"):
        typed_german = suggestions("mor", today=MONDAY)
        typed_english = suggestions("tom", today=MONDAY)
        sunday = {c.name: c.value for c in suggestions("next sun", today=MONDAY)}
    tomorrow = [("Morgen — Dienstag, 1. Dezember 2026", "2026-12-01")]
    assert [(c.name, c.value) for c in typed_german] == tomorrow
    assert [(c.name, c.value) for c in typed_english] == tomorrow
    assert sunday == {"Nächster Sonntag — Sonntag, 6. Dezember 2026": "2026-12-06"}


def test_relative_words_come_from_the_catalogue_and_names_from_cldr(some_german: None) -> None:
    with using_locale("de"):
        assert resolve("tomorrow", today=MONDAY, locale="de") == dt.date(2026, 12, 1)
        assert resolve("19 March", today=MONDAY, locale="de") == dt.date(2026, 3, 19)
        assert resolve("19. März", today=MONDAY, locale="de") == dt.date(2026, 3, 19)
        assert resolve("nächsten Sonntag", today=MONDAY, locale="de") is None  # not in it
        assert resolve("morgen", today=MONDAY, locale="de") is None  # this catalogue lacks it
        assert resolve("19. März", today=MONDAY) is None  # read as English
