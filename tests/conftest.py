"""Fixtures shared by the whole suite."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.fake_server import FakeMagisterium, RunningFakeServer, running_fake_server

pytest_plugins = ("tests.harness.fixtures", "tests.conftest_db")


@pytest.fixture
def fake() -> FakeMagisterium:
    return FakeMagisterium()


@pytest.fixture
async def fake_server(fake: FakeMagisterium) -> AsyncIterator[RunningFakeServer]:
    """The fake Magisterium on a real loopback port."""
    async with running_fake_server(fake) as server:
        yield server
