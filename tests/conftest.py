"""Fixtures shared by the whole suite."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Iterator
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:  # imported by the fixtures that use them
    from devtools.fake_magisterium import FakeMagisterium, RunningFakeServer

pytest_plugins = (
    "devtools.discord.fixtures",
    "tests.support.databases",
    "tests.support.log_guard",
    "tests.support.conformance",
)


@pytest.fixture
def fake() -> Iterator[FakeMagisterium]:
    from devtools.fake_magisterium import FakeMagisterium

    fake = FakeMagisterium()
    yield fake
    # A plugin module: imported after registration.
    from tests.support.log_guard import remember_questions, remember_tokens

    remember_tokens({request.token for request in fake.requests})
    remember_questions(fake.requests)


@pytest.fixture
async def fake_server(fake: FakeMagisterium) -> AsyncIterator[RunningFakeServer]:
    """The fake Magisterium on a real loopback port."""
    from devtools.fake_magisterium import running_fake_server

    async with running_fake_server(fake) as server:
        yield server


@pytest.fixture
def root_logging() -> Iterator[logging.Logger]:
    """The root logger, its handlers and level put back after the test."""
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    yield root
    for handler in root.handlers:
        if handler not in handlers:
            root.removeHandler(handler)
    root.setLevel(level)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The slow tier first (otherwise in collection order). xdist's `--dist load` deals its
    first quarter of the tests out one by one, so the long tests start early and alternate
    between workers, and the run ends on short ones instead of waiting on one long one."""
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)
