"""An unexpected error in a slash command reaches Sentry through the real error path: tagged with
the error id the person was shown, and nothing of theirs or of the bot's secrets in any envelope.

The bot is the real one (create_bot, the harness), reporting to a Sentry endpoint on loopback.
"""

from __future__ import annotations

import logging
import secrets
from typing import Any

import discord
import pytest
import sentry_sdk
from discord import app_commands
from discord.ext import commands

from bot.observability import REDACTED
from bot.observability.error_tracking import init_error_tracking
from bot.observability.event_scrubbing import DISCORD_ID
from devtools.discord import Harness
from tests.support.sentry_envelopes import SentryEndpoint, sentry_fixture  # noqa: F401

log = logging.getLogger("tests.probe")
USER_TOKEN = f"mgm_live_{secrets.token_hex(12)}"  # a token someone linked


class Exploding(commands.Cog):
    @app_commands.command(name="probe-explode", description="Fails unexpectedly")
    async def explode(self, interaction: discord.Interaction[Any], question: str) -> None:
        # Locals a report with local variables would carry: the bot's key, a user's token.
        settings = interaction.client.settings  # type: ignore[attr-defined]
        key = settings.token_encryption_key.get_secret_value()
        linked_token = USER_TOKEN
        # A log record a logging integration would turn into a breadcrumb.
        log.info("asked %s", question)
        raise RuntimeError(
            f"upstream refused {question!r} for {interaction.user.id} in {interaction.guild_id} "
            f"with Bearer {linked_token} ({len(key)})"
        )


@pytest.fixture
def harness_overrides(sentry: SentryEndpoint) -> dict[str, Any]:
    return {"sentry_dsn": sentry.dsn}


async def test_an_unexpected_error_reaches_sentry_scrubbed(
    harness: Harness, sentry: SentryEndpoint
) -> None:
    assert init_error_tracking(harness.bot.settings)
    await harness.bot.add_cog(Exploding())
    marker = f"marker-{secrets.token_hex(8)}"
    user = harness.user()
    question = f"Why {marker}? I am {user.id}, my token is {USER_TOKEN}"

    result = await harness.slash("probe-explode", user=user, question=question)
    sentry_sdk.flush()

    [embed] = result.embeds
    assert embed["title"] == "Something went wrong"
    shown_id = embed["footer"]["text"].split()[-1]
    [event] = sentry.events()
    assert event["tags"]["error_id"] == shown_id
    assert event["tags"]["command"] == "/probe-explode"
    [error] = event["exception"]["values"]
    assert error["type"] == "RuntimeError" and error["value"].startswith("upstream refused ")
    assert f"for {DISCORD_ID} in {DISCORD_ID} with Bearer {REDACTED}" in error["value"]
    assert "explode" in [frame["function"] for frame in error["stacktrace"]["frames"]]
    key = harness.bot.settings.token_encryption_key
    assert key is not None
    sent = sentry.everything_sent()
    for kept_out in (
        key.get_secret_value(),
        USER_TOKEN,
        marker,
        str(user.id),
        str(harness.guild.id),
        str(harness.channel.id),
    ):
        assert kept_out not in sent
