"""Calling Magisterium as a person: their token, the shared limiter, then the client.

Every skill call from a cog, a DM or the scheduler goes through :class:`MagisteriumService`,
so token choice, fair rate limiting, the retry budget and the handling of 401/429 live in
one place (429s and retries in :mod:`bot.services.admission`).
"""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Awaitable, Callable
from typing import TypeVar

from pydantic import SecretStr, TypeAdapter

from bot.a2a import MagisteriumSkills, Skill, errors
from bot.a2a.attempts import gated
from bot.a2a.lookups import Candidates, DioceseStatistics, LookupKind, Profile
from bot.a2a.results import Answer, Document, Martyrology, NotFound, Readings, SearchResults
from bot.accounts.registry import TokenRegistry
from bot.cache.public import PublicContentCache
from bot.limits import Limiter, LimiterBusy, LimiterClosed
from bot.observability.metrics import Metrics
from bot.services.admission import LimiterGate
from bot.services.tokens import ChosenToken, LinkedTokenInvalid, ServerTokenRefused, TokenChooser

log = logging.getLogger(__name__)

T = TypeVar("T")

SEARCH = TypeAdapter(SearchResults)
DOCUMENT: TypeAdapter[Document | NotFound] = TypeAdapter(Document | NotFound)
READINGS: TypeAdapter[Readings | NotFound] = TypeAdapter(Readings | NotFound)
MARTYROLOGY: TypeAdapter[Martyrology | NotFound] = TypeAdapter(Martyrology | NotFound)
LOOKUP: TypeAdapter[Profile | Candidates | NotFound] = TypeAdapter(Profile | Candidates | NotFound)
STATISTICS: TypeAdapter[DioceseStatistics | NotFound] = TypeAdapter(DioceseStatistics | NotFound)


