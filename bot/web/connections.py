"""How many connections a web server holds, from whom, and for how long.

The web servers share the bot's process, its file descriptors and its event loop with the
gateway, the database and the upstream: a crowd of idle, slow or unread connections must not
starve them. :class:`ConnectionGuard` is the listening socket's protocol factory: past the cap,
a new connection is closed at once, unserved; under it, :class:`GuardedRequestHandler`
(aiohttp's own handler) serves it, unless its client already holds its share of the cap. The
handler closes a connection whose first request's headers are late, or whose client leaves its
responses unread, and refuses requests framed ambiguously (bot.web.framing).
"""

from __future__ import annotations

import asyncio
import logging
import resource
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from aiohttp import web
from aiohttp.web_request import BaseRequest

from bot.settings import Settings
from bot.web.client_address import Network, client_key, is_trusted
from bot.web.framing import StrictFraming
from bot.web.refusals import Record, Refusals, unrecorded

log = logging.getLogger(__name__)

# The operator's listener serves a health check and a scraper or two.
OPERATOR_MAX_CONNECTIONS = 16
# The web servers may use this share of the process's file descriptors, at most.
FD_SHARE = 4
# One client's share of the cap when WEB_MAX_CONNECTIONS_PER_CLIENT is unset: this many (a
# browser opens six at most), or a quarter of the cap when that is less.
PER_CLIENT = 16
PER_CLIENT_SHARE = 4


