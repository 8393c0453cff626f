"""/daily set|off|status|preview through the harness: real interactions, what Discord is sent.

The commands' clock is fixed with the ``clock`` fixture; the scheduler is driven with explicit
aware datetimes (``cog.tick(now)``). Nothing sleeps.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable
from typing import Any, Protocol, cast

import discord
import pytest
from discord.ext.test import backend
from pydantic import SecretStr

from bot.app import MagisteriumBot
from bot.app.composition import Services
from bot.daily import Feed, ScheduleStatus
from bot.i18n import LANGUAGES
from devtools.discord import CommandUnavailable, Harness, InteractionResult
from devtools.fake_magisterium import FakeMagisterium
from tests.support.embed_parts import assert_not_shown, assert_shown, everything_shown
from tests.support.fakes import FakeWallClock, wrap_locales

EPHEMERAL = 64
ADMIN = discord.Permissions(manage_guild=True)
# Tuesday 1 December 2026, 05:00 UTC = 06:00 in Berlin (CET, UTC+1): before a 07:00 slot.
DEC_1_0500 = dt.datetime(2026, 12, 1, 5, 0, tzinfo=dt.UTC)
SLOT_DEC_1 = dt.datetime(2026, 12, 1, 6, 0, tzinfo=dt.UTC)  # 07:00 Europe/Berlin
SLOT_DEC_2 = dt.datetime(2026, 12, 2, 6, 0, tzinfo=dt.UTC)
TRACEBACK_MARKERS = ("Traceback", 'File "', "Exception", "Error:")


class DailyCog(Protocol):
    now: Callable[[], dt.datetime]

    async def tick(self, now: dt.datetime) -> Any: ...


def _cog(harness: Harness) -> DailyCog:
    cog = harness.bot.get_cog("DailyCog")
    # Extensions are re-imported for each bot: reach the cog by name, not by class.
    assert cog is not None and "now" in vars(cog)
    return cast(DailyCog, cog)


def _services(harness: Harness) -> Services:
    return cast(MagisteriumBot, harness.bot).services


@pytest.fixture
def clock(harness: Harness) -> FakeWallClock:
    """/daily commands see ``DEC_1_0500`` as now (until a test moves ``clock.now``)."""
    fixed = FakeWallClock(DEC_1_0500)
    _cog(harness).now = fixed
    return fixed


async def _set(
    harness: Harness,
    *,
    feed: str = "saints",
    time: str = "07:00",
    timezone: str = "Europe/Berlin",
    role: discord.Role | None = None,
    channel: discord.abc.GuildChannel | None = None,
    user: Any = None,
    language: str | None = None,
    locale: str | None = None,
) -> InteractionResult:
    values: dict[str, Any] = {"feed": feed, "time": time, "timezone": timezone}
    if role is not None:
        values["role"] = role
    if language is not None:
        values["language"] = language
    return await harness.slash(
        "daily set",
        member_permissions=ADMIN,
        options={"channel": channel or harness.channel},
        user=user,
        locale=locale,
        **values,
    )


def _description(result: InteractionResult) -> str:
    assert len(result.embeds) == 1, result.transcript
    return str(result.embeds[0].get("description") or "")


def _title(result: InteractionResult) -> str:
    assert len(result.embeds) == 1, result.transcript
    return str(result.embeds[0].get("title") or "")


def _status_text(result: InteractionResult) -> str:
    """Everything /daily status showed, fields included."""
    assert result.callback_type == 4 and result.ephemeral
    (embed,) = result.embeds
    parts = [str(embed.get("description") or "")]
    parts += [f"{f['name']}\n{f['value']}" for f in embed.get("fields") or []]
    return "\n".join(parts)


def _private_reply(result: InteractionResult) -> None:
    """Answered at once (type 4) with an ephemeral message (flags 64), no traceback."""
    assert result.callback_type == 4, result.transcript
    assert result.ephemeral
    message = result.message
    assert message is not None and message.flags & EPHEMERAL
    assert not result.rejected
    shown = [*everything_shown(result.embeds), *result.contents]
    leaked = [text for text in shown if any(marker in text for marker in TRACEBACK_MARKERS)]
    assert leaked == []


def _ts(instant: dt.datetime) -> str:
    return f"<t:{int(instant.timestamp())}:R>"


async def _refused(harness: Harness, result: InteractionResult, title: str) -> str:
    """A private, friendly refusal with ``title``; nothing persisted. Returns its text."""
    _private_reply(result)
    assert _title(result) == title
    assert await _services(harness).schedules.of_guild(harness.guild.id) == []
    return _description(result)


def _restrict_bot(harness: Harness, channel: discord.TextChannel, **denied: bool) -> None:
    """Deny the bot ``denied`` in ``channel``, and check that discord.py sees it."""
    me = harness.guild.me
    harness.set_permissions(channel, me, **denied)
    permissions = channel.permissions_for(me)
    assert all(getattr(permissions, name) is value for name, value in denied.items())


def _bold(text: str) -> list[str]:
    return re.findall(r"\*\*(.+?)\*\*", text)


# --- /daily set: success -----------------------------------------------------------------------


async def test_set_confirms_privately_with_local_and_utc_time_and_persists(
    harness: Harness, clock: FakeWallClock, fake: FakeMagisterium
) -> None:
    role = backend.make_role("faithful", harness.guild, mentionable=True)
    result = await _set(harness, role=role)

    _private_reply(result)
    assert _title(result) == "Daily saints of the day set"
    text = _description(result)
    assert f"in {harness.channel.mention}" in text
    assert "**07:00** (Europe/Berlin)" in text
    assert f"pinging {role.mention}" in text
    assert "**First post:** Tuesday 1 December 2026, 07:00 Europe/Berlin (06:00 UTC)" in text
    assert _ts(SLOT_DEC_1) in text
    assert_shown("shared account", result.embeds, "footer")
    assert fake.count() == 0  # setting up makes no upstream call

    schedule = await _services(harness).schedules.get(harness.guild.id, Feed.SAINTS)
    assert schedule is not None
    assert schedule.channel_id == harness.channel.id
    assert schedule.post_time == dt.time(7, 0)
    assert schedule.timezone == "Europe/Berlin"
    assert schedule.role_id == role.id
    assert schedule.owner_id == harness.default_user.id
    assert schedule.token_source == "shared"
    assert schedule.status is ScheduleStatus.ACTIVE
    assert schedule.active_since == DEC_1_0500


@pytest.mark.parametrize(
    ("now", "timezone", "expected_local", "expected_utc"),
    [
        # Summer: Berlin is UTC+2, so 07:00 there is 05:00 UTC.
        (
            dt.datetime(2026, 7, 1, 3, 0, tzinfo=dt.UTC),
            "Europe/Berlin",
            "Wednesday 1 July 2026, 07:00 Europe/Berlin (05:00 UTC)",
            dt.datetime(2026, 7, 1, 5, 0, tzinfo=dt.UTC),
        ),
        # West of UTC: 07:00 in New York in December is 12:00 UTC.
        (
            DEC_1_0500,
            "America/New_York",
            "Tuesday 1 December 2026, 07:00 America/New_York (12:00 UTC)",
            dt.datetime(2026, 12, 1, 12, 0, tzinfo=dt.UTC),
        ),
    ],
)
async def test_set_first_post_in_other_offsets(
    harness: Harness,
    clock: FakeWallClock,
    now: dt.datetime,
    timezone: str,
    expected_local: str,
    expected_utc: dt.datetime,
) -> None:
    clock.now = now
    result = await _set(harness, timezone=timezone)
    _private_reply(result)
    text = _description(result)
    assert f"**First post:** {expected_local} · {_ts(expected_utc)}" in text


async def test_set_with_a_linked_token_posts_with_the_admins_own_account(
    harness: Harness, clock: FakeWallClock
) -> None:
    admin = harness.user(name="admin")
    await _services(harness).registry.link(admin.id, SecretStr("pro-daily-admin"))
    result = await _set(harness, user=admin)
    _private_reply(result)
    assert_shown("your Magisterium account", result.embeds, "footer")
    schedule = await _services(harness).schedules.get(harness.guild.id, Feed.SAINTS)
    assert schedule is not None
    assert schedule.owner_id == admin.id
    assert schedule.token_source == "own"


async def test_a_second_set_replaces_the_first_and_feeds_are_separate(
    harness: Harness, clock: FakeWallClock
) -> None:
    store = _services(harness).schedules
    other = harness.make_text_channel("announcements")
    _private_reply(await _set(harness))
    replaced = await _set(harness, channel=other, time="18:30", timezone="America/New_York")
    _private_reply(replaced)

    schedules = await store.of_guild(harness.guild.id)
    assert len(schedules) == 1  # one schedule per server and feed
    saints = schedules[0]
    assert (saints.feed, saints.channel_id) == (Feed.SAINTS, other.id)
    assert (saints.post_time, saints.timezone) == (dt.time(18, 30), "America/New_York")

    _private_reply(await _set(harness, feed="readings", time="06:15"))
    by_feed = {s.feed: s for s in await store.of_guild(harness.guild.id)}
    assert set(by_feed) == {Feed.SAINTS, Feed.READINGS}
    assert by_feed[Feed.SAINTS] == saints  # untouched by the other feed
    assert by_feed[Feed.READINGS].channel_id == harness.channel.id
    assert by_feed[Feed.READINGS].post_time == dt.time(6, 15)


@pytest.mark.parametrize(
    ("typed", "canonical"),
    [
        ("europe/berlin", "Europe/Berlin"),
        ("EUROPE/BERLIN", "Europe/Berlin"),
        ("america/new york", "America/New_York"),
        ("Berlin", "Europe/Berlin"),  # a city with one zone
    ],
)
async def test_timezone_is_normalised(
    harness: Harness, clock: FakeWallClock, typed: str, canonical: str
) -> None:
    result = await _set(harness, timezone=typed)
    _private_reply(result)
    assert f"({canonical})" in _description(result)
    schedule = await _services(harness).schedules.get(harness.guild.id, Feed.SAINTS)
    assert schedule is not None and schedule.timezone == canonical


async def test_set_after_todays_slot_first_posts_tomorrow(
    harness: Harness, clock: FakeWallClock
) -> None:
    clock.now = dt.datetime(2026, 12, 1, 9, 0, tzinfo=dt.UTC)  # 10:00 in Berlin
    result = await _set(harness)
    _private_reply(result)
    text = _description(result)
    assert "**First post:** Wednesday 2 December 2026, 07:00 Europe/Berlin (06:00 UTC)" in text
    assert _ts(SLOT_DEC_2) in text


# --- /daily set: refusals ----------------------------------------------------------------------


@pytest.mark.parametrize("typed", ["25:00", "7", "noon", "07:60"])
async def test_bad_time_says_hh_mm(
    harness: Harness, clock: FakeWallClock, fake: FakeMagisterium, typed: str
) -> None:
    result = await _set(harness, time=typed)
    text = await _refused(harness, result, "That time is not HH:MM")
    assert f"`{typed}`" in text and "`07:00`" in text
    assert fake.count() == 0


@pytest.mark.parametrize(
    ("typed", "suggested"),
    [("Berl", "Europe/Berlin"), ("new yo", "America/New_York")],
)
async def test_unknown_timezone_suggests_close_names(
    harness: Harness, clock: FakeWallClock, typed: str, suggested: str
) -> None:
    result = await _set(harness, timezone=typed)
    text = await _refused(harness, result, "Unknown timezone")
    assert re.search(rf"Did you mean [^?]*`{suggested}`", text), text


async def test_a_misspelt_timezone_suggests_the_close_name(
    harness: Harness, clock: FakeWallClock
) -> None:
    result = await _set(harness, timezone="Europe/Berlim")
    text = await _refused(harness, result, "Unknown timezone")
    assert "Did you mean `Europe/Berlin`" in text


async def test_a_timezone_nobody_could_mean_is_refused_without_suggestions(
    harness: Harness, clock: FakeWallClock
) -> None:
    result = await _set(harness, timezone="Mars/Olympus")
    text = await _refused(harness, result, "Unknown timezone")
    assert "Did you mean" not in text and "`Europe/Berlin`" in text


@pytest.mark.parametrize(
    ("denied", "named"),
    [
        ({"embed_links": False}, ["Embed Links"]),
        pytest.param({"send_messages": False}, ["Send Messages"]),
        ({"send_messages": False, "embed_links": False}, ["Send Messages", "Embed Links"]),
        pytest.param({"view_channel": False}, ["View Channel"]),
    ],
    ids=["embed-links", "send-messages", "both", "view-channel"],
)
async def test_missing_channel_permissions_are_named_exactly(
    harness: Harness, clock: FakeWallClock, denied: dict[str, bool], named: list[str]
) -> None:
    channel = harness.make_text_channel("daily")
    _restrict_bot(harness, channel, **denied)
    result = await _set(harness, channel=channel)
    text = await _refused(harness, result, "I cannot post there yet")
    assert _bold(text) == named
    assert channel.mention in text


async def test_everyone_is_never_pinged(harness: Harness, clock: FakeWallClock) -> None:
    result = await _set(harness, role=harness.guild.default_role)
    text = await _refused(harness, result, "That role cannot be pinged")
    assert "@everyone is never pinged" in text


async def test_unmentionable_role_is_refused_when_the_bot_cannot_mention_everyone(
    harness: Harness, clock: FakeWallClock
) -> None:
    # dpytest gives @everyone (the bot's only role) Mention Everyone: take it away here.
    everyone = harness.guild.default_role
    assert harness.guild.me.guild_permissions.mention_everyone
    without = discord.Permissions(everyone.permissions.value)
    without.mention_everyone = False
    backend.update_role(everyone, permissions=without.value)
    assert not harness.guild.me.guild_permissions.mention_everyone

    role = backend.make_role("quiet", harness.guild, mentionable=False)
    result = await _set(harness, role=role)
    text = await _refused(harness, result, "That role cannot be pinged")
    assert f"{role.mention} is not mentionable" in text
    assert "Make it mentionable" in text and "Mention @everyone, @here and All Roles" in text


async def test_unmentionable_role_is_fine_when_the_bot_can_mention_everyone(
    harness: Harness, clock: FakeWallClock
) -> None:
    assert harness.guild.me.guild_permissions.mention_everyone  # dpytest's default
    role = backend.make_role("quiet", harness.guild, mentionable=False)
    result = await _set(harness, role=role)
    _private_reply(result)
    schedule = await _services(harness).schedules.get(harness.guild.id, Feed.SAINTS)
    assert schedule is not None and schedule.role_id == role.id


async def test_a_linked_but_invalid_token_says_relink(
    harness: Harness, clock: FakeWallClock, fake: FakeMagisterium
) -> None:
    admin = harness.user(name="admin")
    registry = _services(harness).registry
    await registry.link(admin.id, SecretStr("pro-daily-stale"))
    await registry.mark_invalid(admin.id)
    result = await _set(harness, user=admin)
    text = await _refused(harness, result, "Your Magisterium token no longer works")
    assert "/account link" in text
    assert fake.count() == 0


class TestWithoutOperatorToken:
    """A bot with no MAGISTERIUM_TOKEN: schedules need the admin's own account."""

    @pytest.fixture
    def harness_overrides(self) -> dict[str, Any]:
        return {"magisterium_token": None}

    async def test_unlinked_admin_is_told_to_link(
        self, harness: Harness, clock: FakeWallClock
    ) -> None:
        result = await _set(harness)
        text = await _refused(harness, result, "Link your Magisterium account first")
        assert "/account link" in text

    async def test_linked_admin_sets_it_with_their_own_account(
        self, harness: Harness, clock: FakeWallClock
    ) -> None:
        admin = harness.user(name="admin")
        await _services(harness).registry.link(admin.id, SecretStr("pro-daily-only"))
        _private_reply(await _set(harness, user=admin))
        schedule = await _services(harness).schedules.get(harness.guild.id, Feed.SAINTS)
        assert schedule is not None
        assert (schedule.owner_id, schedule.token_source) == (admin.id, "own")


