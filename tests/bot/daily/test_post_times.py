"""When a schedule posts (bot.daily.post_times): time parsing, slots across DST gaps and folds,
the grace window, the next post, backoff and timezone names. Pure functions: no database, no
bot.

The minute-by-minute walks stand in for the scheduler: every minute ``due_date`` is asked, and
a date it returns is "posted" unless the claim set already holds it, as the persisted claim on
(schedule, local date) does for the real scheduler (across restarts too: the set outlives any
one tick).
"""

from __future__ import annotations

import datetime as dt
import zoneinfo
from zoneinfo import ZoneInfo

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.daily.post_times import (
    DEFAULT_GRACE,
    backoff,
    due_date,
    local_date,
    next_post,
    parse_time,
    slot_instant,
)
from bot.daily.schedule import Feed, Schedule, ScheduleStatus
from bot.daily.zones import POPULAR, find_zone, suggest_zones

UTC = dt.UTC
MINUTE = dt.timedelta(minutes=1)
LONG_AGO = dt.datetime(2000, 1, 1, tzinfo=UTC)


def schedule(
    at: str, zone: str, *, active_since: dt.datetime = LONG_AGO, **changes: object
) -> Schedule:
    post_time = parse_time(at)
    assert post_time is not None
    values: dict[str, object] = {
        "guild_id": 1,
        "feed": Feed.SAINTS,
        "channel_id": 10,
        "post_time": post_time,
        "timezone": zone,
        "role_id": None,
        "owner_id": 100,
        "token_source": "own",
        "status": ScheduleStatus.ACTIVE,
        "status_reason": None,
        "active_since": active_since,
    }
    return Schedule(**(values | changes))  # type: ignore[arg-type]


def utc(text: str) -> dt.datetime:
    return dt.datetime.fromisoformat(text).replace(tzinfo=UTC)


def local(text: str, zone: str, *, fold: int = 0) -> dt.datetime:
    """A wall-clock time in ``zone`` as an aware UTC instant."""
    wall = dt.datetime.fromisoformat(text).replace(tzinfo=ZoneInfo(zone), fold=fold)
    return wall.astimezone(UTC)


def walk(
    plan: Schedule,
    start: dt.datetime,
    end: dt.datetime,
    *,
    grace: dt.timedelta = DEFAULT_GRACE,
    claimed: set[dt.date] | None = None,
) -> dict[dt.date, dt.datetime]:
    """Tick every minute in [start, end): the instant each local date was posted at."""
    claims = set() if claimed is None else claimed
    posts: dict[dt.date, dt.datetime] = {}
    now = start
    while now < end:
        day = due_date(plan, now, grace=grace)
        if day is not None and day not in claims:
            claims.add(day)
            posts[day] = now
        now += MINUTE
    return posts


def due_minutes(
    plan: Schedule, start: dt.datetime, end: dt.datetime, day: dt.date
) -> list[dt.datetime]:
    """Every minute in [start, end) at which ``day`` is due (claims ignored)."""
    minutes = []
    now = start
    while now < end:
        if due_date(plan, now) == day:
            minutes.append(now)
        now += MINUTE
    return minutes


# -- parse_time


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("07:00", dt.time(7, 0)),
        ("7:05", dt.time(7, 5)),
        ("23:59", dt.time(23, 59)),
        ("00:00", dt.time(0, 0)),
        ("19.05", dt.time(19, 5)),
        ("7h30", dt.time(7, 30)),
        (" 08 : 15 ", dt.time(8, 15)),
    ],
)
def test_parse_time_accepts_the_usual_ways_to_write_a_time(text: str, expected: dt.time) -> None:
    assert parse_time(text) == expected


@pytest.mark.parametrize(
    "text",
    ["24:00", "7:60", "7", "", "noon", "07:00:00", "7:5", "-1:00", "12:00 pm", "07-30", "7h"],
)
def test_parse_time_rejects_anything_else(text: str) -> None:
    assert parse_time(text) is None


