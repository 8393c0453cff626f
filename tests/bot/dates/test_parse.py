"""bot.dates: local date resolution and autocomplete choices, with a fixed ``today``."""

from __future__ import annotations

import datetime as dt
import gettext

import pytest

from bot.dates import (
    counts_from_today,
    long_date,
    long_month,
    missing_day,
    resolve,
    restate_day,
    suggestions,
)
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
        ("Tomorrow — Tuesday 1 December 2026", "2026-12-01"),
        ("The day after tomorrow — Wednesday 2 December 2026", "2026-12-02"),
    ]


@pytest.mark.parametrize(
    ("typed", "expected"),
    [
        ("day after", ["The day after tomorrow — Wednesday 2 December 2026"]),
        ("the day b", ["The day before yesterday — Saturday 28 November 2026"]),
        (
            "Yest",
            [
                "Yesterday — Sunday 29 November 2026",
                "The day before yesterday — Saturday 28 November 2026",
            ],
        ),
        ("morrow", []),  # the middle of a word matches nothing
        (
            "day",
            [
                "The day after tomorrow — Wednesday 2 December 2026",
                "The day before yesterday — Saturday 28 November 2026",
            ],
        ),
    ],
)
def test_suggestions_match_the_start_of_any_word_of_a_name(typed: str, expected: list[str]) -> None:
    assert [c.name for c in suggestions(typed, today=MONDAY)] == expected


def test_a_typed_day_counted_from_today_is_named_not_repeated() -> None:
    """Typed in full, a day counted from today is shown under its name, not the typed text."""
    assert suggestions("day after tomorrow", today=MONDAY)[0].name == (
        "The day after tomorrow — Wednesday 2 December 2026"
    )
    assert suggestions("2026-12-01", today=MONDAY)[0].name == "Tomorrow — Tuesday 1 December 2026"
    assert suggestions("19 MARCH", today=MONDAY)[0].name == "19 MARCH — Thursday 19 March 2026"


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
    assert len(choices) == 25  # of 26: "Last Sunday" is left off
    assert [c.name.split(" — ")[0] for c in choices[3:5]] == [
        "The day after tomorrow",
        "The day before yesterday",
    ]


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
    tomorrow, _after_tomorrow = choices  # its label is the catalogue's
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
    assert [(c.name, c.value) for c in typed_english][:1] == tomorrow
    assert sunday == {"Nächster Sonntag — Sonntag, 6. Dezember 2026": "2026-12-06"}


def test_relative_words_come_from_the_catalogue_and_names_from_cldr(some_german: None) -> None:
    with using_locale("de"):
        assert resolve("tomorrow", today=MONDAY, locale="de") == dt.date(2026, 12, 1)
        assert resolve("19 March", today=MONDAY, locale="de") == dt.date(2026, 3, 19)
        assert resolve("19. März", today=MONDAY, locale="de") == dt.date(2026, 3, 19)
        assert resolve("nächsten Sonntag", today=MONDAY, locale="de") is None  # not in it
        assert resolve("morgen", today=MONDAY, locale="de") is None  # this catalogue lacks it
        assert resolve("19. März", today=MONDAY) is None  # read as English


# --- a date typed with a day its month lacks; a day counted from today; the upstream's day


@pytest.mark.parametrize(
    ("typed", "locale", "expected"),
    [
        ("2026-02-30", "en-US", (2026, 2, 30)),
        ("31 April", "en-US", (2026, 4, 31)),
        ("30/02", "en-GB", (2026, 2, 30)),
        ("02/30/2027", "en-US", (2027, 2, 30)),
        ("29. Februar 2027", "de", (2027, 2, 29)),
        ("2026-02-28", "en-US", None),  # a date
        ("2026-13-01", "en-US", None),  # no 13th month: not read at all
        ("13/13", "en-GB", None),
        ("tomorrow", "en-US", None),
        ("the heat death", "en-US", None),
    ],
)
def test_missing_day_is_a_date_whose_month_lacks_the_day(
    typed: str, locale: str, expected: tuple[int, int, int] | None
) -> None:
    assert missing_day(typed, today=MONDAY, locale=locale) == expected


@pytest.mark.parametrize(
    ("typed", "relative"),
    [
        (None, True),
        ("  ", True),
        ("tomorrow", True),
        ("next Sunday", True),
        ("übermorgen", True),
        ("19 March", False),
        ("1850-01-01", False),
        ("03/04", False),
    ],
)
def test_counts_from_today_only_without_numbers(typed: str | None, relative: bool) -> None:
    assert counts_from_today(typed) is relative


@pytest.mark.parametrize(
    ("locale", "expected"),
    [("en", "February 2026"), ("de", "Februar 2026"), ("ko", "2026년 2월")],
)
def test_long_month_in_each_language(locale: str, expected: str) -> None:
    with using_locale(locale):
        assert long_month(2026, 2) == expected


WEDNESDAY = dt.date(2026, 12, 2)


@pytest.mark.parametrize(
    "upstream",
    [
        "Wednesday, December 2, 2026",
        "December 2, 2026",
        "wednesday 2 december 2026",
        "Wednesday, the 2nd of December, 2026",
    ],
)
def test_restate_day_writes_the_upstreams_day_as_the_title_does(upstream: str) -> None:
    text = f"**{upstream} — Wednesday of the 1st Week of Advent**"
    with using_locale("de"):
        restated = restate_day(text, WEDNESDAY)
    assert restated == "**Mittwoch, 2. Dezember 2026 — Wednesday of the 1st Week of Advent**"


def test_restate_day_leaves_other_dates_alone() -> None:
    text = "On 12 December 2026, December 2, 2025 and 2026-12-02."
    assert restate_day(text, WEDNESDAY) == text
