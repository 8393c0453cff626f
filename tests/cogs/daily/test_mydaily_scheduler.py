"""People's daily DMs (/mydaily) sent by the daily scheduler's ``tick(now)``, through the harness.

Schedules are made with the real ``/mydaily set`` (the cog's clock fixed before the slot); the
test is the clock: a restart around the slot, the DST days of New York, catch-up inside the
grace window, closed DMs (Discord's 50007) pausing until /mydaily set, one upstream call for
every subscriber and server of a feed and date, whose token the fetch uses, the DM itself as
Discord gets it, and which process sends a person's DM when the bot runs as several.
"""

from __future__ import annotations

import datetime as dt
from typing import Any, cast

import discord
import pytest
from pydantic import SecretStr

from bot.app import MagisteriumBot
from bot.daily import Feed, ScheduleStatus
from bot.daily.personal_store import PersonalScheduleStore
from bot.dates import restate_day
from devtools.discord import Harness, HarnessUser
from devtools.discord.fixtures import OPERATOR_TOKEN
from devtools.fake_magisterium import FakeMagisterium
from devtools.fake_magisterium.martyrology import format_martyrology

SAINTS = "saints_of_the_day"
READINGS = "liturgical_readings"
MINUTE = dt.timedelta(minutes=1)
DAY = dt.date(2026, 12, 1)
SLOT = dt.datetime(2026, 12, 1, 6, 0, tzinfo=dt.UTC)  # 07:00 in Berlin
SET_AT = dt.datetime(2026, 11, 30, 12, 0, tzinfo=dt.UTC)


def utc(*parts: int) -> dt.datetime:
    return dt.datetime(*parts, tzinfo=dt.UTC)


def saints_title(day: dt.date) -> str:
    return f"Saints of the day — {day:%A} {day.day} {day:%B %Y}"


def cog(harness: Harness, name: str = "DailyCog") -> Any:
    found = harness.bot.get_cog(name)
    assert found is not None
    return found


def store_of(harness: Harness) -> PersonalScheduleStore:
    return cast(MagisteriumBot, harness.bot).services.personal_schedules


async def mydaily_set(
    harness: Harness,
    user: HarnessUser,
    *,
    feed: str = "saints",
    time: str = "07:00",
    timezone: str = "Europe/Berlin",
    at: dt.datetime = SET_AT,
    **where: Any,
) -> None:
    cog(harness, "PersonalDailyCog").now = lambda: at
    result = await harness.slash(
        "mydaily set", user=user, feed=feed, time=time, timezone=timezone, **where
    )
    assert result.ephemeral
    assert await store_of(harness).get(user.id, Feed(feed)) is not None, result.embeds


async def daily_set(
    harness: Harness,
    channel: Any,
    *,
    feed: str = "saints",
    language: str | None = None,
    at: dt.datetime = SET_AT,
) -> None:
    """``/daily set`` by an admin (Manage Server) in ``channel``'s server, at 07:00 Berlin."""
    cog(harness).now = lambda: at
    options: dict[str, Any] = {"channel": channel}
    if language is not None:
        options["language"] = language
    result = await harness.slash(
        "daily set",
        member_permissions=discord.Permissions(manage_guild=True),
        channel=channel,
        options=options,
        feed=feed,
        time="07:00",
        timezone="Europe/Berlin",
    )
    assert str(result.embeds[0]["title"]).startswith("Daily "), result.embeds


def dm_titles(harness: Harness, user: HarnessUser) -> list[str]:
    return [str(m.embeds[0]["title"]) for m in harness.dm_messages(user)]


async def status_text(harness: Harness, user: HarnessUser) -> str:
    result = await harness.slash("mydaily status", user=user, dm=True)
    assert result.ephemeral
    return "\n".join(f"{f['name']}\n{f['value']}" for f in result.embeds[0]["fields"])


@pytest.fixture
def person(harness: Harness) -> HarnessUser:
    return harness.user(name="anna")


# -- exactly once


