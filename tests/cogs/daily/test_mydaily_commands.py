"""/mydaily set|off|status through the harness: real interactions, what Discord is sent.

From a server, from the bot's DM and from a private channel (the user-installed app); bad
times and timezones; the timezone's autocomplete; whose token it will post with, and the
person with none; /account unlink deleting it. The commands' clock is fixed (``clock``).
"""

from __future__ import annotations

import datetime as dt
from typing import Any, cast

import pytest
from pydantic import SecretStr

from bot.app import MagisteriumBot
from bot.daily import Feed, ScheduleStatus
from bot.daily.personal_store import PersonalScheduleStore
from devtools.discord import Harness, HarnessUser, InteractionResult
from devtools.fake_magisterium import FakeMagisterium
from tests.support.embed_parts import everything_shown
from tests.support.fakes import FakeWallClock

EPHEMERAL = 64
# Tuesday 1 December 2026, 05:00 UTC = 06:00 in Berlin: before a 07:00 slot.
DEC_1_0500 = dt.datetime(2026, 12, 1, 5, 0, tzinfo=dt.UTC)
SLOT_DEC_1 = dt.datetime(2026, 12, 1, 6, 0, tzinfo=dt.UTC)
TRACEBACK_MARKERS = ("Traceback", 'File "', "Exception", "Error:")


def _cog(harness: Harness, name: str = "PersonalDailyCog") -> Any:
    cog = harness.bot.get_cog(name)
    assert cog is not None
    return cog


def _store(harness: Harness) -> PersonalScheduleStore:
    return cast(MagisteriumBot, harness.bot).services.personal_schedules


@pytest.fixture
def clock(harness: Harness) -> FakeWallClock:
    fixed = FakeWallClock(DEC_1_0500)
    _cog(harness).now = fixed
    _cog(harness, "DailyCog").now = fixed
    return fixed


@pytest.fixture
def person(harness: Harness) -> HarnessUser:
    return harness.user(name="anna")


async def _set(
    harness: Harness,
    user: HarnessUser,
    *,
    feed: str = "saints",
    time: str = "07:00",
    timezone: str = "Europe/Berlin",
    language: str | None = None,
    **where: Any,
) -> InteractionResult:
    values: dict[str, Any] = {"feed": feed, "time": time, "timezone": timezone}
    if language is not None:
        values["language"] = language
    return await harness.slash("mydaily set", user=user, **where, **values)


def _private_reply(result: InteractionResult) -> dict[str, Any]:
    """Answered at once (type 4), ephemeral, one embed, no traceback; the embed."""
    assert result.callback_type == 4, result.transcript
    assert result.ephemeral
    assert result.message is not None and result.message.flags & EPHEMERAL
    shown = [*everything_shown(result.embeds), *result.contents]
    assert [text for text in shown if any(m in text for m in TRACEBACK_MARKERS)] == []
    (embed,) = result.embeds
    return embed


def _text(embed: dict[str, Any]) -> str:
    parts = [str(embed.get("description") or "")]
    parts += [f"{f['name']}\n{f['value']}" for f in embed.get("fields") or []]
    return "\n".join(parts)


# --- /mydaily set -------------------------------------------------------------------------------


async def test_set_from_a_server_confirms_privately_and_persists(
    harness: Harness, clock: FakeWallClock, person: HarnessUser, fake: FakeMagisterium
) -> None:
    embed = _private_reply(await _set(harness, person))
    assert embed["title"] == "Daily saints of the day set"
    text = _text(embed)
    assert "Every day at **07:00** (Europe/Berlin) in your DMs." in text
    assert "**First post:** Tuesday 1 December 2026, 07:00 Europe/Berlin (06:00 UTC)" in text
    assert f"<t:{int(SLOT_DEC_1.timestamp())}:R>" in text
    assert "**Language:** English" in text
    assert embed["footer"]["text"].endswith("posts with the bot's shared account")
    schedule = await _store(harness).get(person.id, Feed.SAINTS)
    assert schedule is not None
    assert (schedule.post_time, schedule.timezone, schedule.locale) == (
        dt.time(7, 0),
        "Europe/Berlin",
        "en",
    )
    assert (schedule.status, schedule.token_source) == (ScheduleStatus.ACTIVE, "shared")
    assert schedule.dm_channel_id is None  # not known from a server: opened at the first post
    assert schedule.active_since == DEC_1_0500
    assert fake.count() == 0  # nothing fetched before the slot
    assert harness.dm_messages(person) == []


