"""Every attempt of one skill call admitted by the shared limiter, within the skill's budget.

:class:`LimiterGate` is the service's :class:`bot.a2a.attempts.AttemptGate`. The client keeps
the request (one ``messageId`` across retries), its deadline and the backoff; the gate adds:

- each attempt waits its turn in the limiter like any other request (and spends a slot);
- at most ``attempt_budget`` sends per call: 2 for catholic_qa, 3 for the basic skills;
- an attempt that never left (no connection could be made) gives its slot back;
- a rate limit pauses the token for everyone: for the server's ``retryAfter`` (the retry's
  admission then waits it out), or, when the server gave no wait, for a whole window, and
  the call gives up rather than guess;
- no retry whose turn would come later than the wait budget allows: the person gets the
  original error at once instead.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncIterator, Hashable

from bot.a2a import Skill, errors
from bot.a2a.retry import attempt_budget
from bot.limits import Grant, Limiter
from bot.observability.metrics import Metrics

log = logging.getLogger(__name__)


class LimiterGate:
    def __init__(
        self,
        limiter: Limiter,
        metrics: Metrics,
        *,
        skill: Skill,
        user_id: Hashable,
        token_key: str,
        wait_budget: float,
        sent: int = 0,
    ) -> None:
        self._limiter = limiter
        self._metrics = metrics
        self._skill = skill
        self._user = user_id
        self._key = token_key
        self._wait_budget = wait_budget
        self.max_attempts = attempt_budget(skill.expensive)
        self.sent = sent  # attempts admitted so far
        self._grant: Grant | None = None  # the last attempt's admission

    def for_token(self, token_key: str) -> LimiterGate:
        """The same call continued with another token (a refreshed one): the sends so far
        still count against its budget."""
        return LimiterGate(
            self._limiter,
            self._metrics,
            skill=self._skill,
            user_id=self._user,
            token_key=token_key,
            wait_budget=self._wait_budget,
            sent=self.sent,
        )

    @contextlib.asynccontextmanager
    async def admit(self, budget: float) -> AsyncIterator[None]:
        async with self._limiter.admit(
            self._key,
            self._user,
            expensive=self._skill.expensive,
            budget=min(budget, self._wait_budget),
        ) as grant:
            self._grant = grant
            self.sent += 1
            with self._metrics.timed_attempt(self._skill):
                yield

    async def after_failure(
        self, error: errors.A2AError, attempt: int, delay: float | None
    ) -> float | None:
        if error.never_sent and self._grant is not None:
            await self._limiter.refund(self._key, self._grant)
            self._grant = None
        if isinstance(error, errors.RateLimited):
            delay = await self._pause(error)
        if delay is None or self.sent >= self.max_attempts:
            return None
        wait = self._limiter.expected_wait(self._key, self._user, self._skill.expensive)
        if wait + delay > self._wait_budget:
            return None
        self._metrics.upstream_retried(self._skill, error)
        return delay

    async def _pause(self, error: errors.RateLimited) -> float | None:
        """Pause the token for everyone; the delay before this call's retry, or None."""
        if error.retry_after is None:
            paused = await self._limiter.pause_for_window(self._key)
            log.info(
                "%s: rate-limited upstream with no wait given; token paused %.0fs",
                self._skill,
                paused,
            )
            return None
        await self._limiter.pause(self._key, error.retry_after)
        log.info("%s: token rate-limited upstream; waiting %.0fs", self._skill, error.retry_after)
        return 0.0  # the retry's admission waits out the pause
