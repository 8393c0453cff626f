"""One call's attempts, decided in one place and passed to the client: a :class:`CallPolicy`.

The client owns the wire: one body (so one ``messageId`` across retries), the JSON-RPC error
map, the per-attempt timeouts. The policy owns everything else about the call, for all of its
attempts and polls together:

- the **token** it is made with, replaced once by a refreshed one when Magisterium refuses it
  (``refresh``), the refused attempt then retried;
- the **deadline**, one monotonic instant for the whole call: every admission, attempt, retry
  pause, poll and the refreshed token's retry end by it;
- the **sends** and the **backoff** (:class:`RetryPolicy`): at most ``retry.max_attempts``
  attempts in all, each retry after its pause, and one more with a refreshed token after a 401;
- the **polling** of a task still working (:class:`PollPolicy`), within the same deadline;
- **admission**: each attempt waits its turn in the caller's rate limiter (an
  :class:`Admission`), which also says what a failure means for everyone (a rate limit pauses
  the token) and may refuse a retry whose turn would come too late.

A caller with no limiter (a token check, a one-off tool) gets :meth:`A2AClient.policy`.
"""

from __future__ import annotations

import contextlib
import random
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from typing import Protocol

from pydantic import SecretStr

from bot.a2a import errors
from bot.a2a.retry import SYSTEM_CLOCK, Clock, PollPolicy, RetryPolicy

Token = SecretStr | str


class Admission(Protocol):
    """The caller's rate limiter, asked about every attempt of a call."""

    def admit(self, budget: float) -> contextlib.AbstractAsyncContextManager[None]:
        """Wait for this attempt's turn (at most ``budget`` seconds); held while it is sent."""
        ...

    async def after_failure(
        self, error: errors.A2AError, delay: float | None, *, may_retry: bool
    ) -> float | None:
        """An attempt failed with ``error``; ``delay`` is the backoff's pause (None: not
        retryable). Returns the pause before the next attempt, or None to give up. Called for
        every failure, ``may_retry`` False included (a rate limit still pauses the token)."""
        ...


class _Unlimited:
    """No limiter: every attempt goes at once, retries as the backoff says."""

    @contextlib.asynccontextmanager
    async def admit(self, budget: float) -> AsyncIterator[None]:
        yield

    async def after_failure(
        self, error: errors.A2AError, delay: float | None, *, may_retry: bool
    ) -> float | None:
        return delay if may_retry else None


UNLIMITED: Admission = _Unlimited()

Refresh = Callable[[], Awaitable[Token | None]]


@dataclass(eq=False)
class CallPolicy:
    token: Token
    deadline: float  # a monotonic instant on ``clock``
    retry: RetryPolicy = field(default_factory=RetryPolicy)
    poll: PollPolicy = field(default_factory=PollPolicy)
    admission: Admission = UNLIMITED
    refresh: Refresh | None = None  # a 401: a fresh token to retry with, once; None: give up
    clock: Clock = SYSTEM_CLOCK
    rng: random.Random = field(default_factory=random.Random)
    sent: int = 0  # attempts admitted so far, across every request of the call
    refreshed: bool = False

    def __repr__(self) -> str:
        return f"CallPolicy(sent={self.sent}, max_attempts={self.retry.max_attempts})"

    @property
    def secret(self) -> str:
        return self.token.get_secret_value() if isinstance(self.token, SecretStr) else self.token

    def time_left(self, method: str) -> float:
        remaining = self.deadline - self.clock.monotonic()
        if remaining <= 0:
            raise errors.DeadlineExceeded(f"{method}: no time left after {self.sent} attempts")
        return remaining

    async def after_failure(self, error: errors.A2AError) -> float | None:
        """The last attempt failed with ``error``: the pause before the next one, or None to
        raise ``error``."""
        if isinstance(error, errors.Unauthorized):
            return await self._after_refusal()
        may_retry = self.sent < self.retry.max_attempts
        delay = None
        if may_retry:
            delay = self.retry.delay_before_retry(max(self.sent - 1, 0), error, self.rng)
        delay = await self.admission.after_failure(error, delay, may_retry=may_retry)
        if delay is None or self.clock.monotonic() + delay >= self.deadline:
            return None
        return delay

    async def _after_refusal(self) -> float | None:
        # Not counted against the sends: a token that had just expired is no failure of the
        # request, and giving up would mark a good account invalid.
        if self.refresh is None or self.refreshed:
            return None
        self.refreshed = True
        token = await self.refresh()
        if token is None:
            return None
        self.token = token
        return 0.0
