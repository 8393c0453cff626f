"""The language a message (which carries none) is answered in: the person's latest
interaction's, else the default given (a server's language), else English."""

from __future__ import annotations

from types import SimpleNamespace

import discord

from bot.i18n import DEFAULT_LOCALE, recent_locale, use_interaction_locale, using_locale


def test_the_latest_interaction_wins_then_the_default_then_english() -> None:
    person, stranger = 9_000_000_000_000_000_001, 9_000_000_000_000_000_002
    with using_locale("en-US"):
        use_interaction_locale(
            SimpleNamespace(locale=discord.Locale.german, user=SimpleNamespace(id=person))
        )
    assert recent_locale(person, discord.Locale.french) == "de"
    assert recent_locale(stranger, discord.Locale.french) == "fr"
    assert recent_locale(stranger, "xx-unknown") == DEFAULT_LOCALE
    assert recent_locale(stranger) == DEFAULT_LOCALE
