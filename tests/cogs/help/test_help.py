"""/help in every language: personal daily posts, timezones, server accounts, sharing and
sources, each named as Discord shows the commands in that language, within embed limits."""

from __future__ import annotations

import pytest

from bot.i18n import _, using_locale
from devtools.discord import Harness


@pytest.mark.parametrize(
    "locale", ["en-US", "ko", "es-ES", "es-419", "pt-BR", "it", "fr", "de", "pl"]
)
async def test_help_tells_of_personal_posts_server_accounts_and_sharing_within_limits(
    harness: Harness, locale: str
) -> None:
    result = await harness.slash("help", user=harness.user(locale=locale))
    (embed,) = result.embeds
    commands = embed["fields"][1]["value"].splitlines()
    with using_locale(locale):
        commands_shown = ("account", "account timezone", "daily", "mydaily", "server")
        shown_names = [f"`/{' '.join(_(w) for w in name.split())}`" for name in commands_shown]
        headings = [
            _("Accounts and daily posts"),
            _("Sharing and sources"),
            _("A server's account"),
        ]
        server_link = f"`/{_('server')} {_('link')}`"
        server_timezone = f"`/{_('server')} {_('timezone')}`"
    assert [line.split(" — ")[0] for line in commands] == shown_names
    names = [f["name"] for f in embed["fields"]]
    assert [names[1], names[3], names[4]] == headings
    assert server_link in embed["fields"][4]["value"]
    assert server_timezone in commands[1]  # how an admin sets the server's, on the same line
    # Discord's limits: 1,024 characters a field value, 6,000 in the whole embed.
    assert all(len(f["value"]) <= 1024 for f in embed["fields"])
    total = len(embed["title"]) + len(embed["description"]) + len(embed["footer"]["text"])
    assert total + sum(len(f["name"]) + len(f["value"]) for f in embed["fields"]) <= 6000