async def test_set_from_the_bots_dm_remembers_that_dm(
    harness: Harness, clock: FakeWallClock, person: HarnessUser
) -> None:
    _private_reply(await _set(harness, person, dm=True))
    schedule = await _store(harness).get(person.id, Feed.SAINTS)
    assert schedule is not None and schedule.dm_channel_id == harness.dm_channel_id(person)


async def test_set_from_a_private_channel_of_the_user_installed_app(
    harness: Harness, clock: FakeWallClock, person: HarnessUser
) -> None:
    _private_reply(await _set(harness, person, private_channel=True, feed="readings"))
    schedule = await _store(harness).get(person.id, Feed.READINGS)
    assert schedule is not None
    assert schedule.dm_channel_id is None  # a private channel is not the bot's DM


def test_mydaily_is_offered_everywhere_and_installable_to_servers_and_users(
    harness: Harness,
) -> None:
    command = harness.bot.tree.get_command("mydaily")
    assert command is not None
    payload = command.to_dict(harness.bot.tree)
    assert sorted(payload["contexts"]) == [0, 1, 2]  # guild, bot DM, private channel
    assert sorted(payload["integration_types"]) == [0, 1]  # guild install, user install
    assert payload.get("default_member_permissions") is None  # anyone, for themselves
    names = {option["name"] for option in payload["options"]}
    assert names == {"set", "off", "status"}


async def test_the_language_is_the_persons_discord_language_unless_chosen(
    harness: Harness, clock: FakeWallClock, person: HarnessUser
) -> None:
    _private_reply(await _set(harness, person, locale="de"))
    german = await _store(harness).get(person.id, Feed.SAINTS)
    assert german is not None and german.locale == "de"

    embed = _private_reply(await _set(harness, person, locale="de", language="pl"))
    assert "Polski" in _text(embed)
    chosen = await _store(harness).get(person.id, Feed.SAINTS)
    assert chosen is not None and chosen.locale == "pl"

    _private_reply(await _set(harness, person, locale="fr"))  # no choice: the locale again
    french = await _store(harness).get(person.id, Feed.SAINTS)
    assert french is not None and french.locale == "fr"


async def test_a_second_set_replaces_the_first_and_feeds_are_separate(
    harness: Harness, clock: FakeWallClock, person: HarnessUser
) -> None:
    _private_reply(await _set(harness, person))
    _private_reply(await _set(harness, person, time="8:15", timezone="america/new_york"))
    _private_reply(await _set(harness, person, feed="readings", time="06:00"))
    schedules = await _store(harness).of_user(person.id)
    assert [(s.feed, s.post_time, s.timezone) for s in schedules] == [
        (Feed.READINGS, dt.time(6, 0), "Europe/Berlin"),
        (Feed.SAINTS, dt.time(8, 15), "America/New_York"),
    ]
    other = harness.user(name="ben")
    assert await _store(harness).of_user(other.id) == []


@pytest.mark.parametrize("typed", ["25:00", "7", "seven", "07:60", "7:5"])
async def test_a_bad_time_says_hh_mm_and_stores_nothing(
    harness: Harness, clock: FakeWallClock, person: HarnessUser, typed: str
) -> None:
    embed = _private_reply(await _set(harness, person, time=typed))
    assert embed["title"] == "That time is not HH:MM"
    assert "`07:00`" in str(embed["description"])
    assert await _store(harness).of_user(person.id) == []


