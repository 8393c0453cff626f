"""The languages the bot speaks: Discord's locale codes and the catalogue behind each."""

from __future__ import annotations

DEFAULT_LOCALE = "en"  # the source language of the catalogue

# Discord locale → catalogue (gettext) locale. Discord's two English locales share the source.
SUPPORTED_LOCALES: dict[str, str] = {
    "en-US": "en",
    "en-GB": "en",
    "ko": "ko",
    "es-ES": "es_ES",
    "es-419": "es_419",
    "pt-BR": "pt_BR",
    "it": "it",
    "fr": "fr",
    "de": "de",
    "pl": "pl",
}

# Catalogue locale → the language's own name, for /daily set's language choice and the README.
LANGUAGES: dict[str, str] = {
    "en": "English",
    "ko": "한국어",
    "es_ES": "Español (España)",
    "es_419": "Español (Latinoamérica)",
    "pt_BR": "Português (Brasil)",
    "it": "Italiano",
    "fr": "Français",
    "de": "Deutsch",
    "pl": "Polski",
}
TRANSLATED = tuple(code for code in LANGUAGES if code != DEFAULT_LOCALE)


def catalogue_locale(discord_locale: object) -> str:
    """The catalogue for a Discord locale (a ``discord.Locale`` or its code); English for any
    locale the bot does not speak."""
    code = str(getattr(discord_locale, "value", discord_locale) or "")
    if code in LANGUAGES:
        return code
    return SUPPORTED_LOCALES.get(code, DEFAULT_LOCALE)
