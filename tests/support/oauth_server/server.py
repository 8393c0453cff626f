"""Serving an `OAuthTestServer` on a loopback port for the length of an `async with`."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Iterable, Iterator
from contextlib import asynccontextmanager, contextmanager

from aiohttp import web

from tests.support.oauth_server.app import make_app
from tests.support.oauth_server.state import DEFAULT_SUBJECT, OAuthTestServer

HOST = "127.0.0.1"
SHUTDOWN_TIMEOUT = 0.5
# Authlib's grants log every token they issue ("Issue token %r to %r") at DEBUG; the suite's
# log guard keeps DEBUG records and fails the run on a token the fake Magisterium received.
_TOKEN_LOGGER = "authlib.oauth2.rfc6749.grants"


@contextmanager
def _quiet_token_logs() -> Iterator[None]:
    logger = logging.getLogger(_TOKEN_LOGGER)
    previous = logger.level
    logger.setLevel(logging.INFO)
    try:
        yield
    finally:
        logger.setLevel(previous)


@asynccontextmanager
async def running_oauth_server(
    *,
    issuer_path: str = "",
    registration: bool = True,
    required_resource: str | None = None,
    scopes_supported: Iterable[str] | None = None,
    subject: str = DEFAULT_SUBJECT,
) -> AsyncIterator[OAuthTestServer]:
    """An `OAuthTestServer` on 127.0.0.1 (a free port), in the running event loop."""
    server = OAuthTestServer(
        issuer_path=issuer_path,
        registration=registration,
        required_resource=required_resource,
        scopes_supported=scopes_supported,
        subject=subject,
    )
    runner = web.AppRunner(
        make_app(server),
        access_log=None,
        shutdown_timeout=SHUTDOWN_TIMEOUT,
        handler_cancellation=True,
    )
    await runner.setup()
    try:
        with _quiet_token_logs():
            site = web.TCPSite(runner, HOST, 0)
            await site.start()
            host, port = runner.addresses[0][:2]
            server._bind(f"http://{host}:{port}")
            yield server
    finally:
        await runner.cleanup()