# -- slots on DST days

GAPS = [
    # (zone, spring-forward day, slot inside the gap, the UTC instant it resolves to)
    ("America/New_York", "2026-03-08", "02:30", "2026-03-08T07:30"),  # = 03:30 EDT
    ("Europe/Berlin", "2026-03-29", "02:30", "2026-03-29T01:30"),  # = 03:30 CEST
    ("Australia/Sydney", "2026-10-04", "02:30", "2026-10-03T16:30"),  # = 03:30 AEDT
]
FOLDS = [
    # (zone, fall-back day, slot inside the fold, the UTC instant of its first occurrence)
    ("America/New_York", "2026-11-01", "01:30", "2026-11-01T05:30"),  # 01:30 EDT, not EST
    ("Europe/Berlin", "2026-10-25", "02:30", "2026-10-25T00:30"),  # 02:30 CEST, not CET
    ("Australia/Sydney", "2026-04-05", "02:30", "2026-04-04T15:30"),  # 02:30 AEDT, not AEST
]


@pytest.mark.parametrize(("zone", "day", "at", "instant"), GAPS)
def test_a_slot_inside_a_gap_is_one_gap_later(zone: str, day: str, at: str, instant: str) -> None:
    date = dt.date.fromisoformat(day)
    slot = slot_instant(date, parse_time(at) or dt.time(), ZoneInfo(zone))

    assert slot == utc(instant)
    assert slot.tzinfo is UTC
    # The wall time does not exist: the clock reads 03:30 at that instant, on the same date.
    assert slot.astimezone(ZoneInfo(zone)).time() == dt.time(3, 30)
    assert local_date(slot, ZoneInfo(zone)) == date


@pytest.mark.parametrize(("zone", "day", "at", "instant"), FOLDS)
def test_a_slot_inside_a_fold_is_its_first_occurrence(
    zone: str, day: str, at: str, instant: str
) -> None:
    date = dt.date.fromisoformat(day)
    slot = slot_instant(date, parse_time(at) or dt.time(), ZoneInfo(zone))

    first, second = local(f"{day}T{at}", zone, fold=0), local(f"{day}T{at}", zone, fold=1)
    assert second - first == dt.timedelta(hours=1)
    assert slot == first == utc(instant)


@pytest.mark.parametrize(("zone", "day", "at", "instant"), GAPS + FOLDS)
def test_a_dst_day_posts_once_at_the_resolved_slot(
    zone: str, day: str, at: str, instant: str
) -> None:
    date = dt.date.fromisoformat(day)
    plan = schedule(at, zone)
    start = local(f"{day}T00:00", zone)  # the local day and the next, minute by minute
    end = local(f"{date + dt.timedelta(days=2)}T00:00", zone)

    posts = walk(plan, start, end)

    assert posts == {
        date: utc(instant),
        date + dt.timedelta(days=1): slot_instant(
            date + dt.timedelta(days=1), plan.post_time, plan.zone
        ),
    }
    # Without the claim it would be due every minute of exactly one unbroken grace window,
    # which on a fold day covers the second 01:30 / 02:30 too: the claim is what stops it.
    due = due_minutes(plan, start, end, date)
    assert due[0] == utc(instant)
    assert len(due) == DEFAULT_GRACE // MINUTE
    assert due[-1] - due[0] == DEFAULT_GRACE - MINUTE


@pytest.mark.parametrize(("zone", "day", "at", "instant"), FOLDS)
def test_the_second_occurrence_of_a_fold_slot_is_the_same_date_not_a_new_post(
    zone: str, day: str, at: str, instant: str
) -> None:
    date = dt.date.fromisoformat(day)
    plan = schedule(at, zone)
    second = local(f"{day}T{at}", zone, fold=1)

    assert due_date(plan, second) == date  # already claimed at the first occurrence
    assert walk(plan, second, second + MINUTE, claimed={date}) == {}


