"""The bot's Prometheus metrics, in a registry of its own (each bot, and each test, starts at 0)."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterable, Iterator
from typing import Literal

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    ProcessCollector,
)
from prometheus_client.exposition import generate_latest

from bot.a2a import errors

PREFIX = "magisterium_bot_"
CONTENT_TYPE = CONTENT_TYPE_LATEST

Outcome = Literal["ok", "user_error", "error"]

# Upstream calls range from a cached-page fetch to a long catholic_qa answer.
UPSTREAM_BUCKETS = (0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 30, 60, 120, 300)
# Most admissions do not wait at all; a busy token's queue waits up to RATE_LIMIT_WAIT_SECONDS.
LIMITER_BUCKETS = (0.001, 0.01, 0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600)
# Discord allows 3 s for an interaction's first response: the buckets close in on it.
ACK_BUCKETS = (0.1, 0.25, 0.5, 1, 1.5, 2, 2.5, 3, 5, 10)
# A daily post is due at its minute; the scheduler ticks each minute and retries for hours.
DAILY_DELAY_BUCKETS = (30, 60, 120, 300, 600, 1800, 3600, 7200, 21600)
# Interaction kinds for the acknowledgement metrics.
InteractionKind = Literal["command", "autocomplete", "component", "modal", "other"]
# Why the public web listener turned a client away.
WebRefusal = Literal[
    "rate_limited",  # a client over its sign-in requests a minute (429)
    "sign_in_budget",  # every client together over the listener's sign-in budget (429)
    "connection_cap",  # the listener full: the connection closed unserved
    "client_connection_cap",  # one address over its own share of connections
    "header_timeout",  # a request's headers not sent in time
    "write_timeout",  # a client not reading its responses
    "bad_request",  # a malformed or refused request (400)
]


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
        self.ready = Gauge(
            f"{PREFIX}ready",
            "1 while /readyz says ready (gateway connected, database answering, not stopping).",
            registry=self.registry,
        )
        self.shard_latency = Gauge(
            f"{PREFIX}shard_latency_seconds",
            "Each shard's gateway heartbeat latency, as discord.py last measured it.",
            ["shard"],
            registry=self.registry,
        )
        self.gateway_events = Counter(
            f"{PREFIX}gateway_events",
            "Gateway events each shard received (dispatches of any type).",
            ["shard"],
            registry=self.registry,
        )
        self.interaction_ack = Histogram(
            f"{PREFIX}interaction_ack_seconds",
            "Time from an interaction's creation (its id's timestamp) to the bot's first "
            "response (a reply, a defer, a modal or autocomplete choices), by kind.",
            ["kind"],
            buckets=ACK_BUCKETS,
            registry=self.registry,
        )
        self.interactions_late = Counter(
            f"{PREFIX}interactions_late",
            "Interactions whose first response came after Discord's 3 s or never (Discord "
            "showed the person an error), by kind.",
            ["kind"],
            registry=self.registry,
        )
        self.daily_post_delay = Histogram(
            f"{PREFIX}daily_post_delay_seconds",
            "Time from a daily post's due minute to its sending.",
            buckets=DAILY_DELAY_BUCKETS,
            registry=self.registry,
        )
        self.web_refusals = Counter(
            f"{PREFIX}web_refusals",
            "Clients the public web listener turned away, by reason.",
            ["reason"],
            registry=self.registry,
        )
        # process_resident_memory_bytes, process_start_time_seconds (restarts) and the rest.
        ProcessCollector(registry=self.registry)

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

    def daily_tick(self, *, sent: int, failed: int, delays: Iterable[float] = ()) -> None:
        """One tick's posts; ``delays``: seconds from each sent post's due minute to its send."""
        if sent:
            self.daily_posts.labels(result="sent").inc(sent)
        if failed:
            self.daily_posts.labels(result="failed").inc(failed)
        for seconds in delays:
            self.daily_post_sent_after(seconds)

    def answer_feedback_given(self, verdict: str) -> None:
        self.answer_feedback.labels(verdict=verdict).inc()

    def set_ready(self, ready: bool) -> None:
        self.ready.set(1 if ready else 0)

    def shard_measured(self, shard: int, latency: float) -> None:
        self.shard_latency.labels(shard=str(shard)).set(latency)

    def shard_disconnected(self, shard: int) -> None:
        """No latency for a shard while it is disconnected (not its last one, gone stale)."""
        with contextlib.suppress(KeyError):
            self.shard_latency.remove(str(shard))

    def gateway_event(self, shard: int, count: int = 1) -> None:
        """``count`` events on ``shard`` (0: the shard's series exists, a silent shard shows)."""
        self.gateway_events.labels(shard=str(shard)).inc(count)

    def interaction_acknowledged(self, kind: InteractionKind, seconds: float) -> None:
        self.interaction_ack.labels(kind=kind).observe(seconds)
        if seconds > 3:
            self.interactions_late.labels(kind=kind).inc()

    def interaction_unanswered(self, kind: InteractionKind) -> None:
        self.interactions_late.labels(kind=kind).inc()

    def daily_post_sent_after(self, seconds: float) -> None:
        self.daily_post_delay.observe(max(seconds, 0.0))

    def web_refused(self, reason: WebRefusal) -> None:
        self.web_refusals.labels(reason=reason).inc()

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
