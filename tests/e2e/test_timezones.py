"""Today is the person's today: /readings and /saints through the harness in the zone resolved
for the person asking (their own, their /mydaily, the server's, its /daily, else UTC, said so);
/account timezone and /server timezone."""

from __future__ import annotations

import datetime as dt
from typing import cast

import discord
import pytest
from discord import app_commands

from bot.app import MagisteriumBot
from bot.daily import Feed
from bot.services.timezones import TimezoneStore
from bot.storage import Database
from devtools.discord import CommandUnavailable, Harness, HarnessUser, InteractionResult
from devtools.fake_magisterium import FakeMagisterium
from tests.support.day_clock import DAY_COGS, set_cog_clock
from tests.support.embed_parts import everything_shown, shown

ADMIN = discord.Permissions(manage_guild=True)
# 06:30 UTC on Friday 20 March 2026: 23:30 on Thursday 19 March in Los Angeles (PDT).
LA_LATE = dt.datetime(2026, 3, 20, 6, 30, tzinfo=dt.UTC)
# 23:00 UTC on Thursday 19 March 2026: 08:00 on Friday 20 March in Seoul.
SEOUL_MORNING = dt.datetime(2026, 3, 19, 23, 0, tzinfo=dt.UTC)
THURSDAY, FRIDAY = "Thursday 19 March 2026", "Friday 20 March 2026"
UTC_NOTE = "Today in UTC"


class Clock:
    """The instant every cog that reads the time sees; a test sets ``now``."""

    def __init__(self, now: dt.datetime) -> None:
        self.now = now

    def __call__(self) -> dt.datetime:
        return self.now


@pytest.fixture
def clock(harness: Harness) -> Clock:
    clock = Clock(LA_LATE)
    set_cog_clock(harness, clock, (*DAY_COGS, "AccountCog", "ServerCog"))
    return clock


def _bot(harness: Harness) -> MagisteriumBot:
    return cast(MagisteriumBot, harness.bot)


async def _set_zone(harness: Harness, user: HarnessUser, zone: str) -> InteractionResult:
    result = await harness.slash("account timezone", user=user, zone=zone)
    assert result.ephemeral, result.transcript
    return result


def _title(result: InteractionResult) -> str:
    return str(result.embeds[0]["title"])


def _asked_date(fake: FakeMagisterium) -> object:
    return fake.requests[-1].parts[0]["data"]["date"]


def _says_utc(result: InteractionResult) -> bool:
    return UTC_NOTE in shown(result.embeds, "field_name")


# --- the day of /saints and /readings ------------------------------------------------------------


@pytest.mark.parametrize(
    ("instant", "los_angeles", "seoul", "utc"),
    [(LA_LATE, THURSDAY, FRIDAY, FRIDAY), (SEOUL_MORNING, THURSDAY, FRIDAY, THURSDAY)],
)
async def test_each_person_gets_their_own_today(
    harness: Harness,
    fake: FakeMagisterium,
    clock: Clock,
    instant: dt.datetime,
    los_angeles: str,
    seoul: str,
    utc: str,
) -> None:
    la, kim, nobody = harness.user(name="la"), harness.user(name="kim"), harness.user()
    await _set_zone(harness, la, "America/Los_Angeles")
    await _set_zone(harness, kim, "asia/seoul")  # any case: the canonical name is stored
    clock.now = instant
    for user, day in ((la, los_angeles), (kim, seoul), (nobody, utc)):
        result = await harness.slash("saints", user=user)
        assert _title(result) == f"Saints of the day — {day}"
        assert _says_utc(result) is (user is nobody)
    note = shown((await harness.slash("saints", user=nobody)).embeds, "field_value")
    assert any("`/account timezone`" in text for text in note)


async def test_readings_and_relative_dates_count_from_the_local_day(
    harness: Harness, fake: FakeMagisterium, clock: Clock
) -> None:
    la = harness.user(name="la")
    await _set_zone(harness, la, "America/Los_Angeles")
    result = await harness.slash("readings", user=la, date="tomorrow")
    assert fake.requests[-1].parts == [{"kind": "text", "text": "2026-03-20"}]
    assert _title(result) == f"Mass readings — {FRIDAY}"
    assert not _says_utc(result)