class MagisteriumService:
    def __init__(
        self,
        skills: MagisteriumSkills,
        chooser: TokenChooser,
        limiter: Limiter,
        registry: TokenRegistry,
        *,
        wait_budget: float,
        cache: PublicContentCache,
        metrics: Metrics,
    ) -> None:
        self._skills = skills
        self._chooser = chooser
        self._limiter = limiter
        self._registry = registry
        self._wait_budget = wait_budget
        self.cache = cache
        self._metrics = metrics

    async def ask(self, user_id: int, question: str, *, context_id: str | None = None) -> Answer:
        return await self._call(
            user_id,
            Skill.CATHOLIC_QA,
            lambda token: self._skills.ask(token, question, context_id=context_id),
        )

    # Public content is the same for everyone: served from the cache, it spends nobody's quota.

    async def search(self, user_id: int, query: str) -> SearchResults:
        return await self._public(
            user_id,
            Skill.DOCUMENT_SEARCH,
            query,
            SEARCH,
            lambda token: self._skills.search(token, query),
        )

    async def fetch_document(self, user_id: int, doc_id: str) -> Document | NotFound:
        return await self._public(
            user_id,
            Skill.DOCUMENT_FETCH,
            doc_id,
            DOCUMENT,
            lambda token: self._skills.fetch_document(token, doc_id),
        )

    async def readings(
        self, user_id: int, day: dt.date, *, token: ChosenToken | None = None
    ) -> Readings | NotFound:
        """An absolute date only, so that a cache key never stands for two different days.
        ``token``: call with this token instead of choosing one for the user (daily posts)."""
        return await self._public(
            user_id,
            Skill.LITURGICAL_READINGS,
            day.isoformat(),
            READINGS,
            lambda token: self._skills.readings(token, day.isoformat()),
            chosen=token,
        )

    async def saints(
        self, user_id: int, day: dt.date, *, token: ChosenToken | None = None
    ) -> Martyrology | NotFound:
        """An absolute date only (sent as the ``{date}`` data part); see :meth:`readings`."""
        return await self._public(
            user_id,
            Skill.SAINTS_OF_THE_DAY,
            day.isoformat(),
            MARTYROLOGY,
            lambda token: self._skills.saints(token, day),
            chosen=token,
        )

    async def lookup(
        self,
        user_id: int,
        kind: LookupKind,
        *,
        name: str | None = None,
        canonical_id: str | None = None,
    ) -> Profile | Candidates | NotFound:
        """A saint, pope, clergy or diocese profile by name or canonical id."""
        return await self._public(
            user_id,
            Skill(kind.skill),
            _lookup_key(name, canonical_id),
            LOOKUP,
            lambda token: self._skills.lookup(token, kind, name=name, canonical_id=canonical_id),
        )

    async def diocese_statistics(
        self, user_id: int, *, name: str | None = None, canonical_id: str | None = None
    ) -> DioceseStatistics | NotFound:
        return await self._public(
            user_id,
            Skill.DIOCESE_STATISTICS_LOOKUP,
            _lookup_key(name, canonical_id),
            STATISTICS,
            lambda token: self._skills.diocese_statistics(
                token, name=name, canonical_id=canonical_id
            ),
        )

    async def _public(
        self,
        user_id: int,
        skill: Skill,
        key: str,
        adapter: TypeAdapter[T],
        call: Callable[[SecretStr], Awaitable[T]],
        *,
        chosen: ChosenToken | None = None,
    ) -> T:
        return await self.cache.get_or_fetch(
            skill, key, adapter, lambda: self._call(user_id, skill, call, chosen=chosen)
        )

    async def _call(
        self,
        user_id: int,
        skill: Skill,
        call: Callable[[SecretStr], Awaitable[T]],
        *,
        chosen: ChosenToken | None = None,
    ) -> T:
        """One skill call as ``user_id``: every attempt admitted by the limiter (see
        :class:`LimiterGate`), a refused own token refreshed once."""
        if chosen is None:
            chosen = await self._chooser.choose(user_id, expensive=skill.expensive)
        gate = self._gate(user_id, skill, chosen)
        refreshed = False
        while True:
            try:
                with gated(gate):
                    return await self._timed(skill, call(chosen.token))
            except errors.Unauthorized:
                if chosen.source == "own":
                    self._registry.forget(user_id)  # never served from memory again
                # A signed-in token may just have expired: refresh it once and try again.
                retry = None if refreshed else await self._chooser.after_refused(user_id, chosen)
                if retry is None:
                    await self._on_unauthorized(user_id, chosen)
                    raise
                chosen, refreshed = retry, True
                gate = gate.for_token(chosen.key)

    def _gate(self, user_id: int, skill: Skill, chosen: ChosenToken) -> LimiterGate:
        return LimiterGate(
            self._limiter,
            self._metrics,
            skill=skill,
            user_id=user_id,
            token_key=chosen.key,
            wait_budget=self._wait_budget,
        )

    async def _timed(self, skill: Skill, call: Awaitable[T]) -> T:
        """Await one skill call, counting it as failed if it fails for good. (Each attempt's
        time is recorded where the limiter admits it.)"""
        try:
            return await call
        except (LimiterBusy, LimiterClosed):
            raise  # never reached Magisterium
        except Exception as error:
            self._metrics.upstream_failed(skill, error)
            raise

    async def _on_unauthorized(self, user_id: int, chosen: ChosenToken) -> None:
        if chosen.source == "own":
            await self._registry.mark_invalid(user_id)
            raise LinkedTokenInvalid from None
        if chosen.source == "server":
            log.warning("a server's Magisterium token was refused (401): marked for relinking")
            await self._chooser.server_refused(chosen)
            raise ServerTokenRefused from None
        log.error("the operator's MAGISTERIUM_TOKEN was refused (401); check it")


def _lookup_key(name: str | None, canonical_id: str | None) -> str:
    """A name and an id never share a cache entry, even when they are spelled alike."""
    return f"id:{canonical_id}" if canonical_id is not None else f"name:{name}"
