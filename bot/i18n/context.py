"""Whose language the bot is speaking right now: a context variable per task."""

from __future__ import annotations

import contextvars
from collections import OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from bot.i18n.locales import DEFAULT_LOCALE, catalogue_locale

_LOCALE: contextvars.ContextVar[str] = contextvars.ContextVar("locale", default=DEFAULT_LOCALE)

# A DM carries no locale: answer in the one the person's last interaction showed.
_RECENT: OrderedDict[int, str] = OrderedDict()
RECENT_MAX = 50_000


def current_locale() -> str:
    return _LOCALE.get()


def use_locale(locale: str) -> None:
    """Speak ``locale`` (a catalogue or Discord code) for the rest of the current task."""
    _LOCALE.set(catalogue_locale(locale))


@contextmanager
def using_locale(locale: str) -> Iterator[None]:
    """Speak ``locale`` inside the block only (a daily post in its server's language)."""
    token = _LOCALE.set(catalogue_locale(locale))
    try:
        yield
    finally:
        _LOCALE.reset(token)


def locale_of(interaction: Any) -> str:
    """The catalogue for the person behind ``interaction`` (their Discord client's language)."""
    return catalogue_locale(getattr(interaction, "locale", None))


def use_interaction_locale(interaction: Any) -> None:
    """Answer ``interaction`` in its user's language, for the rest of the current task."""
    locale = locale_of(interaction)
    use_locale(locale)
    user = getattr(interaction, "user", None)
    if user is not None:
        _RECENT[user.id] = locale
        _RECENT.move_to_end(user.id)
        if len(_RECENT) > RECENT_MAX:
            _RECENT.popitem(last=False)


def recent_locale(user_id: int, default: object = DEFAULT_LOCALE) -> str:
    """The language of ``user_id``'s latest interaction with this process; else ``default``
    (a catalogue or Discord locale: a server's language), English when it is none the bot
    speaks."""
    known = _RECENT.get(user_id)
    return known if known is not None else catalogue_locale(default)
