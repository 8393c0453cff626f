"""Speaking raw HTTP/1.1 to a real web server on loopback, for the tests of hostile clients.

A deadline (``GUARD_SECONDS``) only stops a test whose server never closes a connection; no
test waits on the clock for work.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from ipaddress import ip_network

from aiohttp import web

from bot.observability.metrics import WebRefusal
from bot.web import ConnectionLimits, OAuthRateLimit, SignInBudget, WebServer, public_app
from bot.web.pages import SiteInfo

GUARD_SECONDS = 10.0
SHORT = 0.2  # a timeout a test wants to see expire
LONG = 60.0  # one it must not


def a_public_app(
    *,
    https: bool = False,
    per_minute: int = 30,
    total_per_minute: int = 600,
    trusted: tuple[str, ...] = (),
    record: RefusalsSeen | None = None,
) -> web.Application:
    limit = OAuthRateLimit(
        SignInBudget(per_minute, total_per_minute),
        trusted_proxies=[ip_network(network) for network in trusted],
        record=record or RefusalsSeen(),
    )
    return public_app(SiteInfo(invite_url=lambda: None), https=https, oauth_rate_limit=limit)


class RefusalsSeen:
    """What a listener recorded as refused (``Metrics.web_refused`` in the bot), by reason."""

    def __init__(self) -> None:
        self.counts: Counter[str] = Counter()
        self._seen: dict[str, asyncio.Event] = {}

    def __call__(self, reason: WebRefusal) -> None:
        self.counts[reason] += 1
        self._event(reason).set()

    async def first(self, reason: WebRefusal) -> None:
        """Returns once the listener has refused something for ``reason``."""
        async with asyncio.timeout(GUARD_SECONDS):
            await self._event(reason).wait()

    def _event(self, reason: str) -> asyncio.Event:
        return self._seen.setdefault(reason, asyncio.Event())


@asynccontextmanager
async def serving(
    app: web.Application,
    limits: ConnectionLimits | None = None,
    record: RefusalsSeen | None = None,
) -> AsyncIterator[WebServer]:
    server = WebServer(app, "127.0.0.1", 0, limits=limits, record=record or RefusalsSeen())
    await server.start()
    try:
        yield server
    finally:
        await server.stop()


@dataclass
class Connection:
    reader: asyncio.StreamReader
    writer: asyncio.StreamWriter

    async def ask(self, request: bytes) -> tuple[int, dict[str, str], bytes]:
        self.writer.write(request)
        return await self.response()

    async def response(self) -> tuple[int, dict[str, str], bytes]:
        async with asyncio.timeout(GUARD_SECONDS):
            head = (await self.reader.readuntil(b"\r\n\r\n")).decode("latin-1")
            status_line, *lines = head.split("\r\n")
            headers = {
                name.strip().lower(): value.strip()
                for name, _, value in (line.partition(":") for line in lines if line)
            }
            body = await self.reader.readexactly(int(headers.get("content-length", "0")))
        return int(status_line.split()[1]), headers, body

    async def closed_by_server(self) -> bool:
        """True once the server closed the connection without sending anything more."""
        async with asyncio.timeout(GUARD_SECONDS):
            try:
                return await self.reader.read() == b""
            except ConnectionResetError:
                return True

    async def ended_by_server(self) -> bool:
        """True once the server closed the connection, after whatever it had sent."""
        async with asyncio.timeout(GUARD_SECONDS):
            try:
                while await self.reader.read(1 << 16):
                    pass
            except ConnectionResetError:
                pass
        return True


@asynccontextmanager
async def connected(server: WebServer) -> AsyncIterator[Connection]:
    reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
    try:
        yield Connection(reader, writer)
    finally:
        writer.close()


def get(path: str = "/healthz", *extra: str) -> bytes:
    lines = [f"GET {path} HTTP/1.1", "Host: bot.test", *extra, "", ""]
    return "\r\n".join(lines).encode()
