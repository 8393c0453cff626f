"""`python -m bot run` and `python -m bot sync [--guild ID]`."""

from __future__ import annotations

import argparse
import asyncio

import discord

from bot.app import create_bot
from bot.app.discord_endpoints import use_rest_base
from bot.app.lifecycle import install_signal_handlers
from bot.cli.common import CLIError, discord_token, fail, load_settings
from bot.cli.start_failures import EXPLAINED, StartFailure, explain, report
from bot.cli.start_storage import check_storage
from bot.observability.error_tracking import init_error_tracking


def run(args: argparse.Namespace) -> int:
    """Serve until a signal (exit status 0), or fail to start with one ERROR line (2)."""
    try:
        settings = load_settings()
        token = discord_token(settings)
    except CLIError as error:
        return fail(error)
    # Process-wide discord.py state, so set once where this process's settings are loaded, not
    # by each bot built (tests build many in one process).
    use_rest_base(settings.discord_api_base_url)
    init_error_tracking(settings)  # process-wide too; nothing at all without SENTRY_DSN

    async def serve() -> None:
        await check_storage(settings)  # before Discord hears of the bot
        loop = asyncio.get_running_loop()
        async with create_bot(settings) as bot:
            shutdown = install_signal_handlers(loop, bot, settings.shutdown_grace_seconds)
            try:
                await bot.start(token)  # returns once a signal's drain has closed the gateway
            except EXPLAINED as error:
                if shutdown.drain is not None:
                    return  # a signal closed the bot mid-start: what start() raised is that
                failure = explain(error, settings)
                if failure is None:
                    raise
                raise failure from error
            finally:
                # The drain's close() finishes before the one on leaving `async with` starts.
                await shutdown.wait_closed()

    try:
        asyncio.run(serve())
    except StartFailure as failure:
        return report(failure)
    return 0


def _refused_sync(error: BaseException, guild_id: int | None) -> StartFailure | None:
    """Discord refusing the registration itself: a server the app is not in (403)."""
    if isinstance(error, discord.Forbidden) and guild_id:
        return StartFailure(
            f"Discord refused to register the commands in server {guild_id} ({error.status} "
            f"{error.text or 'Forbidden'}): add the app to that server with the "
            "applications.commands scope (the install link in docs/operating/running.md), "
            "or check the id"
        )
    return None


def sync(args: argparse.Namespace) -> int:
    try:
        settings = load_settings()
        token = discord_token(settings)
    except CLIError as error:
        return fail(error)
    use_rest_base(settings.discord_api_base_url)  # as in run()
    guild_id = args.guild or settings.dev_guild_id

    async def register() -> int:
        # No web server: the running bot may hold WEB_PORT.
        async with create_bot(settings.model_copy(update={"web_port": None})) as bot:
            await bot.login(token)  # HTTP only: runs setup_hook, opens no gateway
            guild = discord.Object(id=guild_id) if guild_id else None
            if guild is not None:
                bot.tree.copy_global_to(guild=guild)
            synced = await bot.tree.sync(guild=guild)
            return len(synced)

    try:
        count = asyncio.run(register())
    except EXPLAINED as error:
        failure = explain(error, settings) or _refused_sync(error, guild_id)
        if failure is None:
            raise
        return report(failure)
    where = f"server {guild_id}" if guild_id else "all servers and DMs (global)"
    print(f"synced {count} commands to {where}")
    return 0