@pytest.mark.parametrize("restart", [-1, 0, 1])
async def test_one_dm_per_day_across_a_restart(
    harness: Harness, fake: FakeMagisterium, person: HarnessUser, restart: int
) -> None:
    await mydaily_set(harness, person)
    daily = cog(harness)
    posted_at: list[int] = []
    for minute in range(-2, 3):
        if minute == restart:  # a new cog, nothing in memory, the same database
            await harness.reload_extension("cogs.daily")
            assert cog(harness) is not daily
            daily = cog(harness)
        for _ in range(2):  # and a second tick in the same minute
            report = await daily.tick(SLOT + minute * MINUTE)
            posted_at += [minute] * report.posted
    assert posted_at == [0]
    assert dm_titles(harness, person) == [saints_title(DAY)]
    assert await store_of(harness).claims(person.id, Feed.SAINTS) == {DAY: "posted"}
    assert fake.count(skill=SAINTS) == 1

    next_day = SLOT + dt.timedelta(days=1)
    for minute in range(3):
        await daily.tick(next_day + minute * MINUTE)
    assert dm_titles(harness, person) == [saints_title(DAY), saints_title(DAY + dt.timedelta(1))]


@pytest.mark.parametrize(
    ("time", "day", "posts_at"),
    [
        # 02:30 does not exist on the spring-forward day: one gap later, 03:30 EDT.
        pytest.param("02:30", dt.date(2026, 3, 8), utc(2026, 3, 8, 7, 30), id="spring-gap"),
        # 03:30 exists once, just after the gap.
        pytest.param("03:30", dt.date(2026, 3, 8), utc(2026, 3, 8, 7, 30), id="spring-after"),
        # 01:30 happens twice on the fall-back day (05:30 and 06:30 UTC): the first.
        pytest.param("01:30", dt.date(2026, 11, 1), utc(2026, 11, 1, 5, 30), id="fall-repeat"),
        pytest.param("07:00", dt.date(2026, 11, 1), utc(2026, 11, 1, 12, 0), id="fall-after"),
    ],
)
async def test_new_york_dst_days_post_once_at_the_right_instant(
    harness: Harness, person: HarnessUser, time: str, day: dt.date, posts_at: dt.datetime
) -> None:
    await mydaily_set(
        harness, person, time=time, timezone="America/New_York", at=posts_at - dt.timedelta(1)
    )
    daily = cog(harness)
    posted: list[dt.datetime] = []
    now = posts_at - dt.timedelta(hours=2)
    while now <= posts_at + dt.timedelta(hours=2):
        posted += [now] * (await daily.tick(now)).posted
        now += MINUTE
    assert posted == [posts_at]
    assert dm_titles(harness, person) == [saints_title(day)]
    assert await store_of(harness).claims(person.id, Feed.SAINTS) == {day: "posted"}


@pytest.mark.parametrize(
    ("down_for", "catches_up"),
    [(dt.timedelta(hours=3), True), (dt.timedelta(hours=6), False)],
)
async def test_catch_up_after_downtime_inside_the_grace_window_only(
    harness: Harness, person: HarnessUser, down_for: dt.timedelta, catches_up: bool
) -> None:
    await mydaily_set(harness, person)
    daily = cog(harness)
    first = await daily.tick(SLOT + down_for)
    await daily.tick(SLOT + down_for + MINUTE)
    assert first.posted == int(catches_up)
    assert dm_titles(harness, person) == ([saints_title(DAY)] if catches_up else [])
    assert (await daily.tick(SLOT + dt.timedelta(days=1))).posted == 1


# -- the DM itself


