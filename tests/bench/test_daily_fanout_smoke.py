"""A smoke run of ``bench/daily_fanout.py`` at a tiny size: 20 servers, on one process and on
two (shard processes on one PostgreSQL and Redis), over the stand-in with Discord's limits.

Only that the bench completes with every server's post made once (and the day's content fetched
once per feed and date, across processes): the bench's own goals; no timing is asserted. The
schedules are due before the bots start (``--due start``), so no run waits for a minute.
"""

from __future__ import annotations

import asyncio
import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest
from sqlalchemy.engine import URL

from bot.daily import Feed
from tests.support.paths import REPO
from tests.support.real_run import START_TIMEOUT
from tests.support.workers import REDIS_URL

pytestmark = [pytest.mark.slow, pytest.mark.real_run]

BENCH = REPO / "bench" / "daily_fanout.py"
# A Redis database of the smoke run's own: a bench run by hand meanwhile (on its default, /9)
# cannot serve it today's content from the cache, nor it the bench.


def bench_module() -> ModuleType:
    """``bench/daily_fanout.py`` (bench/ is not a package: loaded from its path)."""
    spec = importlib.util.spec_from_file_location("daily_fanout", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


async def test_the_daily_fanout_bench_posts_every_servers_post_once(
    postgres_server_url: URL, tmp_path: Path
) -> None:
    bench = bench_module()
    server_url = postgres_server_url.render_as_string(hide_password=False)
    configs = [
        bench.Config(
            servers=20,
            processes=processes,
            feeds=(Feed.SAINTS, Feed.READINGS),
            due="start",
            postgres_url=server_url,
            redis_url=REDIS_URL,
        )
        for processes in (1, 2)
    ]
    async with asyncio.timeout(2 * START_TIMEOUT + 120):
        results = await bench.bench(configs, tmp_path)

    assert [r.config.processes for r in results] == [1, 2]
    for result in results:
        assert result.missed == [], result.missed
        assert result.posts == {Feed.SAINTS: 20, Feed.READINGS: 20}
        assert result.deduplicated == result.visible_duplicates == result.unexpected == 0
        assert sum(p.posted for p in result.processes) == 40
        assert sum(p.failed for p in result.processes) == 0
        assert result.claims == {"posted": 40}
        assert sum(result.upstream.values()) == len(result.pairs)
    # Two processes: each posted its own shard's servers.
    assert sorted(p.shard for p in results[1].processes) == [0, 1]
    assert all(p.posted > 0 for p in results[1].processes)
