"""The limiter, cache and token cache share one Redis client whose pool makes callers wait
for a connection: redis-py's default pool raises ``MaxConnectionsError`` past 100, which a
burst of a few hundred commands in flight reached (1,000 /ask in a second lost 361 answers)."""

from __future__ import annotations

import asyncio
import uuid
from pathlib import Path

from redis.asyncio import BlockingConnectionPool

from bot.app.composition import REDIS_MAX_CONNECTIONS, open_services
from bot.settings import Settings
from devtools.fake_magisterium import RunningFakeServer
from tests.support.workers import REDIS_URL

IN_FLIGHT = 400  # more than redis-py's default pool of 100, and than the cap this pool keeps


async def test_a_burst_past_the_pool_waits_for_connections_instead_of_failing(
    fake_server: RunningFakeServer, tmp_path: Path
) -> None:
    settings = Settings(
        _env_file=None,  # type: ignore[call-arg]
        magisterium_api_url=fake_server.url,
        database_url=f"sqlite+aiosqlite:///{tmp_path / 'bot.db'}",
        redis_url=REDIS_URL,
    )
    services = await open_services(settings)
    try:
        redis = services.redis
        assert redis is not None
        pool = redis.connection_pool
        assert isinstance(pool, BlockingConnectionPool)
        assert pool.max_connections == REDIS_MAX_CONNECTIONS
        run = uuid.uuid4().hex

        async def admitted(number: int) -> bool:
            token = f"pro-{run}-{number}"  # a token each: only the pool is shared
            async with services.limiter.admit(token, number, expensive=False, budget=60):
                return True

        results = await asyncio.gather(*(admitted(n) for n in range(IN_FLIGHT)))
        assert results == [True] * IN_FLIGHT
        opened = len(pool._available_connections) + len(pool._in_use_connections)
        assert 0 < opened <= REDIS_MAX_CONNECTIONS
    finally:
        await services.aclose()
