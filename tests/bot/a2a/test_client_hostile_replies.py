"""Replies a real server behind a misconfigured proxy can send, through the real client on the
production HTTP stack (httpx on aiohttp) over loopback: each is a malformed reply, never an
unexpected exception."""

from __future__ import annotations

from collections.abc import AsyncIterator

import httpx
import pytest
from aiohttp import web

from bot.a2a import A2AClient, RetryPolicy, errors
from bot.a2a.http import new_http_client
from tests.support.skill_calls import SkillCalls

TOKEN = "pro-user-1"
DEEP = b"[" * 100_000 + b"]" * 100_000  # valid JSON, nested deeper than Python recurses


async def _not_gzip(_request: web.Request) -> web.Response:
    return web.Response(
        body=b'{"jsonrpc": "2.0"}',
        content_type="application/json",
        headers={"Content-Encoding": "gzip"},
    )


async def _deep(_request: web.Request) -> web.Response:
    return web.Response(body=DEEP, content_type="application/json")


async def _deep_error(_request: web.Request) -> web.Response:
    return web.Response(body=DEEP, status=502, content_type="application/json")


@pytest.fixture
async def hostile() -> AsyncIterator[str]:
    app = web.Application()
    app.router.add_post("/not-gzip", _not_gzip)
    app.router.add_post("/deep", _deep)
    app.router.add_post("/deep-error", _deep_error)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = runner.addresses[0][1]
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        await runner.cleanup()


@pytest.fixture
async def http() -> AsyncIterator[httpx.AsyncClient]:
    async with new_http_client() as client:
        yield client


def _skills(http: httpx.AsyncClient, url: str) -> SkillCalls:
    return SkillCalls(A2AClient(http, url, retry=RetryPolicy(max_attempts=1)))


async def test_a_body_marked_gzip_that_is_not_gzip_is_a_malformed_reply(
    http: httpx.AsyncClient, hostile: str
) -> None:
    with pytest.raises(errors.MalformedResponse, match="could not be decoded"):
        await _skills(http, f"{hostile}/not-gzip").search(TOKEN, "grace")


async def test_json_nested_deeper_than_python_recurses_is_a_malformed_reply(
    http: httpx.AsyncClient, hostile: str
) -> None:
    with pytest.raises(errors.MalformedResponse, match="not valid JSON"):
        await _skills(http, f"{hostile}/deep").search(TOKEN, "grace")


async def test_a_deeply_nested_error_page_is_read_by_its_status(
    http: httpx.AsyncClient, hostile: str
) -> None:
    with pytest.raises(errors.UpstreamServerError):
        await _skills(http, f"{hostile}/deep-error").search(TOKEN, "grace")
