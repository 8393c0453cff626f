"""`python -m bot run` and `python -m bot sync [--guild ID]`."""

from __future__ import annotations

import argparse
import asyncio
import logging

import discord

from bot.accounts import EncryptionKeyError
from bot.app import create_bot
from bot.app.composition import check_storage
from bot.app.discord_endpoints import use_rest_base
from bot.app.lifecycle import install_signal_handlers
from bot.cli.common import CLIError, discord_token, fail, load_settings
from bot.storage import StorageUnavailable

log = logging.getLogger(__name__)


def run(args: argparse.Namespace) -> int:
    try:
        settings = load_settings()
        token = discord_token(settings)
    except CLIError as error:
        return fail(error)
    # Process-wide discord.py state, so set once where this process's settings are loaded, not
    # by each bot built (tests build many in one process).
    use_rest_base(settings.discord_api_base_url)

    async def serve() -> None:
        await check_storage(settings)
        loop = asyncio.get_running_loop()
        async with create_bot(settings) as bot:
            shutdown = install_signal_handlers(loop, bot, settings.shutdown_grace_seconds)
            try:
                await bot.start(token)  # returns once a signal's drain has closed the gateway
            finally:
                # The drain's close() finishes before the one on leaving `async with` starts.
                await shutdown.wait_closed()

    try:
        asyncio.run(serve())
    except (EncryptionKeyError, StorageUnavailable) as error:
        return fail(CLIError(str(error)))
    except discord.PrivilegedIntentsRequired:
        # Discord closed the gateway with 4014: an intent the developer portal has not
        # switched on. The only privileged one the bot can ask for is Message Content.
        log.error(refused_intent_message(message_content=settings.message_content_intent))
        return 2
    return 0


def refused_intent_message(*, message_content: bool) -> str:
    """The one line an operator reads when Discord refuses the gateway's intents (4014)."""
    if message_content:
        return (
            "Discord refused the Message Content intent (gateway close 4014): "
            'MESSAGE_CONTENT_INTENT is true, but the app\'s "Message Content Intent" switch is '
            "off in the Discord developer portal (Bot page, Privileged Gateway Intents; a "
            "verified app needs Discord's approval for it). Switch it on there, or set "
            "MESSAGE_CONTENT_INTENT=false to answer mentions and replies only."
        )
    return (
        "Discord refused a privileged gateway intent (gateway close 4014) although "
        "MESSAGE_CONTENT_INTENT is false; check the Privileged Gateway Intents in the Discord "
        "developer portal (Bot page)."
    )


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

    count = asyncio.run(register())
    where = f"server {guild_id}" if guild_id else "all servers and DMs (global)"
    print(f"synced {count} commands to {where}")
    return 0
