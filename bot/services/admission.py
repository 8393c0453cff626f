"""Every attempt of one skill call admitted by the shared limiter, within the wait budget.

:class:`LimiterAdmission` is the service's :class:`bot.a2a.call_policy.Admission`:

- each attempt waits its turn in the limiter like any other request (and spends a slot);
- an attempt that never left (no connection could be made) gives its slot back;
- a rate limit pauses the token for everyone: for the server's ``retryAfter`` (the retry's
  admission then waits it out), or, when the server gave no wait, for a whole window, and
  the call gives up rather than guess;
- no retry whose turn would come later than the wait budget allows: the person gets the
  original error at once instead.

How many attempts a call makes and by when it ends are the call policy's.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncIterator, Hashable

from bot.a2a import errors
from bot.limits import Grant, Limiter
from bot.observability.metrics import Metrics

log = logging.getLogger(__name__)


class LimiterAdmission:
    def __init__(
        self,
        limiter: Limiter,
        metrics: Metrics,
        *,
        skill: str,
        expensive: bool,
        user_id: Hashable,
        token_key: str,
        wait_budget: float,
    ) -> None:
        self._limiter = limiter
        self._metrics = metrics
        self._skill = skill
        self._expensive = expensive
        self._user = user_id
        self.token_key = token_key  # the limiter's bucket: a refreshed token's, after a 401
        self._wait_budget = wait_budget
        self._grant: Grant | None = None  # the last attempt's admission

    @contextlib.asynccontextmanager
    async def admit(self, budget: float) -> AsyncIterator[None]:
        async with self._limiter.admit(
            self.token_key,
            self._user,
            expensive=self._expensive,
            budget=min(budget, self._wait_budget),
        ) as grant:
            self._grant = grant
            with self._metrics.timed_attempt(self._skill):
                yield

    async def after_failure(
        self, error: errors.A2AError, delay: float | None, *, may_retry: bool
    ) -> float | None:
        if error.never_sent and self._grant is not None:
            await self._limiter.refund(self.token_key, self._grant)
            self._grant = None
        if isinstance(error, errors.RateLimited):
            delay = await self._pause(error)
        if delay is None or not may_retry:
            return None
        wait = self._limiter.expected_wait(self.token_key, self._user, self._expensive)
        if wait + delay > self._wait_budget:
            return None
        self._metrics.upstream_retried(self._skill, error)
        return delay

    async def _pause(self, error: errors.RateLimited) -> float | None:
        """Pause the token for everyone; the delay before this call's retry, or None."""
        if error.retry_after is None:
            paused = await self._limiter.pause_for_window(self.token_key)
            log.info(
                "%s: rate-limited upstream with no wait given; token paused %.0fs",
                self._skill,
                paused,
            )
            return None
        await self._limiter.pause(self.token_key, error.retry_after)
        log.info("%s: token rate-limited upstream; waiting %.0fs", self._skill, error.retry_after)
        return 0.0  # the retry's admission waits out the pause
