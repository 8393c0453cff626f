"""Calling Magisterium for someone: their token, the shared limiter, one call policy, the client.

Every upstream call — a skill from a cog, a DM or a daily post, an earlier answer read back with
``tasks/get``, a token checked at link time — goes through :class:`MagisteriumService`, so the
choice of token, fair rate limiting, the call's budgets and the handling of 401 and 429 live in
one place. A skill is a row of :mod:`bot.a2a.skills`; the service reads the row.
"""

from __future__ import annotations

import dataclasses
import logging
import uuid
from typing import TypeVar

from pydantic import SecretStr

from bot.a2a import A2AClient, errors
from bot.a2a.models import Message
from bot.a2a.results import Answer, parse_answer
from bot.a2a.retry import RetryPolicy
from bot.a2a.skills import CATHOLIC_QA, Skill
from bot.accounts.registry import TokenRegistry
from bot.cache.public import PublicContentCache
from bot.limits import Limiter, LimiterBusy, LimiterClosed
from bot.observability.metrics import Metrics
from bot.services.admission import LimiterAdmission
from bot.services.origin import Origin
from bot.services.token_check import VALIDATION_BUDGET, TokenVerdict, verdict
from bot.services.tokens import ChosenToken, LinkedTokenInvalid, ServerTokenRefused, TokenChooser

log = logging.getLogger(__name__)

Q = TypeVar("Q")
R = TypeVar("R")

# Rate limits are the limiter's to wait out (it pauses the token for every waiter), so a call
# hands any retryAfter back at once instead of sleeping inside one request.
SERVICE_RETRY = RetryPolicy(max_retry_after=0.0)


class MagisteriumService:
    def __init__(
        self,
        client: A2AClient,
        chooser: TokenChooser,
        limiter: Limiter,
        registry: TokenRegistry,
        *,
        wait_budget: float,
        cache: PublicContentCache,
        metrics: Metrics,
        retry: RetryPolicy = SERVICE_RETRY,
    ) -> None:
        self._client = client
        self._chooser = chooser
        self._limiter = limiter
        self._registry = registry
        self._wait_budget = wait_budget
        self.cache = cache
        self._metrics = metrics
        self.retry = retry

    async def call(
        self,
        origin: Origin,
        skill: Skill[Q, R],
        query: Q,
        *,
        context_id: str | None = None,
        token: ChosenToken | None = None,
        use_cache: bool = True,
    ) -> R:
        """Ask ``skill`` for ``origin``: public content from the cache when the row says so;
        else one upstream call with the token chosen for ``origin`` (or ``token``: a daily
        post's), every attempt admitted by the limiter, a refused token refreshed once.
        ``context_id`` continues a catholic_qa conversation."""
        if skill.cache is not None and use_cache:
            return await self.cache.get_or_fetch(
                skill.id,
                skill.cache.key(query),
                skill.cache.result,
                lambda: self.call(origin, skill, query, token=token, use_cache=False),
            )
        chosen = token or await self._chooser.choose(origin, expensive=skill.expensive)
        admission = LimiterAdmission(
            self._limiter,
            self._metrics,
            skill=skill.id,
            expensive=skill.expensive,
            user_id=origin.user_id,
            token_key=chosen.key,
            wait_budget=self._wait_budget,
        )
        using = _TokenInUse(self._chooser, self._registry, origin, chosen, admission)
        policy = self._client.policy(
            chosen.token,
            retry=dataclasses.replace(
                self.retry, max_attempts=min(self.retry.max_attempts, skill.rate.attempts)
            ),
            admission=admission,
            refresh=using.refreshed,
        )
        message = Message.from_user([skill.part(query)], skill_id=skill.id, context_id=context_id)
        try:
            task = await self._client.send_message(message, policy)
        except (LimiterBusy, LimiterClosed):
            raise  # never reached Magisterium
        except errors.Unauthorized as refused:
            self._metrics.upstream_failed(skill.id, refused)
            await self._on_unauthorized(origin, using.chosen)
            raise
        except Exception as error:
            self._metrics.upstream_failed(skill.id, error)
            raise
        return skill.parse(task, query)

    async def earlier_answer(self, origin: Origin, task_id: str) -> Answer:
        """An answer Magisterium gave earlier (kept 24 h), read back with ``tasks/get`` as
        ``origin``: for a related question or a source whose text this process no longer
        holds. Raises :class:`errors.TaskNotFound` once Magisterium has forgotten it."""
        chosen = await self._chooser.choose(origin, expensive=False)
        using = _TokenInUse(self._chooser, self._registry, origin, chosen, None)
        policy = self._client.policy(chosen.token, retry=self.retry, refresh=using.refreshed)
        try:
            task = await self._client.get_task(task_id, policy)
        except errors.TaskNotFound:
            raise
        except errors.Unauthorized as refused:
            self._metrics.upstream_failed(CATHOLIC_QA.id, refused)
            await self._on_unauthorized(origin, using.chosen)
            raise
        except Exception as error:
            self._metrics.upstream_failed(CATHOLIC_QA.id, error)
            raise
        return parse_answer(task)

    async def check_token(self, token: SecretStr) -> TokenVerdict:
        """Whether Magisterium accepts a pasted token, spending none of its quota: one
        ``tasks/get`` of a task that cannot exist (see :mod:`bot.services.token_check`)."""
        policy = self._client.policy(token, budget=VALIDATION_BUDGET, retry=self.retry)
        try:
            await self._client.get_task(f"link-check-{uuid.uuid4()}", policy)
        except errors.A2AError as error:
            found = verdict(error)
            if found is TokenVerdict.UNVERIFIED:
                self._metrics.upstream_failed("token_check", error)
            return found
        return TokenVerdict.VALID  # a task with that id exists: the token can read it

    async def _on_unauthorized(self, origin: Origin, chosen: ChosenToken) -> None:
        if chosen.source == "own":
            self._registry.forget(origin.user_id)  # never served from memory again
            await self._registry.mark_invalid(origin.user_id)
            raise LinkedTokenInvalid from None
        if chosen.source == "server":
            log.warning("a server's Magisterium token was refused (401): marked for relinking")
            await self._chooser.server_refused(chosen)
            raise ServerTokenRefused from None
        log.error("the operator's MAGISTERIUM_TOKEN was refused (401); check it")


class _TokenInUse:
    """The token one call is using: the chosen one, or the one a 401 refreshed."""

    def __init__(
        self,
        chooser: TokenChooser,
        registry: TokenRegistry,
        origin: Origin,
        chosen: ChosenToken,
        admission: LimiterAdmission | None,
    ) -> None:
        self._chooser = chooser
        self._registry = registry
        self._user_id = origin.user_id
        self.chosen = chosen
        self._admission = admission

    async def refreshed(self) -> SecretStr | None:
        """Magisterium refused the token (401): a refreshed one to retry with, once."""
        if self.chosen.source == "own":
            self._registry.forget(self._user_id)  # never served from memory again
        # A signed-in token may just have expired.
        fresh = await self._chooser.after_refused(self._user_id, self.chosen)
        if fresh is None:
            return None
        self.chosen = fresh
        if self._admission is not None:
            self._admission.token_key = fresh.key
        return fresh.token