# --- timezone autocomplete ---------------------------------------------------------------------


async def _zones(harness: Harness, typed: str) -> list[Any]:
    choices = await harness.autocomplete("daily set", "timezone", typed, member_permissions=ADMIN)
    assert choices.result.callback_type == 8
    return list(choices.values)


async def test_timezone_autocomplete(harness: Harness, fake: FakeMagisterium) -> None:
    assert await _zones(harness, "new y") == ["America/New_York"]
    popular = await _zones(harness, "")
    assert 1 < len(popular) <= 25
    assert {"UTC", "Europe/Berlin", "America/New_York"} <= set(popular)
    many = await _zones(harness, "a")
    assert len(many) == 25  # Discord's cap on choices
    assert fake.count() == 0  # autocomplete is local


@pytest.mark.parametrize("typed", ["", "a", "america/", "new y", "x" * 64])
async def test_timezone_autocomplete_values_fit_discord(harness: Harness, typed: str) -> None:
    choices = await harness.autocomplete("daily set", "timezone", typed, member_permissions=ADMIN)
    assert len(choices) <= 25
    for choice in choices:
        assert 1 <= len(choice["name"]) <= 100
        assert 1 <= len(choice["value"]) <= 100


# --- who may use /daily ------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["daily set", "daily off", "daily status", "daily preview"])
async def test_daily_is_not_offered_in_dms(harness: Harness, name: str) -> None:
    options: dict[str, Any] = {} if name == "daily status" else {"feed": "saints"}
    if name == "daily set":
        options.update(channel=harness.channel, time="07:00", timezone="Europe/Berlin")
    with pytest.raises(CommandUnavailable, match="not offered in a"):
        await harness.slash(name, dm=True, member_permissions=ADMIN, options=options)


