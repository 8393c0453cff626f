"""The soak: thousands of mixed interactions from 50 people, 20 at a time, with random faults.

Three rounds of the workload in ``devtools.bench.soak`` (the five skill commands, DM questions,
"Ask Magisterium", page turns and day buttons on earlier answers, autocomplete), 10% of
upstream requests meeting a random fault of the fault matrix. Afterwards: every interaction got
an answer or a clear error (counted: none left thinking, none lost, none crashed), no task
outlives its round once views are stopped, no file descriptor or pooled connection
accumulates, and memory stops growing (traced from round 2, less the log records the suite's
log guard keeps on purpose: round 3 ends within 10% or 2 MiB of round 2). The recent answers
the bot keeps for Share, Read a source and related questions are bounded; kept few here, they
are full before round 2, so their filling up is not counted as growth. ``bench/soak.py``
runs the same workload for minutes.
"""

from __future__ import annotations

import gc
import logging
import sys
import tracemalloc
from typing import Any

import pytest
from _pytest.logging import LogCaptureHandler

from devtools.bench.soak import ACTIONS, SOAK_SETTINGS, RoundReport, Soak, SoakConfig
from devtools.discord import Harness
from devtools.discord.loop_errors import LoopErrors, loop_errors_fixture  # noqa: F401
from devtools.fake_magisterium import FakeMagisterium
from devtools.fake_magisterium.fake import UpstreamRequest
from tests.support import log_guard

pytestmark = pytest.mark.usefixtures("loop_errors", "few_recent_answers")

INTERACTIONS_PER_ROUND = 700  # three rounds: 2,100 interactions, ~75 s on two cores
CONFIG = SoakConfig(users=50, concurrency=20, fault_rate=0.10, seed=20261201)
FDS_SLACK = 2
MEMORY_SLACK = 2 * 2**20
RECENT_ANSWERS_KEPT = 20  # each round has more private answers and citations than this
ANSWER_MEMORIES = (
    ("cogs.qa.share", "SHARES"),
    ("cogs.qa.sources", "CITED"),
    ("cogs.qa.answers", "RELATED"),
)


@pytest.fixture
def harness_overrides() -> dict[str, Any]:
    return dict(SOAK_SETTINGS)


@pytest.fixture
def few_recent_answers(harness: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    """The bot's bounded memories of recent answers, at a small bound (the modules the harness's
    bot loaded: extensions are re-imported for each bot)."""
    for module, name in ANSWER_MEMORIES:
        monkeypatch.setattr(getattr(sys.modules[module], name), "size", RECENT_ANSWERS_KEPT)


def other_fds(report: RoundReport) -> int:
    """Open file descriptors besides the pooled keep-alive connections to the in-process fake
    (a client socket in the bot's pool and a server socket in the fake for each), whose number
    follows the last batch's concurrency."""
    assert report.pool_idle is not None
    return report.fds - report.pool_idle - report.server_connections


def _between_rounds(requests: list[UpstreamRequest]) -> None:
    """Before the fakes forget a round: the log guard learns its tokens and questions, and
    pytest's log capture (every record of the test, for a failure report) lets go of it."""
    log_guard.remember_tokens({request.token for request in requests})
    log_guard.remember_questions(requests)
    for handler in logging.getLogger().handlers:
        if isinstance(handler, LogCaptureHandler):
            handler.reset()


def traced_without_test_logs() -> int:
    """Traced memory, less what the log guard keeps on purpose (every record of the run, for
    its final check): the records' tuples in tests/support/log_guard.py and their message strings,
    made by logging's ``getMessage``."""
    gc.collect()
    snapshot = tracemalloc.take_snapshot().filter_traces(
        [tracemalloc.Filter(False, log_guard.__file__), tracemalloc.Filter(False, logging.__file__)]
    )
    return sum(stat.size for stat in snapshot.statistics("filename"))


async def test_thousands_of_interactions_with_faults_leave_nothing_behind(
    harness: Harness, fake: FakeMagisterium, loop_errors: LoopErrors
) -> None:
    fake.rate_limits_enabled = False
    soak = Soak(harness, fake, CONFIG, before_forgetting=_between_rounds)
    await soak.start()
    reports: list[RoundReport] = [await soak.run_round(INTERACTIONS_PER_ROUND)]
    tracemalloc.start()
    try:
        reports.append(await soak.run_round(INTERACTIONS_PER_ROUND))
        bot_after_2 = traced_without_test_logs()
        reports.append(await soak.run_round(INTERACTIONS_PER_ROUND))
        bot_after_3 = traced_without_test_logs()
    finally:
        tracemalloc.stop()
        soak.stop()
    summary = "\n".join(line for report in reports for line in report.lines())
    summary += (
        f"\ntraced without the log guard's records: after round 2 {bot_after_2 / 2**20:.2f} MiB, "
        f"after round 3 {bot_after_3 / 2**20:.2f} MiB"
    )
    print("\n" + summary)

    for report in reports:
        assert report.accounted == report.interactions, summary
        assert report.outcomes["lost"] == 0 and report.unanswered == 0, summary
        assert report.dispatched == report.interactions - report.actions["dm"], summary
        assert report.outcomes["crashed"] == 0, report.crashes[:5]
        assert report.problems == [], report.problems[:5]
        assert report.outcomes["answer"] > report.interactions // 2, summary
        assert report.outcomes["error"] > 0, "the faults must have been felt: " + summary
        assert sum(report.faults.values()) > 0, summary
        assert set(report.actions) == set(ACTIONS), summary
        assert report.leftover_tasks == [], summary
        assert report.pool_in_use == 0, summary
        assert report.pool_idle is not None and report.pool_idle <= CONFIG.concurrency, summary
        assert report.server_connections <= CONFIG.concurrency, summary
    first, third = reports[0], reports[2]
    assert other_fds(third) <= other_fds(first) + FDS_SLACK, summary
    allowed = max(bot_after_2 * 0.10, MEMORY_SLACK)
    assert bot_after_3 - bot_after_2 <= allowed, (
        f"memory grew by {(bot_after_3 - bot_after_2) / 2**20:.2f} MiB in round 3 "
        f"(allowed {allowed / 2**20:.2f} MiB)\n{summary}"
    )
    loop_errors.assert_none()
