"""Requests framed in a way two parsers could read differently (issue 33; RFC 9112 §6.1): a
Transfer-Encoding other than exactly ``chunked``, or any Transfer-Encoding in HTTP/1.0, get 400
and the connection is closed; nothing pipelined behind them is answered. Raw sockets against the
public app on loopback, with aiohttp's C parser (llhttp) and its pure-Python one."""

from __future__ import annotations

import pytest
from aiohttp import web, web_protocol
from aiohttp.http_parser import HttpRequestParserPy

from bot.web import ConnectionLimits
from tests.bot.web.raw_http import LONG, RefusalsSeen, a_public_app, connected, get, serving

LIMITS = ConnectionLimits(header_timeout=LONG, keepalive=LONG)
CHUNKED_BODY = "5\r\nhello\r\n0\r\n\r\n"
# A second request hidden where a parser reading the first as unframed would find it.
SMUGGLED = get("/privacy").decode()


@pytest.fixture(params=["C parser", "Python parser"])
def parser(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    if request.param == "Python parser":
        monkeypatch.setattr(web_protocol, "HttpRequestParser", HttpRequestParserPy)
    return str(request.param)


def app_that_echoes() -> web.Application:
    async def echo(request: web.Request) -> web.Response:
        return web.Response(body=await request.read())

    app = a_public_app()
    app.router.add_post("/echo", echo)
    return app


def post(version: str, *headers: str) -> bytes:
    lines = [f"POST /echo HTTP/{version}", "Host: bot.test", *headers, "", CHUNKED_BODY]
    return "\r\n".join(lines).encode()


@pytest.mark.parametrize(
    ("version", "headers"),
    [
        ("1.1", ["Transfer-Encoding: identity, chunked"]),
        ("1.1", ["Transfer-Encoding: identity", "Transfer-Encoding: chunked"]),
        ("1.1", ["Transfer-Encoding: gzip, chunked"]),
        ("1.1", ["Transfer-Encoding: chunked, chunked"]),
        ("1.0", ["Transfer-Encoding: chunked"]),
        ("1.0", ["Transfer-Encoding: chunked", "Connection: keep-alive"]),
    ],
    ids=[
        "identity, chunked",
        "identity then chunked",
        "gzip, chunked",
        "chunked twice",
        "HTTP/1.0 chunked",
        "HTTP/1.0 chunked, keep-alive",
    ],
)
async def test_an_ambiguous_transfer_encoding_gets_400_and_the_connection_closes(
    parser: str, version: str, headers: list[str]
) -> None:
    refused = RefusalsSeen()
    async with serving(app_that_echoes(), LIMITS, refused) as server, connected(server) as client:
        status, _, _ = await client.ask(post(version, *headers) + SMUGGLED.encode())
        assert status == 400
        assert await client.closed_by_server()  # the request behind it is never answered
    assert refused.counts == {"bad_request": 1}


async def test_a_chunked_request_is_still_read(parser: str) -> None:
    refused = RefusalsSeen()
    async with serving(app_that_echoes(), LIMITS, refused) as server, connected(server) as client:
        for coding in ("chunked", "Chunked"):
            status, _, body = await client.ask(post("1.1", f"Transfer-Encoding: {coding}"))
            assert (status, body) == (200, b"hello")
        assert (await client.ask(get()))[0] == 200  # and the connection is kept
    assert refused.counts == {}
