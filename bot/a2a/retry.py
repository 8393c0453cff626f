"""Retry timing: which errors to repeat, how long to wait, how long to poll an unfinished
task, and a clock tests can drive."""

from __future__ import annotations

import asyncio
import email.utils
import math
import random
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Protocol

from bot.a2a.errors import A2AError, GatewayThrottled, RateLimited


class Clock(Protocol):
    def monotonic(self) -> float: ...

    async def sleep(self, seconds: float) -> None: ...


class SystemClock:
    def monotonic(self) -> float:
        return time.monotonic()

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(seconds)


SYSTEM_CLOCK = SystemClock()


# Sends of one call at most, retries included, unless its skill's rate class says fewer
# (bot.a2a.skills).
BASIC_ATTEMPTS = 3


@dataclass(frozen=True)
class RetryPolicy:
    """Full-jitter exponential backoff with a cap; rate limits wait what the server asked.

    Only errors whose class says ``retryable`` are repeated (rate limits with a wait, -32603,
    5xx, a proxy's 429, transport failures); 401, 403, -32602 and -32002 never are, and
    neither is a rate limit that gives no wait (the caller pauses the token instead).
    """

    max_attempts: int = BASIC_ATTEMPTS
    base_delay: float = 0.5
    max_delay: float = 20.0
    # A rate limit asking for a longer pause than this is handed to the caller at once:
    # the shared limiter, not a blocked request, is the place to wait that long.
    max_retry_after: float = 30.0

    def delay_before_retry(self, attempt: int, error: A2AError, rng: random.Random) -> float | None:
        """Seconds to wait before attempt ``attempt + 1`` (0-based), or None to give up."""
        if not error.retryable or attempt + 1 >= self.max_attempts:
            return None
        if isinstance(error, RateLimited):
            return self._hinted(error.retry_after, self.max_retry_after, rng)
        if isinstance(error, GatewayThrottled) and error.retry_after is not None:
            # No limiter waits for a proxy's throttle: a hint up to max_delay is slept here.
            return self._hinted(error.retry_after, self.max_delay, rng)
        return self.backoff(attempt, rng)

    def backoff(self, attempt: int, rng: random.Random) -> float:
        """Full jitter: uniform in [0, min(max_delay, base_delay * 2**attempt)]."""
        return rng.uniform(0, min(self.max_delay, self.base_delay * 2**attempt))

    def _hinted(self, wait: float | None, cap: float, rng: random.Random) -> float | None:
        if wait is None or wait > cap:
            return None
        # A little jitter on top, so many waiters do not return in the same instant.
        return wait + rng.uniform(0, self.base_delay)


@dataclass(frozen=True)
class PollPolicy:
    """How long to wait for a task still ``submitted``/``working``/``unknown``: a few
    ``tasks/get`` (which count against no rate limit), doubling the pause, within the call's
    deadline. Magisterium's skills are synchronous, so this is for a peer that is not."""

    attempts: int = 5
    first_delay: float = 0.25
    max_delay: float = 4.0

    def delays(self) -> list[float]:
        """The pause before each poll: 0.25, 0.5, 1, 2, 4 s by default (7.75 s in all)."""
        return [min(self.max_delay, self.first_delay * 2**n) for n in range(self.attempts)]


def parse_retry_after(value: str | None, *, now: datetime | None = None) -> float | None:
    """A ``Retry-After`` header in seconds or as an HTTP-date; None when absent or unreadable."""
    if not value:
        return None
    value = value.strip()
    try:
        return _seconds(float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return max(0.0, (when - (now or datetime.now(UTC))).total_seconds())


def retry_after_from_data(data: object) -> float | None:
    """``error.data.retryAfter`` (seconds) when present and numeric."""
    if isinstance(data, dict):
        value = data.get("retryAfter", data.get("retry_after"))
        if isinstance(value, int | float) and not isinstance(value, bool):
            return _seconds(float(value))
        if isinstance(value, str):
            return parse_retry_after(value)
    return None


def _seconds(value: float) -> float | None:
    """A wait in seconds, never negative; NaN and infinity (JSON's ``Infinity``) are no wait
    at all rather than a token paused forever."""
    return max(0.0, value) if math.isfinite(value) else None
