"""The Discord stand-in refuses what Discord refuses, checked with discord.py's own client,
its own zlib-stream decompressor and plain HTTP; fast, in-process."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import discord
import pytest
from discord.http import Route
from discord.utils import _ZlibDecompressionContext

from bot.app.discord_endpoints import use_gateway_from_discord, use_rest_base
from devtools.discord_standin import StandIn, running_standin
from devtools.discord_standin.gateway import (
    AUTHENTICATION_FAILED,
    DISALLOWED_INTENTS,
    HELLO,
    INVALID_SHARD,
)


@pytest.fixture
async def standin() -> AsyncIterator[StandIn]:
    base, gateway = Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
    async with running_standin() as standin:
        use_rest_base(standin.api_base)
        try:
            yield standin
        finally:
            Route.BASE = base
            discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = gateway


async def _identify(standin: StandIn, data: dict[str, Any]) -> tuple[int | None, dict[str, Any]]:
    """Connect with zlib-stream as discord.py does, IDENTIFY; (close code, first payload)."""
    url = f"{standin.ws_base}/gateway?v=10&encoding=json&compress=zlib-stream"
    inflate = _ZlibDecompressionContext()
    async with aiohttp.ClientSession() as http, http.ws_connect(url) as ws:
        frame = await ws.receive()
        hello = json.loads(inflate.decompress(frame.data) or "{}")
        await ws.send_json({"op": 2, "d": data})
        answer = await ws.receive()
        return ws.close_code if answer.type == aiohttp.WSMsgType.CLOSE else None, hello


def _identify_data(standin: StandIn, **changes: Any) -> dict[str, Any]:
    data = {"token": standin.token, "intents": 1 | (1 << 12), "shard": [0, 1], "properties": {}}
    return {**data, **changes}


async def test_hello_comes_zlib_stream_compressed_as_discord_sends_it(standin: StandIn) -> None:
    code, hello = await _identify(standin, _identify_data(standin))
    assert hello["op"] == HELLO and hello["d"]["heartbeat_interval"] > 0
    assert code is None, "a good IDENTIFY is answered with READY, not a close"


@pytest.mark.parametrize(
    ("changes", "code"),
    [
        ({"token": "wrong"}, AUTHENTICATION_FAILED),
        ({"intents": 1 << 1}, DISALLOWED_INTENTS),  # members: privileged, not enabled
        ({"intents": 1 << 15}, DISALLOWED_INTENTS),  # message content
        ({"shard": [2, 2]}, INVALID_SHARD),
    ],
)
async def test_identify_is_refused_with_discords_close_codes(
    standin: StandIn, changes: dict[str, Any], code: int
) -> None:
    closed, _hello = await _identify(standin, _identify_data(standin, **changes))
    assert closed == code


async def test_discord_py_logs_in_and_finds_the_gateway_over_rest(standin: StandIn) -> None:
    http = discord.http.HTTPClient(aiohttp.TCPConnector())
    try:
        me = await http.static_login(standin.token)
        assert int(me["id"]) == standin.world.application_id
        await use_gateway_from_discord(http, configured_shards=2)
        assert str(discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY) == standin.ws_base + "/gateway"
    finally:
        await http.close()


async def test_a_wrong_token_fails_discord_py_login(standin: StandIn) -> None:
    http = discord.http.HTTPClient(aiohttp.TCPConnector())
    try:
        with pytest.raises(discord.LoginFailure):
            await http.static_login("not-the-token")
    finally:
        await http.close()


async def _post(standin: StandIn, path: str, body: dict[str, Any]) -> tuple[int, Any]:
    headers = {"Authorization": f"Bot {standin.token}"}
    async with (
        aiohttp.ClientSession() as http,
        http.post(standin.api_base + path, json=body, headers=headers) as response,
    ):
        assert response.headers["Content-Type"] == "application/json"
        return response.status, await response.json()


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"content": "x" * 2001, "allowed_mentions": {"parse": []}}, 50035),
        ({"embeds": [{"title": "t" * 257}], "allowed_mentions": {"parse": []}}, 50035),
        ({"content": "hi", "flags": 64, "allowed_mentions": {"parse": []}}, 50035),  # ephemeral
        ({"allowed_mentions": {"parse": []}}, 50006),
    ],
)
async def test_a_channel_message_discord_would_refuse_is_refused(
    standin: StandIn, body: dict[str, Any], code: int
) -> None:
    channel = standin.world.add_guild("Parish").channels[0]
    status, answer = await _post(standin, f"/channels/{channel.id}/messages", body)
    assert (status, answer["code"]) == (400, code)
    assert channel.messages == []


async def test_typing_in_a_channel_that_does_not_exist_is_unknown_channel(
    standin: StandIn,
) -> None:
    channel = standin.world.add_guild("Parish").channels[0]
    headers = {"Authorization": f"Bot {standin.token}"}
    known, unknown = (f"{standin.api_base}/channels/{c}/typing" for c in (channel.id, 1234))
    async with aiohttp.ClientSession() as http:
        async with http.post(known, headers=headers) as response:
            assert response.status == 204
        async with http.post(unknown, headers=headers) as response:
            answer = await response.json()
            assert response.status == 404
            assert answer == {"message": "Unknown Channel", "code": 10003}


async def test_enforce_nonce_returns_the_earlier_message(standin: StandIn) -> None:
    channel = standin.world.add_guild("Parish").channels[0]
    body = {
        "content": "hi",
        "nonce": "42",
        "enforce_nonce": True,
        "allowed_mentions": {"parse": []},
    }
    first = await _post(standin, f"/channels/{channel.id}/messages", body)
    again = await _post(standin, f"/channels/{channel.id}/messages", body)
    assert first[1]["id"] == again[1]["id"] and len(channel.messages) == 1
    await _post(standin, f"/channels/{channel.id}/messages", {**body, "enforce_nonce": False})
    assert len(channel.messages) == 2, "without enforce_nonce, Discord does not deduplicate"


async def test_content_that_could_mention_anyone_is_a_problem(standin: StandIn) -> None:
    channel = standin.world.add_guild("Parish").channels[0]
    await _post(standin, f"/channels/{channel.id}/messages", {"content": "@everyone hi"})
    await _post(
        standin,
        f"/channels/{channel.id}/messages",
        {"content": "hi", "allowed_mentions": {"parse": ["everyone"]}},
    )
    assert len(standin.rest.problems) == 2


async def test_requests_without_the_bot_token_get_401(standin: StandIn) -> None:
    async with aiohttp.ClientSession() as http, http.get(standin.api_base + "/users/@me") as r:
        assert r.status == 401


async def test_a_429_carries_what_discord_py_needs_to_retry(standin: StandIn) -> None:
    channel = standin.world.add_guild("Parish").channels[0]
    standin.ratelimits.refuse("channel_message", retry_after=0.25, is_global=True)
    headers = {"Authorization": f"Bot {standin.token}"}
    body = {"content": "hi", "allowed_mentions": {"parse": []}}
    async with (
        aiohttp.ClientSession() as http,
        http.post(
            f"{standin.api_base}/channels/{channel.id}/messages", json=body, headers=headers
        ) as response,
    ):
        answer = await response.json()
        assert response.status == 429 and response.headers["Via"]  # else: "Cloudflare ban"
        assert response.headers["X-RateLimit-Global"] == "true"
        assert answer == {
            "message": "You are being rate limited.",
            "retry_after": 0.25,
            "global": True,
            "code": 0,
        }
    assert channel.messages == []