@pytest.mark.parametrize("name", ["daily off", "daily status", "daily preview"])
async def test_daily_needs_manage_server(harness: Harness, name: str) -> None:
    options: dict[str, Any] = {} if name == "daily status" else {"feed": "saints"}
    with pytest.raises(CommandUnavailable, match="manage_guild"):
        await harness.slash(name, options=options)
    allowed = await harness.slash(name, member_permissions=ADMIN, options=options)
    assert allowed.ephemeral


async def test_set_needs_manage_server(harness: Harness, clock: FakeWallClock) -> None:
    with pytest.raises(CommandUnavailable, match="manage_guild"):
        await harness.slash(
            "daily set",
            options={"channel": harness.channel},
            feed="saints",
            time="07:00",
            timezone="Europe/Berlin",
        )
    assert await _services(harness).schedules.of_guild(harness.guild.id) == []


# --- /daily status -----------------------------------------------------------------------------


async def test_status_without_schedules_says_how_to_start(
    harness: Harness, clock: FakeWallClock
) -> None:
    result = await harness.slash("daily status", member_permissions=ADMIN)
    _private_reply(result)
    text = _status_text(result)
    assert "No daily posts are set up" in text and "`/daily set`" in text


async def test_status_shows_next_post_then_last_post(
    harness: Harness, clock: FakeWallClock, fake: FakeMagisterium
) -> None:
    role = backend.make_role("faithful", harness.guild, mentionable=True)
    _private_reply(await _set(harness, role=role))
    before = _status_text(await harness.slash("daily status", member_permissions=ADMIN))
    assert "Saints of the day — ✅ active" in before
    assert (
        "**Next post:** Tuesday 1 December 2026, 07:00 Europe/Berlin (06:00 UTC) · "
        + _ts(SLOT_DEC_1)
    ) in before
    assert "**Last post:** none yet" in before
    assert f"<@&{role.id}>" in before

    report = await _cog(harness).tick(SLOT_DEC_1)
    assert report.posted == 1
    (posted,) = harness.messages_in(harness.channel)
    clock.now = SLOT_DEC_1 + dt.timedelta(minutes=5)
    after = _status_text(await harness.slash("daily status", member_permissions=ADMIN))
    link = f"https://discord.com/channels/{harness.guild.id}/{harness.channel.id}/{posted.id}"
    assert f"**Last post:** Tuesday 1 December 2026 (<t:{int(SLOT_DEC_1.timestamp())}:f>)" in after
    assert f"[open]({link})" in after
    assert (
        "**Next post:** Wednesday 2 December 2026, 07:00 Europe/Berlin (06:00 UTC) · "
        + _ts(SLOT_DEC_2)
    ) in after