async def test_the_dm_is_the_channel_posts_embed_in_the_persons_language_pinging_nobody(
    harness: Harness, fake: FakeMagisterium
) -> None:
    joseph = dt.date(2026, 3, 19)  # a day the fake's martyrology writes out
    slot = utc(2026, 3, 19, 6, 0)
    english, german = harness.user(name="anna"), harness.user(name="jakob", locale="de")
    for user in (english, german):
        await mydaily_set(harness, user, at=slot - dt.timedelta(hours=12))
    await daily_set(harness, harness.channel, language="de", at=slot - dt.timedelta(hours=12))
    report = await cog(harness).tick(slot)
    assert report.posted == 3

    (dm,) = harness.dm_messages(english)
    embed = dm.embeds[0]
    assert embed["title"] == saints_title(joseph)
    assert embed["description"] == restate_day(format_martyrology(joseph), joseph)
    assert dm.place.guild is None and dm.place.channel_id == harness.dm_channel_id(english)
    assert dm.request is not None and not dm.request.get("content")
    assert dm.allowed_mentions == {"parse": []}

    (german_dm,) = harness.dm_messages(german)
    (channel_post,) = harness.messages_in(harness.channel)
    assert german_dm.embeds == channel_post.embeds  # the same embed, in German
    assert german_dm.embeds[0]["title"] != saints_title(joseph)
    assert german_dm.payload.get("components") == channel_post.payload.get("components")


# -- closed DMs


async def test_closed_dms_pause_with_the_reason_until_set_again(
    harness: Harness, fake: FakeMagisterium, person: HarnessUser
) -> None:
    await mydaily_set(harness, person)
    dm_channel = harness.bot.get_channel(harness.dm_channel_id(person))
    assert dm_channel is not None
    harness.fail_channel_sends(403, 50007, "Cannot send messages to this user", channel=dm_channel)
    daily = cog(harness)
    report = await daily.tick(SLOT)
    assert (report.posted, report.paused, report.failed) == (0, 1, 0)
    assert harness.dm_messages(person) == []
    schedule = await store_of(harness).get(person.id, Feed.SAINTS)
    assert schedule is not None and schedule.status is ScheduleStatus.PAUSED
    assert schedule.status_reason is not None and "50007" in schedule.status_reason
    assert await store_of(harness).claims(person.id, Feed.SAINTS) == {}

    cog(harness, "PersonalDailyCog").now = lambda: SLOT + MINUTE
    status = await status_text(harness, person)
    assert "Saints of the day — ⏸️ paused" in status
    assert "**Why:** Discord would not deliver it: your DMs are closed to me" in status
    assert "`/mydaily set`" in status

    # Paused: no more attempts, this day or the next, and nothing fetched for it.
    calls = fake.count()
    assert (await daily.tick(SLOT + 2 * MINUTE)).posted == 0
    assert (await daily.tick(SLOT + dt.timedelta(days=1))).posted == 0
    assert fake.count() == calls

    # /mydaily set again resumes it: the next slot posts.
    await mydaily_set(harness, person, at=SLOT + dt.timedelta(days=1, hours=1))
    assert (await daily.tick(SLOT + dt.timedelta(days=2))).posted == 1
    assert dm_titles(harness, person) == [saints_title(DAY + dt.timedelta(days=2))]


async def test_a_lost_dm_channel_is_retried_and_opened_again(
    harness: Harness, person: HarnessUser
) -> None:
    await mydaily_set(harness, person, dm=True)
    harness.fail_channel_sends(404, 10003, "Unknown Channel")
    daily = cog(harness)
    report = await daily.tick(SLOT)
    assert (report.posted, report.failed) == (0, 1)
    schedule = await store_of(harness).get(person.id, Feed.SAINTS)
    assert schedule is not None and schedule.dm_channel_id is None  # forgotten
    assert schedule.status is ScheduleStatus.ACTIVE
    assert (await daily.tick(SLOT + MINUTE)).posted == 1  # after the one-minute backoff
    schedule = await store_of(harness).get(person.id, Feed.SAINTS)
    assert schedule is not None and schedule.dm_channel_id == harness.dm_channel_id(person)


# -- one upstream call per feed and date


