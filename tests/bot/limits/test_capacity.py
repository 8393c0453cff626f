"""How many upstream calls the process keeps in flight, and the pool they use: the default the
settings' documentation states, what lowers it, and the two settings kept consistent."""

from __future__ import annotations

import logging
import re

import pytest

from bot.app.composition import UpstreamCapacity, upstream_capacity
from bot.limits import DEFAULT_MAX_IN_FLIGHT, IN_FLIGHT_CALL_BYTES, LimiterConfig
from bot.limits.config import IN_FLIGHT_MEMORY_BUDGET
from bot.settings import Settings
from devtools.discord import Harness
from tests.support.paths import REPO

ROOT = REPO
PLENTY_OF_FILES = 1_048_576


def settings(**values: object) -> Settings:
    return Settings(_env_file=None, **values)  # type: ignore[call-arg]


def test_the_default_cap_is_what_the_settings_documentation_says() -> None:
    scaling = ROOT / "docs" / "operating" / "scaling.md"
    documented = (ROOT / ".env.example").read_text() + scaling.read_text()
    budget_mib, call_kib = IN_FLIGHT_MEMORY_BUDGET // 2**20, IN_FLIGHT_CALL_BYTES // 1024
    expected = budget_mib * 1024 // call_kib
    for text in (f"{budget_mib} MiB", f"{call_kib} KiB", f"({expected})"):
        assert text in documented, f"the documentation no longer says {text}"
    assert re.search(r"^# MAX_IN_FLIGHT=$", documented, re.MULTILINE)
    assert re.search(r"^# UPSTREAM_MAX_CONNECTIONS=$", documented, re.MULTILINE)

    assert upstream_capacity(settings(), open_files=PLENTY_OF_FILES) == UpstreamCapacity(
        in_flight=expected, connections=expected
    )
    assert DEFAULT_MAX_IN_FLIGHT == LimiterConfig().max_in_flight == expected


def test_the_default_stays_within_a_quarter_of_the_open_file_limit() -> None:
    assert upstream_capacity(settings(), open_files=1024) == UpstreamCapacity(256, 256)
    assert upstream_capacity(settings(), open_files=None).in_flight == DEFAULT_MAX_IN_FLIGHT


def test_a_pool_set_smaller_lowers_the_default_to_it() -> None:
    capacity = upstream_capacity(settings(upstream_max_connections=100), open_files=None)
    assert capacity == UpstreamCapacity(in_flight=100, connections=100)
    larger = upstream_capacity(settings(upstream_max_connections=2000), open_files=None)
    assert larger == UpstreamCapacity(in_flight=DEFAULT_MAX_IN_FLIGHT, connections=2000)


def test_a_cap_set_by_the_operator_is_kept_and_the_pool_follows_it() -> None:
    capacity = upstream_capacity(settings(max_in_flight=1000), open_files=1024)
    assert capacity == UpstreamCapacity(in_flight=1000, connections=1000)
    both = upstream_capacity(
        settings(max_in_flight=50, upstream_max_connections=80), open_files=None
    )
    assert both == UpstreamCapacity(in_flight=50, connections=80)


def test_a_cap_above_the_pool_is_lowered_to_it(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger="bot.app.composition"):
        capacity = upstream_capacity(
            settings(max_in_flight=1000, upstream_max_connections=100), open_files=None
        )
    assert capacity == UpstreamCapacity(in_flight=100, connections=100)
    assert caplog.messages == [
        "MAX_IN_FLIGHT (1000) is more than UPSTREAM_MAX_CONNECTIONS (100): 100 calls in flight"
    ]


async def test_the_bot_runs_with_the_capacity_its_settings_give(harness: Harness) -> None:
    bot = harness.bot
    capacity = upstream_capacity(bot.settings)  # type: ignore[attr-defined]
    assert bot.services.limiter.config.max_in_flight == capacity.in_flight  # type: ignore[attr-defined]