@pytest.mark.parametrize(
    ("zone", "day", "at", "instant"),
    [
        # Wall times at the very edges of the transitions.
        ("America/New_York", "2026-03-08", "02:00", "2026-03-08T07:00"),  # gap start -> 03:00
        ("America/New_York", "2026-03-08", "03:00", "2026-03-08T07:00"),  # first real time
        ("America/New_York", "2026-03-08", "01:59", "2026-03-08T06:59"),
        ("America/New_York", "2026-11-01", "01:00", "2026-11-01T05:00"),  # fold start
        ("America/New_York", "2026-11-01", "02:00", "2026-11-01T07:00"),  # after the fold
        ("Europe/Berlin", "2026-03-29", "07:00", "2026-03-29T05:00"),  # ordinary, CEST
        ("Europe/Berlin", "2026-10-25", "07:00", "2026-10-25T06:00"),  # ordinary, CET
        ("Australia/Sydney", "2026-10-04", "02:00", "2026-10-03T16:00"),  # gap start -> 03:00
        ("Australia/Sydney", "2026-04-05", "03:00", "2026-04-04T17:00"),  # after the fold
    ],
)
def test_slot_instant_at_the_edges_of_dst_transitions(
    zone: str, day: str, at: str, instant: str
) -> None:
    date = dt.date.fromisoformat(day)
    plan = schedule(at, zone)

    assert slot_instant(date, plan.post_time, plan.zone) == utc(instant)
    start = local(f"{day}T00:00", zone)
    posts = walk(plan, start, start + dt.timedelta(days=1))
    assert posts == {date: utc(instant)}


# -- the grace window


def test_a_missed_slot_is_caught_up_inside_the_grace_window_and_never_after() -> None:
    plan = schedule("07:00", "Europe/Berlin")
    slot = local("2026-06-10T07:00", "Europe/Berlin")
    today = dt.date(2026, 6, 10)

    assert due_date(plan, slot - MINUTE) is None
    assert due_date(plan, slot) == today
    assert due_date(plan, slot + dt.timedelta(hours=5, minutes=59)) == today
    assert due_date(plan, slot + dt.timedelta(hours=5, minutes=59, seconds=59)) == today
    assert due_date(plan, slot + DEFAULT_GRACE) is None
    assert due_date(plan, slot + dt.timedelta(hours=12)) is None
    # Back up after a long outage: nothing until the next day's slot, which posts on time.
    tomorrow = slot + dt.timedelta(days=1)
    assert walk(plan, slot + DEFAULT_GRACE, tomorrow + MINUTE) == {dt.date(2026, 6, 11): tomorrow}


def test_recovery_inside_the_window_posts_at_once() -> None:
    plan = schedule("07:00", "Europe/Berlin")
    slot = local("2026-06-10T07:00", "Europe/Berlin")
    back_up = slot + dt.timedelta(hours=3, minutes=17)

    assert walk(plan, back_up, back_up + dt.timedelta(hours=1)) == {dt.date(2026, 6, 10): back_up}


def test_a_custom_grace_window() -> None:
    plan = schedule("07:00", "America/New_York")
    slot = local("2026-06-10T07:00", "America/New_York")
    grace = dt.timedelta(minutes=30)

    assert due_date(plan, slot + dt.timedelta(minutes=29), grace=grace) == dt.date(2026, 6, 10)
    assert due_date(plan, slot + grace, grace=grace) is None
    long = dt.timedelta(hours=20)
    assert due_date(plan, slot + dt.timedelta(hours=19, minutes=59), grace=long) == dt.date(
        2026, 6, 10
    )
    assert due_date(plan, slot + long, grace=long) is None


