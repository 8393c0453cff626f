"""Typed caching of the public skills' results, keyed so that one key never mixes two things."""

from __future__ import annotations

import hashlib
import logging
import unicodedata
from collections.abc import Awaitable, Callable
from typing import TypeVar

from pydantic import TypeAdapter

from bot.cache.store import Cache
from bot.observability.metrics import Metrics

log = logging.getLogger(__name__)

R = TypeVar("R")

HOUR = 3600.0
TTL = {
    "document_search": 1 * HOUR,
    "document_fetch": 24 * HOUR,
    "liturgical_readings": 12 * HOUR,
    "saints_of_the_day": 12 * HOUR,
    # Profiles and yearly statistics change rarely: a day old is still right.
    "saint_lookup": 24 * HOUR,
    "pope_lookup": 24 * HOUR,
    "person_lookup": 24 * HOUR,
    "diocese_lookup": 24 * HOUR,
    "diocese_statistics_lookup": 24 * HOUR,
}


def normalise(text: str) -> str:
    """Case, width and spacing differences do not make a different query."""
    folded = unicodedata.normalize("NFKC", text).casefold()
    return " ".join(folded.split())


def cache_key(skill: str, query: str) -> str:
    digest = hashlib.sha256(normalise(query).encode()).hexdigest()[:32]
    return f"{skill}:{digest}"


class PublicContentCache:
    def __init__(self, cache: Cache, *, metrics: Metrics | None = None) -> None:
        self._cache = cache
        self._metrics = metrics
        self.hits = 0
        self.misses = 0

    async def get_or_fetch(
        self,
        skill: str,
        query: str,
        adapter: TypeAdapter[R],
        fetch: Callable[[], Awaitable[R]],
    ) -> R:
        key = cache_key(skill, query)
        cached = await self._cache.get(key)
        if cached is not None:
            try:
                result = adapter.validate_json(cached)
            except ValueError:
                log.warning("dropping an unreadable cache entry for %s", skill)
            else:
                self._count(hit=True)
                return result
        self._count(hit=False)
        result = await fetch()
        await self._cache.set(key, adapter.dump_json(result).decode(), ttl=TTL[skill])
        return result

    def _count(self, *, hit: bool) -> None:
        if hit:
            self.hits += 1
        else:
            self.misses += 1
        if self._metrics is not None:
            self._metrics.cache_lookup(hit=hit)
