"""A resolved timezone: which IANA zone "today" is computed in, and where that choice came from."""

from __future__ import annotations

import datetime as dt
import enum
from collections.abc import Iterable
from dataclasses import dataclass
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError


class ZoneSource(enum.StrEnum):
    """Where a person's timezone came from, first match wins (see ``TimezoneStore.resolve``)."""

    PERSON = "person"  # /account timezone
    PERSONAL_DAILY = "personal_daily"  # the person's /mydaily post, most recently set
    SERVER = "server"  # /server timezone, set by the server's admins
    SERVER_DAILY = "server_daily"  # the server's /daily post, most recently set
    FALLBACK = "fallback"  # nothing set anywhere: UTC


@dataclass(frozen=True)
class ResolvedZone:
    name: str  # a canonical IANA name
    source: ZoneSource

    @property
    def fallback(self) -> bool:
        """True when nothing was set and "today" is UTC's: the answer must say so."""
        return self.source is ZoneSource.FALLBACK

    @property
    def tzinfo(self) -> ZoneInfo:
        return ZoneInfo(self.name)  # zoneinfo caches each zone it has loaded

    def today(self, now: dt.datetime) -> dt.date:
        """The calendar date at the aware instant ``now`` in this zone (DST included)."""
        if now.tzinfo is None:
            raise ValueError("today() needs an aware datetime")
        return now.astimezone(self.tzinfo).date()


UTC_FALLBACK = ResolvedZone("UTC", ZoneSource.FALLBACK)


def first_set(candidates: Iterable[tuple[str | None, ZoneSource]]) -> ResolvedZone:
    """The first candidate naming a zone this system knows, else UTC as the fallback.

    A stored name the timezone database no longer has (renamed, removed) is skipped, never an
    error: the next one in the order applies.
    """
    for stored, source in candidates:
        if stored and _known(stored):
            return ResolvedZone(stored, source)
    return UTC_FALLBACK


def _known(name: str) -> bool:
    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return False
    return True
