"""The lookups cog's table, as Discord sees it: exactly /saint, /pope, /clergy and /diocese, each
with its one ``name`` option, their German localisations, and the cog adding and removing them."""

from __future__ import annotations

from typing import Any

import pytest

from bot.a2a.lookups import LookupKind
from bot.i18n.locales import SUPPORTED_LOCALES, TRANSLATED
from bot.i18n.translator import CatalogueTranslator
from cogs.lookups.cog import LOOKUPS
from devtools.discord import Harness

JSON = dict[str, Any]

EVERYWHERE = {
    "type": 1,
    "nsfw": False,
    "dm_permission": True,
    "default_member_permissions": None,
    "contexts": [0, 1, 2],
    "integration_types": [0, 1],
}


def _command(name: str, description: str, option_description: str) -> JSON:
    option = {
        "type": 3,
        "name": "name",
        "description": option_description,
        "required": True,
        "min_length": 1,
        "max_length": 100,
    }
    return {"name": name, "description": description, **EVERYWHERE, "options": [option]}


EXPECTED = [
    _command(
        "saint",
        "A saint's life, feast day and patronage",
        "A saint, blessed, venerable or servant of God: Thérèse of Lisieux, Francis…",
    ),
    _command("pope", "A pope's pontificate and life", "A pope: John XXIII, Leo XIII, Pius…"),
    _command(
        "clergy",
        "A bishop's or cardinal's profile",
        "A bishop, archbishop or cardinal, by name",
    ),
    _command(
        "diocese",
        "A diocese: its bishop, numbers and finances",
        "A diocese or archdiocese: Seoul, Paris, Kraków…",
    ),
]
NAMES = [command["name"] for command in EXPECTED]
TRANSLATED_CODES = {
    code for code, catalogue in SUPPORTED_LOCALES.items() if catalogue in TRANSLATED
}

# (command, its description, its option's description) in German, from the catalogue.
GERMAN = {
    "saint": (
        "heiliger",
        "Leben, Gedenktag und Patronat eines Heiligen",
        "Ein Heiliger, Seliger, Ehrwürdiger oder Diener Gottes: Thérèse, Hildegard, Padre Pio…",
    ),
    "pope": ("papst", "Pontifikat und Leben eines Papstes", "Ein Papst: Leo XIII, Paul VI, Pius…"),
    "clergy": (
        "klerus",
        "Profil eines Bischofs oder Kardinals",
        "Ein Bischof, Erzbischof oder Kardinal, nach Namen",
    ),
    "diocese": (
        "bistum",
        "Ein Bistum: Bischof, Zahlen und Finanzen",
        "Ein Bistum oder Erzbistum: Seoul, Paris, Kraków…",
    ),
}


def _lookup_commands(harness: Harness) -> list[JSON]:
    tree = harness.bot.tree
    return [
        command.to_dict(tree)
        for command in tree.get_commands()
        if command.module is not None and command.module.startswith("cogs.lookups")
    ]


def test_the_table_has_one_row_per_kind() -> None:
    assert [row.kind for row in LOOKUPS] == list(LookupKind)


async def test_the_table_makes_exactly_the_four_commands_with_their_option(
    harness: Harness,
) -> None:
    assert _lookup_commands(harness) == EXPECTED


async def test_the_commands_sit_where_the_four_cogs_were(harness: Harness) -> None:
    names = [command.name for command in harness.bot.tree.get_commands()]
    start = names.index("saint")
    assert names[start - 1 : start + len(NAMES) + 1] == ["saints", *NAMES, "daily"]


async def test_each_command_and_its_option_are_localised(harness: Harness) -> None:
    tree = harness.bot.tree
    translator = CatalogueTranslator()
    for name in NAMES:
        command = tree.get_command(name)
        assert command is not None
        payload = await command.get_translated_payload(tree, translator)
        [option] = payload["options"]
        # Every translated language describes the command and its option.
        assert set(payload["description_localizations"]) == TRANSLATED_CODES, name
        assert set(option["description_localizations"]) == TRANSLATED_CODES, name
        german_name, german_description, german_option = GERMAN[name]
        assert payload["name_localizations"]["de"] == german_name
        assert payload["description_localizations"]["de"] == german_description
        assert option["description_localizations"]["de"] == german_option
        assert "de" not in option["name_localizations"]  # "name" is German too


async def test_unloading_the_cog_removes_its_commands_and_loading_adds_them(
    harness: Harness,
) -> None:
    await harness.bot.unload_extension("cogs.lookups")
    assert _lookup_commands(harness) == []
    assert not {c.name for c in harness.bot.tree.get_commands()} & set(NAMES)
    await harness.bot.load_extension("cogs.lookups")
    assert _lookup_commands(harness) == EXPECTED


@pytest.mark.parametrize(
    ("command", "example"),
    [
        ("saint", "Thérèse of Lisieux"),
        ("pope", "John XXIII"),
        ("clergy", "Peter Chung Soon-taick"),
        ("diocese", "Seoul"),
    ],
)
async def test_a_blank_name_is_answered_with_the_commands_own_example(
    harness: Harness, command: str, example: str
) -> None:
    result = await harness.slash(command, name="  ")
    assert result.callback_type == 4 and result.ephemeral
    assert result.embeds[0]["title"] == "No name given"
    assert result.embeds[0]["description"] == f"Give a name, or part of one, such as `{example}`."