def test_a_late_evening_slot_missed_at_midnight_is_due_the_next_day_for_its_own_date() -> None:
    plan = schedule("23:30", "Europe/Berlin")
    half_past_midnight = local("2026-06-11T00:30", "Europe/Berlin")

    assert local_date(half_past_midnight, plan.zone) == dt.date(2026, 6, 11)
    assert due_date(plan, half_past_midnight) == dt.date(2026, 6, 10)
    assert walk(plan, half_past_midnight, half_past_midnight + dt.timedelta(hours=12)) == {
        dt.date(2026, 6, 10): half_past_midnight
    }
    # 23:30 + 6 h = 05:30 the next day: from then on, it is gone.
    assert due_date(plan, local("2026-06-11T05:29", "Europe/Berlin")) == dt.date(2026, 6, 10)
    assert due_date(plan, local("2026-06-11T05:30", "Europe/Berlin")) is None


def test_a_schedule_set_after_todays_slot_starts_tomorrow() -> None:
    set_at = local("2026-06-10T10:00", "Europe/Berlin")
    plan = schedule("07:00", "Europe/Berlin", active_since=set_at)

    assert due_date(plan, set_at) is None  # 07:00 today is inside the grace window, but before
    assert walk(plan, set_at, set_at + dt.timedelta(days=1)) == {
        dt.date(2026, 6, 11): local("2026-06-11T07:00", "Europe/Berlin")
    }


def test_a_schedule_set_before_todays_slot_posts_today() -> None:
    set_at = local("2026-06-10T06:59", "Europe/Berlin")
    plan = schedule("07:00", "Europe/Berlin", active_since=set_at)

    assert walk(plan, set_at, set_at + dt.timedelta(hours=2)) == {
        dt.date(2026, 6, 10): local("2026-06-10T07:00", "Europe/Berlin")
    }


def test_a_schedule_set_exactly_at_its_slot_posts_at_once() -> None:
    set_at = local("2026-06-10T07:00", "Europe/Berlin")
    plan = schedule("07:00", "Europe/Berlin", active_since=set_at)

    assert due_date(plan, set_at) == dt.date(2026, 6, 10)


def test_every_minute_from_ten_before_to_ten_after_the_slot_posts_once() -> None:
    plan = schedule("07:00", "America/New_York")
    slot = local("2026-06-10T07:00", "America/New_York")
    claims: set[dt.date] = set()
    posts: dict[dt.date, dt.datetime] = {}
    # A "restart" before every minute: only the claim set survives it.
    for offset in range(-10, 11):
        posts |= walk(plan, slot + offset * MINUTE, slot + (offset + 1) * MINUTE, claimed=claims)

    assert posts == {dt.date(2026, 6, 10): slot}
    assert claims == {dt.date(2026, 6, 10)}


# -- next_post


def test_next_post_is_todays_slot_before_it() -> None:
    plan = schedule("07:00", "Europe/Berlin")

    assert next_post(plan, local("2026-06-10T06:00", "Europe/Berlin")) == utc("2026-06-10T05:00")


def test_next_post_is_a_pending_slot_inside_its_grace_window() -> None:
    plan = schedule("07:00", "Europe/Berlin")

    # Not posted yet and still catchable: the next post is the (past) slot itself.
    assert next_post(plan, local("2026-06-10T09:00", "Europe/Berlin")) == utc("2026-06-10T05:00")


def test_next_post_skips_dates_already_posted() -> None:
    plan = schedule("07:00", "Europe/Berlin")
    now = local("2026-06-10T09:00", "Europe/Berlin")

    assert next_post(plan, now, posted_through=dt.date(2026, 6, 10)) == utc("2026-06-11T05:00")
    assert next_post(plan, now, posted_through=dt.date(2026, 6, 9)) == utc("2026-06-10T05:00")


def test_next_post_skips_a_slot_past_its_grace_window() -> None:
    plan = schedule("07:00", "Europe/Berlin")
    now = local("2026-06-10T13:00", "Europe/Berlin")  # 07:00 + 6 h

    assert next_post(plan, now) == utc("2026-06-11T05:00")
    grace = dt.timedelta(hours=7)
    assert next_post(plan, now, grace=grace) == utc("2026-06-10T05:00")


