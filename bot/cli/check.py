"""`python -m bot check`: is this deployment ready to run? One line per check: ok, warning
(worth a look, but the bot can run) or failed.

It changes nothing: the database is read (revision, stored tokens), never migrated; a SQLite
file that does not exist yet is not created; Magisterium gets one ``tasks/get``, which spends
no quota, and one unauthenticated GET of its public Agent Card; Discord (DISCORD_API_BASE_URL)
gets one GET of ``/gateway/bot`` with DISCORD_TOKEN (``/gateway`` without), which connects no
shard and spends no session start.
"""

from __future__ import annotations

import argparse
import asyncio
from collections.abc import Callable, Iterable

from bot.cli.check_agent_card import agent_card
from bot.cli.check_discord import discord_api
from bot.cli.check_probes import Outcome, magisterium, storage
from bot.cli.common import CLIError, load_settings
from bot.cli.quiet_logs import logs_to_stderr
from bot.settings import Settings

NAME_WIDTH = 16


def check(args: argparse.Namespace) -> int:
    logs_to_stderr(verbose=getattr(args, "verbose", False))
    try:
        settings = load_settings()
    except CLIError as error:
        _report("settings", Outcome.failed(str(error).removeprefix("invalid settings: ")), ())
        return 1
    secrets = _secrets(settings)
    outcomes: list[Outcome] = []

    def report(name: str, outcome: Outcome) -> None:
        outcomes.append(outcome)
        _report(name, outcome, secrets)

    report("settings", Outcome.ok())
    asyncio.run(_run_checks(settings, report))
    return 1 if any(outcome.status == "failed" for outcome in outcomes) else 0


async def _run_checks(settings: Settings, report: Callable[[str, Outcome], None]) -> None:
    try:
        database, key = await storage(settings)
    except Exception as error:
        database, key = _crashed(error), Outcome.skipped("not checked: the database check failed")
    report("database", database)
    report("encryption key", key)
    try:
        upstream = await magisterium(settings)
    except Exception as error:
        upstream = _crashed(error)
    report("magisterium", upstream)
    try:
        card = await agent_card(settings.magisterium_api_url)
    except Exception as error:
        card = _crashed(error)
    report("agent card", card)
    try:
        api, token = await discord_api(settings)
    except Exception as error:
        api, token = _crashed(error), Outcome.skipped("not checked: the Discord check failed")
    report("discord api", api)
    report("discord token", token)


def _crashed(error: Exception) -> Outcome:
    """A check that crashed is one failed line (the class name only: the message is not ours
    to vouch for), never a traceback."""
    return Outcome.failed(f"unexpected error: {type(error).__name__}")


def _report(name: str, outcome: Outcome, secrets: Iterable[str]) -> None:
    line = f"{name:<{NAME_WIDTH}}{outcome.status}"
    if outcome.detail:
        line += f" — {outcome.detail}"
    for secret in secrets:
        line = line.replace(secret, "[redacted]")
    print(line, flush=True)


def _secrets(settings: Settings) -> list[str]:
    """Values no line may show, should an upstream or driver message ever echo one."""
    values = [settings.discord_token, settings.magisterium_token, settings.token_encryption_key]
    found = [v.get_secret_value() for v in values if v is not None]
    key_parts = [part.strip() for value in found for part in value.split(",")]
    return sorted({s for s in [*found, *key_parts] if len(s) >= 8}, key=len, reverse=True)
