"""The one shared HTTP client for Magisterium calls.

It is an ``httpx.AsyncClient`` (timeouts, limits and errors as httpx defines them) on
aiohttp's connection pool, through ``httpx-aiohttp``: httpx's own transport costs about as
much CPU per call as everything else in the A2A client together (bench/a2a_client.py).
"""

from __future__ import annotations

import ssl
from functools import cache

import httpx
from httpx_aiohttp import AiohttpTransport

from bot.a2a.client import DEFAULT_TIMEOUT


@cache
def _tls_context() -> ssl.SSLContext:
    """The trust store, loaded once per process (tens of milliseconds each time otherwise)."""
    return httpx.create_ssl_context()


def new_http_client(
    *, max_connections: int = 100, transport: httpx.AsyncBaseTransport | None = None
) -> httpx.AsyncClient:
    """A client for the whole process; the caller closes it on shutdown."""
    limits = httpx.Limits(
        max_connections=max_connections, max_keepalive_connections=max_connections
    )
    return httpx.AsyncClient(
        transport=transport or AiohttpTransport(verify=_tls_context(), limits=limits),
        timeout=DEFAULT_TIMEOUT,
        limits=limits,
        follow_redirects=False,
    )
