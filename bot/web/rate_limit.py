"""The sign-in's request budget (``/oauth/...``), spent before any database work: past it, 429
with Retry-After.

Each client (bot.web.client_address: an address, an IPv6 /64) has its own budget a minute, and
all of them together share the listener's: a crowd of addresses, or one client rotating through
its IPv6 /64s, cannot reach the handlers more often than that. A client over its own budget
spends none of the shared one.
"""

from __future__ import annotations

import logging
import math
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

from aiohttp import hdrs, web
from aiohttp.typedefs import Handler

from bot.settings import Settings
from bot.web.client_address import Network, client_address, client_key
from bot.web.refusals import Record, Refusals, unrecorded

log = logging.getLogger(__name__)

OAUTH_PREFIX = "/oauth/"
# Clients remembered at once. Only a client whose budget is whole again is forgotten (it would
# start afresh anyway): with the shared budget, this many are never in use at once.
MAX_CLIENTS = 4096


class TokenBucket:
    """``per_minute`` requests at once, refilled evenly over a minute."""

    def __init__(self, per_minute: int, now: float) -> None:
        self._capacity = float(per_minute)
        self._per_second = per_minute / 60
        self._tokens = self._capacity
        self._updated = now

    def refill(self, now: float) -> None:
        elapsed = max(0.0, now - self._updated)
        self._tokens = min(self._capacity, self._tokens + elapsed * self._per_second)
        self._updated = now

    @property
    def whole(self) -> bool:
        """Refilled to the brim: as good as a new bucket."""
        return self._tokens >= self._capacity

    def retry_after(self) -> int | None:
        """None when a request may be spent, else how many whole seconds until one may."""
        if self._tokens >= 1:
            return None
        return max(1, math.ceil((1 - self._tokens) / self._per_second))

    def spend(self) -> None:
        self._tokens -= 1


@dataclass(frozen=True)
class Refused:
    reason: Literal["rate_limited", "sign_in_budget"]
    retry_after: int


class SignInBudget:
    """``per_client`` requests a minute for each client, ``total`` for all of them, with at
    most ``max_clients`` clients' buckets kept."""

    def __init__(
        self,
        per_client: int,
        total: int,
        *,
        max_clients: int = MAX_CLIENTS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._per_client = per_client
        self._max_clients = max_clients
        self._clock = clock
        self._total = TokenBucket(total, clock())
        self._clients: OrderedDict[str, TokenBucket] = OrderedDict()  # least recently used first

    def __len__(self) -> int:
        return len(self._clients)

    def spend(self, client: str) -> Refused | None:
        """Spend one request of ``client``'s budget and of the shared one: None when both had
        one, else why not and how long to wait. A refused request spends nothing."""
        now = self._clock()
        bucket = self._clients.get(client)
        if bucket is not None:
            self._clients.move_to_end(client)
            bucket.refill(now)
            if (wait := bucket.retry_after()) is not None:
                return Refused("rate_limited", wait)
        self._total.refill(now)
        if (wait := self._total.retry_after()) is not None:
            return Refused("sign_in_budget", wait)
        if bucket is None:
            if not self._room_for_one_more(now):
                # Forgetting a client still spending its budget would hand it a new one.
                return Refused("sign_in_budget", 60)
            bucket = self._clients[client] = TokenBucket(self._per_client, now)
        bucket.spend()
        self._total.spend()
        return None

    def _room_for_one_more(self, now: float) -> bool:
        """Forget the least recently seen clients whose budget is whole again, while the table
        is full; whether there is room now."""
        while len(self._clients) >= self._max_clients:
            oldest = next(iter(self._clients.values()))
            oldest.refill(now)
            if not oldest.whole:
                return False
            self._clients.popitem(last=False)
        return True


class OAuthRateLimit:
    """The sign-in's budget on a listener: who the client is behind ``trusted_proxies``, and
    refusals counted (``record``) and logged once a minute."""

    def __init__(
        self,
        budget: SignInBudget,
        *,
        trusted_proxies: Sequence[Network] = (),
        record: Record = unrecorded,
    ) -> None:
        self.budget = budget
        self.trusted_proxies = tuple(trusted_proxies)
        self._refusals = {
            "rate_limited": Refusals(
                "rate_limited", record, log, "sign-in requests from %s over their limit: 429"
            ),
            "sign_in_budget": Refusals(
                "sign_in_budget",
                record,
                log,
                "sign-in requests of all clients together over the listener's budget: 429 "
                "(the first from %s)",
            ),
        }

    @classmethod
    def from_settings(cls, settings: Settings, *, record: Record = unrecorded) -> OAuthRateLimit:
        budget = SignInBudget(
            settings.web_oauth_requests_per_minute, settings.web_oauth_requests_total_per_minute
        )
        return cls(budget, trusted_proxies=settings.web_trusted_proxies, record=record)

    def check(self, request: web.BaseRequest) -> None:
        """Spend a request of its client's budget, or raise 429."""
        client = client_key(client_address(request, self.trusted_proxies))
        refused = self.budget.spend(client)
        if refused is not None:
            self._refusals[refused.reason].refused(client)
            raise web.HTTPTooManyRequests(headers={hdrs.RETRY_AFTER: str(refused.retry_after)})


OAUTH_RATE_LIMIT = web.AppKey("oauth_rate_limit", OAuthRateLimit)


@web.middleware
async def limit_oauth_requests(request: web.Request, handler: Handler) -> web.StreamResponse:
    """The app's middleware: 429 for a client past its budget on the sign-in's routes, or for
    anyone while all clients together are past theirs."""
    if request.path.startswith(OAUTH_PREFIX):
        request.app[OAUTH_RATE_LIMIT].check(request)
    return await handler(request)
