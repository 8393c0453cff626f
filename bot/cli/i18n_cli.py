"""`python -m bot i18n check`: the catalogues are complete and every command localisation is
one Discord accepts (CI runs this)."""

from __future__ import annotations

import argparse
import asyncio
import tempfile
from pathlib import Path

from bot.app import create_bot
from bot.cli.quiet_logs import logs_to_stderr
from bot.i18n.catalogue_check import catalogue_problems
from bot.i18n.command_check import command_problems
from bot.settings import Settings

UNREACHABLE_API = "http://127.0.0.1:9/api/v1/a2a"  # the check builds the bot, never calls it


async def _command_problems() -> list[str]:
    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings(
            _env_file=None,  # no .env: the check needs nothing of the operator's
            magisterium_api_url=UNREACHABLE_API,
            database_url=f"sqlite+aiosqlite:///{Path(tmp) / 'i18n-check.db'}",
            discord_token=None,
            magisterium_token=None,
            redis_url=None,
            web_port=None,
        )
        async with create_bot(settings) as bot:
            await bot.setup_hook()
            return await command_problems(bot.tree)


def run_check(args: argparse.Namespace) -> int:
    logs_to_stderr(verbose=args.verbose)  # building the bot to list its commands is not news
    problems = catalogue_problems() + asyncio.run(_command_problems())
    for line in problems:
        print(line)
    if problems:
        print(f"{len(problems)} translation problem(s)")
        return 1
    print("translations: complete, consistent, within Discord's limits")
    return 0