async def test_an_unknown_timezone_suggests_close_names_and_stores_nothing(
    harness: Harness, clock: FakeWallClock, person: HarnessUser
) -> None:
    embed = _private_reply(await _set(harness, person, timezone="Europe/Berlim", dm=True))
    assert embed["title"] == "Unknown timezone"
    assert "`Europe/Berlin`" in str(embed["description"])
    embed = _private_reply(await _set(harness, person, timezone="Mars/Olympus"))
    assert embed["title"] == "Unknown timezone"
    assert await _store(harness).of_user(person.id) == []


@pytest.mark.parametrize("where", [{}, {"dm": True}, {"private_channel": True}])
async def test_timezone_autocomplete(
    harness: Harness, fake: FakeMagisterium, where: dict[str, bool]
) -> None:
    async def zones(typed: str) -> list[Any]:
        choices = await harness.autocomplete("mydaily set", "timezone", typed, **where)
        assert choices.result.callback_type == 8
        assert len(choices) <= 25
        for choice in choices:
            assert 1 <= len(choice["name"]) <= 100 and 1 <= len(choice["value"]) <= 100
        return list(choices.values)

    assert await zones("new y") == ["America/New_York"]
    popular = await zones("")
    assert {"UTC", "Europe/Berlin", "America/New_York"} <= set(popular)
    assert len(await zones("a")) == 25  # Discord's cap
    assert fake.count() == 0


# --- whose token --------------------------------------------------------------------------------


async def test_a_linked_person_posts_with_their_own_account(
    harness: Harness, clock: FakeWallClock, person: HarnessUser
) -> None:
    await cast(MagisteriumBot, harness.bot).services.registry.link(
        person.id, SecretStr("pro-anna-token")
    )
    embed = _private_reply(await _set(harness, person))
    assert embed["footer"]["text"].endswith("posts with your Magisterium account")
    status = _private_reply(await harness.slash("mydaily status", user=person))
    assert "**Posts with:** your Magisterium account" in _text(status)


async def test_a_linked_but_refused_token_says_relink(
    harness: Harness, clock: FakeWallClock, person: HarnessUser
) -> None:
    registry = cast(MagisteriumBot, harness.bot).services.registry
    await registry.link(person.id, SecretStr("pro-anna-stale"))
    await registry.mark_invalid(person.id)
    embed = _private_reply(await _set(harness, person))
    assert embed["title"] == "Your Magisterium token no longer works"
    assert "/account link" in str(embed["description"])
    assert await _store(harness).of_user(person.id) == []


class TestWithoutOperatorToken:
    @pytest.fixture
    def harness_overrides(self) -> dict[str, Any]:
        return {"magisterium_token": None}

    async def test_a_person_with_no_token_is_told_how_to_link(
        self, harness: Harness, clock: FakeWallClock, person: HarnessUser
    ) -> None:
        for where in ({}, {"dm": True}):
            embed = _private_reply(await _set(harness, person, **where))
            assert embed["title"] == "Link your Magisterium account first"
            assert "`/account link`" in str(embed["description"])
        assert await _store(harness).of_user(person.id) == []

    async def test_a_linked_person_needs_no_operator_token(
        self, harness: Harness, clock: FakeWallClock, person: HarnessUser
    ) -> None:
        await cast(MagisteriumBot, harness.bot).services.registry.link(
            person.id, SecretStr("pro-anna-only")
        )
        _private_reply(await _set(harness, person))
        schedule = await _store(harness).get(person.id, Feed.SAINTS)
        assert schedule is not None and schedule.token_source == "own"


# --- /mydaily off and status --------------------------------------------------------------------


