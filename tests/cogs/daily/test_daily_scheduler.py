"""The daily scheduler driven by ``tick(now)`` with explicit aware instants, through the harness.

Schedules are made with the real ``/daily set`` command (the cog's ``now`` clock fixed before
the slot); then the test is the clock: restarts at every minute around a slot, the DST days of
three zones, catch-up inside the grace window and none after it, two schedulers racing on one
PostgreSQL database, channels and permissions that go away, upstream and Discord failures,
tokens that stop working, fan-out over many servers, and the post itself as Discord gets it.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import datetime as dt
import logging
import re
import sys
import time
from collections.abc import AsyncIterator
from types import ModuleType
from typing import Any

import discord
import discord.ext.test as dpytest
import pytest
from discord.ext.test import backend, callbacks
from pydantic import SecretStr

from bot.a2a.retry import RetryPolicy
from bot.a2a.skills import SAINTS_OF_THE_DAY
from bot.app import MagisteriumBot, create_bot
from bot.daily import Feed, Schedule, ScheduleStatus, ScheduleStore
from bot.daily.planner import SchedulerConfig
from bot.dates import restate_day
from bot.i18n import using_locale
from bot.services.origin import Origin
from bot.services.tokens import OWNER_REFUSED
from bot.settings import Settings
from bot.storage import Database
from devtools.discord import Harness, HarnessUser, InteractionResult
from devtools.discord.fixtures import harness_settings
from devtools.discord.wire import walk_components
from devtools.fake_magisterium import FakeMagisterium, Fault, RunningFakeServer
from devtools.fake_magisterium.martyrology import format_martyrology
from tests.support.embed_parts import assert_not_shown, assert_shown
from tests.support.fakes import wrap_locales

ADMIN = discord.Permissions(manage_guild=True)
SAINTS = "saints_of_the_day"
READINGS = "liturgical_readings"
MINUTE = dt.timedelta(minutes=1)
# 07:00 in Berlin on Tuesday 1 December 2026 (winter time, UTC+1).
DAY = dt.date(2026, 12, 1)
SLOT = dt.datetime(2026, 12, 1, 6, 0, tzinfo=dt.UTC)
SET_AT = dt.datetime(2026, 11, 30, 12, 0, tzinfo=dt.UTC)


def utc(*parts: int) -> dt.datetime:
    return dt.datetime(*parts, tzinfo=dt.UTC)


def long_day(day: dt.date) -> str:
    return f"{day:%A} {day.day} {day:%B %Y}"


def saints_title(day: dt.date) -> str:
    return f"Saints of the day — {long_day(day)}"


def daily_cog(harness: Harness) -> Any:
    """The loaded DailyCog (extensions are re-imported per bot: found by name, not class)."""
    cog = harness.bot.get_cog("DailyCog")
    assert cog is not None
    return cog


def daily_module(harness: Harness, name: str) -> ModuleType:
    """``cogs.daily.<name>`` as the loaded cog imported it."""
    package = type(daily_cog(harness)).__module__.rsplit(".", 1)[0]
    return sys.modules[f"{package}.{name}"]


def store_of(harness: Harness) -> ScheduleStore:
    return harness.bot.services.schedules


async def set_daily(
    harness: Harness,
    *,
    channel: discord.TextChannel | None = None,
    feed: str = "saints",
    time: str = "07:00",
    timezone: str = "Europe/Berlin",
    role: discord.Role | None = None,
    user: HarnessUser | None = None,
    at: dt.datetime = SET_AT,
    language: str | None = None,
) -> InteractionResult:
    """``/daily set`` by an admin, run at ``at``; fails the test unless it was accepted."""
    target = channel or harness.channel
    daily_cog(harness).now = lambda: at
    options: dict[str, Any] = {"channel": target}
    if role is not None:
        options["role"] = role
    if language is not None:
        options["language"] = language
    result = await harness.slash(
        "daily set",
        member_permissions=ADMIN,
        user=user,
        channel=target,
        options=options,
        feed=feed,
        time=time,
        timezone=timezone,
    )
    assert result.ephemeral
    assert str(result.embeds[0]["title"]).startswith("Daily "), result.embeds
    return result


async def schedule_of(
    harness: Harness, guild: discord.Guild | None = None, feed: Feed = Feed.SAINTS
) -> Schedule:
    found = await store_of(harness).get((guild or harness.guild).id, feed)
    assert found is not None
    return found


async def claims_of(
    harness: Harness, guild: discord.Guild | None = None, feed: Feed = Feed.SAINTS
) -> dict[dt.date, str]:
    return await store_of(harness).claims((guild or harness.guild).id, feed)


async def status_text(harness: Harness, channel: discord.TextChannel | None = None) -> str:
    """What ``/daily status`` shows: each schedule's heading and lines."""
    result = await harness.slash("daily status", member_permissions=ADMIN, channel=channel)
    assert result.ephemeral
    fields = result.embeds[0]["fields"]
    return "\n".join(f"{field['name']}\n{field['value']}" for field in fields)


def titles(harness: Harness, channel: discord.TextChannel | None = None) -> list[str]:
    return [str(m.embeds[0]["title"]) for m in harness.messages_in(channel or harness.channel)]


def component_texts(components: list[dict[str, Any]]) -> list[str]:
    """The texts a message's buttons and menus show: labels, placeholders, options."""
    texts = []
    for component in walk_components(components):
        texts += [component.get("label"), component.get("placeholder")]
        for option in component.get("options") or []:
            texts += [option.get("label"), option.get("description")]
    return [text for text in texts if isinstance(text, str)]


# -- 1. restarts around the slot