async def test_status_shows_a_paused_schedule_and_why(
    harness: Harness, clock: FakeWallClock, fake: FakeMagisterium
) -> None:
    admin = harness.user(name="admin")
    registry = _services(harness).registry
    await registry.link(admin.id, SecretStr("pro-daily-soon-stale"))
    _private_reply(await _set(harness, user=admin))
    await registry.mark_invalid(admin.id)

    report = await _cog(harness).tick(SLOT_DEC_1)
    assert report.paused == 1 and report.posted == 0
    assert harness.channel_messages == []
    schedule = await _services(harness).schedules.get(harness.guild.id, Feed.SAINTS)
    assert schedule is not None and schedule.status is ScheduleStatus.PAUSED

    text = _status_text(await harness.slash("daily status", member_permissions=ADMIN))
    assert "Saints of the day — ⏸️ paused" in text
    assert "**Why:** Magisterium refused the token of the admin who set this schedule" in text
    assert "**Next post:**" not in text
    assert f"<@{admin.id}>'s Magisterium account" in text


async def test_status_shows_a_disabled_schedule_and_why(
    harness: Harness, clock: FakeWallClock, fake: FakeMagisterium
) -> None:
    _private_reply(await _set(harness))
    _restrict_bot(harness, harness.channel, embed_links=False)
    report = await _cog(harness).tick(SLOT_DEC_1)
    assert report.disabled == 1 and report.posted == 0
    assert harness.channel_messages == []

    text = _status_text(await harness.slash("daily status", member_permissions=ADMIN))
    assert "Saints of the day — ⛔ stopped" in text
    assert f"**Why:** I am missing **Embed Links** in {harness.channel.mention}." in text
    assert "**Next post:**" not in text


