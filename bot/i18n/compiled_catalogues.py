"""The compiled message catalogues (``bot/locales/<locale>/LC_MESSAGES/messages.mo``)."""

from __future__ import annotations

import gettext as _gettext
from functools import cache
from pathlib import Path

from bot.i18n.context import current_locale
from bot.i18n.locales import DEFAULT_LOCALE

LOCALES_DIR = Path(__file__).resolve().parent.parent / "locales"
DOMAIN = "messages"


@cache
def translations(locale: str) -> _gettext.NullTranslations:
    """The catalogue of ``locale``; the source text (English) for any message it lacks."""
    if locale == DEFAULT_LOCALE:
        return _gettext.NullTranslations()
    return _gettext.translation(DOMAIN, LOCALES_DIR, languages=[locale], fallback=True)


def gettext(message: str) -> str:
    """``message`` in the current locale."""
    return translations(current_locale()).gettext(message)


def ngettext(singular: str, plural: str, count: int) -> str:
    """The form of ``singular``/``plural`` for ``count`` in the current locale's plural rules."""
    return translations(current_locale()).ngettext(singular, plural, count)


_ = gettext


def N_(message: str) -> str:
    """Mark ``message`` for the catalogue without translating it yet (module constants,
    command metadata); translate it with :func:`_` where it is shown."""
    return message
