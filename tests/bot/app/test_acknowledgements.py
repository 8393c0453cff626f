"""Each interaction's wait for the bot's first response, by kind, read from the bot's /metrics
text: one answered in time, one answered after Discord's 3 s, one never answered.

The interactions are created now (their ids' timestamps); the bot's clock is moved instead, so
that "answered 4 s after its creation" needs no waiting.
"""

from __future__ import annotations

import datetime as dt

import discord

from bot.app import MagisteriumBot
from bot.app.acknowledgements import GIVE_UP
from devtools.discord import Harness
from devtools.discord.wire import walk_components
from tests.support.scraped_metrics import sample_value

ACK = "magisterium_bot_interaction_ack_seconds"
LATE = "magisterium_bot_interactions_late_total"
TOKEN_FIELD_ID = "account:token"


def scraped(bot: MagisteriumBot, name: str, **labels: str) -> float:
    """A sample of the bot's metrics text, as Prometheus scrapes it; it must be there."""
    value = sample_value(bot.metrics, name, **labels)
    assert value is not None, f"{name} {labels} is not exported"
    return value


def clock_ahead(bot: MagisteriumBot, seconds: float) -> None:
    """The bot's clock, stopped ``seconds`` from now: an interaction created from now on is
    answered at most ``seconds`` after its creation (its id's timestamp, to the millisecond
    below, adds at most 1 ms)."""
    stopped = discord.utils.utcnow() + dt.timedelta(seconds=seconds)
    bot.acknowledgements.now = lambda: stopped


async def test_answers_in_time_are_timed_by_kind_and_not_late(harness: Harness) -> None:
    bot = harness.bot
    clock_ahead(bot, 0.9)

    readings = await harness.slash("readings")
    choices = await harness.autocomplete("readings", "date", "tom")
    day_button = next(
        str(c["custom_id"])
        for c in walk_components(readings.components)
        if str(c.get("custom_id", "")).startswith("readings:day:")
    )
    await harness.click(readings, day_button)
    opened = await harness.slash("account link")
    await harness.submit_modal(opened, {TOKEN_FIELD_ID: "pro-someone"})
    assert readings.embeds and choices and opened.modal is not None

    for kind, count in {"command": 2, "autocomplete": 1, "component": 1, "modal": 1}.items():
        assert scraped(bot, f"{ACK}_count", kind=kind) == count, kind
        assert scraped(bot, f"{ACK}_bucket", kind=kind, le="1.0") == count, kind
        assert sample_value(bot.metrics, LATE, kind=kind) is None, kind  # none late
    assert bot.acknowledgements.waiting == 0


async def test_a_command_answered_after_3_s_is_late(harness: Harness) -> None:
    bot = harness.bot
    clock_ahead(bot, 4)
    result = await harness.slash("help")
    assert result.embeds  # Discord's stand-in takes it; the real one would have refused it

    assert scraped(bot, f"{ACK}_count", kind="command") == 1
    assert scraped(bot, f"{ACK}_bucket", kind="command", le="3.0") == 0
    assert scraped(bot, f"{ACK}_bucket", kind="command", le="5.0") == 1
    assert scraped(bot, LATE, kind="command") == 1


async def test_an_interaction_never_answered_counts_late_once(harness: Harness) -> None:
    bot = harness.bot
    harness.expire_next()  # Discord refuses the bot's answer (10062): nobody sees one
    result = await harness.slash("help")
    assert result.rejected and result.visible_messages == []

    await bot.metrics_sampler.sample()  # still inside Discord's window: not judged yet
    assert sample_value(bot.metrics, LATE, kind="command") is None  # none late
    assert bot.acknowledgements.waiting == 1

    clock_ahead(bot, GIVE_UP.total_seconds() + 1)
    await bot.metrics_sampler.sample()
    await bot.metrics_sampler.sample()
    assert scraped(bot, LATE, kind="command") == 1
    assert sample_value(bot.metrics, f"{ACK}_count", kind="command") is None  # no answer to time
    assert bot.acknowledgements.waiting == 0
