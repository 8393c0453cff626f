"""Localisation: the message catalogue, the current person's locale, Babel formatting.

Code marks text with :func:`_` (translated now, in the current locale) or :func:`N_` (marked
for extraction, translated later where it is shown); plurals with :func:`ngettext`. The locale
is a context variable set where an interaction enters the bot (:func:`use_interaction_locale`)
or around a daily post (:func:`using_locale`).
"""

from bot.i18n.compiled_catalogues import N_, _, gettext, ngettext, translations
from bot.i18n.context import (
    current_locale,
    locale_of,
    recent_locale,
    use_interaction_locale,
    use_locale,
    using_locale,
)
from bot.i18n.formatting import (
    format_long_date,
    format_month,
    format_number,
    format_percent_change,
)
from bot.i18n.locales import DEFAULT_LOCALE, LANGUAGES, SUPPORTED_LOCALES, catalogue_locale

__all__ = [
    "DEFAULT_LOCALE",
    "LANGUAGES",
    "N_",
    "SUPPORTED_LOCALES",
    "_",
    "catalogue_locale",
    "current_locale",
    "format_long_date",
    "format_month",
    "format_number",
    "format_percent_change",
    "gettext",
    "locale_of",
    "ngettext",
    "recent_locale",
    "translations",
    "use_interaction_locale",
    "use_locale",
    "using_locale",
]
