"""Benchmark: drawing a diocese's statistics chart (the "Statistics" button of /diocese).

Run by hand from the repository root (offline, under a minute):

    .venv/bin/python bench/charts.py [--runs 30]

Renders the fake Magisterium's 50-year series of each diocese (19 metrics, gaps and nulls) as
the bot does — parse, pick the four main series, build the figure, Agg, PNG — and prints the
time per chart (first, median, p95, max) and the PNG's size and dimensions. The bot draws in a
worker thread (``asyncio.to_thread``), so this is time the event loop does not spend.
Also prints the same with Korean labels (which fall back to English on the chart).
"""

from __future__ import annotations

import argparse
import datetime as dt
import statistics
import struct
import sys
import time
from pathlib import Path

# Runnable as `python bench/<name>.py` from a checkout: devtools is not installed.
ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bot.a2a.lookup_parse import parse_statistics  # noqa: E402
from bot.a2a.lookups import DioceseStatistics  # noqa: E402
from bot.a2a.models import Task  # noqa: E402
from bot.render.charts import render_chart  # noqa: E402
from devtools.fake_magisterium.lookup_dioceses import DIOCESES  # noqa: E402
from devtools.fake_magisterium.lookups import diocese_statistics_lookup  # noqa: E402
from devtools.fake_magisterium.skills import Request  # noqa: E402

KOREAN = {"catholics": "신자", "priests": "사제", "parishes": "본당", "baptisms": "세례"}


def _stats(diocese_id: str) -> DioceseStatistics:
    artifact = diocese_statistics_lookup(
        Request([{"kind": "data", "data": {"id": diocese_id}}], None, dt.date(2026, 11, 30))
    )
    task = Task.model_validate(
        {"id": "t", "status": {"state": "completed"}, "artifacts": [artifact]}
    )
    stats = parse_statistics(task, diocese_id)
    assert isinstance(stats, DioceseStatistics), diocese_id
    return stats


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=30)
    args = parser.parse_args()
    dioceses = [d["id"] for d in DIOCESES if isinstance(d.get("id"), str)]
    all_stats = [_stats(d) for d in dioceses]
    for name, labels in (("English labels", None), ("Korean labels", KOREAN)):
        times: list[float] = []
        sizes: list[int] = []
        dims: set[tuple[int, int]] = set()
        for run in range(args.runs):
            stats = all_stats[run % len(all_stats)]
            started = time.perf_counter()
            png = render_chart(stats, title=stats.diocese_name or "Diocese", labels=labels)
            times.append((time.perf_counter() - started) * 1000)
            assert png is not None
            sizes.append(len(png))
            dims.add(struct.unpack(">II", png[16:24]))
        ordered = sorted(times)
        p95 = ordered[max(0, round(0.95 * len(ordered)) - 1)]
        print(
            f"{name}: {args.runs} charts over {len(dioceses)} dioceses; ms first "
            f"{times[0]:.0f}, median {statistics.median(times):.0f}, p95 {p95:.0f}, "
            f"max {max(times):.0f}; PNG {min(sizes) // 1000}-{max(sizes) // 1000} kB, "
            f"{', '.join(f'{w}x{h}' for w, h in sorted(dims))} px"
        )


if __name__ == "__main__":
    main()