async def test_one_upstream_call_for_every_subscriber_and_server_of_a_feed_and_date(
    harness: Harness, fake: FakeMagisterium
) -> None:
    people = [harness.user(name=f"person{n}") for n in range(20)]
    zones = [("Europe/Berlin", "07:00"), ("Europe/London", "06:00"), ("Asia/Tokyo", "15:00")]
    for n, user in enumerate(people):
        zone, time = zones[n % len(zones)]
        await mydaily_set(harness, user, time=time, timezone=zone)
        if n % 4 == 0:
            await mydaily_set(harness, user, feed="readings", time=time, timezone=zone)
    servers = [harness.channel, harness.make_guild("parish")]
    for channel in servers:
        await daily_set(harness, channel)

    report = await cog(harness).tick(SLOT)
    readers = people[::4]
    assert report.due == report.posted == len(people) + len(readers) + len(servers)
    assert report.fetches == 2  # saints once, readings once: the servers' fetch is shared
    assert fake.count(skill=SAINTS) == 1
    assert fake.count(skill=READINGS) == 1
    for user in people:
        assert saints_title(DAY) in dm_titles(harness, user)
        assert len(harness.dm_messages(user)) == (2 if user in readers else 1)
    for channel in servers:
        assert len(harness.messages_in(channel)) == 1


# -- whose token


async def test_the_fetch_uses_the_persons_own_token_else_the_operators(
    harness: Harness, fake: FakeMagisterium, person: HarnessUser
) -> None:
    registry = cast(MagisteriumBot, harness.bot).services.registry
    unlinked = harness.user(name="ben")
    await mydaily_set(harness, unlinked)
    assert (await cog(harness).tick(SLOT)).posted == 1
    assert [r.token for r in fake.requests if r.skill == SAINTS] == [OPERATOR_TOKEN]

    # Set before linking: whose token is read at each tick, so the link counts from then on.
    await mydaily_set(harness, person, feed="readings")
    await registry.link(person.id, SecretStr("pro-anna-token"))
    await cog(harness, "PersonalDailyCog").store.remove(unlinked.id, Feed.SAINTS)
    assert (await cog(harness).tick(SLOT + dt.timedelta(days=1))).posted == 1
    assert [r.token for r in fake.requests if r.skill == READINGS] == ["pro-anna-token"]


async def test_a_refused_own_token_pauses_and_resumes_once_linked_again(
    harness: Harness, fake: FakeMagisterium, person: HarnessUser
) -> None:
    registry = cast(MagisteriumBot, harness.bot).services.registry
    await registry.link(person.id, SecretStr("pro-anna-token"))
    await mydaily_set(harness, person)
    await registry.mark_invalid(person.id)
    report = await cog(harness).tick(SLOT)
    assert (report.posted, report.paused) == (0, 1)
    assert fake.count() == 0  # never the operator's token instead of a refused own one
    cog(harness, "PersonalDailyCog").now = lambda: SLOT
    assert "Magisterium refused your token" in await status_text(harness, person)

    await registry.link(person.id, SecretStr("pro-anna-new"))
    assert (await cog(harness).tick(SLOT + MINUTE)).posted == 1
    assert dm_titles(harness, person) == [saints_title(DAY)]


# -- several processes


def user_on_shard(harness: Harness, shard: int, count: int, n: int) -> HarnessUser:
    """A person whose id falls on ``shard`` of ``count`` (``(id >> 22) % count``)."""
    return harness.user(((1_000 * count + shard) << 22) + n, name=f"shard{shard}-{n}")


async def test_each_process_sends_the_dms_of_its_own_shards_only(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    count = 4
    people = {
        shard: [user_on_shard(harness, shard, count, n) for n in range(2)] for shard in range(4)
    }
    for users in people.values():
        for user in users:
            await mydaily_set(harness, user)
    monkeypatch.setattr(harness.bot, "shard_count", count)
    monkeypatch.setattr(harness.bot, "shard_ids", [1, 3])  # this process runs shards 1 and 3
    report = await cog(harness).tick(SLOT)
    assert report.posted == 4
    for shard, users in people.items():
        for user in users:
            assert len(harness.dm_messages(user)) == (1 if shard in (1, 3) else 0)
            claims = await store_of(harness).claims(user.id, Feed.SAINTS)
            assert claims == ({DAY: "posted"} if shard in (1, 3) else {})  # no racing for others'

    # The process running shards 0 and 2 sends the rest, and nothing twice.
    monkeypatch.setattr(harness.bot, "shard_ids", [0, 2])
    assert (await cog(harness).tick(SLOT + MINUTE)).posted == 4
    assert all(len(harness.dm_messages(u)) == 1 for users in people.values() for u in users)
