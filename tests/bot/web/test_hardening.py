"""The web servers against hostile clients (issue 17): slow and idle connections, a crowd of
them, malformed requests, floods of sign-in requests; and the headers on every response.

Raw sockets speak to real servers on loopback. A deadline (``GUARD_SECONDS``) only stops a
test whose server never closes a connection; no test waits on the clock for work.
"""

from __future__ import annotations

import asyncio
import logging
import os
import resource
import sys
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from ipaddress import ip_network
from typing import Any

import aiohttp
import pytest
from aiohttp import web

from bot.observability import Metrics
from bot.web import ConnectionLimits, Readiness, WebServer, operator_app
from bot.web.headers import HSTS, SERVER
from tests.bot.web.raw_http import (
    GUARD_SECONDS,
    LONG,
    SHORT,
    RefusalsSeen,
    a_public_app,
    connected,
    get,
    serving,
)
from tests.support.embed_parts import everything_shown

NOSNIFF = ("X-Content-Type-Options", "nosniff")


async def database_answers() -> None:
    return None


def an_operator_app() -> web.Application:
    return operator_app(Readiness(lambda: True, database_answers), Metrics())


# --- slow and idle connections -----------------------------------------------------------------


async def test_a_connection_whose_headers_are_slow_is_closed_after_the_header_timeout() -> None:
    limits = ConnectionLimits(header_timeout=SHORT, keepalive=LONG)
    refused = RefusalsSeen()
    async with serving(an_operator_app(), limits, refused) as server:
        async with connected(server) as slow, connected(server) as silent:
            slow.writer.write(b"GET /healthz HTTP/1.1\r\nHost: bot.test\r\n")  # never ends
            assert server.open_connections == 2
            assert await slow.closed_by_server()
            assert await silent.closed_by_server()  # a new connection that sends nothing
        async with connected(server) as prompt:
            assert (await prompt.ask(get()))[0] == 200
    assert refused.counts == {"header_timeout": 2}


async def test_an_idle_keep_alive_connection_is_closed_after_the_keepalive_timeout() -> None:
    limits = ConnectionLimits(header_timeout=LONG, keepalive=SHORT)
    async with serving(an_operator_app(), limits) as server, connected(server) as idle:
        status, headers, body = await idle.ask(get())
        assert (status, body) == (200, b"ok")
        assert headers.get("connection", "keep-alive").lower() == "keep-alive"
        assert await idle.closed_by_server()
        assert server.open_connections == 0


async def test_connections_past_the_cap_are_closed_unserved() -> None:
    limits = ConnectionLimits(
        max_connections=3, max_connections_per_client=3, header_timeout=LONG, keepalive=LONG
    )
    refused = RefusalsSeen()
    async with serving(an_operator_app(), limits, refused) as server:
        assert server.max_connections == 3
        async with (
            connected(server) as first,
            connected(server) as second,
            connected(server) as third,
        ):
            for held in (first, second, third):
                assert (await held.ask(get()))[0] == 200  # served, and kept open
            async with connected(server) as fourth:
                assert await fourth.closed_by_server()
            assert server.open_connections == 3
            # The server closes the first (the client asked it to): its place is free again.
            assert (await first.ask(get("/healthz", "Connection: close")))[0] == 200
            assert await first.closed_by_server()
            async with connected(server) as fifth:
                assert (await fifth.ask(get()))[0] == 200
    assert refused.counts == {"connection_cap": 1}


def test_the_cap_stays_under_a_quarter_of_the_open_file_limit() -> None:
    soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    assert ConnectionLimits(max_connections=10**6).cap() == soft // 4
    assert ConnectionLimits(max_connections=7).cap() == 7
    assert ConnectionLimits(max_connections=10**6).for_operator().cap() == 16


# --- a crowd of idle connections, against the whole bot ----------------------------------------

HOLD_IDLE_CONNECTIONS = """
import resource, socket, sys
_soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 4096), hard))
port, count = int(sys.argv[1]), int(sys.argv[2])
held = [socket.create_connection(("127.0.0.1", port), timeout=10) for _ in range(count)]
# One more, which the server closes only once it is past the cap: every earlier connection
# has been accepted (and kept, or closed) by then.
probe = socket.create_connection(("127.0.0.1", port), timeout=10)
print(len(held), probe.recv(1) == b"", flush=True)
sys.stdin.read()
"""


def open_fds() -> int:
    return len(os.listdir("/proc/self/fd"))


@contextmanager
def open_file_limit(soft: int) -> Iterator[None]:
    before = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (soft, before[1]))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, before)


@asynccontextmanager
async def idle_connections(port: int, count: int) -> AsyncIterator[None]:
    """``count`` idle connections to ``port``, held by another process (like an attacker)."""
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-c",
        HOLD_IDLE_CONNECTIONS,
        str(port),
        str(count),
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
    )
    assert process.stdin is not None and process.stdout is not None
    try:
        async with asyncio.timeout(GUARD_SECONDS * 3):
            line = await process.stdout.readline()
        assert line.split() == [str(count).encode(), b"True"], line
        yield
    finally:
        process.stdin.close()
        await process.wait()


