"""Starting the console: the real bot from ``create_bot``, offline.

A temporary SQLite database and a generated encryption key unless configured; the in-process
fake Magisterium unless ``MAGISTERIUM_TOKEN`` is set. The offline Discord harness lives in
``devtools/discord`` (it needs dpytest), so it is imported only here, only when the console starts.
"""

from __future__ import annotations

import contextlib
import importlib
import tempfile
from pathlib import Path
from typing import Any

from pydantic import SecretStr

from bot.accounts import generate_key
from bot.app import create_bot
from bot.settings import Settings
from devtools.console.parse import command_specs, menu_names
from devtools.console.session import ConsoleSession
from devtools.fake_magisterium import FakeMagisterium, running_fake_server

# Any token the fake accepts as a paid plan: it stands in for the operator's MAGISTERIUM_TOKEN.
FAKE_OPERATOR_TOKEN = "console-operator-token"
HARNESS_MISSING = (
    "the console needs a source checkout installed with `pip install -e '.[console]'` "
    "(it drives the bot with devtools/discord, which needs dpytest)"
)


class HarnessUnavailable(RuntimeError):
    """The offline Discord harness cannot be imported (not a source checkout, no dpytest)."""


def load_harness() -> Any:
    """``devtools.discord``, imported only when the console starts (it needs dpytest)."""
    try:
        return importlib.import_module("devtools.discord")
    except ImportError as error:
        raise HarnessUnavailable(f"{HARNESS_MISSING}; {error}") from None


def _is_set(value: SecretStr | str | None) -> bool:
    raw = value.get_secret_value() if isinstance(value, SecretStr) else value
    return bool(raw and raw.strip())


# Offline, Magisterium's per-minute limits and the shared account's hourly quotas would only
# make a newcomer wait: the fake and the bot drop them unless the console is run with --limits.
# The quotas stay numbers a person could meet (/account status shows "299 left"), far above
# what anyone types in a session.
UNLIMITED = {
    "rate_limit_per_minute": 6000,
    "qa_rate_limit_per_minute": 6000,
    "shared_quota_per_hour": 300,
    "shared_qa_quota_per_hour": 100,
}


async def open_session(
    env: Settings,
    harness_module: Any,
    stack: contextlib.AsyncExitStack,
    *,
    limits: bool = False,
    locale: str | None = None,
    files_dir: Path | None = None,
) -> ConsoleSession:
    """Start the bot offline; everything it opens is closed by ``stack``. ``limits``: keep
    Magisterium's per-minute limits and the shared quotas with the offline fake (a real
    Magisterium always has its own). ``locale``: the Discord locale the console's person uses."""
    real_upstream = _is_set(env.magisterium_token)
    own_database = "database_url" in env.model_fields_set and _is_set(env.database_url)
    if real_upstream:
        api_url, token = env.magisterium_api_url, env.magisterium_token
        upstream = f"Magisterium: {api_url} with MAGISTERIUM_TOKEN"
    else:
        fake = FakeMagisterium(rate_limits_enabled=limits, label_samples=True)
        server = await stack.enter_async_context(running_fake_server(fake))
        api_url, token = server.url, SecretStr(FAKE_OPERATOR_TOKEN)
        upstream = "Magisterium: the offline fake (set MAGISTERIUM_TOKEN for the real API)"
    if own_database:
        database_url = env.database_url
    else:
        directory = stack.enter_context(tempfile.TemporaryDirectory(prefix="magisterium-console-"))
        database_url = f"sqlite+aiosqlite:///{Path(directory) / 'console.db'}"
    settings = env.model_copy(
        update={
            "magisterium_api_url": api_url,
            "magisterium_token": token,
            "database_url": database_url,
            "token_encryption_key": env.token_encryption_key
            if _is_set(env.token_encryption_key)
            else SecretStr(generate_key()),
            # Offline and in this process only: no Discord, no shared state, no web server.
            "discord_token": None,
            "redis_url": None,
            "shard_count": None,
            "shard_ids": None,
            "dev_guild_id": None,
            "web_port": None,
            **({} if limits or real_upstream else UNLIMITED),
        }
    )
    harness = await stack.enter_async_context(
        harness_module.Harness.start(
            create_bot(settings),
            settle_timeout=settings.upstream_deadline_seconds + 30,
            raise_ignored=False,
        )
    )
    database = harness.bot.services.db.display_url if own_database else "a temporary SQLite file"
    description = f"{upstream}; database: {database}"
    if not (limits or real_upstream):
        description += "; rate limits off (--limits keeps them)"
    tree = harness.bot.tree
    return ConsoleSession(
        harness,
        await command_specs(tree, locale),
        description,
        locale=locale,
        files_dir=files_dir,
        menus=await menu_names(tree, locale),
    )
