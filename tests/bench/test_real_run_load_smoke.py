"""The real-run load bench (``bench/real_run_load.py``) at a tiny size: it completes, and every
interaction of every scenario, through the bot's processes and the floor's, is answered or
told it is busy. No timing is asserted: the figures are the bench's to print, not a test's.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
from pathlib import Path

import pytest

from tests.support.paths import REPO
from tests.support.workers import REDIS_URL

pytestmark = [pytest.mark.slow, pytest.mark.real_run]

ROOT = REPO
BENCH = ROOT / "bench" / "real_run_load.py"
TINY = (
    "--people=10",
    "--within=0.2",
    "--upstream-latency=0.2",
    "--goal-people=5",
    "--goal-latency=0.2",
    "--steady-rate=10",
    "--steady-seconds=1",
    "--steady-latency=0.2",
    "--processes=1,2",
    "--guard=60",
)


async def test_real_run_load_bench_completes_with_every_interaction_answered(
    tmp_path: Path,
) -> None:
    figures = tmp_path / "figures.json"
    async with asyncio.timeout(150):
        process = await asyncio.create_subprocess_exec(
            sys.executable,
            str(BENCH),
            *TINY,
            f"--json={figures}",
            cwd=ROOT,
            env={**os.environ, "BENCH_REDIS_URL": REDIS_URL},
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.STDOUT,
        )
        output, _ = await process.communicate()
    printed = output.decode(errors="replace")
    assert process.returncode == 0, printed
    assert "Traceback" not in printed, printed
    assert "\n  ! " not in printed, printed  # a process's exit, its log or the stand-in's problems
    runs = json.loads(figures.read_text())["runs"]
    assert {(r["scenario"], r["processes"], r["kind"]) for r in runs} == {
        (scenario, processes, kind)
        for scenario in ("burst", "goal", "steady")
        for processes in (1, 2)
        for kind in ("bot", "floor")
    }
    for run in runs:
        assert run["interactions"] > 0, run
        assert run["unanswered"] == 0, run
        assert run["errors"] == 0, run
        assert run["answered"] + run["told_busy"] == run["interactions"], run
