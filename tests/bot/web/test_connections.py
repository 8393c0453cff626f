"""The public listener against clients that hold connections (issue 33): one that never reads
its responses, one address opening connection after connection; and trusted proxies, whose
connections carry everyone's.

Raw sockets speak to the real public app on loopback, served as ``python -m bot run`` serves
it (bot.web.WebServer); what the listener refused is what it recorded (the metric's callback).
"""

from __future__ import annotations

import asyncio
import logging
import socket
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager
from ipaddress import ip_network

import pytest

from bot.web import ConnectionLimits, WebServer
from tests.bot.web.raw_http import (
    LONG,
    SHORT,
    Connection,
    RefusalsSeen,
    a_public_app,
    connected,
    get,
    serving,
)

PIPELINED = 1000
SMALL_RECEIVE_BUFFER = 4096


@asynccontextmanager
async def a_client_that_never_reads(server: WebServer) -> AsyncIterator[Connection]:
    """A connection with a 4 KB receive buffer; asyncio reads 128 KB of it at most, and the
    test reads nothing until it says so."""
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, SMALL_RECEIVE_BUFFER)
    sock.setblocking(False)
    await asyncio.get_running_loop().sock_connect(sock, ("127.0.0.1", server.port))
    reader, writer = await asyncio.open_connection(sock=sock)
    try:
        yield Connection(reader, writer)
    finally:
        writer.close()


async def test_a_client_that_never_reads_its_responses_is_closed_after_the_write_timeout(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.INFO)
    limits = ConnectionLimits(header_timeout=LONG, keepalive=LONG, write_timeout=SHORT)
    refused = RefusalsSeen()
    async with serving(a_public_app(), limits, refused) as server:
        async with a_client_that_never_reads(server) as slow:
            slow.writer.write(get("/privacy") * PIPELINED)  # 10 MB of answers
            await refused.first("write_timeout")
            # Reading now, it gets what the sockets held, then the end: the server let go.
            assert await slow.ended_by_server()
        assert server.open_connections == 0
        async with connected(server) as prompt:
            assert (await prompt.ask(get()))[0] == 200
    assert refused.counts == {"write_timeout": 1}
    [line] = [r for r in caplog.records if r.name.startswith(("aiohttp", "bot.web.conn"))]
    assert line.levelno == logging.INFO and "left its responses unread" in line.getMessage()


async def test_one_client_holds_at_most_its_share_of_the_connections() -> None:
    limits = ConnectionLimits(header_timeout=LONG, keepalive=LONG)  # the defaults' shares
    refused = RefusalsSeen()
    async with serving(a_public_app(), limits, refused) as server, AsyncExitStack() as held:
        share = server.max_connections_per_client
        assert share == min(16, server.max_connections // 4)
        connections = [await held.enter_async_context(connected(server)) for _ in range(share)]
        for connection in connections:
            assert (await connection.ask(get()))[0] == 200  # served, and kept open
        async with connected(server) as one_more:
            assert await one_more.closed_by_server()
        assert server.open_connections == share
        # One of its connections ends: the client may open another.
        assert (await connections[0].ask(get("/healthz", "Connection: close")))[0] == 200
        assert await connections[0].closed_by_server()
        async with connected(server) as again:
            assert (await again.ask(get()))[0] == 200
    assert refused.counts == {"client_connection_cap": 1}


async def test_a_trusted_proxy_may_hold_more_than_one_clients_share() -> None:
    """Behind a proxy (WEB_TRUSTED_PROXIES), every connection comes from the proxy."""
    limits = ConnectionLimits(
        max_connections=8,
        max_connections_per_client=2,
        header_timeout=LONG,
        keepalive=LONG,
        trusted_proxies=(ip_network("127.0.0.0/8"),),
    )
    refused = RefusalsSeen()
    async with serving(a_public_app(), limits, refused) as server, AsyncExitStack() as held:
        connections = [await held.enter_async_context(connected(server)) for _ in range(8)]
        for connection in connections:
            assert (await connection.ask(get()))[0] == 200
        async with connected(server) as over_the_cap:
            assert await over_the_cap.closed_by_server()
    assert refused.counts == {"connection_cap": 1}
