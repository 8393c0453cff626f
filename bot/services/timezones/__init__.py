"""Timezones: which day "today" is for a person asking here (``TimezoneStore.resolve``), and
where people's and servers' own timezones are kept."""

from bot.services.timezones.store import RESOLVE_TIMEOUT_SECONDS, TimezoneStore
from bot.services.timezones.zone import UTC_FALLBACK, ResolvedZone, ZoneSource, first_set

__all__ = [
    "RESOLVE_TIMEOUT_SECONDS",
    "UTC_FALLBACK",
    "ResolvedZone",
    "TimezoneStore",
    "ZoneSource",
    "first_set",
]