# --- /daily off --------------------------------------------------------------------------------


async def test_off_removes_then_says_nothing_to_stop(
    harness: Harness, clock: FakeWallClock
) -> None:
    store = _services(harness).schedules
    _private_reply(await _set(harness))
    _private_reply(await _set(harness, feed="readings"))

    stopped = await harness.slash("daily off", member_permissions=ADMIN, feed="saints")
    _private_reply(stopped)
    assert _title(stopped) == "Daily saints of the day stopped"
    assert await store.get(harness.guild.id, Feed.SAINTS) is None
    assert await store.get(harness.guild.id, Feed.READINGS) is not None  # the other feed stays

    again = await harness.slash("daily off", member_permissions=ADMIN, feed="saints")
    _private_reply(again)
    assert _title(again) == "Nothing to stop"
    assert "no daily saints of the day post" in _description(again)

    report = await _cog(harness).tick(SLOT_DEC_1)
    assert report.posted == 1  # only the readings
    assert [m.embeds[0]["title"] for m in harness.channel_messages] == [
        "Mass readings — Tuesday 1 December 2026"
    ]


async def test_the_readings_feed_is_called_mass_readings_as_everywhere(
    harness: Harness, clock: FakeWallClock
) -> None:
    """One name for the feed: "Mass readings", as in its choice, /readings and /daily status."""
    set_readings = await _set(harness, feed="readings")
    _private_reply(set_readings)
    assert _title(set_readings) == "Daily Mass readings set"
    stopped = await harness.slash("daily off", member_permissions=ADMIN, feed="readings")
    assert _title(stopped) == "Daily Mass readings stopped"
    again = await harness.slash("daily off", member_permissions=ADMIN, feed="readings")
    assert "This server has no daily Mass readings post." in _description(again)


