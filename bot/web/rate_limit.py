"""A per-client request budget for the sign-in's routes (``/oauth/...``), spent before any
database work: past it, 429 with Retry-After.

The client is the peer's address or, when the peer is a trusted reverse proxy, the address the
proxies saw (X-Forwarded-For). IPv6 clients count by /64, the block one host usually has.
"""

from __future__ import annotations

import logging
import math
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from ipaddress import IPv4Network, IPv6Network, ip_address, ip_network

from aiohttp import hdrs, web
from aiohttp.typedefs import Handler

from bot.web.log_throttle import LogThrottle

log = logging.getLogger(__name__)

OAUTH_PREFIX = "/oauth/"
# Clients remembered at once; the least recently seen is forgotten first.
MAX_CLIENTS = 4096
IPV6_PREFIX = 64

Network = IPv4Network | IPv6Network


@dataclass
class _Bucket:
    tokens: float
    updated: float


class ClientRateLimit:
    """A token bucket per client: ``per_minute`` requests at once, refilled evenly over a
    minute, in a table of at most ``max_clients`` entries."""

    def __init__(
        self,
        per_minute: int,
        *,
        max_clients: int = MAX_CLIENTS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._capacity = float(per_minute)
        self._per_second = per_minute / 60
        self._max_clients = max_clients
        self._clock = clock
        self._buckets: OrderedDict[str, _Bucket] = OrderedDict()

    def __len__(self) -> int:
        return len(self._buckets)

    def retry_after(self, client: str) -> int | None:
        """Spend one request of ``client``'s budget: None when there was one, else how many
        whole seconds until there is."""
        now = self._clock()
        bucket = self._buckets.get(client)
        if bucket is None:
            bucket = self._buckets[client] = _Bucket(self._capacity, now)
            if len(self._buckets) > self._max_clients:
                self._buckets.popitem(last=False)
        else:
            self._buckets.move_to_end(client)
            elapsed = now - bucket.updated
            bucket.tokens = min(self._capacity, bucket.tokens + elapsed * self._per_second)
            bucket.updated = now
        if bucket.tokens >= 1:
            bucket.tokens -= 1
            return None
        return max(1, math.ceil((1 - bucket.tokens) / self._per_second))


def client_address(request: web.BaseRequest, trusted_proxies: Sequence[Network]) -> str:
    """The peer's address, or the right-most X-Forwarded-For address that is not a trusted
    proxy's when the peer is one (each proxy appends the address it was reached from)."""
    hops = [
        hop.strip()
        for value in request.headers.getall(hdrs.X_FORWARDED_FOR, [])
        for hop in value.split(",")
    ]
    address = request.remote or ""
    while hops and _is_trusted(address, trusted_proxies):
        address = hops.pop()
    return address


def client_key(address: str) -> str:
    """The bucket an address counts in: itself, or its /64 for IPv6."""
    try:
        parsed = ip_address(address)
    except ValueError:
        return address
    if parsed.version == 6:
        return str(ip_network(f"{parsed}/{IPV6_PREFIX}", strict=False))
    return str(parsed)


def _is_trusted(address: str, trusted_proxies: Sequence[Network]) -> bool:
    try:
        parsed = ip_address(address)
    except ValueError:
        return False
    return any(parsed in network for network in trusted_proxies)


@dataclass(frozen=True)
class OAuthRateLimit:
    limit: ClientRateLimit
    trusted_proxies: Sequence[Network] = ()
    turned_away: LogThrottle = field(default_factory=LogThrottle)


OAUTH_RATE_LIMIT = web.AppKey("oauth_rate_limit", OAuthRateLimit)


@web.middleware
async def limit_oauth_requests(request: web.Request, handler: Handler) -> web.StreamResponse:
    """The app's middleware: 429 for a client past its budget on the sign-in's routes."""
    if request.path.startswith(OAUTH_PREFIX):
        limits = request.app[OAUTH_RATE_LIMIT]
        client = client_key(client_address(request, limits.trusted_proxies))
        wait = limits.limit.retry_after(client)
        if wait is not None:
            held_back = limits.turned_away.event()
            if held_back is not None:
                log.warning(
                    "sign-in requests from %s over the limit: 429 (%d more since the last line)",
                    client,
                    held_back,
                )
            raise web.HTTPTooManyRequests(headers={hdrs.RETRY_AFTER: str(wait)})
    return await handler(request)