IDLE_CONNECTIONS = 200
FD_MARGIN = 10


async def test_200_idle_connections_leave_the_bot_and_its_operator_endpoint_working(
    fake_server: Any, tmp_path: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    from bot.app import create_bot
    from devtools.discord import Harness
    from devtools.discord.fixtures import harness_settings
    from tests.support.databases import closed_port

    settings = harness_settings(
        fake_server.url,
        f"sqlite+aiosqlite:///{tmp_path / 'bot.db'}",
        web_port=closed_port(),
        operator_port=closed_port(),
        web_max_connections_per_client=65535,  # one address (this test's) may fill the cap
    )
    # So few file descriptors that 200 idle connections, all kept, would leave none for the
    # bot's own database and upstream connections (the audit's `ulimit -n 128`).
    limit = open_fds() + 150
    with open_file_limit(limit):
        bot = create_bot(settings)
        async with Harness.start(bot) as harness, aiohttp.ClientSession() as client:
            assert bot.web_server is not None and bot.operator_server is not None
            cap = bot.web_server.max_connections
            assert cap == limit // 4 < settings.web_max_connections
            started = open_fds()
            async with idle_connections(bot.web_server.port, IDLE_CONNECTIONS):
                crowded = open_fds()
                assert bot.web_server.open_connections == cap
                assert crowded - started <= cap + FD_MARGIN
                began = time.perf_counter()
                async with client.get(bot.operator_server.url + "/healthz") as response:
                    assert (response.status, await response.text()) == (200, "ok")
                healthz_ms = (time.perf_counter() - began) * 1000
                answer = await harness.slash("ask", question="What is the Paschal candle for?")
                texts = everything_shown(answer.embeds)
                assert answer.embeds and not [t for t in texts if "error id" in t.lower()]
    with capsys.disabled():
        print(
            f"\n  {IDLE_CONNECTIONS} idle connections, fd limit {limit}, cap {cap}: "
            f"fds {started} -> {crowded}; operator /healthz took {healthz_ms:.1f} ms"
        )


# --- malformed requests --------------------------------------------------------------------------

GARBAGE = (
    b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03 TLS to an HTTP port\r\n\r\n",
    b"GET / HTTP/1.1\r\nHost: bot.test\r\nno colon in this header\r\n\r\n",
    b"GET /\x00 HTTP/1.1\r\n\r\n",
    b"NOT-HTTP\r\n\r\n",
)
FLOOD = 200


async def test_a_flood_of_malformed_requests_writes_a_line_or_two_and_no_error(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.DEBUG)
    refused = RefusalsSeen()
    async with serving(a_public_app(https=True), record=refused) as server:
        for number in range(FLOOD):
            async with connected(server) as connection:
                status, headers, _ = await connection.ask(GARBAGE[number % len(GARBAGE)])
                assert status == 400
                assert await connection.closed_by_server()
        assert (headers["server"], headers["x-content-type-options"]) == (SERVER, "nosniff")
        assert headers["strict-transport-security"] == HSTS
        async with connected(server) as fine:
            assert (await fine.ask(get()))[0] == 200
    web_records = [r for r in caplog.records if r.name.startswith(("aiohttp", "bot.web"))]
    assert [r for r in caplog.records if r.levelno >= logging.ERROR] == []
    malformed = [r for r in web_records if "malformed" in r.getMessage()]
    assert len(malformed) == 1, [r.getMessage() for r in web_records]
    [line] = malformed
    assert line.levelno == logging.INFO and line.exc_info is None
    assert "\n" not in line.getMessage() and "127.0.0.1" in line.getMessage()
    assert len(web_records) <= 4  # the servers' start lines and that one
    assert refused.counts == {"bad_request": FLOOD}


async def test_a_bug_in_a_handler_is_logged_and_answered_500_without_its_traceback(
    caplog: pytest.LogCaptureFixture,
) -> None:
    async def broken(request: web.Request) -> web.Response:
        raise RuntimeError("a bug in a handler")

    app = a_public_app(https=True)
    app.router.add_get("/broken", broken)
    async with serving(app) as server, aiohttp.ClientSession() as client:
        for accept in ("text/html", "*/*"):
            async with client.get(server.url + "/broken", headers={"Accept": accept}) as response:
                body = await response.text()
                assert response.status == 500
                assert_common_headers(response.headers, hsts=True)
                assert "Traceback" not in body and "a bug in a handler" not in body
    [error, _again] = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert error.exc_info is not None and "a bug in a handler" in str(error.exc_info[1])


# --- headers -----------------------------------------------------------------------------------


def assert_common_headers(headers: Any, *, hsts: bool) -> None:
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert headers.getall("Server") == [SERVER]  # no Python, no aiohttp, no versions
    assert headers.get("Strict-Transport-Security") == (HSTS if hsts else None)


async def answers(client: aiohttp.ClientSession, method: str, url: str) -> tuple[int, Any, str]:
    async with client.request(method, url, allow_redirects=False) as response:
        return response.status, response.headers, await response.text()


async def moved(request: web.Request) -> web.Response:
    raise web.HTTPFound("/")


@pytest.mark.parametrize("https", [True, False])
async def test_every_public_response_has_the_headers_and_hsts_only_with_https(
    https: bool,
) -> None:
    app = a_public_app(https=https, per_minute=1)
    app.router.add_get("/moved", moved)  # the real one: tests/bot/web/test_sign_in_hardening.py
    async with serving(app) as server, aiohttp.ClientSession() as client:
        cases = {
            ("GET", "/"): 200,
            ("GET", "/privacy"): 200,
            ("HEAD", "/healthz"): 200,
            ("GET", "/moved"): 302,
            ("GET", "/nowhere"): 404,
            ("POST", "/healthz"): 405,
            ("GET", "/oauth/callback"): 404,  # no sign-in configured here
            ("GET", "/oauth/callback?again"): 429,
            ("GET", "/readyz"): 404,
            ("GET", "/metrics"): 404,
        }
        for (method, path), expected in cases.items():
            status, headers, _ = await answers(client, method, server.url + path)
            assert status == expected, path
            assert_common_headers(headers, hsts=https)


async def test_every_operator_response_has_the_headers_and_never_hsts() -> None:
    async with serving(an_operator_app()) as server, aiohttp.ClientSession() as client:
        cases = {
            ("GET", "/healthz"): 200,
            ("GET", "/readyz"): 200,
            ("GET", "/metrics"): 200,
            ("GET", "/"): 404,
            ("POST", "/metrics"): 405,
        }
        for (method, path), expected in cases.items():
            status, headers, _ = await answers(client, method, server.url + path)
            assert status == expected, path
            assert_common_headers(headers, hsts=False)


# --- the sign-in's per-client budget ------------------------------------------------------------


async def test_the_budget_is_per_client_and_x_forwarded_for_counts_only_from_a_trusted_proxy() -> (
    None
):
    async def statuses(server: WebServer, forwarded_for: str) -> list[int]:
        async with aiohttp.ClientSession() as client:
            found = []
            for _ in range(3):
                async with client.get(
                    server.url + "/oauth/start/x", headers={"X-Forwarded-For": forwarded_for}
                ) as response:
                    found.append(response.status)
            return found

    async with serving(a_public_app(per_minute=2)) as untrusting:
        assert await statuses(untrusting, "203.0.113.7") == [404, 404, 429]
        assert await statuses(untrusting, "203.0.113.8") == [429, 429, 429]  # same peer
    async with serving(a_public_app(per_minute=2, trusted=("127.0.0.1",))) as behind_a_proxy:
        assert await statuses(behind_a_proxy, "203.0.113.7") == [404, 404, 429]
        assert await statuses(behind_a_proxy, "203.0.113.8") == [404, 404, 429]
        # The client's own claim comes first in the list: the proxy appended what it saw.
        assert await statuses(behind_a_proxy, "198.51.100.1, 203.0.113.8") == [429, 429, 429]


# --- settings ------------------------------------------------------------------------------------


def test_web_settings_default_to_safe_values_and_refuse_out_of_range_ones(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from pydantic import ValidationError

    from bot.settings import Settings

    defaults = Settings(_env_file=None)  # type: ignore[call-arg]
    assert (defaults.operator_host, defaults.operator_port) == ("127.0.0.1", None)
    assert ConnectionLimits.from_settings(defaults) == ConnectionLimits()
    assert defaults.web_trusted_proxies == []
    assert ConnectionLimits().per_client_cap(256) == 16
    assert ConnectionLimits().per_client_cap(16) == 4  # a quarter of a small cap
    assert ConnectionLimits(max_connections_per_client=300).per_client_cap(256) == 256
    # Docker's bridge networks: the gateway a port published on the host comes from.
    monkeypatch.setenv("WEB_TRUSTED_PROXIES", "127.0.0.1, 172.16.0.0/12,::1")
    monkeypatch.setenv("OPERATOR_PORT", "9090")
    monkeypatch.setenv("WEB_MAX_CONNECTIONS_PER_CLIENT", "8")
    configured = Settings(_env_file=None)  # type: ignore[call-arg]
    assert configured.web_trusted_proxies == [
        ip_network("127.0.0.1/32"),
        ip_network("172.16.0.0/12"),
        ip_network("::1/128"),
    ]
    limits = ConnectionLimits.from_settings(configured)
    assert limits.trusted_proxies == tuple(configured.web_trusted_proxies)
    assert limits.per_client_cap(256) == 8
    assert configured.operator_port == 9090
    out_of_range = {
        "web_max_connections": 0,
        "web_max_connections_per_client": 0,
        "web_header_timeout_seconds": 0,
        "web_keepalive_seconds": 0,
        "web_write_timeout_seconds": 0,
        "web_oauth_requests_per_minute": 0,
        "web_oauth_requests_total_per_minute": 0,
        "web_trusted_proxies": "10.0.0.1/8",  # host bits set: a typo for 10.0.0.0/8?
        "operator_port": 65536,
    }
    for name, value in out_of_range.items():
        with pytest.raises(ValidationError, match=name):
            Settings(_env_file=None, **{name: value})  # type: ignore[call-arg]
