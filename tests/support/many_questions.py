"""Fixtures for a test module that asks many questions: room for them in the bot's own limits
and in the fake Magisterium's. Import both into the module, and name them in its ``__all__``."""

from __future__ import annotations

from typing import Any

import pytest

from devtools.fake_magisterium import FakeMagisterium


@pytest.fixture
def harness_overrides() -> dict[str, Any]:
    return {
        "qa_rate_limit_per_minute": 100,
        "rate_limit_per_minute": 100,
        "shared_quota_per_hour": 1000,
        "shared_qa_quota_per_hour": 1000,
    }


@pytest.fixture
def fake() -> FakeMagisterium:
    return FakeMagisterium(basic_per_minute=1000, expensive_per_minute=1000)
