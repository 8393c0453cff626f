"""The bot's Prometheus metrics, in a registry of its own (each bot, and each test, starts at 0)."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator
from typing import Literal

from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, Counter, Histogram
from prometheus_client.exposition import generate_latest

from bot.a2a import errors

PREFIX = "magisterium_bot_"
CONTENT_TYPE = CONTENT_TYPE_LATEST

Outcome = Literal["ok", "user_error", "error"]

# Upstream calls range from a cached-page fetch to a long catholic_qa answer.
UPSTREAM_BUCKETS = (0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 30, 60, 120, 300)
# Most admissions do not wait at all; a busy token's queue waits up to RATE_LIMIT_WAIT_SECONDS.
LIMITER_BUCKETS = (0.001, 0.01, 0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600)


class Metrics:
    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        self.commands = Counter(
            f"{PREFIX}commands",
            "Application commands run, by command and outcome (ok, user_error, error).",
            ["command", "outcome"],
            registry=self.registry,
        )
        self.upstream_seconds = Histogram(
            f"{PREFIX}upstream_request_seconds",
            "Time of each request to Magisterium (one attempt, as the limiter admitted it), "
            "by skill.",
            ["skill"],
            buckets=UPSTREAM_BUCKETS,
            registry=self.registry,
        )
        self.upstream_errors = Counter(
            f"{PREFIX}upstream_errors",
            "Failed calls to Magisterium (after any retries), by skill and code (JSON-RPC "
            "code, HTTP status or kind).",
            ["skill", "code"],
            registry=self.registry,
        )
        self.upstream_retries = Counter(
            f"{PREFIX}upstream_retries",
            "Attempts repeated after a failure, by skill and reason (the failed attempt's "
            "code, HTTP status or kind).",
            ["skill", "reason"],
            registry=self.registry,
        )
        self.limiter_wait = Histogram(
            f"{PREFIX}limiter_wait_seconds",
            "Time a call waited in the rate limiter for its turn.",
            buckets=LIMITER_BUCKETS,
            registry=self.registry,
        )
        self.cache_requests = Counter(
            f"{PREFIX}cache_requests",
            "Lookups of public content in the cache, by result (hit, miss, shared).",
            ["result"],
            registry=self.registry,
        )
        self.daily_posts = Counter(
            f"{PREFIX}daily_posts",
            "Daily posts, by result (sent, failed: retried later).",
            ["result"],
            registry=self.registry,
        )
        self.answer_feedback = Counter(
            f"{PREFIX}answer_feedback",
            'Votes on answers ("Was it helpful?"), by verdict (helpful, not_helpful): a new '
            "vote and a changed one count their verdict; a withdrawn one counts nothing.",
            ["verdict"],
            registry=self.registry,
        )
        for verdict in ("helpful", "not_helpful"):
            self.answer_feedback.labels(verdict=verdict)  # both series exist from the start, at 0

    def command_finished(self, command: str, outcome: Outcome) -> None:
        self.commands.labels(command=command, outcome=outcome).inc()

    @contextlib.contextmanager
    def timed_attempt(self, skill: str) -> Iterator[None]:
        """Times one request to Magisterium (one attempt of a call)."""
        started = time.perf_counter()
        try:
            yield
        finally:
            self.upstream_seconds.labels(skill=skill).observe(time.perf_counter() - started)

    def upstream_failed(self, skill: str, error: BaseException) -> None:
        """A call failed for good (its last attempt's error, or a state like ``rejected``)."""
        self.upstream_errors.labels(skill=skill, code=upstream_error_code(error)).inc()

    def upstream_retried(self, skill: str, error: BaseException) -> None:
        self.upstream_retries.labels(skill=skill, reason=upstream_error_code(error)).inc()

    def limiter_waited(self, seconds: float) -> None:
        self.limiter_wait.observe(seconds)

    def cache_lookup(self, result: Literal["hit", "miss", "shared"]) -> None:
        self.cache_requests.labels(result=result).inc()

    def daily_tick(self, *, sent: int, failed: int) -> None:
        if sent:
            self.daily_posts.labels(result="sent").inc(sent)
        if failed:
            self.daily_posts.labels(result="failed").inc(failed)

    def answer_feedback_given(self, verdict: str) -> None:
        self.answer_feedback.labels(verdict=verdict).inc()

    def render(self) -> bytes:
        """Every metric in the Prometheus text exposition format (see ``CONTENT_TYPE``)."""
        return generate_latest(self.registry)


def upstream_error_code(error: BaseException) -> str:
    """A label for a failed call: its JSON-RPC code, else its HTTP status, else its kind."""
    if isinstance(error, errors.A2AError):
        if error.code is not None:
            return str(error.code)
        if error.http_status is not None:
            return str(error.http_status)
    return type(error).__name__
