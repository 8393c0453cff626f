"""The metrics read every :data:`SAMPLE_SECONDS` rather than counted as things happen: each
shard's heartbeat latency and the gateway events it received (``bot.observability.
gateway_counts``), whether the bot is ready (the verdict ``/readyz`` gives), and the
interactions that were never answered (``bot.app.acknowledgements``)."""

from __future__ import annotations

import logging
import math
from typing import TYPE_CHECKING

from discord.ext import tasks

from bot.observability.gateway_counts import GatewaySequences

if TYPE_CHECKING:
    from bot.app import MagisteriumBot

log = logging.getLogger(__name__)

# Prometheus's default scrape interval: each scrape sees numbers at most this old.
SAMPLE_SECONDS = 15.0


class MetricsSampler:
    def __init__(self, bot: MagisteriumBot) -> None:
        self.bot = bot
        self._sequences = GatewaySequences()

    def start(self) -> None:
        self.every_interval.start()

    def stop(self) -> None:
        self.every_interval.cancel()

    @tasks.loop(seconds=SAMPLE_SECONDS)
    async def every_interval(self) -> None:
        try:
            if self.bot.operator_server is not None:
                await self.sample()
            else:  # no /metrics to read them: only keep the unanswered interactions bounded
                self.bot.acknowledgements.sweep()
        except Exception:  # the next sample may do better; the loop must go on
            log.exception("sampling the metrics failed")

    async def sample(self) -> None:
        self._sample_shards()
        await self._sample_readiness()
        self.bot.acknowledgements.sweep()

    def _sample_shards(self) -> None:
        bot, metrics = self.bot, self.bot.metrics
        for shard_id, shard in bot.shards.items():
            ws = bot._get_websocket(shard_id=shard_id)
            events = self._sequences.new_events(shard_id, ws.session_id, ws.sequence)
            metrics.gateway_event(shard_id, events)
            latency = shard.latency
            if shard.is_closed() or not math.isfinite(latency):
                metrics.shard_disconnected(shard_id)
            else:
                metrics.shard_measured(shard_id, latency)

    async def _sample_readiness(self) -> None:
        checks = await self.bot.readiness().check()
        self.bot.metrics.set_ready(all(verdict == "ok" for verdict in checks.values()))