# --- /daily preview ----------------------------------------------------------------------------


async def test_preview_is_private_pings_nobody_and_posts_nothing(
    harness: Harness, clock: FakeWallClock, fake: FakeMagisterium
) -> None:
    role = backend.make_role("faithful", harness.guild, mentionable=True)
    _private_reply(await _set(harness, role=role))
    assert fake.count() == 0

    result = await harness.slash("daily preview", member_permissions=ADMIN, feed="saints")
    callback = result.callback
    assert callback is not None and callback.payload is not None
    assert callback.callback_type == 5  # deferred…
    assert callback.payload["data"]["flags"] & EPHEMERAL  # …ephemerally
    assert result.ephemeral and not result.left_thinking and not result.rejected
    assert [e["title"] for e in result.embeds] == ["Saints of the day — Tuesday 1 December 2026"]
    (header,) = result.contents
    assert header.startswith("**Preview**")
    assert harness.channel.mention in header and role.mention in header
    assert result.allowed_mentions == {"parse": []}  # a preview pings nobody
    assert harness.channel_messages == []  # nothing went to the channel
    assert fake.count(skill="saints_of_the_day") == 1
    assert fake.count() == 1

    # The real post carries the same title, and pings the role.
    await _cog(harness).tick(SLOT_DEC_1)
    (posted,) = harness.messages_in(harness.channel)
    assert [e["title"] for e in posted.embeds] == [e["title"] for e in result.embeds]
    assert posted.content == role.mention
    assert posted.allowed_mentions == {"parse": [], "roles": [role.id]}


