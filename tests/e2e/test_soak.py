"""The soak: thousands of mixed interactions from 50 people, 20 at a time, with random faults.

Rounds of the workload in ``devtools.bench.soak`` (the five skill commands, DM questions,
"Ask Magisterium", page turns and day buttons on earlier answers, autocomplete), 10% of
upstream requests meeting a random fault of the fault matrix. Every round: every interaction
got an answer or a clear error (counted: none left thinking, none lost, none crashed), and no
task outlives it once views are stopped.

What is measured does not depend on the machine's load (no clock is read, nothing waits):

* Memory, with tracemalloc (Python's allocations, the same whatever the load), after an
  untraced warm-up round, after each of several rounds; growth is the slope of a straight
  line fitted through them, in blocks and bytes per interaction, not one round's delta. Left
  out: what the suite's log guard keeps on purpose and the fake Magisterium's server.
  Memories that are bounded but would otherwise fill for longer than the test runs are made
  not to count: the recent answers (Share, Read a source, related questions) and the
  public-content cache are kept small, asserted full and no fuller after rounds that added
  more than they hold, and emptied before each measurement (what they hold is the last few
  answers, of any size); the bot's ``lru_cache`` functions are emptied too; pydantic-core's
  string cache (16,384 slots) is filled once tracing starts; the rate limiter's memory,
  bounded by time, is let go of between rounds by moving its clock on a window (as a minute's
  pause would).
* File descriptors, by kind, after warm-up and at the end, as the runtime accounts for them:
  the TCP sockets less the upstream pool's connections at both ends (aiohttp's count) are
  the listening socket; the database's idle pooled connections are closed before counting
  (SQLite keeps a closed connection's descriptors while another connection holds a lock, so
  with them pooled the files open follow the concurrency a loaded machine happens to reach:
  how 39 became 50 under load); everything else (pipes, the selector, sockets and files)
  exactly as after warm-up.

``bench/soak.py`` runs the same workload for minutes and prints its figures.
"""

from __future__ import annotations

import gc
import logging
import tracemalloc
from collections import Counter
from typing import Any

import pytest
from _pytest.logging import LogCaptureHandler

from devtools.bench.soak import (
    ACTIONS,
    SOAK_SETTINGS,
    RoundReport,
    Soak,
    SoakConfig,
    clear_function_caches,
    empty_bounded_memories,
    fill_string_cache,
)
from devtools.discord import Harness
from devtools.discord.loop_errors import LoopErrors, loop_errors_fixture  # noqa: F401
from devtools.fake_magisterium import FakeMagisterium
from devtools.fake_magisterium.fake import UpstreamRequest
from tests.support import log_guard

pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("loop_errors")]

CONFIG = SoakConfig(users=50, concurrency=20, fault_rate=0.10, seed=20261201)
WARM_UP_ROUND = 300  # untraced: what is set up once (imports, schemas, each person's state)
ROUND = 100
TRACED_ROUNDS = 9  # the first is not judged: what the warm-up left is replaced by traced twins
# Fitted growth allowed, per interaction: one object kept per interaction (a task, a view, an
# interaction) is dozens of blocks; an answer kept, kilobytes. The rounds' noise (which
# connections stay pooled, which answers are in flight) is a few hundred blocks and some 100 KiB
# a round: a slope of about 1.5 blocks and 150 bytes per interaction, at most.
BLOCKS_PER_INTERACTION = 8
BYTES_PER_INTERACTION = 1024
KEPT = 5  # recent answers: each round has more than this
CACHE_KEPT = 16  # public content: each round looks up more


@pytest.fixture
def harness_overrides() -> dict[str, Any]:
    return {
        **SOAK_SETTINGS,
        "cache_max_entries": CACHE_KEPT,
        "answer_memory_size": KEPT,
        "share_memory_size": KEPT,
    }


def _between_rounds(requests: list[UpstreamRequest]) -> None:
    """Before the fakes forget a round: the log guard learns its tokens and questions, and
    pytest's log capture (every record of the test, for a failure report) lets go of it."""
    log_guard.remember_tokens({request.token for request in requests})
    log_guard.remember_questions(requests)
    for handler in logging.getLogger().handlers:
        if isinstance(handler, LogCaptureHandler):
            handler.reset()


# Not the bot's: what the suite's log guard keeps on purpose (every record of the run, for its
# final check: the records' tuples in its module and their message strings, made by logging's
# ``getMessage``), and the fake Magisterium's server (its module and aiohttp's web server).
NOT_THE_BOT = (
    log_guard.__file__,
    logging.__file__,
    "*/devtools/fake_magisterium/*",
    "*/aiohttp/web_*",
)