def test_next_post_of_a_late_slot_missed_at_midnight_is_yesterdays() -> None:
    plan = schedule("23:30", "Europe/Berlin")
    now = local("2026-06-11T00:30", "Europe/Berlin")

    assert next_post(plan, now) == local("2026-06-10T23:30", "Europe/Berlin")
    assert next_post(plan, now, posted_through=dt.date(2026, 6, 10)) == local(
        "2026-06-11T23:30", "Europe/Berlin"
    )


def test_next_post_respects_active_since() -> None:
    set_at = local("2026-06-10T10:00", "Europe/Berlin")
    plan = schedule("07:00", "Europe/Berlin", active_since=set_at)

    assert next_post(plan, set_at) == utc("2026-06-11T05:00")
    # Asked before the schedule became active, it still answers from active_since on.
    assert next_post(plan, set_at - dt.timedelta(days=3)) == utc("2026-06-11T05:00")


@pytest.mark.parametrize(("zone", "day", "at", "instant"), GAPS + FOLDS)
def test_next_post_on_dst_days_is_the_resolved_slot(
    zone: str, day: str, at: str, instant: str
) -> None:
    plan = schedule(at, zone)
    date = dt.date.fromisoformat(day)

    assert next_post(plan, local(f"{day}T00:00", zone)) == utc(instant)
    after = next_post(plan, utc(instant), posted_through=date)
    assert after == slot_instant(date + dt.timedelta(days=1), plan.post_time, plan.zone)


def test_next_post_and_due_date_agree() -> None:
    """Whenever a date is due, next_post (nothing posted through it) names that date's slot."""
    plan = schedule("02:30", "America/New_York")
    start = local("2026-03-07T00:00", "America/New_York")
    now = start
    while now < start + dt.timedelta(days=3):
        upcoming = next_post(plan, now)
        day = due_date(plan, now)
        if day is not None:
            assert upcoming == slot_instant(day, plan.post_time, plan.zone)
        else:
            assert upcoming > now
        now += dt.timedelta(minutes=7)


def test_next_post_when_active_since_is_exactly_a_slot_is_that_slot() -> None:
    set_at = local("2026-06-10T07:00", "Europe/Berlin")
    plan = schedule("07:00", "Europe/Berlin", active_since=set_at)

    # Today, as due_date says (test_a_schedule_set_exactly_at_its_slot_posts_at_once), not tomorrow.
    assert next_post(plan, set_at) == set_at
    assert next_post(plan, set_at - dt.timedelta(hours=1)) == set_at


@pytest.mark.parametrize("zone", ["America/Los_Angeles", "Pacific/Auckland", "UTC"])
@pytest.mark.parametrize("grace", [DEFAULT_GRACE, dt.timedelta(hours=24), dt.timedelta(days=3)])
def test_next_post_and_due_date_agree_in_any_zone_and_any_grace(
    zone: str, grace: dt.timedelta
) -> None:
    """Local dates, not UTC ones, and yesterday at the earliest: next_post looks back no further
    than due_date does, however long the grace window and whichever side of UTC the zone is."""
    plan = schedule("23:30", zone)
    start = local("2026-06-08T00:00", zone)
    now = start
    while now < start + dt.timedelta(days=5):
        upcoming = next_post(plan, now, grace=grace)
        day = due_date(plan, now, grace=grace)
        if day is not None:
            assert upcoming == slot_instant(day, plan.post_time, plan.zone), now
        else:
            assert upcoming > now, now
        now += dt.timedelta(minutes=37)


# -- backoff


def test_backoff_doubles_from_one_minute_and_caps_at_thirty() -> None:
    waits = [backoff(failures) // MINUTE for failures in range(1, 10)]

    assert waits == [1, 2, 4, 8, 16, 30, 30, 30, 30]
    assert backoff(0) == MINUTE
    assert backoff(10_000) == dt.timedelta(minutes=30)


# -- timezone names


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Europe/Berlin", "Europe/Berlin"),
        ("europe/berlin", "Europe/Berlin"),
        ("EUROPE/BERLIN", "Europe/Berlin"),
        ("America/New York", "America/New_York"),
        ("  america/new york  ", "America/New_York"),
        ("utc", "UTC"),
        ("America/Argentina/Buenos Aires", "America/Argentina/Buenos_Aires"),
    ],
)
def test_find_zone_ignores_case_and_spaces(text: str, expected: str) -> None:
    assert find_zone(text) == expected
    ZoneInfo(expected)