async def test_preview_without_a_schedule(
    harness: Harness, clock: FakeWallClock, fake: FakeMagisterium
) -> None:
    result = await harness.slash("daily preview", member_permissions=ADMIN, feed="readings")
    assert result.ephemeral
    assert [e["title"] for e in result.embeds] == ["Mass readings — Tuesday 1 December 2026"]
    assert "not scheduled yet" in result.contents[0]
    assert harness.channel_messages == []
    assert fake.count(skill="liturgical_readings") == 1


# --- "Read it all" -----------------------------------------------------------------------------
# The fake's readings and martyrology are short (Fault.HUGE_ANSWER only applies to catholic_qa),
# so no daily post ever carries the button here. The button is a DynamicItem: a post made
# before a restart is enough to show that a click opens the pager privately for the clicker.


async def test_read_it_all_opens_a_private_pager_for_whoever_clicks(
    harness: Harness, fake: FakeMagisterium
) -> None:
    custom_id = "daily:all:saints:2026-12-01"
    button = {"type": 2, "style": 2, "label": "Read it all", "custom_id": custom_id}
    post = harness.existing_message(
        embeds=[{"title": "Saints of the day — Tuesday 1 December 2026"}],
        components=[{"type": 1, "components": [button]}],
    )
    reader = harness.user(name="reader")
    result = await harness.click(post, custom_id, user=reader)
    callback = result.callback
    assert callback is not None and callback.payload is not None
    assert callback.callback_type == 5 and callback.payload["data"]["flags"] & EPHEMERAL
    assert result.ephemeral and not result.left_thinking and not result.rejected
    message = result.message
    assert message is not None and message.visible_to == reader.id
    assert result.embeds[0]["title"] == "Saints of the day — Tuesday 1 December 2026"
    assert fake.count(skill="saints_of_the_day") == 1
    assert fake.requests[-1].parts == [{"kind": "data", "data": {"date": "2026-12-01"}}]
    assert harness.channel_messages == []


# --- languages ---------------------------------------------------------------------------------
# No catalogue is needed for dates: Babel writes them in every language. For the texts, a fake
# German catalogue stands in for the real one (which translators fill in).

TUESDAY_DE = "Dienstag, 1. Dezember 2026"
TUESDAY_PL = "wtorek, 1 grudnia 2026"


@pytest.fixture
def wrapping_german(monkeypatch: pytest.MonkeyPatch) -> None:
    """German "translates" by wrapping; every other language is the English source."""

    wrap_locales(monkeypatch, lambda locale: locale == "de")


def _status(result: InteractionResult) -> str:
    _private_reply(result)
    return _status_text(result)


async def test_the_language_option_offers_each_language_by_its_own_name(harness: Harness) -> None:
    daily = harness.bot.tree.get_command("daily")
    assert isinstance(daily, discord.app_commands.Group)
    command = daily.get_command("set")
    assert isinstance(command, discord.app_commands.Command)
    language = command.get_parameter("language")
    assert language is not None and not language.required  # none: the server's language
    assert [(c.name, c.value) for c in language.choices] == [
        (name, code) for code, name in LANGUAGES.items()
    ]
    assert ("Deutsch", "de") in [(c.name, c.value) for c in language.choices]


