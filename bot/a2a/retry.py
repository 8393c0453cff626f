"""Retry timing: which errors to repeat, how long to wait, and a clock tests can drive."""

from __future__ import annotations

import asyncio
import email.utils
import random
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Protocol

from bot.a2a.errors import A2AError, RateLimited


class Clock(Protocol):
    def monotonic(self) -> float: ...

    async def sleep(self, seconds: float) -> None: ...


class SystemClock:
    def monotonic(self) -> float:
        return time.monotonic()

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(seconds)


SYSTEM_CLOCK = SystemClock()


@dataclass(frozen=True)
class RetryPolicy:
    """Full-jitter exponential backoff with a cap; rate limits wait what the server asked.

    Only errors whose class says ``retryable`` are repeated (rate limits, -32603, 5xx,
    transport failures); 401, 403, -32602 and -32002 never are.
    """

    max_attempts: int = 4
    base_delay: float = 0.5
    max_delay: float = 20.0
    # A rate limit asking for a longer pause than this is handed to the caller at once:
    # the shared limiter, not a blocked request, is the place to wait that long.
    max_retry_after: float = 30.0

    def delay_before_retry(self, attempt: int, error: A2AError, rng: random.Random) -> float | None:
        """Seconds to wait before attempt ``attempt + 1`` (0-based), or None to give up."""
        if not error.retryable or attempt + 1 >= self.max_attempts:
            return None
        if isinstance(error, RateLimited) and error.retry_after is not None:
            if error.retry_after > self.max_retry_after:
                return None
            # A little jitter on top, so many waiters do not return in the same instant.
            return error.retry_after + rng.uniform(0, self.base_delay)
        return rng.uniform(0, min(self.max_delay, self.base_delay * 2**attempt))


def parse_retry_after(value: str | None, *, now: datetime | None = None) -> float | None:
    """A ``Retry-After`` header in seconds or as an HTTP-date; None when absent or unreadable."""
    if not value:
        return None
    value = value.strip()
    try:
        return max(0.0, float(value))
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
            return max(0.0, float(value))
        if isinstance(value, str):
            return parse_retry_after(value)
    return None