@dataclass(frozen=True)
class ConnectionLimits:
    max_connections: int = 256
    # None: PER_CLIENT, or a quarter of the cap when that is less (see ``per_client_cap``).
    max_connections_per_client: int | None = None
    header_timeout: float = 10.0
    keepalive: float = 15.0
    write_timeout: float = 10.0
    # Their connections carry many clients': no per-client cap applies to them.
    trusted_proxies: tuple[Network, ...] = ()

    @classmethod
    def from_settings(cls, settings: Settings) -> ConnectionLimits:
        return cls(
            max_connections=settings.web_max_connections,
            max_connections_per_client=settings.web_max_connections_per_client,
            header_timeout=settings.web_header_timeout_seconds,
            keepalive=settings.web_keepalive_seconds,
            write_timeout=settings.web_write_timeout_seconds,
            trusted_proxies=tuple(settings.web_trusted_proxies),
        )

    def for_operator(self) -> ConnectionLimits:
        return replace(self, max_connections=min(self.max_connections, OPERATOR_MAX_CONNECTIONS))

    def cap(self) -> int:
        """``max_connections``, lowered to a quarter of the soft RLIMIT_NOFILE when that is less."""
        soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        if soft == resource.RLIM_INFINITY:
            return self.max_connections
        return max(1, min(self.max_connections, soft // FD_SHARE))

    def per_client_cap(self, cap: int) -> int:
        """The connections one client (an address, an IPv6 /64) may hold under ``cap``."""
        if self.max_connections_per_client is not None:
            return min(self.max_connections_per_client, cap)
        return min(PER_CLIENT, max(1, cap // PER_CLIENT_SHARE))


class _Refusals:
    """What the listener turns away, counted and logged once a minute each."""

    def __init__(self, record: Record) -> None:
        self.connection_cap = Refusals(
            "connection_cap",
            record,
            log,
            "web connections at the cap (%d): new ones are closed unserved",
        )
        self.client_connection_cap = Refusals(
            "client_connection_cap",
            record,
            log,
            "web connections from %s at their cap (%d): new ones are closed unserved",
        )
        self.header_timeout = Refusals(
            "header_timeout",
            record,
            log,
            "closed a web connection from %s that sent no request within %g s",
            level=logging.INFO,
        )
        self.write_timeout = Refusals(
            "write_timeout",
            record,
            log,
            "closed a web connection from %s that left its responses unread for %g s",
            level=logging.INFO,
        )
        self.record = record  # bad_request: the malformed request's own line is throttled


class ConnectionGuard:
    """The protocol factory of a listening socket: a :class:`GuardedRequestHandler` for each
    connection while fewer than ``cap`` are open, else a protocol that closes it at once. A
    client (not a trusted proxy) holds ``per_client_cap`` of them at most."""

    def __init__(
        self,
        cap: int,
        make_handler: Callable[[Seat], asyncio.Protocol],
        *,
        per_client_cap: int | None = None,
        trusted_proxies: Sequence[Network] = (),
        record: Record = unrecorded,
    ) -> None:
        self.cap = cap
        self.per_client_cap = cap if per_client_cap is None else per_client_cap
        self.open = 0
        self.refusals = _Refusals(record)
        self._make_handler = make_handler
        self._trusted_proxies = tuple(trusted_proxies)
        self._by_client: dict[str, int] = {}

    def __call__(self) -> asyncio.Protocol:
        # Counted here rather than in connection_made: asyncio accepts a batch of connections
        # before any of them is told it is made, so counting later would overshoot the cap.
        if self.open >= self.cap:
            self.refusals.connection_cap.refused(self.cap)
            return _Refused()
        self.open += 1
        return self._make_handler(Seat(self))

    def exempt(self, address: str) -> bool:
        """Whether connections from ``address`` count for no client (a trusted proxy's)."""
        return is_trusted(address, self._trusted_proxies)

    def take_share(self, client: str) -> bool:
        """Count one more connection for ``client``: False, and nothing counted, when it holds
        its share already."""
        held = self._by_client.get(client, 0)
        if held >= self.per_client_cap:
            self.refusals.client_connection_cap.refused(client, self.per_client_cap)
            return False
        self._by_client[client] = held + 1
        return True

    def give_back(self, client: str | None) -> None:
        """A connection ended: its place under the cap, and its client's share."""
        self.open -= 1
        if client is not None:
            left = self._by_client[client] - 1
            if left:
                self._by_client[client] = left
            else:
                del self._by_client[client]


class Seat:
    """One connection's place under the guard's caps: the listener's taken when it is
    accepted, its client's once its peer is known (unless the peer is a trusted proxy); both
    given back when it ends."""

    def __init__(self, guard: ConnectionGuard) -> None:
        self.guard = guard
        self._client: str | None = None
        self._taken = True

    def claim(self, address: str) -> bool:
        """Count the connection for ``address``'s client: False when it holds its share."""
        if self.guard.exempt(address):
            return True
        client = client_key(address)
        if not self.guard.take_share(client):
            return False
        self._client = client
        return True

    def release(self) -> None:
        if self._taken:
            self._taken = False
            self.guard.give_back(self._client)


class GuardedRequestHandler(web.RequestHandler):
    """aiohttp's connection handler, which also

    - closes the connection unserved when its client holds its share of the connections;
    - closes it when its first request has not sent all its headers within ``header_timeout``
      (aiohttp has no such timeout; its keep-alive timer covers idle connections, not slow ones);
    - closes it when its responses wait unread for ``write_timeout``: aiohttp has no write
      timeout, and a handler (or a closing transport) waits for its buffer to be sent for as
      long as the client likes;
    - answers 400 to a request framed ambiguously (bot.web.framing), and closes;
    - adds ``error_headers`` to the responses it makes itself (a malformed request's 400);
    - gives back its ``seat`` once the connection ends."""

    def __init__(
        self,
        manager: web.Server,
        *,
        seat: Seat,
        header_timeout: float,
        write_timeout: float,
        error_headers: Mapping[str, str],
        **kwargs: Any,
    ) -> None:
        super().__init__(manager, **kwargs)
        self._parser: Any = StrictFraming(self._parser)
        self._seat = seat
        self._refusals = seat.guard.refusals
        self._header_timeout = header_timeout
        self._write_timeout = write_timeout
        self._error_headers = error_headers
        self._peer = ""
        self._admitted = False
        self._socket: asyncio.Transport | None = None
        self._header_deadline: asyncio.TimerHandle | None = None
        self._write_deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        peer = transport.get_extra_info("peername")
        self._peer = str(peer[0]) if isinstance(peer, tuple) and peer else ""
        if not self._seat.claim(self._peer):
            transport.close()  # before aiohttp knows of it: nothing is read or served
            return
        self._admitted = True
        assert isinstance(transport, asyncio.Transport)
        self._socket = transport
        # Paused as soon as anything waits in the buffer (the socket's own is full), resumed
        # once all of it is sent: the write timeout runs while a response waits unread.
        transport.set_write_buffer_limits(high=0)
        super().connection_made(transport)
        self._header_deadline = asyncio.get_running_loop().call_later(
            self._header_timeout, self._close_if_no_request_yet
        )

    def connection_lost(self, exc: BaseException | None) -> None:
        for deadline in (self._header_deadline, self._write_deadline):
            if deadline is not None:
                deadline.cancel()
        self._header_deadline = self._write_deadline = None
        self._socket = None
        self._seat.release()
        if self._admitted:
            super().connection_lost(exc)

    def pause_writing(self) -> None:
        super().pause_writing()
        self._write_deadline = asyncio.get_running_loop().call_later(
            self._write_timeout, self._close_unread
        )

    def resume_writing(self) -> None:
        if self._write_deadline is not None:
            self._write_deadline.cancel()
            self._write_deadline = None
        super().resume_writing()

    def _close_unread(self) -> None:
        self._write_deadline = None
        self._refusals.write_timeout.refused(self._peer, self._write_timeout)
        # Not aiohttp's force_close: a transport's close() waits until its buffer is sent
        # (forever, here), and aiohttp may have called it already (a last response, the
        # keep-alive timeout) without the connection ending.
        if self._socket is not None:
            self._socket.abort()

    def _close_if_no_request_yet(self) -> None:
        self._header_deadline = None
        # aiohttp counts a request once its request line and headers are parsed.
        if self._request_count == 0:
            self._refusals.header_timeout.refused(self._peer, self._header_timeout)
            self.force_close()

    def handle_error(
        self,
        request: BaseRequest,
        status: int = 500,
        exc: BaseException | None = None,
        message: str | None = None,
    ) -> web.StreamResponse:
        if 400 <= status < 500:
            self._refusals.record("bad_request")
        response = super().handle_error(request, status, exc, message)
        response.headers.update(self._error_headers)
        return response


class _Refused(asyncio.Protocol):
    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        transport.close()