@pytest.mark.parametrize("restart", range(-10, 11))
async def test_one_post_per_day_across_a_restart_at_any_minute_around_the_slot(
    harness: Harness, fake: FakeMagisterium, restart: int
) -> None:
    await set_daily(harness)
    cog = daily_cog(harness)
    posted_at: list[int] = []
    for minute in range(-10, 11):
        if minute == restart:
            await harness.reload_extension("cogs.daily")
            assert daily_cog(harness) is not cog
            cog = daily_cog(harness)
        report = await cog.tick(SLOT + minute * MINUTE)
        posted_at += [minute] * report.posted
    assert posted_at == [0]
    assert titles(harness) == [saints_title(DAY)]
    assert await claims_of(harness) == {DAY: "posted"}
    assert fake.count(skill=SAINTS) == 1

    # The next local day posts again, once.
    for minute in range(3):
        await cog.tick(SLOT + dt.timedelta(days=1) + minute * MINUTE)
    assert titles(harness) == [saints_title(DAY), saints_title(dt.date(2026, 12, 2))]
    assert await claims_of(harness) == {DAY: "posted", dt.date(2026, 12, 2): "posted"}


# -- 2. DST days

DST_DAYS = [
    # zone, slot, local date, the one instant it posts at
    pytest.param(
        "America/New_York", "02:30", dt.date(2026, 3, 8), utc(2026, 3, 8, 7, 30), id="ny-spring"
    ),  # 02:30 does not exist: one gap later, 03:30 EDT
    pytest.param(
        "America/New_York", "01:30", dt.date(2026, 11, 1), utc(2026, 11, 1, 5, 30), id="ny-fall"
    ),  # 01:30 happens twice (05:30 and 06:30 UTC): the first
    pytest.param(
        "Europe/Berlin", "02:30", dt.date(2026, 3, 29), utc(2026, 3, 29, 1, 30), id="berlin-spring"
    ),  # 03:30 CEST
    pytest.param(
        "Europe/Berlin", "02:30", dt.date(2026, 10, 25), utc(2026, 10, 25, 0, 30), id="berlin-fall"
    ),  # 02:30 CEST, not 02:30 CET (01:30 UTC)
    pytest.param(
        "Australia/Sydney", "02:30", dt.date(2026, 10, 4), utc(2026, 10, 3, 16, 30), id="syd-spring"
    ),  # 03:30 AEDT, still 3 October in UTC
    pytest.param(
        "Australia/Sydney", "02:30", dt.date(2026, 4, 5), utc(2026, 4, 4, 15, 30), id="syd-fall"
    ),  # 02:30 AEDT, not 02:30 AEST (16:30 UTC)
]


@pytest.mark.parametrize(("zone", "time", "day", "posts_at"), DST_DAYS)
async def test_dst_days_post_once_at_the_resolved_slot(
    harness: Harness, zone: str, time: str, day: dt.date, posts_at: dt.datetime
) -> None:
    await set_daily(harness, time=time, timezone=zone, at=posts_at - dt.timedelta(days=1))
    cog = daily_cog(harness)
    posted: list[dt.datetime] = []
    # Every minute from three hours before to three hours after: the clock change and, on a
    # fall-back day, the second occurrence of the wall time are both inside.
    now = posts_at - dt.timedelta(hours=3)
    while now <= posts_at + dt.timedelta(hours=3):
        report = await cog.tick(now)
        posted += [now] * report.posted
        now += MINUTE
    assert posted == [posts_at]
    assert titles(harness) == [saints_title(day)]
    assert await claims_of(harness) == {day: "posted"}


# -- 3. catch-up after downtime, inside the grace window only


@pytest.mark.parametrize(
    ("down_for", "catches_up"),
    [
        (dt.timedelta(hours=3), True),
        (dt.timedelta(hours=5, minutes=59), True),
        (dt.timedelta(hours=6), False),
        (dt.timedelta(hours=9), False),
    ],
)
async def test_catch_up_inside_the_grace_window_and_not_after(
    harness: Harness, down_for: dt.timedelta, catches_up: bool
) -> None:
    await set_daily(harness)
    cog = daily_cog(harness)
    first = await cog.tick(SLOT + down_for)  # the first tick after the downtime
    await cog.tick(SLOT + down_for + MINUTE)
    assert first.posted == int(catches_up)
    caught_up = [saints_title(DAY)] if catches_up else []
    assert titles(harness) == caught_up
    assert await claims_of(harness) == ({DAY: "posted"} if catches_up else {})
    cog.now = lambda: SLOT + down_for + MINUTE
    status = await status_text(harness)
    assert "**Next post:** Wednesday 2 December 2026, 07:00 Europe/Berlin (06:00 UTC)" in status

    # The next day posts at its slot as usual.
    assert (await cog.tick(SLOT + dt.timedelta(days=1) - MINUTE)).posted == 0
    assert (await cog.tick(SLOT + dt.timedelta(days=1))).posted == 1
    assert titles(harness) == [*caught_up, saints_title(dt.date(2026, 12, 2))]


async def test_a_late_evening_slot_missed_over_midnight_posts_for_its_own_date(
    harness: Harness,
) -> None:
    await set_daily(harness, time="23:30")  # 22:30 UTC
    cog = daily_cog(harness)
    report = await cog.tick(utc(2026, 12, 2, 0, 30))  # 01:30 on 2 December in Berlin
    assert report.posted == 1
    assert titles(harness) == [saints_title(DAY)]
    assert await claims_of(harness) == {DAY: "posted"}


# -- 4. two schedulers on one PostgreSQL database


DAYS_RACED = 3  # claims are kept three days, so every one of them can be read back


