"""Commands run in each of the bot's languages answer in that language — through the real
command tree, with the interaction's own locale — and anything missing falls back to English."""

from __future__ import annotations

import datetime as dt

import pytest
from babel.dates import format_date

from bot.i18n import SUPPORTED_LOCALES, _, ngettext, using_locale
from bot.i18n.compiled_catalogues import translations
from devtools.discord import Harness
from tests.support.embed_parts import assert_shown

LOCALES = list(SUPPORTED_LOCALES)  # Discord's codes: en-US, en-GB, ko, es-ES, es-419, …


def translated(locale: str, message: str) -> str:
    """``message`` as the catalogue of Discord locale ``locale`` has it."""
    with using_locale(locale):
        text = _(message)
    if SUPPORTED_LOCALES[locale] != "en":
        assert text != message, f"{locale} has no translation of {message!r}"
    return text


def _components(result: object) -> list[dict[str, object]]:
    rows = getattr(result, "components")  # noqa: B009 - the harness result's current rows
    return [c for row in rows for c in row["components"]]


@pytest.mark.parametrize("locale", LOCALES)
async def test_help_speaks_the_users_language(harness: Harness, locale: str) -> None:
    user = harness.user(locale=locale)
    result = await harness.slash("help", user=user, locale=locale)
    [embed] = result.embeds
    assert embed["title"] == translated(locale, "Magisterium AI for Discord")
    saint = translated(locale, "A saint's life, feast day and patronage.")
    assert_shown(saint, [embed], "field_value")


@pytest.mark.parametrize("locale", LOCALES)
async def test_readings_title_and_date_are_in_the_users_language(
    harness: Harness, locale: str
) -> None:
    result = await harness.slash("readings", date="2026-12-01", locale=locale)
    catalogue = SUPPORTED_LOCALES[locale]
    day = dt.date(2026, 12, 1)
    date = (
        "Tuesday 1 December 2026"
        if catalogue == "en"
        else format_date(day, format="full", locale=catalogue)
    )
    assert result.embeds[0]["title"] == f"{translated(locale, 'Mass readings')} — {date}"
    labels = [c.get("label") for c in _components(result)]
    assert translated(locale, "Next day ▶") in labels


@pytest.mark.parametrize("locale", LOCALES)
async def test_a_lookup_that_finds_nothing_says_so_in_the_users_language(
    harness: Harness, locale: str
) -> None:
    result = await harness.slash("pope", name="Xyzzy Quux", locale=locale)
    embed = result.embeds[-1]
    assert embed["title"] == translated(locale, "No pope found")
    assert "`Xyzzy Quux`" in embed["description"]  # the person's own text, untouched


@pytest.mark.parametrize("locale", LOCALES)
async def test_profile_buttons_and_menus_are_in_the_users_language(
    harness: Harness, locale: str
) -> None:
    result = await harness.slash("diocese", name="Seoul", locale=locale)
    components = _components(result)
    labels = [c.get("label") for c in components]
    assert translated(locale, "Statistics") in labels
    assert translated(locale, "Send as file") in labels
    placeholders = [c.get("placeholder") for c in components]
    assert translated(locale, "Open a related profile…") in placeholders
    # Magisterium's own words (the diocese's name, its history) are never translated.
    assert "Archdiocese of Seoul" in result.embeds[0]["title"]


@pytest.mark.parametrize("locale", ["de", "pl", "ko"])
async def test_the_statistics_answer_is_in_the_users_language(
    harness: Harness, locale: str
) -> None:
    result = await harness.slash("diocese", name="Seoul", locale=locale)
    clicked = await harness.click(
        result, "lookup:stats:diocese:i:diocese-seoul", user=harness.default_user, locale=locale
    )
    embed = clicked.embeds[-1]
    assert embed["description"] == translated(
        locale, "Every metric for every year is in the attached CSV file."
    )
    table = next(f["value"] for f in embed["fields"])
    assert translated(locale, "Catholics") in table
    png, _csv = clicked.files
    assert png.data[:8] == b"\x89PNG\r\n\x1a\n"


def test_polish_has_three_plural_forms_and_korean_one() -> None:
    singular, plural = "Try again in {seconds} second.", "Try again in {seconds} seconds."
    with using_locale("pl"):
        forms = {n: ngettext(singular, plural, n).format(seconds=n) for n in (1, 2, 5, 22, 25)}
    assert len({forms[1], forms[2].replace("2", "N"), forms[5].replace("5", "N")}) == 3
    assert forms[2].replace("2", "N") == forms[22].replace("22", "N")  # 2, 22: the same form
    assert forms[5].replace("5", "N") == forms[25].replace("25", "N")  # 5, 25: the same form
    with using_locale("ko"):
        one, many = (ngettext(singular, plural, n).format(seconds=n) for n in (1, 7))
    assert one.replace("1", "N") == many.replace("7", "N")


async def test_a_language_the_bot_does_not_speak_gets_english(harness: Harness) -> None:
    result = await harness.slash("help", locale="ja")
    assert result.embeds[0]["title"] == "Magisterium AI for Discord"


def test_a_message_missing_from_a_catalogue_shows_in_english_never_as_a_key() -> None:
    with using_locale("de"):
        assert _("A sentence no catalogue has") == "A sentence no catalogue has"
    assert translations("de").gettext("A sentence no catalogue has") == (
        "A sentence no catalogue has"
    )


async def test_a_dm_is_answered_in_the_language_of_the_persons_last_command(
    harness: Harness,
) -> None:
    user = harness.user(locale="fr")
    await harness.slash("help", user=user, locale="fr")
    exchange = await harness.dm_message(user, "What is grace?")
    labels = [
        c.get("label")
        for reply in exchange.replies
        for row in reply.payload.get("components") or []
        for c in row["components"]
    ]
    assert translated("fr", "New conversation") in labels
