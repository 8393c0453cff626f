"""Serving a web app on a host and port within :class:`ConnectionLimits`; port 0 picks a free
one (see ``port``)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

from aiohttp import web

from bot.web.connections import ConnectionGuard, ConnectionLimits, GuardedRequestHandler, Seat
from bot.web.headers import RESPONSE_HEADERS
from bot.web.refusals import Record, unrecorded
from bot.web.request_log import CONNECTIONS_LOG, MalformedRequests

log = logging.getLogger(__name__)

# The most connections the kernel queues, and asyncio accepts in one go, before the cap sees
# them: each holds a file descriptor meanwhile.
MAX_BACKLOG = 128


class WebServer:
    def __init__(
        self,
        app: web.Application,
        host: str,
        port: int,
        *,
        limits: ConnectionLimits | None = None,
        record: Record = unrecorded,
    ) -> None:
        """``record``: counts the clients it turns away (the public listener's metric)."""
        self._app = app
        self._host = host
        self._requested_port = port
        self._limits = limits or ConnectionLimits()
        self._record = record
        self._runner: web.AppRunner | None = None
        self._guard: ConnectionGuard | None = None
        self._log_filter = MalformedRequests()
        self._port: int | None = None

    @property
    def port(self) -> int:
        """The port actually bound (useful with port 0)."""
        if self._port is None:
            raise RuntimeError("the web server is not started")
        return self._port

    @property
    def url(self) -> str:
        host = f"[{self._host}]" if ":" in self._host else self._host
        return f"http://{host}:{self.port}"

    @property
    def max_connections(self) -> int:
        """The cap in force (see ``ConnectionLimits.cap``)."""
        if self._guard is None:
            raise RuntimeError("the web server is not started")
        return self._guard.cap

    @property
    def max_connections_per_client(self) -> int:
        if self._guard is None:
            raise RuntimeError("the web server is not started")
        return self._guard.per_client_cap

    @property
    def open_connections(self) -> int:
        return self._guard.open if self._guard is not None else 0

    async def start(self) -> None:
        # No access log: a scraper polling /metrics would flood it.
        runner = web.AppRunner(self._app, access_log=None)
        await runner.setup()
        CONNECTIONS_LOG.addFilter(self._log_filter)
        try:
            cap = self._limits.cap()
            self._guard = ConnectionGuard(
                cap,
                self._handler_maker(runner),
                per_client_cap=self._limits.per_client_cap(cap),
                trusted_proxies=self._limits.trusted_proxies,
                record=self._record,
            )
            site = _GuardedSite(runner, self._host, self._requested_port, self._guard)
            await site.start()
        except BaseException:
            await self._cleanup(runner)
            raise
        self._runner = runner
        self._port = int(runner.addresses[0][1])
        log.info(
            "web server listening on %s:%d (at most %d connections, %d per client)",
            self._host,
            self._port,
            self._guard.cap,
            self._guard.per_client_cap,
        )

    async def stop(self) -> None:
        runner, self._runner, self._port, self._guard = self._runner, None, None, None
        if runner is not None:
            await self._cleanup(runner)

    async def _cleanup(self, runner: web.AppRunner) -> None:
        try:
            await runner.cleanup()
        finally:
            CONNECTIONS_LOG.removeFilter(self._log_filter)

    def _handler_maker(self, runner: web.AppRunner) -> Callable[[Seat], GuardedRequestHandler]:
        manager = runner.server
        assert manager is not None  # set up above
        loop = asyncio.get_running_loop()
        error_headers = self._app.get(RESPONSE_HEADERS, {})

        def make_handler(seat: Seat) -> GuardedRequestHandler:
            return GuardedRequestHandler(
                manager,
                loop=loop,
                seat=seat,
                header_timeout=self._limits.header_timeout,
                write_timeout=self._limits.write_timeout,
                keepalive_timeout=self._limits.keepalive,
                error_headers=error_headers,
                logger=CONNECTIONS_LOG,
                access_log=None,
            )

        return make_handler


class _GuardedSite(web.BaseSite):
    """aiohttp's TCPSite, except that connections go through the guard rather than straight
    to the runner's server."""

    def __init__(self, runner: web.AppRunner, host: str, port: int, guard: ConnectionGuard) -> None:
        super().__init__(runner, backlog=min(MAX_BACKLOG, guard.cap))
        self._host = host
        self._port = port
        self._guard = guard

    @property
    def name(self) -> str:
        return f"http://{self._host}:{self._port}"

    async def start(self) -> None:
        await super().start()
        loop = asyncio.get_running_loop()
        self._server = await loop.create_server(
            self._guard, self._host, self._port, backlog=self._backlog
        )
