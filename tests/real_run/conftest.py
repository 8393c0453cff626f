"""What most run-path tests start: the fake Magisterium on loopback TCP, and the Discord
stand-in with the bot's commands registered (a file needing other ones defines its own)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from devtools.discord_standin import StandIn, running_standin
from devtools.fake_magisterium import FakeMagisterium, RunningFakeServer, running_fake_server
from tests.support.real_run import registered_commands


@pytest.fixture
async def upstream() -> AsyncIterator[RunningFakeServer]:
    # Room for every catholic_qa a test asks in a minute, on both sides of the wire.
    async with running_fake_server(FakeMagisterium(expensive_per_minute=10)) as server:
        yield server


@pytest.fixture
async def standin(tmp_path: Path) -> AsyncIterator[StandIn]:
    commands = await registered_commands(tmp_path)
    async with running_standin() as standin:
        standin.commands.register(commands)
        yield standin
