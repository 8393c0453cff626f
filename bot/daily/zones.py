"""IANA timezone names: validation and autocomplete suggestions.

Names come from ``zoneinfo.available_timezones()``; the ``tzdata`` package provides the database
where the system has none (slim containers, Windows).
"""

from __future__ import annotations

import difflib
import functools
import zoneinfo

# Aliases zoneinfo lists that are not places a person would pick.
_NOT_PLACES = frozenset({"Factory", "localtime", "posixrules"})
# Shown for an empty search: where most Catholics in servers like these live.
POPULAR = (
    "UTC",
    "America/New_York",
    "America/Chicago",
    "America/Denver",
    "America/Los_Angeles",
    "America/Mexico_City",
    "America/Sao_Paulo",
    "America/Bogota",
    "America/Buenos_Aires",
    "Europe/London",
    "Europe/Dublin",
    "Europe/Madrid",
    "Europe/Paris",
    "Europe/Rome",
    "Europe/Berlin",
    "Europe/Warsaw",
    "Africa/Lagos",
    "Africa/Nairobi",
    "Asia/Kolkata",
    "Asia/Manila",
    "Asia/Seoul",
    "Asia/Tokyo",
    "Australia/Sydney",
    "Pacific/Auckland",
    "Asia/Jakarta",
)


@functools.cache
def _zones() -> dict[str, str]:
    """Every zone by its case-folded name."""
    names = zoneinfo.available_timezones() - _NOT_PLACES
    return {name.casefold(): name for name in sorted(names)}


def _normalise(text: str) -> str:
    return text.strip().replace(" ", "_").casefold()


def find_zone(text: str) -> str | None:
    """The canonical IANA name for ``text`` (any case, spaces for underscores), or None."""
    return _zones().get(_normalise(text))


def suggest_zones(current: str, *, limit: int = 25) -> list[str]:
    """Zones matching what was typed: exact, then a city or name starting with it, then any
    name containing it. ``"new york"`` finds ``America/New_York``."""
    query = _normalise(current)
    if not query:
        return list(POPULAR[:limit])
    exact, starts, contains = [], [], []
    for folded, name in _zones().items():
        city = folded.rsplit("/", 1)[-1]
        if folded == query:
            exact.append(name)
        elif folded.startswith(query) or city.startswith(query):
            starts.append(name)
        elif query in folded:
            contains.append(name)
    found = exact + starts + contains
    if not found:  # a typo: "Europe/Berlim"
        zones = _zones()
        found = [zones[z] for z in difflib.get_close_matches(query, zones, n=limit, cutoff=0.8)]
    return found[:limit]
