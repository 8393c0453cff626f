"""FakeMagisterium: the state of a fake upstream, and the knobs tests turn."""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import UTC, date, datetime

from devtools.fake_magisterium import observe, rpc
from devtools.fake_magisterium.accounts import Accounts, bearer_token
from devtools.fake_magisterium.exchange import Exchange
from devtools.fake_magisterium.faults import Fault, FaultBook
from devtools.fake_magisterium.messages import RequestFacts
from devtools.fake_magisterium.ratelimit import SlidingWindow
from devtools.fake_magisterium.replies import Reply
from devtools.fake_magisterium.rpc import JsonDict
from devtools.fake_magisterium.tasks import TaskStore

EXPENSIVE_SKILLS = frozenset({"catholic_qa"})


def utc_today() -> date:
    return datetime.now(UTC).date()


@dataclass(frozen=True)
class UpstreamRequest:
    """One POST to the A2A endpoint as the fake saw it, and the HTTP status it answered
    (0: connection dropped). `skill` is the effective skill of a message/send, else None."""

    method: str
    skill: str | None
    token: str | None
    message_id: str | None
    context_id: str | None
    parts: list[JsonDict]
    http_status: int
    error_code: int | None = None
    faults: tuple[str, ...] = field(default=())


class FakeMagisterium:
    """An in-memory Magisterium A2A upstream; serve it with `running_fake_server`."""

    def __init__(
        self,
        basic_per_minute: int = 15,
        expensive_per_minute: int = 2,
        clock: Callable[[], float] = time.monotonic,
        latency: float = 0.0,
        *,
        today: Callable[[], date] = utc_today,
        rate_limits_enabled: bool = True,
        label_samples: bool = False,
    ) -> None:
        self.clock = clock
        self.today = today
        self.latency = latency
        self.rate_limits_enabled = rate_limits_enabled
        # For people (the console, fake-server): each answer first says it is an offline sample.
        self.label_samples = label_samples
        self.faults = FaultBook()
        self.accounts = Accounts()
        self.tasks = TaskStore(clock)
        self.requests: list[UpstreamRequest] = []
        self._basic = SlidingWindow(basic_per_minute, clock)
        self._expensive = SlidingWindow(expensive_per_minute, clock)

    @property
    def basic_per_minute(self) -> int:
        return self._basic.limit

    @basic_per_minute.setter
    def basic_per_minute(self, limit: int) -> None:
        self._basic.limit = limit

    @property
    def expensive_per_minute(self) -> int:
        return self._expensive.limit

    @expensive_per_minute.setter
    def expensive_per_minute(self, limit: int) -> None:
        self._expensive.limit = limit

    def handle(self, body: bytes, authorization: str | None) -> Reply:
        """Answer one A2A POST given its raw body and Authorization header."""
        exchange = Exchange(self, body, bearer_token(authorization))
        reply = exchange.run()
        observe.notify(body, reply, exchange.applied)
        return reply

    def _windows(self, skill: str) -> list[SlidingWindow]:
        return [self._basic, self._expensive] if skill in EXPENSIVE_SKILLS else [self._basic]

    def check_rate(self, token: str, skill: str) -> None:
        """Raise RATE_LIMITED when a message/send of `skill` would exceed a pool now."""
        if not self.rate_limits_enabled:
            return
        wait = max(window.retry_after(token) for window in self._windows(skill))
        if wait:
            raise rpc.RpcError(rpc.RATE_LIMITED, data={"retryAfter": wait})

    def count_rate(self, token: str, skill: str) -> None:
        if self.rate_limits_enabled:
            for window in self._windows(skill):
                window.hit(token)

    def record(
        self,
        facts: RequestFacts,
        token: str | None,
        reply: Reply,
        faults: Iterable[Fault] = (),
    ) -> None:
        self.requests.append(
            UpstreamRequest(
                method=facts.method,
                skill=facts.skill,
                token=token,
                message_id=facts.message_id,
                context_id=facts.context_id,
                parts=facts.parts,
                http_status=reply.status,
                error_code=reply.error_code,
                faults=tuple(str(f) for f in faults),
            )
        )

    def count(self, skill: str | None = None, method: str | None = None) -> int:
        """Recorded requests matching both filters (None matches anything)."""
        return sum(
            1
            for r in self.requests
            if (skill is None or r.skill == skill) and (method is None or r.method == method)
        )

    def stats(self) -> JsonDict:
        return {
            "total": len(self.requests),
            "by_skill": dict(Counter(r.skill for r in self.requests if r.skill)),
            "by_method": dict(Counter(r.method or "<invalid>" for r in self.requests)),
            "by_status": dict(Counter(str(r.http_status) for r in self.requests)),
            "by_error": dict(Counter(str(r.error_code) for r in self.requests if r.error_code)),
            "pending_faults": [rule.to_json() for rule in self.faults.pending],
        }

    def reset(self) -> None:
        """Forget requests, tasks, rate windows and faults (accounts and settings stay)."""
        self.requests.clear()
        self.tasks.clear()
        self._basic.clear()
        self._expensive.clear()
        self.faults.clear()
