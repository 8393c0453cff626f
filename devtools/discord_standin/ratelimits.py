"""Discord's REST rate limits as its headers describe them, and faults injected on demand.

Each route has a bucket (``X-RateLimit-Bucket``) per major parameter (channel, guild, webhook),
with ``X-RateLimit-Limit`` requests until the reset ``X-RateLimit-Reset-After`` names, when the
bucket is full again (Discord's fixed window, not a sliding one). A request past the limit gets
429 with ``retry_after``, the way Discord answers a client that ignored the headers. On demand
(:meth:`RateLimits.refuse`) the next requests of a kind get 429 (per route, or
``global: true``) or a 5xx. Discord's 429s carry a ``Via`` header; discord.py reads a 429
without one as a Cloudflare ban and stops retrying, so every 429 here has it.

Discord's global limit (50 requests a second per bot, whatever the route, shared by every
process on the bot's token; interaction callbacks and webhooks are not bound by it) is off
unless :meth:`RateLimits.limit_globally` turns it on: past it, a request gets 429 with
``global: true``.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Iterable
from dataclasses import dataclass

from devtools.discord.wire import JSON

Headers = dict[str, str]


@dataclass
class Bucket:
    """Discord's window: ``limit`` requests, the whole of it back at the reset time (the
    window opens with its first request), which is what the headers promise a client."""

    limit: int
    period: float
    used: int = 0
    resets_at: float | None = None  # time.monotonic() of the reset; None: no window open

    def _roll(self, now: float) -> None:
        if self.resets_at is not None and now >= self.resets_at:
            self.used, self.resets_at = 0, None

    def take(self, now: float) -> float:
        """0 and count the request if there is room; else the seconds until there is."""
        self._roll(now)
        if self.resets_at is not None and self.used >= self.limit:
            return self.resets_at - now
        if self.resets_at is None:
            self.resets_at = now + self.period
        self.used += 1
        return 0.0

    def headers(self, name: str, now: float) -> Headers:
        self._roll(now)
        remaining = self.limit - self.used
        reset_after = self.period if self.resets_at is None else self.resets_at - now
        return {
            "X-RateLimit-Limit": str(self.limit),
            "X-RateLimit-Remaining": str(max(remaining, 0)),
            "X-RateLimit-Reset": f"{time.time() + reset_after:.3f}",
            "X-RateLimit-Reset-After": f"{reset_after:.3f}",
            "X-RateLimit-Bucket": hashlib.sha256(name.encode()).hexdigest()[:16],
        }


@dataclass
class Refusal:
    """The next ``count`` requests of ``kind`` answered with ``status`` (429 or 5xx)."""

    kind: str
    count: int
    status: int = 429
    retry_after: float = 0.5
    is_global: bool = False


@dataclass(frozen=True)
class Answer:
    status: int
    body: JSON
    headers: Headers


# Not bound by the global limit: interaction endpoints (Discord: "Interaction endpoints are not
# bound to the bot's Global Rate Limit").
GLOBAL_EXEMPT = frozenset({"callback", "webhook"})


class RateLimits:
    """Buckets by (route, major parameter); ``limits`` maps a route kind to (limit, period).
    ``global_bucket``: every other request's too, when :meth:`limit_globally` set one."""

    DEFAULT = (50, 1.0)

    def __init__(self, limits: dict[str, tuple[int, float]] | None = None) -> None:
        self.limits = dict(limits or {})
        self.buckets: dict[tuple[str, str], Bucket] = {}
        self.refusals: list[Refusal] = []
        self.refused: list[tuple[str, int, bool]] = []  # (kind, status, global) given
        self.global_bucket: Bucket | None = None
        self.global_exempt: frozenset[str] = GLOBAL_EXEMPT

    def limit_globally(
        self, limit: int = 50, period: float = 1.0, *, exempt: Iterable[str] = GLOBAL_EXEMPT
    ) -> None:
        """Discord's global limit: ``limit`` requests per ``period`` seconds over every route
        but those of the ``exempt`` kinds; past it, 429 with ``global: true``."""
        self.global_bucket = Bucket(limit, period)
        self.global_exempt = frozenset(exempt)

    def refuse(
        self,
        kind: str,
        count: int = 1,
        *,
        status: int = 429,
        retry_after: float = 0.5,
        is_global: bool = False,
    ) -> None:
        self.refusals.append(Refusal(kind, count, status, retry_after, is_global))

    def check(self, kind: str, major: str) -> tuple[Answer | None, Headers]:
        """(an error answer if the request is refused, the rate-limit headers to send)."""
        now = time.monotonic()
        limit, period = self.limits.get(kind, self.DEFAULT)
        bucket = self.buckets.setdefault((kind, major), Bucket(limit, period))
        refusal = next((r for r in self.refusals if r.kind == kind and r.count > 0), None)
        if refusal is not None:
            refusal.count -= 1
            self.refused.append((kind, refusal.status, refusal.is_global))
            if refusal.status == 429:
                return self._too_many(refusal.retry_after, refusal.is_global, bucket, kind, now)
            body = {"message": "500: Internal Server Error", "code": 0}
            return Answer(refusal.status, body, {}), {}
        if self.global_bucket is not None and kind not in self.global_exempt:
            wait = self.global_bucket.take(now)
            if wait:
                self.refused.append((kind, 429, True))
                return self._too_many(wait, True, bucket, kind, now)
        wait = bucket.take(now)
        if wait:
            self.refused.append((kind, 429, False))
            return self._too_many(wait, False, bucket, kind, now)
        return None, bucket.headers(kind, now)

    @staticmethod
    def _too_many(
        retry_after: float, is_global: bool, bucket: Bucket, kind: str, now: float
    ) -> tuple[Answer, Headers]:
        body: JSON = {
            "message": "You are being rate limited.",
            "retry_after": retry_after,
            "global": is_global,
            "code": 0,
        }
        headers = {"Retry-After": str(max(1, round(retry_after))), "Via": "1.1 google"}
        if is_global:
            headers["X-RateLimit-Global"] = "true"
            headers["X-RateLimit-Scope"] = "global"
        else:
            headers.update(bucket.headers(kind, now))
            headers["X-RateLimit-Remaining"] = "0"
            headers["X-RateLimit-Scope"] = "user"
        return Answer(429, body, headers), headers
