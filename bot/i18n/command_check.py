"""What CI checks of the localised commands: every translation Discord would refuse.

The bot's Translator quietly leaves such a translation out (English shows instead); this
check makes the catalogue fix it before it ships.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.i18n.locales import SUPPORTED_LOCALES
from bot.i18n.translator import CatalogueTranslator

COMMAND_TOTAL_MAX = 4000  # name, description and values of a command and all its options


class _Recording(CatalogueTranslator):
    """Returns every translation as the catalogue has it, noting what Discord would refuse."""

    def __init__(self) -> None:
        super().__init__()
        self.problems: list[str] = []

    def refused(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
        translated: str,
        why: str,
    ) -> str | None:
        where = context.location.name.replace("_", " ")
        self.problems.append(f"{locale.value}: {where} {string.message!r} → {translated!r}: {why}")
        return translated


def _strings(payload: dict[str, Any], locale: str) -> list[str]:
    """The strings Discord adds up for a command's 4000-character limit, in ``locale``."""

    def pick(item: dict[str, Any], key: str) -> str:
        localised = item.get(f"{key}_localizations") or {}
        return str(localised.get(locale) or item.get(key) or "")

    found = [pick(payload, "name"), pick(payload, "description")]
    for choice in payload.get("choices") or []:
        found += [pick(choice, "name"), str(choice.get("value", ""))]
    for option in payload.get("options") or []:
        found += _strings(option, locale)
    return found


def _name(item: dict[str, Any], locale: str) -> str:
    return str((item.get("name_localizations") or {}).get(locale) or item.get("name"))


def duplicate_names(siblings: list[dict[str, Any]], where: str, locale: str) -> list[str]:
    """Two commands or options side by side may not share a name in any language."""
    seen: dict[str, str] = {}
    problems = []
    for item in siblings:
        name = _name(item, locale)
        if name in seen:
            problems.append(
                f"{locale}: {where}{item['name']!r} and {seen[name]!r} are both {name!r}"
            )
        seen[name] = item["name"]
    for item in siblings:
        options = item.get("options") or []
        problems += duplicate_names(options, f"{where}{item['name']} › ", locale)
    return problems


async def command_problems(tree: app_commands.CommandTree[Any]) -> list[str]:
    """Every localisation of every command that Discord would refuse."""
    translator = _Recording()
    problems: list[str] = []
    payloads = [await c.get_translated_payload(tree, translator) for c in tree.get_commands()]
    for locale in SUPPORTED_LOCALES:
        for kind in (1, 2, 3):  # slash commands, user and message menus: names unique per kind
            same_kind = [p for p in payloads if p.get("type", 1) == kind]
            problems += duplicate_names(same_kind, "/", locale)
        for payload in payloads:
            total = sum(len(text) for text in _strings(payload, locale))
            if total > COMMAND_TOTAL_MAX:
                problems.append(f"{locale}: /{payload['name']} has {total} characters in all")
    return translator.problems + problems
