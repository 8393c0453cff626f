"""The stand-in's global rate limit (``RateLimits.limit_globally``, off unless turned on):
Discord's 50 requests a second per bot over every route but the interaction endpoints, then
429 with ``global: true``; and discord.py, given one, waits it out and sends everything."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from types import SimpleNamespace

import aiohttp
import discord
import pytest
from discord.http import Route, handle_message_parameters

from bot.app.discord_endpoints import use_rest_base
from devtools.discord_standin import StandIn, running_standin
from devtools.discord_standin import ratelimits as ratelimits_module
from devtools.discord_standin.ratelimits import RateLimits


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def monotonic(self) -> float:
        return self.now

    def time(self) -> float:
        return 1_700_000_000.0 + self.now


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> FakeClock:
    """The rate limits' clock (only theirs: the module's ``time``), moved by the test."""
    fake = FakeClock()
    namespace = SimpleNamespace(monotonic=fake.monotonic, time=fake.time)
    monkeypatch.setattr(ratelimits_module, "time", namespace)
    return fake


def test_the_global_limit_is_off_unless_turned_on(clock: FakeClock) -> None:
    limits = RateLimits()
    assert limits.global_bucket is None
    for n in range(100):  # 100 channels in one second: only each channel's own bucket counts
        refused, _headers = limits.check("channel_message", str(n))
        assert refused is None
    assert limits.refused == []


def test_past_the_global_limit_every_route_but_interactions_gets_a_global_429(
    clock: FakeClock,
) -> None:
    limits = RateLimits()
    limits.limit_globally(3, 1.0)
    for kind, major in (("channel_message", "1"), ("channel_history", "2"), ("dm_open", "")):
        refused, headers = limits.check(kind, major)
        assert refused is None and headers["X-RateLimit-Remaining"]
    refused, _headers = limits.check("channel_message", "4")  # another channel: still refused
    assert refused is not None and refused.status == 429
    assert refused.body["global"] is True
    assert 0 < refused.body["retry_after"] <= 1.0
    assert refused.headers["X-RateLimit-Global"] == "true"
    assert refused.headers["X-RateLimit-Scope"] == "global"
    assert refused.headers["Via"]  # else discord.py reads a Cloudflare ban
    # Interaction callbacks and webhooks are not bound by the global limit.
    assert limits.check("callback", "interaction-token")[0] is None
    assert limits.check("webhook", "interaction-token")[0] is None
    assert limits.refused == [("channel_message", 429, True)]

    clock.now += 1.0  # the window is over
    assert limits.check("channel_message", "4")[0] is None


def test_a_route_bucket_still_refuses_inside_the_global_limit(clock: FakeClock) -> None:
    limits = RateLimits({"channel_message": (1, 5.0)})
    limits.limit_globally(50, 1.0)
    assert limits.check("channel_message", "1")[0] is None
    refused, _headers = limits.check("channel_message", "1")
    assert refused is not None and refused.body["global"] is False
    assert refused.headers["X-RateLimit-Scope"] == "user"
    assert limits.refused == [("channel_message", 429, False)]


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


async def test_discord_py_waits_out_a_global_429_and_sends_every_message(
    standin: StandIn,
) -> None:
    channels = [standin.world.add_guild(f"Parish {n}").channels[0] for n in range(4)]
    standin.ratelimits.limit_globally(2, 1.0)
    http = discord.http.HTTPClient(aiohttp.TCPConnector())
    try:
        async with asyncio.timeout(30):  # a guard against a hang, not a timing assert
            await http.static_login(standin.token)  # one request of the window's two

            async def send(channel_id: int) -> None:
                params = handle_message_parameters(
                    content="Saints of the day", allowed_mentions=discord.AllowedMentions.none()
                )
                with params:
                    await http.send_message(channel_id, params=params)

            await asyncio.gather(*(send(c.id) for c in channels))
    finally:
        await http.close()
    assert [len(c.messages) for c in channels] == [1, 1, 1, 1]
    given = standin.ratelimits.refused
    assert given and all(entry == ("channel_message", 429, True) for entry in given)
    assert standin.rest.problems == []
