"""How many connections a web server holds, and for how long.

The web servers share the bot's process, its file descriptors and its event loop with the
gateway, the database and the upstream: a crowd of idle or slow connections must not starve
them. :class:`ConnectionGuard` is the listening socket's protocol factory: past the cap, a new
connection is closed at once, unserved; under it, :class:`GuardedRequestHandler` (aiohttp's own
handler) serves it, and closes it when its first request's headers are late.
"""

from __future__ import annotations

import asyncio
import logging
import resource
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from aiohttp import web
from aiohttp.web_request import BaseRequest

from bot.settings import Settings
from bot.web.log_throttle import LogThrottle

log = logging.getLogger(__name__)

# The operator's listener serves a health check and a scraper or two.
OPERATOR_MAX_CONNECTIONS = 16
# The web servers may use this share of the process's file descriptors, at most.
FD_SHARE = 4


@dataclass(frozen=True)
class ConnectionLimits:
    max_connections: int = 256
    header_timeout: float = 10.0
    keepalive: float = 15.0

    @classmethod
    def from_settings(cls, settings: Settings) -> ConnectionLimits:
        return cls(
            max_connections=settings.web_max_connections,
            header_timeout=settings.web_header_timeout_seconds,
            keepalive=settings.web_keepalive_seconds,
        )

    def for_operator(self) -> ConnectionLimits:
        return replace(self, max_connections=min(self.max_connections, OPERATOR_MAX_CONNECTIONS))

    def cap(self) -> int:
        """``max_connections``, lowered to a quarter of the soft RLIMIT_NOFILE when that is less."""
        soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        if soft == resource.RLIM_INFINITY:
            return self.max_connections
        return max(1, min(self.max_connections, soft // FD_SHARE))


class GuardedRequestHandler(web.RequestHandler):
    """aiohttp's connection handler, which also closes a connection whose first request has not
    sent all its headers within ``header_timeout`` (aiohttp has no such timeout; its keep-alive
    timer covers idle connections, not slow ones), adds ``error_headers`` to the responses it
    makes itself (a malformed request's 400), and calls ``on_lost`` once the connection ends."""

    def __init__(
        self,
        manager: web.Server,
        *,
        header_timeout: float,
        error_headers: Mapping[str, str],
        on_lost: Callable[[], None],
        **kwargs: Any,
    ) -> None:
        super().__init__(manager, **kwargs)
        self._header_timeout = header_timeout
        self._error_headers = error_headers
        self._on_lost: Callable[[], None] | None = on_lost
        self._header_deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(transport)
        self._header_deadline = asyncio.get_running_loop().call_later(
            self._header_timeout, self._close_if_no_request_yet
        )

    def connection_lost(self, exc: BaseException | None) -> None:
        if self._header_deadline is not None:
            self._header_deadline.cancel()
            self._header_deadline = None
        if self._on_lost is not None:
            on_lost, self._on_lost = self._on_lost, None
            on_lost()
        super().connection_lost(exc)

    def _close_if_no_request_yet(self) -> None:
        self._header_deadline = None
        # aiohttp counts a request once its request line and headers are parsed.
        if self._request_count == 0:
            self.force_close()

    def handle_error(
        self,
        request: BaseRequest,
        status: int = 500,
        exc: BaseException | None = None,
        message: str | None = None,
    ) -> web.StreamResponse:
        response = super().handle_error(request, status, exc, message)
        response.headers.update(self._error_headers)
        return response


class _Refused(asyncio.Protocol):
    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        transport.close()


class ConnectionGuard:
    """The protocol factory of a listening socket: a :class:`GuardedRequestHandler` for each
    connection while fewer than ``cap`` are open, else a protocol that closes it at once."""

    def __init__(self, cap: int, make_handler: Callable[[Callable[[], None]], asyncio.Protocol]):
        self.cap = cap
        self.open = 0
        self._make_handler = make_handler
        self._refusals = LogThrottle()

    def __call__(self) -> asyncio.Protocol:
        # Counted here rather than in connection_made: asyncio accepts a batch of connections
        # before any of them is told it is made, so counting later would overshoot the cap.
        if self.open >= self.cap:
            held_back = self._refusals.event()
            if held_back is not None:
                log.warning(
                    "web connections at the cap (%d): new ones are closed unserved "
                    "(%d more since the last such line)",
                    self.cap,
                    held_back,
                )
            return _Refused()
        self.open += 1
        return self._make_handler(self._closed)

    def _closed(self) -> None:
        self.open -= 1
