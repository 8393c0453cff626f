"""Pytest fixtures: the real bot from ``create_bot``, wired to the fake Magisterium.

Use them from a test module with ``from devtools.discord.fixtures import harness`` (or list the
module in ``pytest_plugins`` of the root conftest).

Built once, copied per test: the bot's SQLite database is a copy of a file migrated once per
session (per xdist worker), so its ``migrate()`` at startup finds nothing to do.
"""

from __future__ import annotations

import asyncio
import shutil
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from collections.abc import AsyncIterator

    from bot.app import MagisteriumBot
    from bot.settings import Settings
    from devtools.discord.harness import Harness
    from devtools.fake_magisterium import RunningFakeServer

OPERATOR_TOKEN = "pro-operator-token"


def harness_settings(api_url: str, database_url: str, **overrides: Any) -> Settings:
    """Settings for a test bot: nothing read from ``.env``; an operator token for people who
    linked none; a fresh SQLite database and encryption key; one process."""
    from bot.accounts import generate_key
    from bot.settings import Settings

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


def sqlite_url_of(path: Path) -> str:
    return f"sqlite+aiosqlite:///{path}"


def migrate_sqlite(path: Path) -> Path:
    """Create the SQLite file ``path`` and run every migration on it (on a loop of its own, in
    another thread: a sync fixture may run while the test's loop exists)."""
    from bot.storage import Database

    async def migrate() -> None:
        async with Database(sqlite_url_of(path)) as db:
            await db.migrate()

    with ThreadPoolExecutor(max_workers=1) as pool:
        pool.submit(asyncio.run, migrate()).result()
    # Closed cleanly, the write-ahead log is checkpointed and gone: the file is the database.
    leftovers = [p for p in path.parent.iterdir() if p.name.startswith(f"{path.name}-")]
    if leftovers:
        raise RuntimeError(f"the migrated SQLite template left {leftovers} beside it")
    return path


def copy_sqlite(template: Path, target: Path) -> str:
    """Copy the migrated ``template`` to ``target`` (its directory made); ``target``'s URL."""
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(template, target)
    return sqlite_url_of(target)


@pytest.fixture(scope="session")
def migrated_sqlite_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A SQLite file at the head revision, migrated once per session (``tmp_path_factory`` is
    per xdist worker); copy it with :func:`copy_sqlite`, never open it."""
    return migrate_sqlite(tmp_path_factory.mktemp("migrated-sqlite") / "template.db")


@pytest.fixture
def harness_overrides() -> dict[str, Any]:
    """Settings a test module changes for its bot: override this fixture in the module."""
    return {}


@pytest.fixture
def harness_bot(
    fake_server: RunningFakeServer,
    tmp_path: Path,
    harness_overrides: dict[str, Any],
    request: pytest.FixtureRequest,
) -> MagisteriumBot:
    """The real bot, built by ``create_bot`` against the fake Magisterium; not yet started. Its
    database (unless the overrides name one) is a copy of the migrated SQLite template."""
    from bot.app import create_bot

    overrides = dict(harness_overrides)
    database_url = overrides.pop("database_url", None)
    if database_url is None:
        template: Path = request.getfixturevalue("migrated_sqlite_template")
        database_url = copy_sqlite(template, tmp_path / "bot.db")
    return create_bot(harness_settings(fake_server.url, database_url, **overrides))


@pytest.fixture
async def harness(harness_bot: MagisteriumBot) -> AsyncIterator[Harness]:
    """A started :class:`Harness` around :func:`harness_bot` (setup_hook run, loops stopped)."""
    from devtools.discord.harness import Harness

    async with Harness.start(harness_bot) as started:
        yield started
