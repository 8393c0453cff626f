"""A smoke run of ``bench/guild_messages.py`` at a tiny size: 300 ignored messages a pass and
2 mentions, content withheld and delivered. Only that it measures every stage, that the full
cache holds its 1,000 messages, that every mention is answered and that nothing logs an
error; no timing is asserted."""

from __future__ import annotations

import importlib.util
import math
import sys
from pathlib import Path
from types import ModuleType

import pytest

from tests.support.paths import REPO

pytestmark = pytest.mark.slow

BENCH = REPO / "bench" / "guild_messages.py"


def bench_module() -> ModuleType:
    """``bench/guild_messages.py`` (bench/ is not a package: loaded from its path)."""
    spec = importlib.util.spec_from_file_location("guild_messages", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


async def test_the_guild_messages_bench_measures_and_answers_every_mention(
    tmp_path: Path,
) -> None:
    bench = bench_module()
    config = bench.Config(messages=300, mentions=2, repeat=1, edits=100)
    scenarios = await bench.bench(config, tmp_path)
    assert [s.name for s in scenarios] == ["withheld", "delivered"]
    for scenario in scenarios:
        stages = {"frame 1000"} | {
            f"{stage} {cache}"
            for stage in ("Message", "total", "edit", "delete")
            for cache in (1000, None)
        }
        assert set(scenario.stages) == stages
        assert all(math.isfinite(v) and v > 0 for v in scenario.stages.values())
        assert scenario.cache_len == 1000 and scenario.cache_bytes > 0
        assert (scenario.answered, scenario.asked, scenario.errors) == (2, 2, 0)
    assert bench.report(config, scenarios)