async def test_off_stops_it_then_says_nothing_to_stop(
    harness: Harness, clock: FakeWallClock, person: HarnessUser
) -> None:
    _private_reply(await _set(harness, person))
    _private_reply(await _set(harness, person, feed="readings"))
    stopped = _private_reply(await harness.slash("mydaily off", user=person, feed="saints"))
    assert stopped["title"] == "Daily saints of the day stopped"
    assert "`/mydaily set`" in str(stopped["description"])
    assert [s.feed for s in await _store(harness).of_user(person.id)] == [Feed.READINGS]
    again = _private_reply(await harness.slash("mydaily off", user=person, feed="saints", dm=True))
    assert again["title"] == "Nothing to stop"
    assert "You get no daily saints of the day in your DMs." in str(again["description"])
    stopped_readings = _private_reply(
        await harness.slash("mydaily off", user=person, feed="readings")
    )
    assert stopped_readings["title"] == "Daily Mass readings stopped"
    readings = _private_reply(await harness.slash("mydaily off", user=person, feed="readings"))
    assert "You get no daily Mass readings in your DMs." in str(readings["description"])


async def test_status_without_schedules_says_how_to_start(
    harness: Harness, clock: FakeWallClock, person: HarnessUser
) -> None:
    embed = _private_reply(await harness.slash("mydaily status", user=person, dm=True))
    assert embed["title"] == "Your daily posts"
    assert "`/mydaily set`" in str(embed["description"])


async def test_status_shows_next_post_then_last_post_with_a_link_to_the_dm(
    harness: Harness, clock: FakeWallClock, person: HarnessUser
) -> None:
    _private_reply(await _set(harness, person))
    embed = _private_reply(await harness.slash("mydaily status", user=person))
    text = _text(embed)
    assert "Saints of the day — ✅ active" in text
    assert "**Next post:** Tuesday 1 December 2026, 07:00 Europe/Berlin (06:00 UTC)" in text
    assert "**Last post:** none yet" in text
    assert "**Posts with:** the bot's shared Magisterium account" in text

    report = await _cog(harness, "DailyCog").tick(SLOT_DEC_1)
    assert report.posted == 1
    (dm,) = harness.dm_messages(person)
    clock.now = SLOT_DEC_1 + dt.timedelta(minutes=5)
    text = _text(_private_reply(await harness.slash("mydaily status", user=person)))
    assert "**Next post:** Wednesday 2 December 2026, 07:00 Europe/Berlin (06:00 UTC)" in text
    channel = harness.dm_channel_id(person)
    link = f"https://discord.com/channels/@me/{channel}/{dm.id}"
    assert f"**Last post:** Tuesday 1 December 2026 (<t:{int(SLOT_DEC_1.timestamp())}:f>)" in text
    assert f"[open]({link})" in text


async def test_status_is_each_persons_own(
    harness: Harness, clock: FakeWallClock, person: HarnessUser
) -> None:
    _private_reply(await _set(harness, person))
    other = harness.user(name="ben")
    embed = _private_reply(await harness.slash("mydaily status", user=other))
    assert "`/mydaily set`" in str(embed["description"])
    assert embed.get("fields") in (None, [])


# --- /account unlink ----------------------------------------------------------------------------


async def test_account_unlink_deletes_the_persons_daily_posts_and_claims(
    harness: Harness, clock: FakeWallClock, person: HarnessUser
) -> None:
    await cast(MagisteriumBot, harness.bot).services.registry.link(
        person.id, SecretStr("pro-anna-token")
    )
    _private_reply(await _set(harness, person))
    _private_reply(await _set(harness, person, feed="readings"))
    other = harness.user(name="ben")
    _private_reply(await _set(harness, other))
    assert (await _cog(harness, "DailyCog").tick(SLOT_DEC_1)).posted == 3
    store = _store(harness)
    assert await store.claims(person.id, Feed.SAINTS) == {SLOT_DEC_1.date(): "posted"}

    gone = await harness.slash("account unlink", user=person, dm=True)
    assert gone.ephemeral
    assert await store.of_user(person.id) == []
    assert await store.claims(person.id, Feed.SAINTS) == {}
    assert await store.claims(person.id, Feed.READINGS) == {}
    assert [s.feed for s in await store.of_user(other.id)] == [Feed.SAINTS]  # others' stay
    tomorrow = SLOT_DEC_1 + dt.timedelta(days=1)
    assert (await _cog(harness, "DailyCog").tick(tomorrow)).posted == 1  # ben's only
    assert len(harness.dm_messages(person)) == 2