async def test_a_dst_day_uses_the_zones_rules_not_a_fixed_offset(
    harness: Harness, fake: FakeMagisterium, clock: Clock
) -> None:
    la = harness.user(name="la")
    await _set_zone(harness, la, "America/Los_Angeles")
    # Clocks sprang forward on Sunday 8 March: 07:30 UTC on the 9th is 00:30 PDT on Monday.
    # A fixed PST offset (-8) would still say 23:30 on Sunday.
    clock.now = dt.datetime(2026, 3, 9, 7, 30, tzinfo=dt.UTC)
    await harness.slash("saints", user=la)
    assert _asked_date(fake) == "2026-03-09"
    berlin = harness.user(name="berlin")
    await _set_zone(harness, berlin, "Europe/Berlin")
    # Sunday 25 October, 00:30 CEST (Berlin falls back at 03:00): a fixed CET offset says the
    # 24th.
    clock.now = dt.datetime(2026, 10, 24, 22, 30, tzinfo=dt.UTC)
    await harness.slash("saints", user=berlin)
    assert _asked_date(fake) == "2026-10-25"


async def test_the_person_beats_the_server_and_a_dm_ignores_the_server(
    harness: Harness, fake: FakeMagisterium, clock: Clock
) -> None:
    clock.now = SEOUL_MORNING
    admin = harness.user(name="admin")
    set_by_admin = await harness.slash(
        "server timezone", user=admin, member_permissions=ADMIN, zone="Asia/Seoul"
    )
    assert set_by_admin.ephemeral and _title(set_by_admin) == "Server timezone saved"
    la, member = harness.user(name="la"), harness.user(name="member")
    await _set_zone(harness, la, "America/Los_Angeles")

    assert _title(await harness.slash("saints", user=la)) == f"Saints of the day — {THURSDAY}"
    in_server = await harness.slash("saints", user=member)
    assert _title(in_server) == f"Saints of the day — {FRIDAY}" and not _says_utc(in_server)
    in_dm = await harness.slash("saints", user=member, dm=True)
    assert _title(in_dm) == f"Saints of the day — {THURSDAY}" and _says_utc(in_dm)
    # Another server the member is in knows nothing of the first one's zone.
    other = harness.make_guild("other parish").guild
    elsewhere = await harness.slash("saints", user=member, guild=other)
    assert _says_utc(elsewhere)


async def test_mydaily_and_daily_zones_apply_when_none_is_set(
    harness: Harness, fake: FakeMagisterium, clock: Clock
) -> None:
    services = _bot(harness).services
    person, member = harness.user(name="person"), harness.user(name="member")
    clock.now = SEOUL_MORNING
    await services.personal_schedules.save(
        user_id=person.id,
        feed=Feed.SAINTS,
        post_time=dt.time(7),
        timezone="Asia/Seoul",
        locale="en",
        now=clock.now,
    )
    in_dm = await harness.slash("saints", user=person, dm=True)
    assert _title(in_dm) == f"Saints of the day — {FRIDAY}" and not _says_utc(in_dm)
    shown_zone = await harness.slash("account timezone", user=person, dm=True)
    assert "**Asia/Seoul** — the timezone of your `/mydaily` post." in str(
        shown_zone.embeds[0]["description"]
    )

    await services.schedules.save(
        guild_id=harness.guild.id,
        feed=Feed.READINGS,
        channel_id=harness.channel.id,
        post_time=dt.time(7),
        timezone="Asia/Tokyo",
        role_id=None,
        owner_id=person.id,
        token_source="shared",
        now=clock.now,
    )
    result = await harness.slash("readings", user=member)
    assert _title(result) == f"Mass readings — {FRIDAY}" and not _says_utc(result)


async def test_autocomplete_labels_use_the_local_day(
    harness: Harness, fake: FakeMagisterium, clock: Clock
) -> None:
    clock.now = SEOUL_MORNING
    kim, nobody = harness.user(name="kim"), harness.user()
    await _set_zone(harness, kim, "Asia/Seoul")
    for command in ("saints", "readings"):
        choices = list(await harness.autocomplete(command, "date", "tod", user=kim))
        assert choices[0] == {"name": f"Today — {FRIDAY}", "value": "2026-03-20"}
        choices = list(await harness.autocomplete(command, "date", "tod", user=nobody))
        assert choices[0] == {"name": f"Today — {THURSDAY}", "value": "2026-03-19"}
    assert fake.count() == 0


async def test_the_day_buttons_move_from_the_shown_date(
    harness: Harness, fake: FakeMagisterium, clock: Clock
) -> None:
    kim = harness.user(name="kim")
    await _set_zone(harness, kim, "Asia/Seoul")
    clock.now = SEOUL_MORNING
    first = await harness.slash("saints", user=kim)
    after = await harness.click(first, "saints:day:2026-03-21", user=kim)
    assert _asked_date(fake) == "2026-03-21"
    assert _title(after) == "Saints of the day — Saturday 21 March 2026"
    assert after.message is not None
    before = await harness.click(after.message, "saints:day:2026-03-20", user=kim)
    assert _title(before) == f"Saints of the day — {FRIDAY}"


