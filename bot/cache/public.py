"""Typed caching of the public skills' results, keyed so that one key never mixes two things.

Concurrent lookups of one key share one flight (one store read, at most one upstream call);
a missing entry is filled once across processes too (see :mod:`bot.cache.fill`).
"""

from __future__ import annotations

import hashlib
import logging
import unicodedata
from collections import Counter
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar, cast

from pydantic import TypeAdapter

from bot.a2a import errors
from bot.cache.fill import FillTiming, Source, fill
from bot.cache.flight import SingleFlight
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

# Refusals of the leader's own token (or of its turn) say nothing about the content: the
# callers who shared its flight try again with their own tokens instead of being told so.
_PERSONAL_ERRORS = (errors.Unauthorized, errors.PlanRequired, errors.RateLimited)


def normalise(text: str) -> str:
    """Case, width and spacing differences do not make a different query."""
    folded = unicodedata.normalize("NFKC", text).casefold()
    return " ".join(folded.split())


def cache_key(skill: str, query: str) -> str:
    digest = hashlib.sha256(normalise(query).encode()).hexdigest()[:32]
    return f"{skill}:{digest}"


def shared_error(error: Exception) -> bool:
    """Whether the callers sharing a flight get its error: Magisterium's answer about the
    content, yes; anything about the leader's token, quota or turn (not an upstream error at
    all, or a 401/403/429 for that token), no."""
    return isinstance(error, errors.A2AError) and not isinstance(error, _PERSONAL_ERRORS)


class PublicContentCache:
    """``counts`` (and the ``cache_requests_total`` metric) count each lookup once: ``hit``
    (read from the store), ``miss`` (this lookup called Magisterium) or ``shared`` (served by
    a concurrent lookup's call: in this process, or another process's under the fill lock)."""

    def __init__(
        self, cache: Cache, *, metrics: Metrics | None = None, timing: FillTiming | None = None
    ) -> None:
        self._cache = cache
        self._metrics = metrics
        self._timing = timing if timing is not None else FillTiming()
        self._flights: SingleFlight[Any] = SingleFlight()
        self.counts: Counter[Source] = Counter()

    def in_flight(self, skill: str, query: str) -> int:
        """Lookups of this query waiting on one flight right now."""
        return self._flights.in_flight(cache_key(skill, query))

    async def get_or_fetch(
        self,
        skill: str,
        query: str,
        adapter: TypeAdapter[R],
        fetch: Callable[[], Awaitable[R]],
    ) -> R:
        key = cache_key(skill, query)
        while True:
            flight, leads = self._flights.join(key, lambda: self._fill(skill, key, adapter, fetch))
            try:
                result = cast(R, await self._flights.wait(flight))
            except Exception as error:
                if leads or shared_error(error):
                    if not leads:
                        self._count("shared")
                    raise
                log.debug("%s: the shared fetch was refused its token; fetching anew", skill)
                continue
            if not leads:
                self._count("shared")
            return result

    async def _fill(
        self, skill: str, key: str, adapter: TypeAdapter[R], fetch: Callable[[], Awaitable[R]]
    ) -> R:
        """The one lookup a flight makes; it counts its own outcome (its leader's)."""

        async def read() -> R | None:
            cached = await self._cache.get(key)
            if cached is None:
                return None
            try:
                return adapter.validate_json(cached)
            except ValueError:
                log.warning("dropping an unreadable cache entry for %s", skill)
                return None

        async def fetch_and_store() -> R:
            self._count("miss")
            result = await fetch()
            await self._cache.set(key, adapter.dump_json(result).decode(), ttl=TTL[skill])
            return result

        result, source = await fill(
            self._cache, key, read=read, fetch=fetch_and_store, timing=self._timing
        )
        if source != "miss":
            self._count(source)
        return result

    def _count(self, result: Source) -> None:
        self.counts[result] += 1
        if self._metrics is not None:
            self._metrics.cache_lookup(result)
