"""Dates typed in each of the bot's languages: the parser's table and the autocomplete's
suggestions (the same through the harness, as Discord sees them:
tests/cogs/readings/test_dates_in_each_language.py).

``today`` is fixed: Monday 30 November 2026. Relative words come from the catalogues
(bot/locales), month and weekday names and the numeric order from Babel's CLDR data.
"""

from __future__ import annotations

import datetime as dt

import pytest

from bot.dates import long_date, resolve, suggestions
from bot.dates.text import fold
from bot.i18n import LANGUAGES, _, catalogue_locale, using_locale

MONDAY = dt.date(2026, 11, 30)
TOMORROW = dt.date(2026, 12, 1)
AFTER_TOMORROW = dt.date(2026, 12, 2)  # also the coming Wednesday
YESTERDAY = dt.date(2026, 11, 29)  # also last Sunday
BEFORE_YESTERDAY = dt.date(2026, 11, 28)
SUNDAY = dt.date(2026, 12, 6)  # the coming Sunday, and "next Sunday"
NEXT_MONDAY = dt.date(2026, 12, 7)
LAST_MONDAY = dt.date(2026, 11, 23)
LAST_FRIDAY = dt.date(2026, 11, 27)
FRIDAY = dt.date(2026, 12, 4)
SATURDAY = dt.date(2026, 12, 5)
MARCH_19 = dt.date(2026, 3, 19)
MARCH_19_2027 = dt.date(2027, 3, 19)
MARCH_4 = dt.date(2026, 3, 4)
APRIL_3 = dt.date(2026, 4, 3)

DISCORD_LOCALES = ("en-US", "en-GB", "ko", "es-ES", "es-419", "pt-BR", "it", "fr", "de", "pl")