async def test_a_database_that_is_down_gives_utc_never_an_error(
    harness: Harness, fake: FakeMagisterium, clock: Clock
) -> None:
    services = _bot(harness).services
    kim = harness.user(name="kim")
    await _set_zone(harness, kim, "Asia/Seoul")
    async with Database("postgresql+asyncpg://nobody@127.0.0.1:1/none") as down:
        services.timezones = TimezoneStore(down)
        result = await harness.slash("saints", user=kim)
        choices = list(await harness.autocomplete("saints", "date", "tod", user=kim))
    assert not result.ephemeral and _says_utc(result)
    assert _title(result) == f"Saints of the day — {FRIDAY}"  # UTC's day at LA_LATE
    assert choices[0]["value"] == "2026-03-20"
    assert any("timezone unknown, using UTC" in r.getMessage() for r in result.log_records)


# --- /account timezone ----------------------------------------------------------------------------


async def test_account_timezone_sets_shows_and_goes_back_to_automatic(
    harness: Harness, clock: Clock
) -> None:
    kim = harness.user(name="kim")
    before = await harness.slash("account timezone", user=kim)
    assert before.ephemeral and _title(before) == "Your timezone"
    assert "**UTC** — UTC, as no timezone is set." in str(before.embeds[0]["description"])

    saved = await _set_zone(harness, kim, "Asia/Seoul")
    assert _title(saved) == "Timezone saved"
    description = str(saved.embeds[0]["description"])
    assert description.startswith("**Asia/Seoul** — set with `/account timezone`. ")
    assert f"There, today is {FRIDAY}." in description  # 15:30 in Seoul at LA_LATE

    # Works in DMs too, and the zone is the person's everywhere.
    in_dm = await harness.slash("account timezone", user=kim, dm=True)
    assert "**Asia/Seoul**" in str(in_dm.embeds[0]["description"])

    automatic = await harness.slash("account timezone", user=kim, zone="auto")
    assert _title(automatic) == "Timezone set to automatic"
    assert "**UTC** — UTC, as no timezone is set." in str(automatic.embeds[0]["description"])
    assert (await _bot(harness).services.timezones.resolve(kim.id, None)).fallback


async def test_account_timezone_refuses_an_unknown_zone_privately(
    harness: Harness, clock: Clock
) -> None:
    kim = harness.user(name="kim")
    result = await harness.slash("account timezone", user=kim, zone="Asia/Seol")
    assert result.ephemeral
    assert shown(result.embeds, "title") == ["Unknown timezone"]
    assert "`Asia/Seoul`" in str(result.embeds[0]["description"])
    nothing = await harness.slash("account timezone", user=kim, zone="Nowhere/At_All")
    assert "Did you mean" not in str(nothing.embeds[0]["description"])
    assert (await _bot(harness).services.timezones.resolve(kim.id, None)).fallback


async def test_account_timezone_takes_a_city_with_one_zone_and_says_which(
    harness: Harness, clock: Clock
) -> None:
    kim = harness.user(name="kim")
    saved = await _set_zone(harness, kim, "berlin")
    assert _title(saved) == "Timezone saved"
    assert str(saved.embeds[0]["description"]).startswith("**Europe/Berlin** — set with ")
    assert (await _bot(harness).services.timezones.resolve(kim.id, None)).name == "Europe/Berlin"

    several = await harness.slash("account timezone", user=kim, zone="buenos aires")
    assert shown(several.embeds, "title") == ["Unknown timezone"]
    assert "Did you mean `America/Argentina/Buenos_Aires`" in str(several.embeds[0]["description"])


async def test_account_timezone_takes_the_automatic_label_typed_in_the_persons_language(
    harness: Harness, clock: Clock
) -> None:
    jeanne = harness.user(name="jeanne", locale="fr")
    await _set_zone(harness, jeanne, "Asia/Seoul")
    offered = await harness.autocomplete("account timezone", "zone", "", user=jeanne, locale="fr")
    label = str(next(iter(offered))["name"])
    assert label.startswith("Automatique — ") and len(label) > 64

    automatic = await harness.slash(
        "account timezone", user=jeanne, locale="fr", zone=f"  {label.upper()} "
    )
    assert automatic.ephemeral and _title(automatic) == "Fuseau horaire en automatique"
    assert (await _bot(harness).services.timezones.resolve(jeanne.id, None)).fallback