class TestTwoProcessesOnPostgres:
    @pytest.fixture
    def harness_bot(
        self, fake_server: RunningFakeServer, migrated_postgres_url: str
    ) -> MagisteriumBot:
        """The bot on a (migrated) PostgreSQL database of its own."""
        return create_bot(harness_settings(fake_server.url, migrated_postgres_url))

    @pytest.fixture
    async def other(
        self, harness: Harness, migrated_postgres_url: str, monkeypatch: pytest.MonkeyPatch
    ) -> AsyncIterator[Any]:
        """A second DailySender with its own engine and pool: another process.

        It and the cog's sender both read the schedules before either goes on (a barrier
        after ``live()``), so two ticks gathered see the same posts due and race for every
        claim. Its ticks are only ever gathered with the cog's."""
        assert store_of(harness)._db.dialect_name == "postgresql"
        cog = daily_cog(harness)
        sender = daily_module(harness, "sender")
        db = Database(migrated_postgres_url)
        second = sender.DailySender(
            harness.bot, ScheduleStore(db), config=cog.config, claimant="process-b"
        )
        both_read = asyncio.Barrier(2)
        for store in (cog.sender.store, second.store):
            read = store.live

            async def live(read: Any = read) -> list[Schedule]:
                schedules: list[Schedule] = await read()
                await both_read.wait()
                return schedules

            monkeypatch.setattr(store, "live", live)
        try:
            yield second
        finally:
            await db.close()

    async def test_two_schedulers_racing_post_each_day_once(
        self, harness: Harness, other: Any
    ) -> None:
        channels = [harness.channel] + [harness.make_guild(f"parish {n}") for n in range(4)]
        for channel in channels:
            await set_daily(harness, channel=channel)
        cog = daily_cog(harness)
        for offset in range(DAYS_RACED):
            slot = SLOT + dt.timedelta(days=offset)
            mine, theirs = await asyncio.gather(cog.tick(slot), other.tick(slot))
            assert mine.due == theirs.due == len(channels)
            assert mine.posted + theirs.posted == len(channels)
            assert mine.already_claimed + theirs.already_claimed == len(channels)
            later = slot + MINUTE
            mine, theirs = await asyncio.gather(cog.tick(later), other.tick(later))
            assert mine.posted + theirs.posted == 0

        days = [DAY + dt.timedelta(days=n) for n in range(DAYS_RACED)]
        for channel in channels:
            assert titles(harness, channel) == [saints_title(day) for day in days]
            assert await claims_of(harness, channel.guild) == dict.fromkeys(days, "posted")

    async def test_two_schedulers_take_over_a_stale_claim_once(
        self, harness: Harness, other: Any
    ) -> None:
        await set_daily(harness)
        cog = daily_cog(harness)
        lease = cog.config.lease
        schedule = await schedule_of(harness)
        dead = "dead-host:1:deadbeef"
        assert await store_of(harness).claim(schedule, DAY, claimant=dead, now=SLOT, lease=lease)

        mine, theirs = await asyncio.gather(cog.tick(SLOT + lease), other.tick(SLOT + lease))
        assert (mine.posted, theirs.posted) == (0, 0)
        assert mine.already_claimed == theirs.already_claimed == 1

        after = SLOT + lease + MINUTE
        mine, theirs = await asyncio.gather(cog.tick(after), other.tick(after))
        assert mine.posted + theirs.posted == 1
        assert mine.already_claimed + theirs.already_claimed == 1
        (message,) = harness.channel_messages
        nonce_of = daily_module(harness, "post").nonce_of
        assert message.request is not None
        assert message.request["nonce"] == str(nonce_of(harness.guild.id, Feed.SAINTS, DAY))
        assert await claims_of(harness) == {DAY: "posted"}


# -- 5. channels deleted, permissions missing: disabled, with the reason recorded


async def test_a_deleted_channel_disables_the_schedule_and_status_says_why(
    harness: Harness, fake: FakeMagisterium
) -> None:
    other = harness.make_text_channel("other")
    await set_daily(harness)
    backend.delete_channel(harness.channel)
    cog = daily_cog(harness)
    report = await cog.tick(SLOT)
    assert report.disabled == 1
    assert report.posted == 0
    assert harness.channel_messages == []
    schedule = await schedule_of(harness)
    assert schedule.status is ScheduleStatus.DISABLED
    assert schedule.status_reason is not None and "deleted" in schedule.status_reason
    assert schedule.last_error == schedule.status_reason
    assert await claims_of(harness) == {}
    assert fake.count() == 0
    status = await status_text(harness, other)
    assert "⛔ stopped" in status and "The channel was deleted" in status
    assert (await cog.tick(SLOT + MINUTE)).disabled == 0  # disabled: no longer looked at


async def test_discord_unknown_channel_at_send_disables_and_releases_the_claim(
    harness: Harness,
) -> None:
    await set_daily(harness)
    harness.fail_channel_sends(404, 10003)
    cog = daily_cog(harness)
    report = await cog.tick(SLOT)
    assert (report.posted, report.disabled) == (0, 1)
    assert harness.channel_messages == []
    schedule = await schedule_of(harness)
    assert schedule.status is ScheduleStatus.DISABLED
    assert schedule.status_reason is not None and "deleted" in schedule.status_reason
    assert await claims_of(harness) == {}
    assert (await cog.tick(SLOT + MINUTE)).posted == 0
    assert harness.channel_messages == []