TABLE: dict[str, list[tuple[str, dt.date]]] = {
    "en-US": [
        ("Today", MONDAY),
        ("TOMORROW", TOMORROW),
        ("the day after tomorrow", AFTER_TOMORROW),
        ("day before yesterday", BEFORE_YESTERDAY),
        ("next Sunday", SUNDAY),
        ("last Mon", LAST_MONDAY),
        ("this Friday", FRIDAY),
        ("wed", AFTER_TOMORROW),
        ("03/04", MARCH_4),  # US order: month first
        ("19/03", MARCH_19),  # impossible as M/d: read as d/M
        ("3/19/27", MARCH_19_2027),
        ("March 19th", MARCH_19),
        ("the 19th of March, 2027", MARCH_19_2027),
        ("2026-12-25", dt.date(2026, 12, 25)),
    ],
    "en-GB": [
        ("03/04", APRIL_3),  # British order: day first
        ("03/19", MARCH_19),
        ("19/03/2027", MARCH_19_2027),
        ("1/2/27", dt.date(2027, 2, 1)),
        ("25/12", dt.date(2026, 12, 25)),
        ("Sat", SATURDAY),
        ("last Friday", LAST_FRIDAY),
        ("19 March", MARCH_19),
        ("yesterday", YESTERDAY),
        ("Thursday 19 March 2027", MARCH_19_2027),
        ("2027-01-06", dt.date(2027, 1, 6)),
    ],
    "ko": [
        ("오늘", MONDAY),
        ("내일", TOMORROW),
        ("어제", YESTERDAY),
        ("모레", AFTER_TOMORROW),
        ("그저께", BEFORE_YESTERDAY),
        ("일요일", SUNDAY),
        ("다음 주 일요일", SUNDAY),
        ("다음주 월요일", NEXT_MONDAY),
        ("지난 금요일", LAST_FRIDAY),
        ("수", AFTER_TOMORROW),  # the abbreviated weekday
        ("3월 19일", MARCH_19),
        ("2027년 3월 19일", MARCH_19_2027),
        ("2027년 3월 19일 금요일", MARCH_19_2027),
        ("2026. 3. 19.", MARCH_19),
        ("26. 3. 19.", MARCH_19),  # Korean order: year, month, day
        ("3. 4.", MARCH_4),
        ("next Sunday", SUNDAY),  # English works in every language
    ],
    "es-ES": [
        ("hoy", MONDAY),
        ("Mañana", TOMORROW),
        ("MANANA", TOMORROW),
        ("pasado mañana", AFTER_TOMORROW),
        ("antes de ayer", BEFORE_YESTERDAY),
        ("el próximo domingo", SUNDAY),
        ("domingo que viene", SUNDAY),
        ("el lunes pasado", LAST_MONDAY),
        ("MIÉRCOLES", AFTER_TOMORROW),
        ("miercoles", AFTER_TOMORROW),
        ("mié.", AFTER_TOMORROW),
        ("19 de marzo", MARCH_19),
        ("19 de marzo de 2027", MARCH_19_2027),
        ("19 mar", MARCH_19),
        ("03/04", APRIL_3),
        ("19/03/27", MARCH_19_2027),
        ("2026-03-19", MARCH_19),
    ],
    "es-419": [
        ("hoy", MONDAY),
        ("antier", BEFORE_YESTERDAY),
        ("mañana", TOMORROW),
        ("próximo sábado", SATURDAY),
        ("el viernes pasado", LAST_FRIDAY),
        ("viernes", FRIDAY),
        ("1º de enero", dt.date(2026, 1, 1)),
        ("1o de enero de 2027", dt.date(2027, 1, 1)),
        ("19/3", MARCH_19),
        ("03/04", APRIL_3),
        ("Dic 25", dt.date(2026, 12, 25)),
        ("tomorrow", TOMORROW),
    ],
    "pt-BR": [
        ("hoje", MONDAY),
        ("amanhã", TOMORROW),
        ("amanha", TOMORROW),
        ("depois de amanhã", AFTER_TOMORROW),
        ("anteontem", BEFORE_YESTERDAY),
        ("próxima segunda-feira", NEXT_MONDAY),
        ("segunda feira que vem", NEXT_MONDAY),
        ("segunda", MONDAY),
        ("sexta passada", LAST_FRIDAY),
        ("sáb.", SATURDAY),
        ("19 de março", MARCH_19),
        ("1º de janeiro de 2027", dt.date(2027, 1, 1)),
        ("19/03/2027", MARCH_19_2027),
        ("03/04", APRIL_3),
    ],
    "it": [
        ("oggi", MONDAY),
        ("Domani", TOMORROW),
        ("dopodomani", AFTER_TOMORROW),
        ("l'altro ieri", BEFORE_YESTERDAY),
        ("ieri", YESTERDAY),
        ("domenica prossima", SUNDAY),
        ("la prossima domenica", SUNDAY),
        ("lunedì scorso", LAST_MONDAY),
        ("lunedi", MONDAY),
        ("MERCOLEDÌ", AFTER_TOMORROW),
        ("19 marzo", MARCH_19),
        ("19 mar 2027", MARCH_19_2027),
        ("1º maggio", dt.date(2026, 5, 1)),
        ("03/04", APRIL_3),
        ("sab", SATURDAY),
    ],
    "fr": [
        ("aujourd'hui", MONDAY),
        ("Aujourd’hui", MONDAY),  # a typographic apostrophe
        ("demain", TOMORROW),
        ("après-demain", AFTER_TOMORROW),
        ("apres demain", AFTER_TOMORROW),
        ("avant-hier", BEFORE_YESTERDAY),
        ("lundi prochain", NEXT_MONDAY),
        ("dimanche dernier", YESTERDAY),
        ("mercredi 19 mars", MARCH_19),
        ("le 19 mars", MARCH_19),
        ("1er avril", dt.date(2026, 4, 1)),
        ("3 févr.", dt.date(2026, 2, 3)),
        ("fevrier 3 2027", dt.date(2027, 2, 3)),
        ("03/04", APRIL_3),
        ("sam.", SATURDAY),
        ("mar.", TOMORROW),  # mardi, alone
    ],
    "de": [
        ("heute", MONDAY),
        ("Morgen", TOMORROW),
        ("übermorgen", AFTER_TOMORROW),
        ("UBERMORGEN", AFTER_TOMORROW),
        ("vorgestern", BEFORE_YESTERDAY),
        ("nächsten Sonntag", SUNDAY),
        ("am kommenden Montag", NEXT_MONDAY),
        ("letzten Freitag", LAST_FRIDAY),
        ("So.", SUNDAY),
        ("Mi", AFTER_TOMORROW),
        ("19. März 2027", MARCH_19_2027),
        ("19. Marz", MARCH_19),
        ("19.03.", MARCH_19),
        ("19.03.2027", MARCH_19_2027),
        ("03.04.", APRIL_3),
        ("1.2.27", dt.date(2027, 2, 1)),
    ],
    "pl": [
        ("dziś", MONDAY),
        ("dzisiaj", MONDAY),
        ("jutro", TOMORROW),
        ("pojutrze", AFTER_TOMORROW),
        ("przedwczoraj", BEFORE_YESTERDAY),
        ("w przyszłą niedzielę", SUNDAY),
        ("w przyszla niedziele", SUNDAY),
        ("w następny poniedziałek", NEXT_MONDAY),
        ("w zeszły piątek", LAST_FRIDAY),
        ("w środę", AFTER_TOMORROW),
        ("sroda", AFTER_TOMORROW),
        ("19 marca", MARCH_19),  # genitive, as dates are written
        ("marzec 19", MARCH_19),  # nominative
        ("19 marca 2027", MARCH_19_2027),
        ("19.03", MARCH_19),
        ("3.04", APRIL_3),
        ("pon.", MONDAY),
    ],
}
CASES = [(locale, text, day) for locale, rows in TABLE.items() for text, day in rows]


