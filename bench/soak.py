"""Soak, longer: the workload of ``tests/e2e/test_soak.py`` for minutes, measured per round.

Run by hand from the repository root (offline):

    .venv/bin/python bench/soak.py [--minutes 5] [--users 50] [--concurrency 20]
        [--fault-rate 0.1] [--round 1000] [--seed N] [--trace-memory] [--top 10]

The bot is ``create_bot(settings)`` with the test harness's settings and ``SOAK_SETTINGS``
(limits far above the workload, a 64-entry public-content cache), started by the offline
harness, against the fake Magisterium on loopback TCP (no latency, its rate limits off), SQLite
in a temporary directory. The workload (``devtools.bench.soak``): ``--users`` people with their
own linked tokens, ``--concurrency`` interactions at a time (asyncio.gather in batches) mixing
the five skill commands, DM questions, "Ask Magisterium", page turns and day buttons on earlier
answers and date autocomplete; each upstream request meets a random fault of the fault matrix
with probability ``--fault-rate``.

Rounds of ``--round`` interactions run until ``--minutes`` have passed. After each round every
view is stopped, what the fakes recorded is dropped, and the script prints: interactions/s,
outcomes (answer, clear error, lost, crashed), errors shown, faults injected, tasks left over,
the fake server's open connections, the bot's upstream and database pools, open file
descriptors by kind (the database pool's idle connections closed first), RSS and
(with ``--trace-memory``, from round 2, which halves the speed) tracemalloc's traced memory;
``--top N`` also prints the N biggest allocation growths between consecutive rounds. Log
records of WARNING and above are counted by logger, not printed. Exits 1 when an interaction
was lost or crashed, a payload held traceback text or live mentions, or a task outlived its
round.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
import tempfile
import time
import tracemalloc
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bot.app import create_bot  # noqa: E402
from devtools.bench.soak import SOAK_SETTINGS, RoundReport, Soak, SoakConfig  # noqa: E402
from devtools.discord import Harness  # noqa: E402
from devtools.discord.fixtures import harness_settings  # noqa: E402
from devtools.fake_magisterium import FakeMagisterium, running_fake_server  # noqa: E402


class CountRecords(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.counts: Counter[str] = Counter()

    def emit(self, record: logging.LogRecord) -> None:
        self.counts[f"{record.levelname} {record.name}"] += 1


def top_growth(before: tracemalloc.Snapshot, after: tracemalloc.Snapshot, n: int) -> list[str]:
    stats = after.compare_to(before, "lineno")
    return [f"    {stat}" for stat in stats[:n]]


def verdict(reports: list[RoundReport]) -> list[str]:
    missed = []
    for report in reports:
        if report.outcomes["lost"] or report.outcomes["crashed"]:
            missed.append(f"round {report.number}: {dict(report.outcomes)}")
        if report.problems:
            missed.append(f"round {report.number}: {report.problems[:3]}")
        if report.leftover_tasks:
            missed.append(f"round {report.number}: tasks left {report.leftover_tasks[:3]}")
    return missed


async def soak(args: argparse.Namespace, records: CountRecords) -> list[str]:
    config = SoakConfig(
        users=args.users, concurrency=args.concurrency, fault_rate=args.fault_rate, seed=args.seed
    )
    fake = FakeMagisterium(rate_limits_enabled=False)
    reports: list[RoundReport] = []
    with tempfile.TemporaryDirectory() as tmp:
        async with running_fake_server(fake) as server:
            settings = harness_settings(
                server.url, f"sqlite+aiosqlite:///{tmp}/bot.db", **SOAK_SETTINGS
            )
            async with Harness.start(create_bot(settings)) as harness:
                runner = Soak(harness, fake, config)
                await runner.start()
                started = time.perf_counter()
                deadline = started + args.minutes * 60
                snapshot: tracemalloc.Snapshot | None = None
                try:
                    while time.perf_counter() < deadline:
                        report = await runner.run_round(args.round)
                        reports.append(report)
                        print("\n".join(report.lines()), flush=True)
                        if args.trace_memory and not tracemalloc.is_tracing():
                            tracemalloc.start()
                        if args.top and tracemalloc.is_tracing():
                            current = tracemalloc.take_snapshot()
                            if snapshot is not None:
                                print("  biggest growth since the last round:")
                                print("\n".join(top_growth(snapshot, current, args.top)))
                            snapshot = current
                finally:
                    runner.stop()
                    tracemalloc.stop()
                elapsed = time.perf_counter() - started
    total = sum(report.interactions for report in reports)
    outcomes: Counter[str] = sum((report.outcomes for report in reports), Counter())
    faults = sum(sum(report.faults.values()) for report in reports)
    print(
        f"\ntotal: {total} interactions in {elapsed:.1f}s = {total / elapsed:.1f}/s "
        f"({len(reports)} rounds of {args.round}, {config.users} users, "
        f"{config.concurrency} at a time, fault rate {config.fault_rate:.0%}, seed {config.seed})"
    )
    print(f"outcomes: {dict(sorted(outcomes.items()))}; faults injected: {faults}")
    first, last = reports[0], reports[-1]
    print(
        f"first -> last round: fds {first.fds} -> {last.fds}; "
        f"fake-server connections {first.server_connections} -> {last.server_connections}; "
        f"RSS {first.rss_bytes / 2**20:.1f} -> {last.rss_bytes / 2**20:.1f} MiB"
    )
    traced = [r.traced_bytes for r in reports if r.traced_bytes is not None]
    if len(traced) >= 2:
        print(f"traced memory by round: {[f'{t / 2**20:.1f} MiB' for t in traced]}")
    print(f"log records (WARNING+): {dict(records.counts.most_common())}")
    return verdict(reports)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=5.0, help="how long to run (5)")
    parser.add_argument("--users", type=int, default=50, help="people (50)")
    parser.add_argument("--concurrency", type=int, default=20, help="interactions at a time (20)")
    parser.add_argument(
        "--fault-rate", type=float, default=0.10, help="share of upstream requests faulted (0.1)"
    )
    parser.add_argument("--round", type=int, default=1000, help="interactions per round (1000)")
    parser.add_argument("--seed", type=int, default=SoakConfig.seed, help="the random seed")
    parser.add_argument(
        "--trace-memory", action="store_true", help="tracemalloc from round 2 (half the speed)"
    )
    parser.add_argument(
        "--top", type=int, default=0, help="with --trace-memory: top N allocation growths"
    )
    args = parser.parse_args()
    if args.users < args.concurrency or args.concurrency < 1 or not 0 <= args.fault_rate <= 1:
        parser.error("--users >= --concurrency >= 1, --fault-rate in 0..1")
    if args.minutes <= 0 or args.round < 1:
        parser.error("--minutes > 0, --round >= 1")
    records = CountRecords()
    root = logging.getLogger()
    root.addHandler(records)
    root.setLevel(logging.WARNING)
    missed = asyncio.run(soak(args, records))
    if missed:
        sys.exit("goal missed: " + "; ".join(missed))


if __name__ == "__main__":
    main()