async def test_account_timezone_autocomplete_offers_automatic_then_zones(
    harness: Harness,
) -> None:
    empty = list(await harness.autocomplete("account timezone", "zone", ""))
    assert empty[0]["value"] == "auto" and str(empty[0]["name"]).startswith("Automatic — ")
    assert 1 < len(empty) <= 25 and all(len(str(c["name"])) <= 100 for c in empty)
    seoul = list(await harness.autocomplete("account timezone", "zone", "seoul"))
    assert seoul == [{"name": "Asia/Seoul", "value": "Asia/Seoul"}]
    auto = list(await harness.autocomplete("account timezone", "zone", "aut"))
    assert auto[0]["value"] == "auto"


async def test_unlink_deletes_the_persons_timezone(
    harness: Harness, fake: FakeMagisterium, clock: Clock
) -> None:
    kim = harness.user(name="kim")
    await _set_zone(harness, kim, "Asia/Seoul")
    await harness.slash("account unlink", user=kim)
    zone = await _bot(harness).services.timezones.resolve(kim.id, None)
    assert zone.fallback
    assert _says_utc(await harness.slash("saints", user=kim))


# --- /server timezone -----------------------------------------------------------------------------


async def test_server_timezone_by_an_admin_shows_sets_and_is_forgotten_on_removal(
    harness: Harness, clock: Clock
) -> None:
    shown_before = await harness.slash("server timezone", member_permissions=ADMIN)
    assert shown_before.ephemeral and _title(shown_before) == "This server's timezone"
    saved = await harness.slash("server timezone", member_permissions=ADMIN, zone="Europe/Rome")
    assert str(saved.embeds[0]["description"]).startswith(
        "**Europe/Rome** — this server's timezone, set with `/server timezone`. "
    )
    timezones = _bot(harness).services.timezones
    assert (await timezones.resolve(None, harness.guild.id)).name == "Europe/Rome"

    refused = await harness.slash("server timezone", member_permissions=ADMIN, zone="Rom")
    assert shown(refused.embeds, "title") == ["Unknown timezone"]
    assert "Did you mean" in str(refused.embeds[0]["description"])
    assert (await timezones.resolve(None, harness.guild.id)).name == "Europe/Rome"

    await harness.gateway("GUILD_DELETE", {"id": str(harness.guild.id), "unavailable": True})
    assert (await timezones.resolve(None, harness.guild.id)).name == "Europe/Rome"  # an outage
    await harness.gateway("GUILD_DELETE", {"id": str(harness.guild.id)})
    assert (await timezones.resolve(None, harness.guild.id)).fallback


async def test_server_timezone_automatic_and_who_may_run_it(harness: Harness, clock: Clock) -> None:
    rome = await harness.slash("server timezone", member_permissions=ADMIN, zone="rome")
    assert str(rome.embeds[0]["description"]).startswith("**Europe/Rome** — this server's ")
    automatic = await harness.slash("server timezone", member_permissions=ADMIN, zone="auto")
    assert _title(automatic) == "Server timezone set to automatic"
    assert "**UTC**" in " ".join(everything_shown(automatic.embeds))
    await harness.slash("server timezone", member_permissions=ADMIN, zone="Europe/Rome")
    label = "automatic — this server's /daily timezone, else utc"
    typed = await harness.slash("server timezone", member_permissions=ADMIN, zone=f" {label} ")
    assert _title(typed) == "Server timezone set to automatic"
    assert (await _bot(harness).services.timezones.resolve(None, harness.guild.id)).fallback
    with pytest.raises(CommandUnavailable, match="manage_guild"):
        await harness.slash("server timezone", zone="Europe/Rome")
    with pytest.raises(CommandUnavailable, match="not offered in a"):
        await harness.slash("server timezone", dm=True, member_permissions=ADMIN)
    choices = list(
        await harness.autocomplete("server timezone", "zone", "", member_permissions=ADMIN)
    )
    assert choices[0]["value"] == "auto" and "/daily" in str(choices[0]["name"])


def test_the_zone_options_are_optional_and_autocompleted(harness: Harness) -> None:
    for group in ("account", "server"):
        command = harness.bot.tree.get_command(group)
        assert isinstance(command, app_commands.Group)
        timezone = command.get_command("timezone")
        assert isinstance(timezone, app_commands.Command)
        (option,) = timezone.to_dict(harness.bot.tree)["options"]
        assert option["name"] == "zone" and option["autocomplete"] and not option["required"]
