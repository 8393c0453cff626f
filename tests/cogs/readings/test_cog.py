"""The two day-feed cogs, as Discord sees them: /readings and /saints, each declared on its own
subclass of DayFeedCog with its one autocompleted ``date`` option, localised, and each cog's
autocomplete and command bound to that cog (its own clock)."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from bot.i18n.locales import SUPPORTED_LOCALES, TRANSLATED
from bot.i18n.translator import CatalogueTranslator
from cogs._day_feed import DayFeedCog
from devtools.discord import Harness
from devtools.fake_magisterium import FakeMagisterium
from tests.support.day_clock import set_cog_clock

JSON = dict[str, Any]

DATE_OPTION = {
    "type": 3,
    "name": "date",
    "description": "today, tomorrow, next Sunday, 19 March, 2026-12-01…",
    "required": False,
    "autocomplete": True,
    "min_length": 1,
    "max_length": 100,
}
EVERYWHERE = {
    "type": 1,
    "nsfw": False,
    "dm_permission": True,
    "default_member_permissions": None,
    "contexts": [0, 1, 2],
    "integration_types": [0, 1],
}
EXPECTED = {
    "readings": {"description": "The Mass readings of a day", "cog": "ReadingsCog"},
    "saints": {"description": "The saints of a day (Roman Martyrology)", "cog": "SaintsCog"},
}
GERMAN = {
    "readings": ("lesungen", "Die Lesungen der Messe eines Tages"),
    "saints": ("tagesheilige", "Die Heiligen eines Tages (Martyrologium Romanum)"),
}
TRANSLATED_CODES = {
    code for code, catalogue in SUPPORTED_LOCALES.items() if catalogue in TRANSLATED
}


@pytest.mark.parametrize("name", list(EXPECTED))
async def test_each_command_is_its_own_with_the_date_option(harness: Harness, name: str) -> None:
    tree = harness.bot.tree
    command = tree.get_command(name)
    assert command is not None
    expected: JSON = {
        "name": name,
        "description": EXPECTED[name]["description"],
        **EVERYWHERE,
        "options": [DATE_OPTION],
    }
    assert command.to_dict(tree) == expected
    cog = harness.bot.get_cog(EXPECTED[name]["cog"])
    assert isinstance(cog, DayFeedCog)
    assert [c.name for c in cog.get_app_commands()] == [name]
    assert command.binding is cog


async def test_the_commands_sit_where_they_did(harness: Harness) -> None:
    names = [command.name for command in harness.bot.tree.get_commands()]
    start = names.index("readings")
    assert names[start - 1 : start + 3] == ["document", "readings", "saints", "saint"]


@pytest.mark.parametrize("name", list(EXPECTED))
async def test_each_command_and_its_option_are_localised(harness: Harness, name: str) -> None:
    tree = harness.bot.tree
    command = tree.get_command(name)
    assert command is not None
    payload = await command.get_translated_payload(tree, CatalogueTranslator())
    [option] = payload["options"]
    assert set(payload["description_localizations"]) == TRANSLATED_CODES
    assert set(option["description_localizations"]) == TRANSLATED_CODES
    assert (payload["name_localizations"]["de"], payload["description_localizations"]["de"]) == (
        GERMAN[name]
    )
    assert option["name_localizations"]["de"] == "datum"
    assert option["description_localizations"]["de"] == (
        "heute, morgen, nächsten Sonntag, 19. März, 2026-12-01…"
    )


async def test_each_cog_reads_its_own_clock(harness: Harness, fake: FakeMagisterium) -> None:
    """The autocomplete and the command, shared by the base class, run bound to the cog that
    owns the command: two cogs on two clocks count today from two days."""
    set_cog_clock(harness, lambda: dt.datetime(2026, 11, 30, 12, tzinfo=dt.UTC), ["ReadingsCog"])
    set_cog_clock(harness, lambda: dt.datetime(2027, 1, 6, 12, tzinfo=dt.UTC), ["SaintsCog"])
    [readings_today, *_] = await harness.autocomplete("readings", "date", "")
    [saints_today, *_] = await harness.autocomplete("saints", "date", "")
    assert (readings_today["value"], saints_today["value"]) == ("2026-11-30", "2027-01-06")
    await harness.slash("readings")
    await harness.slash("saints")
    asked = [request.parts[0] for request in fake.requests[-2:]]
    assert asked == [
        {"kind": "text", "text": "2026-11-30"},
        {"kind": "data", "data": {"date": "2027-01-06"}},
    ]
