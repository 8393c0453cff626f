"""When a schedule posts: wall-clock slots in a timezone, DST, the grace window.

A slot is a local date plus the schedule's time. Every function takes ``now`` (aware) from the
caller, so the scheduler is driven by whatever clock calls ``tick(now)``.

DST: a time that does not exist on a spring-forward day (02:30 in New York) resolves the way
``zoneinfo`` does with ``fold=0``, to the instant one gap later (03:30 daylight time); a time
that exists twice on a fall-back day resolves to its first occurrence. Either way a local date
has exactly one slot, and the claim on (schedule, local date) makes it post once.
"""

from __future__ import annotations

import datetime as dt
import re
from zoneinfo import ZoneInfo

from bot.daily.schedule import Slotted

UTC = dt.UTC
DEFAULT_GRACE = dt.timedelta(hours=6)
_TIME = re.compile(r"^\s*(?P<hour>[01]?\d|2[0-3])\s*[:.h]\s*(?P<minute>[0-5]\d)\s*\Z")


def parse_time(text: str) -> dt.time | None:
    """``"07:30"``, ``"7:30"``, ``"19.05"``, ``"7h30"`` → a time; anything else → None."""
    match = _TIME.match(text)
    if match is None:
        return None
    return dt.time(int(match["hour"]), int(match["minute"]))


def slot_instant(day: dt.date, at: dt.time, zone: ZoneInfo) -> dt.datetime:
    """The UTC instant of ``at`` on local date ``day`` in ``zone`` (see the module's DST note)."""
    local = dt.datetime.combine(day, at, tzinfo=zone)  # fold=0
    # Round-tripping through UTC normalises a nonexistent wall time to the one after the gap.
    return local.astimezone(UTC)


def local_date(now: dt.datetime, zone: ZoneInfo) -> dt.date:
    return now.astimezone(zone).date()


def due_date(
    schedule: Slotted, now: dt.datetime, *, grace: dt.timedelta = DEFAULT_GRACE
) -> dt.date | None:
    """The local date whose post is due at ``now``, if any (claims are checked by the caller).

    Due: the slot has been reached, at most ``grace`` ago, and not before the schedule became
    active (a schedule set at 10:00 for 07:00 starts tomorrow, it does not post at once).
    Yesterday's slot is considered too, so a late-evening post missed around midnight is still
    caught up inside the grace window.
    """
    zone = schedule.zone
    today = local_date(now, zone)
    for day in (today - dt.timedelta(days=1), today):
        slot = slot_instant(day, schedule.post_time, zone)
        if slot < schedule.active_since:
            continue
        if slot <= now < slot + grace:
            return day
    return None


def next_post(
    schedule: Slotted,
    now: dt.datetime,
    *,
    posted_through: dt.date | None = None,
    grace: dt.timedelta = DEFAULT_GRACE,
) -> dt.datetime:
    """The next slot not yet posted: at or after ``active_since``, after ``posted_through``,
    and not already past its grace window at ``now``. Aware, UTC."""
    zone = schedule.zone
    day = local_date(max(now, schedule.active_since), zone) - dt.timedelta(days=1)
    while True:
        slot = slot_instant(day, schedule.post_time, zone)
        already_posted = posted_through is not None and day <= posted_through
        missed = slot + grace <= now
        if slot >= schedule.active_since and not already_posted and not missed:
            return slot
        day += dt.timedelta(days=1)


def backoff(failures: int) -> dt.timedelta:
    """Wait before retrying after ``failures`` transient failures: 1, 2, 4 … 30 minutes."""
    return dt.timedelta(minutes=min(30, 2 ** max(0, failures - 1)))
