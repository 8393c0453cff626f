"""The zone option's reading of what was typed: a zone's name, the one zone of a city, or the
"Automatic" choice by its value, its label or the label's first word, in the person's language."""

from __future__ import annotations

import pytest

from bot.i18n import using_locale
from bot.services.user_errors import UserFacingError
from cogs._zones import PERSON, SERVER
from cogs._zones.inputs import automatic_names, only_zone_of_city, zone, zone_or_automatic


@pytest.mark.parametrize(
    ("typed", "expected"),
    [
        ("berlin", "Europe/Berlin"),
        ("  Berlin ", "Europe/Berlin"),
        ("new york", "America/New_York"),
        ("NEW_YORK", "America/New_York"),
        ("sao paulo", "America/Sao_Paulo"),
        ("São Paulo", "America/Sao_Paulo"),
    ],
)
def test_a_city_with_one_zone_names_it(typed: str, expected: str) -> None:
    assert only_zone_of_city(typed) == expected
    assert zone(typed) == expected


@pytest.mark.parametrize("typed", ["buenos aires", "eastern", "berl", "europe", "", "Berlim"])
def test_several_zones_a_start_or_a_typo_name_none(typed: str) -> None:
    assert only_zone_of_city(typed) is None


def test_several_zones_of_one_city_are_offered_not_picked() -> None:
    with pytest.raises(UserFacingError) as refused:
        zone("buenos aires")
    text = str(refused.value)
    assert "`America/Argentina/Buenos_Aires`" in text and "`America/Buenos_Aires`" in text


@pytest.mark.parametrize("typed", ["Europe/Berlim", "berl"])
def test_a_typo_or_a_start_is_still_only_suggested(typed: str) -> None:
    with pytest.raises(UserFacingError, match="Did you mean `Europe/Berlin`"):
        zone(typed)


@pytest.mark.parametrize(
    "typed",
    [
        "auto",
        "Automatic",
        " AUTOMATIC ",
        "Automatic — your /mydaily timezone, else the server's, else UTC",
        "  automatic — your /mydaily timezone, else the server's, else utc  ",
    ],
)
def test_the_automatic_choice_typed_in_english(typed: str) -> None:
    assert zone_or_automatic(typed, PERSON.choice) is None


def test_the_automatic_choice_typed_in_the_persons_language() -> None:
    with using_locale("fr"):
        label = "Automatique — le fuseau de /quotidien de ce serveur, sinon UTC"
        assert {"automatique", label.casefold(), "automatic"} <= automatic_names(SERVER.choice)
        assert zone_or_automatic(f" {label.upper()} ", SERVER.choice) is None
        assert zone_or_automatic("Automatique", SERVER.choice) is None


def test_a_zone_is_not_the_automatic_choice() -> None:
    assert zone_or_automatic("berlin", PERSON.choice) == "Europe/Berlin"
    with pytest.raises(UserFacingError):
        zone_or_automatic("automatically", PERSON.choice)
