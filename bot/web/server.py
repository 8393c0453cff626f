"""Serving the web app on a host and port; port 0 picks a free one (see ``port``)."""

from __future__ import annotations

import logging

from aiohttp import web

log = logging.getLogger(__name__)


class WebServer:
    def __init__(self, app: web.Application, host: str, port: int) -> None:
        self._app = app
        self._host = host
        self._requested_port = port
        self._runner: web.AppRunner | None = None
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

    async def start(self) -> None:
        # No access log: a scraper polling /metrics would flood it.
        runner = web.AppRunner(self._app, access_log=None)
        await runner.setup()
        try:
            await web.TCPSite(runner, self._host, self._requested_port).start()
        except BaseException:
            await runner.cleanup()
            raise
        self._runner = runner
        self._port = int(runner.addresses[0][1])
        log.info("web server listening on %s:%d", self._host, self._port)

    async def stop(self) -> None:
        runner, self._runner, self._port = self._runner, None, None
        if runner is not None:
            await runner.cleanup()
