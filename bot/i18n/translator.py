"""Command names and descriptions in every language, through discord.py's Translator.

``python -m bot sync`` then sends Discord ``name_localizations`` and
``description_localizations``; a translation that would break Discord's rules for names
(lowercase, 1-32 letters, digits, ``-`` or ``_``) or descriptions (1-100 characters) is left
out, so English shows instead of Discord refusing the whole sync.
"""

from __future__ import annotations

import logging
import re

import discord
from discord import app_commands

from bot.i18n.compiled_catalogues import translations
from bot.i18n.locales import DEFAULT_LOCALE, catalogue_locale

log = logging.getLogger(__name__)

# Discord documents ^[-_'\p{L}\p{N}\p{sc=Deva}\p{sc=Thai}]{1,32}$ for command and option names,
# and refuses some names it matches (discord-api-docs#7712): letters, digits, - and _ only.
NAME_PATTERN = re.compile(r"^[-_\w]{1,32}$")
DESCRIPTION_MAX = 100
CHOICE_NAME_MAX = 100
CONTEXT_MENU_NAME_MAX = 32

_NAMES = {
    app_commands.TranslationContextLocation.command_name,
    app_commands.TranslationContextLocation.group_name,
    app_commands.TranslationContextLocation.parameter_name,
}
_DESCRIPTIONS = {
    app_commands.TranslationContextLocation.command_description,
    app_commands.TranslationContextLocation.group_description,
    app_commands.TranslationContextLocation.parameter_description,
}


def name_problem(name: str) -> str | None:
    """Why Discord would refuse ``name`` as a command or option name, or None."""
    if name != name.lower():
        return "not lowercase"
    if not NAME_PATTERN.match(name):
        return "not 1-32 letters, digits, '-' or '_'"
    return None


def text_problem(text: str, limit: int) -> str | None:
    if not text.strip():
        return "empty"
    if len(text) > limit:
        return f"{len(text)} characters (limit {limit})"
    return None


def problem(context: app_commands.TranslationContextTypes, text: str) -> str | None:
    """Why Discord would refuse ``text`` where ``context`` puts it, or None."""
    location = context.location
    if isinstance(context.data, app_commands.ContextMenu):
        return text_problem(text, CONTEXT_MENU_NAME_MAX)  # mixed case and spaces allowed
    if location in _NAMES:
        return name_problem(text)
    if location in _DESCRIPTIONS:
        return text_problem(text, DESCRIPTION_MAX)
    if location is app_commands.TranslationContextLocation.choice_name:
        return text_problem(text, CHOICE_NAME_MAX)
    return None


class CatalogueTranslator(app_commands.Translator):
    """Looks command metadata up in the message catalogue; None means "no localisation"."""

    def raw(self, string: app_commands.locale_str, locale: discord.Locale) -> str | None:
        """The catalogue's translation, whether or not Discord would take it."""
        catalogue = catalogue_locale(locale)
        if catalogue == DEFAULT_LOCALE:
            return None
        translated = translations(catalogue).gettext(string.message)
        return None if translated == string.message else translated

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        translated = self.raw(string, locale)
        if translated is not None and (why := problem(context, translated)) is not None:
            return self.refused(string, locale, context, translated, why)
        return translated

    def refused(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
        translated: str,
        why: str,
    ) -> str | None:
        """A translation Discord would refuse: left out (English shows instead), and logged."""
        log.warning("%s translation of %r left out: %s", locale, string.message, why)
        return None
