"""Serving a FakeMagisterium on a loopback port for the length of an `async with`."""

from __future__ import annotations

import ipaddress
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass

from aiohttp import web

from devtools.fake_magisterium.agent_card import A2A_PATH
from devtools.fake_magisterium.app import make_app
from devtools.fake_magisterium.fake import FakeMagisterium

log = logging.getLogger(__name__)

LISTEN_BACKLOG = 2048
# Requests still sleeping in injected latency are cut off this soon at shutdown.
SHUTDOWN_TIMEOUT = 0.5


@dataclass(frozen=True)
class RunningFakeServer:
    fake: FakeMagisterium
    host: str
    port: int

    @property
    def base_url(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}"

    @property
    def url(self) -> str:
        """The A2A JSON-RPC endpoint."""
        return self.base_url + A2A_PATH


def check_loopback(host: str) -> None:
    """The fake has unauthenticated control routes, so it never listens beyond this machine."""
    if host == "localhost":
        return
    try:
        loopback = ipaddress.ip_address(host).is_loopback
    except ValueError:
        loopback = False
    if not loopback:
        raise ValueError(f"the fake server binds loopback addresses only, not {host!r}")


@asynccontextmanager
async def running_fake_server(
    fake: FakeMagisterium | None = None, host: str = "127.0.0.1", port: int = 0
) -> AsyncIterator[RunningFakeServer]:
    """Serve `fake` (a new default one when None) on host:port (0: any free port)."""
    check_loopback(host)
    fake = fake if fake is not None else FakeMagisterium()
    runner = web.AppRunner(
        make_app(fake),
        access_log=None,
        shutdown_timeout=SHUTDOWN_TIMEOUT,
        handler_cancellation=True,
    )
    await runner.setup()
    try:
        # A burst opens hundreds of connections at once; past aiohttp's default backlog (128)
        # the kernel drops the connection attempts, which the client retries a second later.
        site = web.TCPSite(runner, host, port, backlog=LISTEN_BACKLOG)
        await site.start()
        bound_host, bound_port = runner.addresses[0][:2]
        server = RunningFakeServer(fake, bound_host, bound_port)
        log.info("fake Magisterium listening on %s", server.url)
        yield server
    finally:
        await runner.cleanup()