@pytest.mark.parametrize(
    "text", ["Mars/Olympus", "localtime", "posixrules", "Factory", "", "Berlin", "Europe/"]
)
def test_find_zone_rejects_what_is_not_a_place(text: str) -> None:
    assert find_zone(text) is None


def test_an_empty_search_suggests_the_popular_zones() -> None:
    suggestions = suggest_zones("")

    assert suggestions == list(POPULAR[:25])
    assert 0 < len(suggestions) <= 25
    assert len(set(suggestions)) == len(suggestions)
    assert suggest_zones("   ", limit=3) == list(POPULAR[:3])


@pytest.mark.parametrize("typed", ["new y", "New York", "new_york", "america/new"])
def test_new_york_comes_first(typed: str) -> None:
    assert suggest_zones(typed)[0] == "America/New_York"


def test_an_exact_name_comes_before_longer_ones() -> None:
    assert suggest_zones("europe/paris")[0] == "Europe/Paris"
    assert suggest_zones("utc")[0] == "UTC"
    assert "Europe/Paris" in suggest_zones("par")


def test_a_typo_suggests_the_close_name_and_nothing_close_suggests_nothing() -> None:
    assert suggest_zones("Europe/Berlim")[0] == "Europe/Berlin"
    assert suggest_zones("Mars/Olympus") == []


@pytest.mark.parametrize("typed", ["", "a", "e", "america", "/", "_", "o", "s", "GMT", "Etc/"])
def test_every_suggestion_is_a_valid_zone_and_there_are_at_most_25(typed: str) -> None:
    suggestions = suggest_zones(typed)

    assert len(suggestions) <= 25
    assert len(set(suggestions)) == len(suggestions)
    for name in suggestions:
        ZoneInfo(name)
        assert find_zone(name) == name
        assert name not in {"localtime", "posixrules", "Factory"}


def test_a_broad_search_is_cut_at_the_limit() -> None:
    assert len(suggest_zones("a")) == 25
    assert len(suggest_zones("a", limit=5)) == 5


# -- the property: any zone, any day, any slot


ZONES = sorted(zoneinfo.available_timezones() - {"localtime", "posixrules", "Factory"})


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    zone=st.sampled_from(ZONES),
    day=st.dates(min_value=dt.date(2020, 1, 1), max_value=dt.date(2037, 12, 31)),
    start_at=st.times(),
    slot_minutes=st.integers(min_value=0, max_value=24 * 60 - 1),
)
def test_any_zone_posts_each_local_date_once_inside_its_window(
    zone: str, day: dt.date, start_at: dt.time, slot_minutes: int
) -> None:
    at = f"{slot_minutes // 60:02d}:{slot_minutes % 60:02d}"
    plan = schedule(at, zone)
    start = dt.datetime.combine(day, start_at, tzinfo=ZoneInfo(zone)).astimezone(UTC)
    end = start + dt.timedelta(days=1)

    posts = walk(plan, start, end)

    # A local date is posted exactly when the walk enters its window [slot, slot + grace),
    # once, at the first minute inside it; no other date is posted.
    expected = {}
    for offset in range(-2, 3):
        candidate = local_date(start, plan.zone) + dt.timedelta(days=offset)
        slot = slot_instant(candidate, plan.post_time, plan.zone)
        # The first walk minute at or after the slot (the walk starts on any second).
        first = start if slot <= start else start - ((start - slot) // MINUTE) * MINUTE
        if first < min(end, slot + DEFAULT_GRACE):
            expected[candidate] = first
    assert posts == expected
    assert 1 <= len(posts) <= 2
