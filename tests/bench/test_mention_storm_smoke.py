"""A smoke run of ``bench/mention_storm.py`` at a tiny size: 10 questions in a second from 5
people, as /ask and as mentions. Only that every question is answered; no timing is asserted."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

from tests.support.paths import REPO

pytestmark = pytest.mark.slow

BENCH = REPO / "bench" / "mention_storm.py"


def bench_module() -> ModuleType:
    """``bench/mention_storm.py`` (bench/ is not a package: loaded from its path)."""
    spec = importlib.util.spec_from_file_location("mention_storm", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


async def test_the_mention_storm_bench_answers_every_question(tmp_path: Path) -> None:
    bench = bench_module()
    config = bench.Config(questions=10, seconds=1.0, people=5, latency=0.05)
    results = await bench.bench(config, tmp_path)
    assert [r.kind for r in results] == ["/ask", "mention"]
    assert [r.answered for r in results] == [10, 10]
    assert bench.report(config, results)
