"""The sampled metrics, read from the bot's /metrics text: each shard's gateway events and
heartbeat latency (frames through discord.py's own websocket code), and readiness as /readyz
judges it."""

from __future__ import annotations

import json
from typing import Any

import pytest
from discord.gateway import DiscordWebSocket, KeepAliveHandler

from bot.app import MagisteriumBot
from bot.storage import StorageUnavailable
from devtools.discord import Harness
from tests.support.scraped_metrics import sample_value

HEARTBEAT_ACK = 11


@pytest.fixture
def harness_overrides() -> dict[str, Any]:
    return {"shard_count": 2}


def scraped(bot: MagisteriumBot, name: str, **labels: str) -> float | None:
    """A sample of the bot's metrics text, as Prometheus scrapes it; None when absent."""
    return sample_value(bot.metrics, name, **labels)


class OpenSocket:
    """A connected socket, as far as discord.py's shard looks (``closed``)."""

    closed = False

    async def close(self, *, code: int = 1000, message: bytes = b"") -> bool:
        return True


class ShardSocket:
    """A shard's websocket, wired as ``DiscordWebSocket.from_client`` wires it, fed gateway
    frames the way its socket's reads are."""

    def __init__(self, bot: MagisteriumBot, shard_id: int) -> None:
        ws: Any = bot._get_websocket(shard_id=shard_id)
        ws._discord_parsers = bot._connection.parsers
        ws._dispatch = bot.dispatch
        ws._max_heartbeat_timeout = bot._connection.heartbeat_timeout
        self.ws: DiscordWebSocket = ws

    async def dispatches(self, session: str, *sequences: int) -> None:
        """READY (naming ``session``) when the first sequence is 1, then unknown event types
        (discord.py numbers them and drops them)."""
        for sequence in sequences:
            if sequence == 1:
                self.ws.session_id = session  # as READY sets it; its parser needs the guilds
                event = "X_READY_STAND_IN"
            else:
                event = "X_SOME_EVENT"
            await self.ws.received_message(
                json.dumps({"op": 0, "t": event, "s": sequence, "d": {}})
            )

    async def heartbeat_acknowledged(self) -> None:
        """Connected, with a heartbeat sent and its ACK received (a keep-alive never started:
        no thread)."""
        self.ws.socket = OpenSocket()  # type: ignore[assignment]
        self.ws._keep_alive = KeepAliveHandler(ws=self.ws, interval=41.25, shard_id=0)
        await self.ws.received_message(json.dumps({"op": HEARTBEAT_ACK}))


async def test_each_shard_counts_its_own_gateway_events(harness: Harness) -> None:
    bot = harness.bot
    first, second = ShardSocket(bot, 0), ShardSocket(bot, 1)
    await bot.metrics_sampler.sample()
    # Known shards show from the start, at 0: a shard that never hears anything shows too.
    assert scraped(bot, "magisterium_bot_gateway_events_total", shard="0") == 0
    assert scraped(bot, "magisterium_bot_gateway_events_total", shard="1") == 0

    await first.dispatches("a", 1, 2, 3)
    await second.dispatches("b", 1)
    await bot.metrics_sampler.sample()
    assert scraped(bot, "magisterium_bot_gateway_events_total", shard="0") == 3
    assert scraped(bot, "magisterium_bot_gateway_events_total", shard="1") == 1

    await first.dispatches("a", 4, 5)  # resumed: the session goes on
    await bot.metrics_sampler.sample()
    await bot.metrics_sampler.sample()  # nothing new: nothing counted twice
    assert scraped(bot, "magisterium_bot_gateway_events_total", shard="0") == 5

    await first.dispatches("c", 1, 2)  # a new session numbers from 1 again
    await bot.metrics_sampler.sample()
    assert scraped(bot, "magisterium_bot_gateway_events_total", shard="0") == 7
    assert scraped(bot, "magisterium_bot_gateway_events_total", shard="1") == 1


async def test_a_connected_shard_shows_its_heartbeat_latency_a_closed_one_none(
    harness: Harness,
) -> None:
    bot = harness.bot
    await bot.metrics_sampler.sample()
    # The harness's shards never heartbeat: no latency rather than an infinite one.
    assert scraped(bot, "magisterium_bot_shard_latency_seconds", shard="0") is None

    socket = ShardSocket(bot, 1)
    await socket.heartbeat_acknowledged()
    await bot.metrics_sampler.sample()
    latency = scraped(bot, "magisterium_bot_shard_latency_seconds", shard="1")
    assert latency is not None and 0 <= latency == bot.shards[1].latency
    assert scraped(bot, "magisterium_bot_shard_latency_seconds", shard="0") is None

    socket.ws.socket.closed = True  # type: ignore[misc]  # disconnected: its latency is stale
    await bot.metrics_sampler.sample()
    assert scraped(bot, "magisterium_bot_shard_latency_seconds", shard="1") is None


async def test_ready_follows_the_readiness_verdict(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    bot = harness.bot
    assert scraped(bot, "magisterium_bot_ready") == 0  # not judged yet
    await bot.metrics_sampler.sample()
    assert scraped(bot, "magisterium_bot_ready") == 1

    async def database_down() -> None:
        raise StorageUnavailable("the database is not answering")

    monkeypatch.setattr(bot.services.db, "ping", database_down)
    await bot.metrics_sampler.sample()
    assert scraped(bot, "magisterium_bot_ready") == 0

    monkeypatch.undo()
    await bot.metrics_sampler.sample()
    assert scraped(bot, "magisterium_bot_ready") == 1
    bot.draining = True
    await bot.metrics_sampler.sample()
    assert scraped(bot, "magisterium_bot_ready") == 0