def traced() -> tuple[int, int]:
    """Memory blocks and bytes that Python allocated since tracing started and still holds,
    but :data:`NOT_THE_BOT`."""
    gc.collect()
    snapshot = tracemalloc.take_snapshot().filter_traces(
        [tracemalloc.Filter(False, pattern) for pattern in NOT_THE_BOT]
    )
    stats = snapshot.statistics("filename")
    return sum(stat.count for stat in stats), sum(stat.size for stat in stats)


def slope(xs: list[int], ys: list[int]) -> float:
    """The least-squares slope of ys over xs."""
    mean_x, mean_y = sum(xs) / len(xs), sum(ys) / len(ys)
    spread = sum((x - mean_x) ** 2 for x in xs)
    return sum((x - mean_x) * (y - mean_y) for x, y in zip(xs, ys, strict=True)) / spread


def fds_beyond_pools(report: RoundReport) -> Counter[str]:
    """The open descriptors that no pool accounts for: the TCP sockets less the upstream
    pool's connections at both ends (the database pool's idle connections were closed)."""
    assert report.pool_idle is not None and report.pool_in_use is not None
    kinds = Counter(report.fd_kinds)
    kinds["tcp"] -= report.pool_idle + report.pool_in_use + report.server_connections
    return +kinds


def check_round(report: RoundReport, summary: str) -> None:
    assert report.accounted == report.interactions, summary
    assert report.outcomes["lost"] == 0 and report.unanswered == 0, summary
    assert report.dispatched == report.interactions - report.actions["dm"], summary
    assert report.outcomes["crashed"] == 0, report.crashes[:5]
    assert report.problems == [], report.problems[:5]
    assert report.outcomes["answer"] > report.interactions // 2, summary
    assert report.leftover_tasks == [], summary
    assert report.pool_in_use == 0 and report.db_in_use == 0, summary
    assert report.pool_idle is not None and report.pool_idle <= CONFIG.concurrency, summary
    assert report.server_connections <= CONFIG.concurrency, summary


async def test_thousands_of_interactions_with_faults_leave_nothing_behind(
    harness: Harness, fake: FakeMagisterium, loop_errors: LoopErrors
) -> None:
    fake.rate_limits_enabled = False
    soak = Soak(harness, fake, CONFIG, before_forgetting=_between_rounds)
    await soak.start()
    reports = [await soak.run_round(WARM_UP_ROUND)]
    warm = reports[-1]
    held: list[dict[str, tuple[int, int]]] = []  # the bounded memories after each round
    measured: list[tuple[int, int]] = []
    tracemalloc.start()
    try:
        fill_string_cache()
        for _ in range(TRACED_ROUNDS):
            reports.append(await soak.run_round(ROUND))
            held.append(empty_bounded_memories(harness))
            clear_function_caches()
            measured.append(traced())
    finally:
        tracemalloc.stop()
        soak.stop()
    done = [ROUND * n for n in range(len(measured) - 1)]
    blocks = [count for count, _ in measured[1:]]
    sizes = [size for _, size in measured[1:]]
    byte_growth = slope(done, sizes)
    block_growth = slope(done, blocks)
    end = reports[-1]
    summary = "\n".join(line for report in reports for line in report.lines())
    summary += (
        f"\nbounded memories (held, bound) after round {end.number}: {held[-1]}"
        f"\ntraced (the bot's) after each of rounds {warm.number + 2}-{end.number}: "
        f"{[f'{t / 2**20:.3f}' for t in sizes]} MiB in {blocks} blocks; fitted growth "
        f"{block_growth:.2f} blocks per interaction (limit {BLOCKS_PER_INTERACTION}), "
        f"{byte_growth:.1f} bytes per interaction (limit {BYTES_PER_INTERACTION})"
        f"\ndescriptors beyond the pools: after warm-up {dict(fds_beyond_pools(warm))}, "
        f"at the end {dict(fds_beyond_pools(end))}"
    )
    print("\n" + summary)

    for report in reports:
        check_round(report, summary)
    everything = sum((report.outcomes for report in reports), Counter[str]())
    assert everything["error"] > 0, "the faults must have been felt: " + summary
    assert sum(sum(report.faults.values()) for report in reports) > 0, summary
    assert set().union(*(report.actions for report in reports)) == set(ACTIONS), summary
    for name in held[0]:  # more than each holds was added: full, and no more
        assert all(memories[name][0] <= memories[name][1] for memories in held), summary
        assert any(memories[name][0] == memories[name][1] for memories in held), summary
    assert fds_beyond_pools(end) == fds_beyond_pools(warm), summary
    assert block_growth <= BLOCKS_PER_INTERACTION, summary
    assert byte_growth <= BYTES_PER_INTERACTION, summary
    loop_errors.assert_none()
