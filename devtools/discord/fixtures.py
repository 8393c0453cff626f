"""Pytest fixtures: the real bot from ``create_bot``, wired to the fake Magisterium.

Use them from a test module with ``from devtools.discord.fixtures import harness`` (or list the
module in ``pytest_plugins`` of the root conftest).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.accounts import generate_key
from bot.app import MagisteriumBot, create_bot
from bot.settings import Settings
from devtools.discord.harness import Harness
from devtools.fake_magisterium import RunningFakeServer

OPERATOR_TOKEN = "pro-operator-token"


def harness_settings(api_url: str, database_url: str, **overrides: Any) -> Settings:
    """Settings for a test bot: nothing read from ``.env``; an operator token for people who
    linked none; a fresh SQLite database and encryption key; one process."""
    values: dict[str, Any] = {
        "magisterium_api_url": api_url,
        "database_url": database_url,
        "token_encryption_key": generate_key(),
        "discord_token": None,
        "magisterium_token": OPERATOR_TOKEN,
        "redis_url": None,
        "rate_limit_wait_seconds": 10.0,
        "shard_count": None,
        "shard_ids": None,
        "dev_guild_id": None,
        **overrides,
    }
    return Settings(_env_file=None, **values)


@pytest.fixture
def harness_overrides() -> dict[str, Any]:
    """Settings a test module changes for its bot: override this fixture in the module."""
    return {}


@pytest.fixture
def harness_bot(
    fake_server: RunningFakeServer, tmp_path: Path, harness_overrides: dict[str, Any]
) -> MagisteriumBot:
    """The real bot, built by ``create_bot`` against the fake Magisterium; not yet started."""
    overrides = {"database_url": f"sqlite+aiosqlite:///{tmp_path / 'bot.db'}", **harness_overrides}
    database_url = overrides.pop("database_url")
    return create_bot(harness_settings(fake_server.url, database_url, **overrides))


@pytest.fixture
async def harness(harness_bot: MagisteriumBot) -> AsyncIterator[Harness]:
    """A started :class:`Harness` around :func:`harness_bot` (setup_hook run, loops stopped)."""
    async with Harness.start(harness_bot) as started:
        yield started
