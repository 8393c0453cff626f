"""What the daily posts tell /metrics: each post sent and the time from its due minute to its
sending, a channel post's and a person's DM alike; a post a dead process had sent is counted
as sent, with no delay of this tick's."""

from __future__ import annotations

import datetime as dt
import sys
from typing import Any

import discord

from bot.a2a.skills import SAINTS_OF_THE_DAY
from bot.app import MagisteriumBot
from bot.daily import Feed
from bot.services.origin import Origin
from devtools.discord import Harness
from tests.support.scraped_metrics import sample_value

ADMIN = discord.Permissions(manage_guild=True)
DAY = dt.date(2026, 12, 1)
SLOT = dt.datetime(2026, 12, 1, 6, 0, tzinfo=dt.UTC)  # 07:00 in Berlin
SET_AT = dt.datetime(2026, 11, 30, 12, 0, tzinfo=dt.UTC)
DELAY = "magisterium_bot_daily_post_delay_seconds"
# A bound on the time a tick itself takes here, not a timing assertion: the delay under test
# is the tick's distance from the slot, minutes to hours.
TICK_BOUND = 60.0


def scraped(bot: MagisteriumBot, name: str, **labels: str) -> float:
    """A sample of the bot's metrics text, as Prometheus scrapes it; it must be there."""
    value = sample_value(bot.metrics, name, **labels)
    assert value is not None, f"{name} {labels} is not exported"
    return value


def cog(harness: Harness, name: str = "DailyCog") -> Any:
    found = harness.bot.get_cog(name)
    assert found is not None
    return found


async def daily_set(harness: Harness) -> None:
    cog(harness).now = lambda: SET_AT
    result = await harness.slash(
        "daily set",
        member_permissions=ADMIN,
        options={"channel": harness.channel},
        feed="saints",
        time="07:00",
        timezone="Europe/Berlin",
    )
    assert str(result.embeds[0]["title"]).startswith("Daily "), result.embeds


async def test_a_post_on_time_and_a_dm_caught_up_three_hours_late(harness: Harness) -> None:
    bot = harness.bot
    await daily_set(harness)
    assert (await cog(harness).tick(SLOT)).posted == 1

    assert scraped(bot, "magisterium_bot_daily_posts_total", result="sent") == 1
    assert scraped(bot, f"{DELAY}_count") == 1
    assert scraped(bot, f"{DELAY}_bucket", le="60.0") == 1
    assert 0 <= scraped(bot, f"{DELAY}_sum") < TICK_BOUND

    person = harness.user(name="anna")
    cog(harness, "PersonalDailyCog").now = lambda: SET_AT
    await harness.slash(
        "mydaily set", user=person, feed="saints", time="07:00", timezone="Europe/Berlin"
    )
    three_hours = 3 * 3600
    assert (await cog(harness).tick(SLOT + dt.timedelta(seconds=three_hours))).posted == 1

    assert scraped(bot, "magisterium_bot_daily_posts_total", result="sent") == 2
    assert scraped(bot, f"{DELAY}_count") == 2
    assert scraped(bot, f"{DELAY}_bucket", le="7200.0") == 1  # the channel's, on time
    assert scraped(bot, f"{DELAY}_bucket", le="21600.0") == 2
    assert three_hours <= scraped(bot, f"{DELAY}_sum") < three_hours + 2 * TICK_BOUND


async def test_a_post_a_dead_process_sent_counts_as_sent_without_a_delay(
    harness: Harness,
) -> None:
    bot = harness.bot
    await daily_set(harness)
    schedules = bot.services.schedules
    schedule = await schedules.get(harness.guild.id, Feed.SAINTS)
    assert schedule is not None
    minute = dt.timedelta(minutes=1)
    assert await schedules.claim(schedule, DAY, claimant="dead", now=SLOT, lease=minute)
    content = await bot.services.magisterium.call(Origin(0), SAINTS_OF_THE_DAY, DAY)
    # cogs.daily.post as the loaded cog imported it (extensions are re-imported per bot)
    package = type(cog(harness)).__module__.rsplit(".", 1)[0]
    post = sys.modules[f"{package}.post"].build_post(Feed.SAINTS, DAY, content, role=None)
    await harness.channel.send(embeds=post.embeds)

    assert (await cog(harness).tick(SLOT + 30 * minute)).posted == 1

    assert scraped(bot, "magisterium_bot_daily_posts_total", result="sent") == 1
    assert scraped(bot, f"{DELAY}_count") == 0