@pytest.mark.parametrize(
    ("denied", "named"),
    [
        ("embed_links", "Embed Links"),
        ("send_messages", "Send Messages"),
        ("view_channel", "View Channel"),
    ],
)
async def test_a_permission_removed_after_set_disables_with_its_name(
    harness: Harness, denied: str, named: str
) -> None:
    await set_daily(harness)
    other = harness.make_text_channel("other")
    overwrite = discord.PermissionOverwrite(**{denied: False})
    # On @everyone, the bot's only role: dpytest writes a member overwrite's type as the
    # string "member", which discord.py 2 does not recognise (it expects 1) and ignores.
    backend.update_text_channel(harness.channel, harness.guild.default_role, overwrite)
    assert not getattr(harness.channel.permissions_for(harness.guild.me), denied)
    report = await daily_cog(harness).tick(SLOT)
    assert (report.posted, report.disabled) == (0, 1)
    assert harness.channel_messages == []
    schedule = await schedule_of(harness)
    assert schedule.status is ScheduleStatus.DISABLED
    assert schedule.status_reason is not None
    assert f"**{named}**" in schedule.status_reason
    assert harness.channel.mention in schedule.status_reason
    assert await claims_of(harness) == {}
    status = await status_text(harness, other)
    assert "⛔ stopped" in status and named in status


async def test_discord_missing_permissions_at_send_disables_with_the_code(
    harness: Harness,
) -> None:
    await set_daily(harness)
    harness.fail_channel_sends(403, 50013, channel=harness.channel)
    report = await daily_cog(harness).tick(SLOT)
    assert (report.posted, report.disabled) == (0, 1)
    schedule = await schedule_of(harness)
    assert schedule.status is ScheduleStatus.DISABLED
    assert schedule.status_reason is not None
    assert "50013" in schedule.status_reason and harness.channel.mention in schedule.status_reason
    assert await claims_of(harness) == {}
    assert harness.channel_messages == []
    assert "50013" in await status_text(harness)


# -- 6. the post as Discord gets it (dpytest)


async def _queue_sent(message: discord.Message) -> None:
    await dpytest.sent_queue.put(message)


@pytest.fixture
async def dpytest_queue(harness: Harness) -> AsyncIterator[None]:
    """dpytest's queue of sent messages, for ``dpytest.verify()``: the harness configures
    dpytest's backend only, so the runner's send_message callback is registered here."""
    await dpytest.empty_queue()
    callbacks.set_callback(_queue_sent, "send_message")
    yield
    callbacks.remove_callback("send_message")
    await dpytest.empty_queue()


JOSEPH = dt.date(2026, 3, 19)  # a day the fake's martyrology writes out
JOSEPH_SLOT = utc(2026, 3, 19, 6, 0)  # 07:00 in Berlin


async def test_the_post_pings_its_role_only_as_dpytest_sees_it(
    harness: Harness, dpytest_queue: None
) -> None:
    role = backend.make_role("faithful", harness.guild, mentionable=True)
    await set_daily(harness, role=role, at=utc(2026, 3, 18, 12))
    assert (await daily_cog(harness).tick(JOSEPH_SLOT)).posted == 1

    sent = dpytest.get_message(peek=True)
    footer = str(sent.embeds[0].footer.text)
    assert re.fullmatch(r"Magisterium AI · saints_of_the_day · task [0-9a-f-]{36}", footer)
    expected = discord.Embed(
        title=saints_title(JOSEPH), description=restate_day(format_martyrology(JOSEPH), JOSEPH)
    )
    expected.set_footer(text=footer)
    assert dpytest.verify().message().content(role.mention).embed(expected)
    assert dpytest.verify().message().nothing()
    assert sent.raw_role_mentions == [role.id]
    assert not sent.mention_everyone

    (message,) = harness.channel_messages
    assert message.allowed_mentions == {"parse": [], "roles": [role.id]}
    assert message.request is not None
    assert message.request["content"] == role.mention


def joseph_martyrology() -> str:
    """The fake's martyrology of 19 March with its day written as the post's title writes it."""
    return restate_day(format_martyrology(JOSEPH), JOSEPH)


async def test_a_post_without_a_role_mentions_nobody(harness: Harness, dpytest_queue: None) -> None:
    await set_daily(harness, at=utc(2026, 3, 18, 12))
    assert (await daily_cog(harness).tick(JOSEPH_SLOT)).posted == 1
    sent = dpytest.get_message(peek=True)
    expected = discord.Embed(
        title=saints_title(JOSEPH), description=restate_day(format_martyrology(JOSEPH), JOSEPH)
    )
    expected.set_footer(text=sent.embeds[0].footer.text)
    assert dpytest.verify().message().content(None).embed(expected)
    assert dpytest.verify().message().nothing()
    (message,) = harness.channel_messages
    assert message.allowed_mentions == {"parse": []}
    assert message.request is not None and not message.request.get("content")


async def test_a_deleted_role_posts_without_a_ping_and_records_it(
    harness: Harness, dpytest_queue: None
) -> None:
    role = backend.make_role("faithful", harness.guild, mentionable=True)
    await set_daily(harness, role=role, at=utc(2026, 3, 18, 12))
    backend.delete_role(role)
    assert (await daily_cog(harness).tick(JOSEPH_SLOT)).posted == 1
    assert dpytest.verify().message().content(None)
    (message,) = harness.channel_messages
    assert message.allowed_mentions == {"parse": []}
    schedule = await schedule_of(harness)
    assert schedule.status is ScheduleStatus.ACTIVE
    assert schedule.last_error is not None and "role to ping was deleted" in schedule.last_error


# -- 7. fan-out: one upstream call per feed and date

# Zones whose local date is 1 December at 06:00 UTC, and the local time of that instant.
SAME_INSTANT = [
    ("Europe/Berlin", "07:00"),
    ("Europe/London", "06:00"),
    ("America/New_York", "01:00"),
    ("Asia/Tokyo", "15:00"),
    ("Australia/Sydney", "17:00"),
]