def test_the_table_covers_every_language_with_ten_inputs_or_more() -> None:
    assert set(TABLE) == set(DISCORD_LOCALES)
    assert all(len(rows) >= 10 for rows in TABLE.values())


@pytest.mark.parametrize(("locale", "text", "expected"), CASES)
def test_dates_typed_in_each_language(locale: str, text: str, expected: dt.date) -> None:
    assert resolve(text, today=MONDAY, locale=locale) == expected


@pytest.mark.parametrize(
    ("locale", "text"),
    [
        ("es-ES", "banana"),
        ("es-ES", "32 de marzo"),
        ("es-ES", "próximo"),
        ("de", "30. Februar"),
        ("fr", "jui 3"),  # juin or juillet
        ("ko", "3월"),
        ("pl", "19 marca marca 2027"),
        ("en-US", "13/13"),
        ("it", "19 marzo 2027 2028"),
        ("pt-BR", "2026-19-03"),  # ISO reads year-month-day only
    ],
)
def test_what_names_no_date_in_a_language(locale: str, text: str) -> None:
    assert resolve(text, today=MONDAY, locale=locale) is None


def test_a_language_words_are_not_read_in_another() -> None:
    assert resolve("mañana", today=MONDAY, locale="de") is None
    assert resolve("morgen", today=MONDAY, locale="en-US") is None
    assert resolve("03/04", today=MONDAY, locale="fr") == APRIL_3


@pytest.mark.parametrize("locale", ["ja", "zh-CN", "", "xx_YY"])
def test_an_unknown_locale_reads_as_english(locale: str) -> None:
    assert resolve("next sunday", today=MONDAY, locale=locale) == SUNDAY
    assert resolve("03/04", today=MONDAY, locale=locale) == MARCH_4


@pytest.mark.parametrize("catalogue", [c for c in LANGUAGES if c != "en"])
def test_catalogue_codes_work_as_well_as_discord_codes(catalogue: str) -> None:
    with using_locale(catalogue):
        tomorrow = _("tomorrow").split("|")[0]
    assert resolve(tomorrow, today=MONDAY, locale=catalogue) == TOMORROW


def test_folding_drops_accents_and_case_but_keeps_hangul() -> None:
    assert fold("MIÉRCOLES") == "miercoles"
    assert fold("Niedzielę") == "niedziele"
    assert fold("Środa") == fold("sroda") == "sroda"
    assert fold("poniedziałek") == "poniedzialek"
    assert fold("다음 주 일요일") == "다음 주 일요일"


# --- autocomplete, directly


def test_suggestions_match_labels_without_accents_in_the_persons_language() -> None:
    with using_locale("es_ES"):
        next_sunday = _("Next Sunday")
        typed = fold(next_sunday)  # "proximo domingo": no accent, no capital
        choices = suggestions(typed, today=MONDAY, locale="es-ES")
        some = suggestions(typed[:4].upper(), today=MONDAY, locale="es-ES")
    assert next_sunday not in ("Next Sunday", typed)  # the catalogue has it
    assert [(c.name.split(" — ")[0], c.value) for c in choices] == [
        (next_sunday, SUNDAY.isoformat())
    ]
    assert len(some) == 7  # "PROX": each "Próximo …"


def test_suggestions_put_the_typed_date_first_in_its_language() -> None:
    with using_locale("fr"):
        choices = suggestions("après-demain", today=MONDAY, locale="fr")
        named = f"{_('The day after tomorrow')} — {long_date(AFTER_TOMORROW)}"
    assert choices[0].name == named  # its name, never the text typed
    assert choices[0].value == AFTER_TOMORROW.isoformat()


# A beginning of the day after tomorrow in each language: part of a word or of a phrase.
AFTER_TOMORROW_BEGUN = {
    "en-US": "day after",
    "de": "über",
    "pl": "poju",
    "fr": "après",
    "ko": "모",
    "es-ES": "pasado ma",
    "es-419": "pasado ma",
    "pt-BR": "depois de am",
    "it": "dopodo",
}


@pytest.mark.parametrize(("locale", "typed"), AFTER_TOMORROW_BEGUN.items())
def test_the_day_after_tomorrow_is_offered_on_its_first_letters(locale: str, typed: str) -> None:
    with using_locale(catalogue_locale(locale)):
        choices = suggestions(typed, today=MONDAY, locale=locale)
        named = f"{_('The day after tomorrow')} — {long_date(AFTER_TOMORROW)}"
    assert [(c.name, c.value) for c in choices][:1] == [(named, AFTER_TOMORROW.isoformat())]