async def test_a_chosen_language_is_stored_shown_and_replaced_by_the_next_set(
    harness: Harness, clock: FakeWallClock
) -> None:
    store = _services(harness).schedules
    chosen = await _set(harness, language="pl")
    _private_reply(chosen)
    assert "**Language:** Polski" in _description(chosen)
    schedule = await store.get(harness.guild.id, Feed.SAINTS)
    assert schedule is not None and schedule.locale == "pl"
    status = _status(await harness.slash("daily status", member_permissions=ADMIN))
    assert "**Language:** Polski" in status

    plain = await _set(harness)  # no language: back to the server's
    _private_reply(plain)
    assert "**Language:**" not in _description(plain)
    schedule = await store.get(harness.guild.id, Feed.SAINTS)
    assert schedule is not None and schedule.locale is None
    status = _status(await harness.slash("daily status", member_permissions=ADMIN))
    assert "**Language:** the server's language (English)" in status


async def test_status_names_the_servers_own_language(
    harness: Harness, clock: FakeWallClock
) -> None:
    harness.guild.preferred_locale = discord.Locale.german
    _private_reply(await _set(harness))
    _private_reply(await _set(harness, feed="readings", language="es_419"))
    status = _status(await harness.slash("daily status", member_permissions=ADMIN))
    readings, saints = status.split("Saints of the day — ")  # ordered by feed
    assert "**Language:** the server's language (Deutsch)" in saints
    assert "**Language:** Español (Latinoamérica)" in readings


async def test_preview_shows_the_post_in_the_servers_language_and_the_header_in_the_admins(
    harness: Harness, clock: FakeWallClock, fake: FakeMagisterium
) -> None:
    harness.guild.preferred_locale = discord.Locale.german
    _private_reply(await _set(harness))
    result = await harness.slash("daily preview", member_permissions=ADMIN, feed="saints")
    assert result.ephemeral
    (embed,) = result.embeds
    assert str(embed["title"]).endswith(f" — {TUESDAY_DE}")
    # Magisterium's "Tuesday, December 1, 2026" in the text is written as the title writes it.
    assert f"Roman Martyrology — {TUESDAY_DE}" in str(embed["description"])
    assert "December 1, 2026" not in str(embed["description"])
    (header,) = result.contents
    assert header.startswith("**Preview** — what") and harness.channel.mention in header


async def test_preview_follows_the_schedules_language_over_the_servers(
    harness: Harness, clock: FakeWallClock, fake: FakeMagisterium
) -> None:
    harness.guild.preferred_locale = discord.Locale.german
    _private_reply(await _set(harness, feed="readings", language="pl"))
    result = await harness.slash("daily preview", member_permissions=ADMIN, feed="readings")
    assert [str(e["title"]).split(" — ")[-1] for e in result.embeds] == [TUESDAY_PL]


async def test_a_german_admin_reads_daily_in_german(
    harness: Harness, clock: FakeWallClock, wrapping_german: None
) -> None:
    """The admin's own language (their Discord client's) for every answer, dates included;
    the posts' language is the server's."""
    result = await _set(harness, locale="de")
    _private_reply(result)
    assert _title(result) == "⟦Daily saints of the day set⟧"
    text = _description(result)
    assert f"{TUESDAY_DE}, 07:00 Europe/Berlin (06:00 UTC)" in text
    status = _status(await harness.slash("daily status", member_permissions=ADMIN, locale="de"))
    assert "⟦⟦Saints of the day⟧ — ⟦✅ active⟧⟧" in status
    assert f"⟦{TUESDAY_DE}, 07:00 Europe/Berlin (06:00 UTC) · {_ts(SLOT_DEC_1)}⟧" in status
    assert "⟦**Language:** ⟦the server's language (English)⟧⟧" in status


async def test_a_german_admin_sees_permission_names_translated(
    harness: Harness, clock: FakeWallClock, wrapping_german: None
) -> None:
    channel = harness.make_text_channel("daily")
    _restrict_bot(harness, channel, send_messages=False, embed_links=False)
    result = await _set(harness, channel=channel, locale="de")
    text = await _refused(harness, result, "⟦I cannot post there yet⟧")
    assert _bold(text) == ["⟦Send Messages⟧", "⟦Embed Links⟧"]
    assert channel.mention in text


async def test_english_daily_texts_do_not_touch_the_german_catalogue(
    harness: Harness, clock: FakeWallClock, wrapping_german: None
) -> None:
    result = await _set(harness)
    _private_reply(result)
    assert _title(result) == "Daily saints of the day set"
    assert_not_shown("⟦", result.embeds)