async def test_thirty_servers_one_upstream_call_per_feed_and_date(
    harness: Harness, fake: FakeMagisterium
) -> None:
    channels = [harness.channel] + [harness.make_guild(f"parish {n}") for n in range(29)]
    for n, channel in enumerate(channels):
        zone, time = SAME_INSTANT[n % len(SAME_INSTANT)]
        await set_daily(harness, channel=channel, time=time, timezone=zone)
        if n % 3 == 0:
            await set_daily(harness, channel=channel, feed="readings", time=time, timezone=zone)
    with_readings = channels[::3]

    report = await daily_cog(harness).tick(SLOT)
    assert report.due == report.posted == 30 + len(with_readings)
    assert report.fetches == 2
    assert fake.count(skill=SAINTS) == 1
    assert fake.count(skill=READINGS) == 1
    for channel in channels:
        got = sorted(titles(harness, channel))
        want = [saints_title(DAY)]
        if channel in with_readings:
            want.insert(0, f"Mass readings — {long_day(DAY)}")
        assert got == want


async def test_sends_are_bounded_by_the_concurrency_setting(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    channels = [harness.channel] + [harness.make_guild(f"parish {n}") for n in range(11)]
    for channel in channels:
        await set_daily(harness, channel=channel)
    cog = daily_cog(harness)
    limit = 4
    planner = cog.sender.planner
    planner.config = dataclasses.replace(planner.config, concurrency=limit)

    # Claims answered in memory: between the semaphore and the send nothing waits on I/O,
    # so every post the semaphore let through is in the send at once.
    async def claim_or_take_over(*args: Any, **kwargs: Any) -> str:
        return "new"

    monkeypatch.setattr(cog.sender.store, "claim_or_take_over", claim_or_take_over)
    http = harness.bot.http
    recorded_send = http.send_message
    in_flight = peak = 0
    full = asyncio.Event()

    async def send_message(channel_id: int, *, params: Any) -> Any:
        nonlocal in_flight, peak
        # The harness's recorder (and dpytest) read their caller's `channel` local.
        channel = harness.bot.get_channel(channel_id)  # noqa: F841
        in_flight += 1
        peak = max(peak, in_flight)
        try:
            if in_flight >= limit:
                full.set()
            await full.wait()  # the first sends wait until `limit` of them are in flight
            await asyncio.sleep(0)  # one yield (no wait): any other runnable send gets in
            return await recorded_send(channel_id, params=params)
        finally:
            in_flight -= 1

    monkeypatch.setattr(http, "send_message", send_message)
    async with asyncio.timeout(30):  # a guard against a hang, not a timing assert
        report = await cog.tick(SLOT)
    assert report.posted == len(channels)
    assert peak == limit
    assert all(len(harness.messages_in(c)) == 1 for c in channels)


async def test_sends_start_at_this_processes_share_of_the_bot_wide_pace(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    channels = [harness.channel] + [harness.make_guild(f"parish {n}") for n in range(9)]
    for channel in channels:
        await set_daily(harness, channel=channel)
    cog = daily_cog(harness)
    planner = cog.sender.planner
    planner.config = dataclasses.replace(planner.config, posts_per_second=40.0)
    # This process runs one shard of four: a quarter of the bot's 40 posts a second.
    monkeypatch.setattr(harness.bot, "shard_ids", [2])
    monkeypatch.setattr(harness.bot, "shard_count", 4)
    # The pace's clock moves only by its own waits (recorded, not slept); each send notes when.
    clock = [0.0]
    waits: list[float] = []

    async def sleep(seconds: float) -> None:
        waits.append(seconds)
        clock[0] += seconds

    pace_module = daily_module(harness, "sender").Pace
    cog.sender.pace = pace_module(0.0, clock=lambda: clock[0], sleep=sleep)
    http = harness.bot.http
    recorded_send = http.send_message
    sent_at: list[float] = []

    async def send_message(channel_id: int, *, params: Any) -> Any:
        channel = harness.bot.get_channel(channel_id)  # noqa: F841 (read by the recorder)
        sent_at.append(clock[0])
        return await recorded_send(channel_id, params=params)

    monkeypatch.setattr(http, "send_message", send_message)
    report = await cog.tick(SLOT)

    assert report.posted == len(channels)
    assert cog.sender.pace.per_second == 10.0
    assert sent_at == pytest.approx([n * 0.1 for n in range(len(channels))])
    assert waits == pytest.approx([0.1] * (len(channels) - 1))
    assert all(len(harness.messages_in(c)) == 1 for c in channels)


# -- 8. transient failures: claim released, retried with backoff


@pytest.fixture
def no_client_retries(harness: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    """One attempt per upstream call (the A2A client's own retries sleep on the real clock):
    each tick meets exactly one injected fault."""
    monkeypatch.setattr(harness.bot.services.magisterium, "retry", RetryPolicy(max_attempts=1))


@pytest.mark.parametrize("fault", [Fault.INTERNAL_ERROR, Fault.HTTP_500])
async def test_an_upstream_failure_is_retried_with_backoff_and_posts_once(
    harness: Harness, fake: FakeMagisterium, no_client_retries: None, fault: Fault
) -> None:
    await set_daily(harness)
    cog = daily_cog(harness)
    fake.faults.add(fault, times=2, skill=SAINTS)

    report = await cog.tick(SLOT)
    assert (report.posted, report.failed) == (0, 1)
    assert await claims_of(harness) == {}
    schedule = await schedule_of(harness)
    assert schedule.status is ScheduleStatus.ACTIVE
    assert schedule.failures == 1
    assert schedule.retry_at == SLOT + MINUTE
    assert schedule.last_error and schedule.last_error_at == SLOT
    assert fake.count(skill=SAINTS) == 1

    # Before retry_at: nothing, not even an upstream call.
    assert (await cog.tick(SLOT + dt.timedelta(seconds=30))).failed == 0
    assert fake.count(skill=SAINTS) == 1

    assert (await cog.tick(SLOT + MINUTE)).failed == 1  # the second fault: back off longer
    schedule = await schedule_of(harness)
    assert (schedule.failures, schedule.retry_at) == (2, SLOT + 3 * MINUTE)
    assert (await cog.tick(SLOT + 2 * MINUTE)).posted == 0
    assert fake.count(skill=SAINTS) == 2

    assert (await cog.tick(SLOT + 3 * MINUTE)).posted == 1
    assert (await cog.tick(SLOT + 4 * MINUTE)).posted == 0
    assert titles(harness) == [saints_title(DAY)]
    assert await claims_of(harness) == {DAY: "posted"}
    schedule = await schedule_of(harness)
    assert (schedule.failures, schedule.retry_at) == (0, None)
    assert schedule.last_posted_date == DAY
    assert "**Last error:**" in await status_text(harness)


async def test_a_discord_server_error_releases_the_claim_and_retries(
    harness: Harness, fake: FakeMagisterium
) -> None:
    await set_daily(harness)
    cog = daily_cog(harness)
    harness.fail_channel_sends(500, 0)

    report = await cog.tick(SLOT)
    assert (report.posted, report.failed) == (0, 1)
    assert harness.channel_messages == []
    assert await claims_of(harness) == {}
    schedule = await schedule_of(harness)
    assert schedule.status is ScheduleStatus.ACTIVE
    assert schedule.last_error is not None and "HTTP 500" in schedule.last_error
    assert schedule.retry_at == SLOT + MINUTE

    assert (await cog.tick(SLOT + MINUTE)).posted == 1
    assert (await cog.tick(SLOT + 2 * MINUTE)).posted == 0
    assert titles(harness) == [saints_title(DAY)]
    assert await claims_of(harness) == {DAY: "posted"}
    assert fake.count(skill=SAINTS) == 1  # the retry reused the day's content


# -- 9. the admin's own token stops working: paused, then resumed


async def _admin_with_token(harness: Harness, token: str) -> HarnessUser:
    admin = harness.user(name="admin")
    await harness.bot.services.registry.link(admin.id, SecretStr(token))
    result = await set_daily(harness, user=admin)
    assert_shown("posts with your Magisterium account", result.embeds, "footer")
    return admin


async def test_a_refused_owner_token_pauses_and_relinking_resumes(
    harness: Harness, fake: FakeMagisterium
) -> None:
    admin = await _admin_with_token(harness, "pro-admin-token-1")
    registry = harness.bot.services.registry
    await registry.mark_invalid(admin.id)
    cog = daily_cog(harness)

    report = await cog.tick(SLOT)
    assert (report.posted, report.paused) == (0, 1)
    schedule = await schedule_of(harness)
    assert schedule.status is ScheduleStatus.PAUSED
    assert schedule.status_reason == OWNER_REFUSED
    assert fake.count() == 0
    assert (await cog.tick(SLOT + MINUTE)).posted == 0
    assert "⏸️ paused" in await status_text(harness)

    await registry.link(admin.id, SecretStr("pro-admin-token-2"))
    report = await cog.tick(SLOT + 10 * MINUTE)  # still inside the grace window
    assert report.posted == 1
    schedule = await schedule_of(harness)
    assert (schedule.status, schedule.status_reason) == (ScheduleStatus.ACTIVE, None)
    assert titles(harness) == [saints_title(DAY)]
    assert [r.token for r in fake.requests] == ["pro-admin-token-2"]


async def test_an_upstream_401_pauses_the_schedule_of_that_token(
    harness: Harness, fake: FakeMagisterium
) -> None:
    admin = await _admin_with_token(harness, "pro-admin-token-1")
    fake.accounts.revoke("pro-admin-token-1")
    cog = daily_cog(harness)

    report = await cog.tick(SLOT)
    assert (report.posted, report.paused) == (0, 1)
    assert [r.token for r in fake.requests] == ["pro-admin-token-1"]
    schedule = await schedule_of(harness)
    assert (schedule.status, schedule.status_reason) == (ScheduleStatus.PAUSED, OWNER_REFUSED)
    account = await harness.bot.services.registry.get(admin.id)
    assert account is not None and account.status == "invalid"
    assert await claims_of(harness) == {}
    assert harness.channel_messages == []

    await harness.bot.services.registry.link(admin.id, SecretStr("pro-admin-token-2"))
    assert (await cog.tick(SLOT + 5 * MINUTE)).posted == 1
    assert fake.requests[-1].token == "pro-admin-token-2"
    assert titles(harness) == [saints_title(DAY)]


# -- 10. a server that removed the bot, and one that is only unavailable


async def test_an_outage_keeps_the_schedules_and_a_removal_deletes_them(
    harness: Harness,
) -> None:
    await set_daily(harness)
    await set_daily(harness, feed="readings")
    cog = daily_cog(harness)
    assert (await cog.tick(SLOT)).posted == 2
    guild_id = harness.guild.id

    await harness.gateway("GUILD_DELETE", {"id": str(guild_id), "unavailable": True})
    assert len(await store_of(harness).of_guild(guild_id)) == 2
    report = await cog.tick(SLOT + dt.timedelta(days=1))  # nothing judged during the outage
    assert (report.posted, report.disabled) == (0, 0)
    assert {s.status for s in await store_of(harness).of_guild(guild_id)} == {ScheduleStatus.ACTIVE}
    assert await claims_of(harness) == {DAY: "posted"}

    await harness.gateway("GUILD_DELETE", {"id": str(guild_id)})
    assert await store_of(harness).of_guild(guild_id) == []
    assert await claims_of(harness) == {}
    assert await claims_of(harness, feed=Feed.READINGS) == {}


# -- 11. the loop: a tick each whole minute, and nothing raised in a tick stops it


async def test_a_failing_tick_raises_to_its_caller_and_the_next_tick_works(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    await set_daily(harness)
    cog = daily_cog(harness)

    async def broken() -> list[Schedule]:
        raise RuntimeError("database fell over")

    with monkeypatch.context() as patched:
        patched.setattr(cog.sender.store, "live", broken)
        with pytest.raises(RuntimeError, match="fell over"):
            await cog.tick(SLOT)
    assert await claims_of(harness) == {}
    assert (await cog.tick(SLOT)).posted == 1


@pytest.mark.looptime
async def test_every_minute_ticks_each_whole_minute_and_survives_a_failing_tick(
    harness: Harness, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """The real ``tasks.loop`` on looptime's virtual clock: the cog's wall clock follows the
    event loop's time, from half a minute into 05:58."""
    cog = daily_cog(harness)
    assert not cog.every_minute.is_running()  # the harness cancelled it
    loop = asyncio.get_running_loop()
    zero, real_start = loop.time(), time.monotonic()
    started = utc(2026, 12, 1, 5, 58, 30)
    cog.now = lambda: started + dt.timedelta(seconds=loop.time() - zero)
    ticks: list[tuple[dt.datetime, float]] = []  # (the tick's now, the loop's time then)
    enough = asyncio.Event()

    async def tick(now: dt.datetime) -> None:
        ticks.append((now, loop.time() - zero))
        if len(ticks) == 5:
            enough.set()
        if len(ticks) == 2:
            raise RuntimeError("database fell over")

    monkeypatch.setattr(cog, "tick", tick)
    with caplog.at_level(logging.ERROR):
        task = cog.every_minute.start()
        async with asyncio.timeout(3600):  # virtual seconds: a guard against a hang
            await enough.wait()
        cog.every_minute.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task

    assert [now for now, _ in ticks] == [utc(2026, 12, 1, 5, 58) + n * MINUTE for n in range(5)]
    assert all(now.utcoffset() == dt.timedelta(0) for now, _ in ticks)
    assert [at for _, at in ticks] == pytest.approx([0, 30, 90, 150, 210], abs=1e-3)
    assert time.monotonic() - real_start < 60  # the 210 s went by on the virtual clock
    failures = [r for r in caplog.records if "tick failed" in r.getMessage()]
    assert len(failures) == 1
    assert failures[0].exc_info is not None and failures[0].exc_info[0] is RuntimeError
    assert task.cancelled() and not cog.every_minute.is_running()
    assert len(ticks) == 5  # cancelled while waiting: no tick after it


async def test_tick_refuses_a_naive_datetime(harness: Harness) -> None:
    with pytest.raises(ValueError, match="aware"):
        await daily_cog(harness).tick(dt.datetime(2026, 12, 1, 6, 0))


# -- 12. a claim left "sending" by a process that died


async def test_a_stale_sending_claim_is_taken_over_only_after_its_lease(
    harness: Harness,
) -> None:
    await set_daily(harness)
    cog = daily_cog(harness)
    lease = cog.config.lease
    schedule = await schedule_of(harness)
    dead = await store_of(harness).claim(
        schedule, DAY, claimant="dead-host:1:deadbeef", now=SLOT, lease=lease
    )
    assert dead
    assert await claims_of(harness) == {DAY: "sending"}

    minutes = int(lease / MINUTE)
    for minute in range(minutes + 1):  # up to and including the end of the lease
        report = await cog.tick(SLOT + minute * MINUTE)
        assert (report.posted, report.already_claimed) == (0, 1)
    assert harness.channel_messages == []

    assert (await cog.tick(SLOT + (minutes + 1) * MINUTE)).posted == 1
    assert (await cog.tick(SLOT + (minutes + 2) * MINUTE)).posted == 0
    (message,) = harness.channel_messages
    nonce_of = daily_module(harness, "post").nonce_of
    assert message.request is not None
    assert message.request["nonce"] == str(nonce_of(harness.guild.id, Feed.SAINTS, DAY))
    assert message.request["enforce_nonce"] is True
    assert await claims_of(harness) == {DAY: "posted"}


async def test_a_stale_claim_whose_post_did_go_out_is_recorded_not_sent_again(
    harness: Harness, fake: FakeMagisterium
) -> None:
    """A process sent the post and died before recording it; long after Discord's nonce
    window, the process taking the claim over finds the message and does not send it again."""
    await set_daily(harness)
    cog = daily_cog(harness)
    schedule = await schedule_of(harness)
    assert await store_of(harness).claim(schedule, DAY, claimant="dead", now=SLOT, lease=MINUTE)
    content = await harness.bot.services.magisterium.call(Origin(0), SAINTS_OF_THE_DAY, DAY)
    post = daily_module(harness, "post").build_post(Feed.SAINTS, DAY, content, role=None)
    sent_by_the_dead = await harness.channel.send(embeds=post.embeds)

    report = await cog.tick(SLOT + 30 * MINUTE)

    assert report.posted == 1
    assert [m.id for m in harness.channel_messages] == [sent_by_the_dead.id]
    assert await claims_of(harness) == {DAY: "posted"}
    assert (await schedule_of(harness)).last_message_id == sent_by_the_dead.id


# -- 10. languages: one fetch per feed and date, each server's post in its own language

TUESDAY_DE = "Dienstag, 1. Dezember 2026"
TUESDAY_PL = "wtorek, 1 grudnia 2026"


@pytest.fixture
def wrapping_german(monkeypatch: pytest.MonkeyPatch) -> None:
    """German "translates" by wrapping; every other language is the English source."""

    wrap_locales(monkeypatch, lambda locale: locale == "de")


async def test_a_german_server_gets_its_post_dated_in_german(
    harness: Harness, fake: FakeMagisterium
) -> None:
    harness.guild.preferred_locale = discord.Locale.german
    await set_daily(harness)
    assert (await daily_cog(harness).tick(SLOT)).posted == 1
    (title,) = titles(harness)
    assert title.endswith(f" — {TUESDAY_DE}")  # Babel's German date, with or without a catalogue


async def test_a_schedules_language_overrides_the_servers(
    harness: Harness, fake: FakeMagisterium
) -> None:
    await set_daily(harness, language="pl")  # an en-US server
    assert (await daily_cog(harness).tick(SLOT)).posted == 1
    (title,) = titles(harness)
    assert title.endswith(f" — {TUESDAY_PL}")


async def test_servers_in_different_languages_share_one_fetch(
    harness: Harness, fake: FakeMagisterium, wrapping_german: None
) -> None:
    german, polish, english = (harness.make_guild(f"parish {n}") for n in range(3))
    german.guild.preferred_locale = discord.Locale.german
    for channel in (german, polish, english):
        await set_daily(harness, channel=channel, language="pl" if channel is polish else None)

    report = await daily_cog(harness).tick(SLOT)
    assert (report.posted, report.fetches, fake.count(skill=SAINTS)) == (3, 1, 1)
    assert titles(harness, german) == [f"⟦⟦Saints of the day⟧ — {TUESDAY_DE}⟧"]
    assert titles(harness, polish) == [f"Saints of the day — {TUESDAY_PL}"]
    assert titles(harness, english) == [saints_title(DAY)]
    (english_post,) = harness.messages_in(english)
    assert_not_shown("⟦", english_post.embeds)
    assert [text for text in component_texts(english_post.components) if "⟦" in text] == []


async def test_an_english_post_is_as_it_always_was(harness: Harness, fake: FakeMagisterium) -> None:
    """No language chosen, an en-US server: the post is what the bot rendered before it spoke
    other languages (the default English context), to the byte."""
    await set_daily(harness)
    assert (await daily_cog(harness).tick(SLOT)).posted == 1
    (posted,) = harness.messages_in(harness.channel)
    content = await harness.bot.services.magisterium.call(Origin(0), SAINTS_OF_THE_DAY, DAY)
    expected = daily_module(harness, "post").build_post(Feed.SAINTS, DAY, content, role=None)
    assert not posted.content and expected.content is None
    for want, got in zip(expected.embeds, posted.embeds, strict=True):
        assert {key: got.get(key) for key in want.to_dict()} == want.to_dict()
    assert posted.embeds[0]["title"] == saints_title(DAY)


async def test_reasons_are_recorded_in_english_and_shown_in_the_admins_language(
    harness: Harness, fake: FakeMagisterium, wrapping_german: None
) -> None:
    await set_daily(harness)
    other = harness.make_text_channel("other")
    overwrite = discord.PermissionOverwrite(embed_links=False)
    backend.update_text_channel(harness.channel, harness.guild.default_role, overwrite)
    with using_locale("de"):  # whatever the tick's context, the record is English
        assert (await daily_cog(harness).tick(SLOT)).disabled == 1
    schedule = await schedule_of(harness)
    english = f"I am missing **Embed Links** in {harness.channel.mention}."
    assert schedule.status_reason == schedule.last_error == english

    assert english in await status_text(harness, other)  # an English admin: as recorded
    result = await harness.slash(
        "daily status", member_permissions=ADMIN, channel=other, locale="de"
    )
    (field,) = result.embeds[0]["fields"]
    german = f"⟦I am missing **⟦Embed Links⟧** in {harness.channel.mention}.⟧"
    assert f"⟦**Why:** {german}⟧" in field["value"]
    assert f"— {german}⟧" in field["value"]  # the last error, the same reason


async def test_an_upstream_failure_is_recorded_in_english_and_shown_translated(
    harness: Harness, fake: FakeMagisterium, no_client_retries: None, wrapping_german: None
) -> None:
    await set_daily(harness)
    fake.faults.add(Fault.HTTP_500, times=1, skill=SAINTS)
    with using_locale("de"):
        assert (await daily_cog(harness).tick(SLOT)).failed == 1
    schedule = await schedule_of(harness)
    assert schedule.last_error is not None and "⟦" not in schedule.last_error
    title, text = schedule.last_error.split(": ", 1)
    result = await harness.slash("daily status", member_permissions=ADMIN, locale="de")
    (field,) = result.embeds[0]["fields"]
    assert f"⟦⟦{title}⟧: ⟦{text}⟧⟧" in field["value"]  # "{title}: {text}", each translated


async def test_the_pace_and_the_concurrency_are_the_operators_settings(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DAILY_POSTS_PER_SECOND", "120")
    monkeypatch.setenv("DAILY_POST_CONCURRENCY", "3")
    from_env = Settings(_env_file=None)  # type: ignore[call-arg]
    monkeypatch.setattr(
        harness.bot,
        "settings",
        harness.bot.settings.model_copy(
            update={
                "daily_posts_per_second": from_env.daily_posts_per_second,
                "daily_post_concurrency": from_env.daily_post_concurrency,
            }
        ),
    )
    cog = type(daily_cog(harness))(harness.bot)

    assert cog.config.posts_per_second == 120.0
    assert cog.config.concurrency == 3
    assert cog.sender.pace.per_second == 120.0


def test_the_settings_defaults_are_the_schedulers() -> None:
    settings = Settings(_env_file=None, discord_token="x")  # type: ignore[call-arg]
    assert settings.daily_posts_per_second == SchedulerConfig().posts_per_second
    assert settings.daily_post_concurrency == SchedulerConfig().concurrency
