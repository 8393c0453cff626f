"""The floor of the real-run benches: discord.py's own ``AutoShardedBot`` and nothing else.

``python -m devtools.bench.floor_bot`` with ``DISCORD_TOKEN``, ``DISCORD_API_BASE_URL`` (the
stand-in's REST base; the gateway comes from its ``/gateway/bot``, as the bot's does),
``SHARD_COUNT`` and ``SHARD_IDS``. Its ``/ask``, ``/search``, ``/readings`` and ``/saints``
(the names the bot registered, so the same interactions reach it) only defer and then send
"ok" as a followup: what any bot pays for discord.py's gateway, parser, CommandTree and
webhooks, with the bot's intents and no mentions allowed. Nothing is imported from the bot, so
that its memory is discord.py's. SIGTERM closes it (exit 0).
"""

from __future__ import annotations

import asyncio
import logging
import os
import signal
from typing import Any

import discord
import yarl
from discord import app_commands
from discord.ext import commands
from discord.gateway import DiscordWebSocket
from discord.http import Route

COMMANDS = ("ask", "search", "readings", "saints")
log = logging.getLogger("floor")


def noop(name: str) -> app_commands.Command[Any, ..., None]:
    """``/name``: defer ("thinking…"), then "ok" as the followup. Options Discord sends with
    it (the question, the query, the date) are parsed by discord.py and not used."""

    async def callback(interaction: discord.Interaction[Any]) -> None:
        await interaction.response.defer(thinking=True)
        await interaction.followup.send("ok", wait=True)

    return app_commands.Command(name=name, description=f"floor {name}", callback=callback)


class FloorBot(commands.AutoShardedBot):
    def __init__(self, shard_count: int | None, shard_ids: list[int] | None) -> None:
        intents = discord.Intents.none()  # the bot's: guilds and DMs, nothing privileged
        intents.guilds = True
        intents.dm_messages = True
        super().__init__(
            command_prefix=commands.when_mentioned,
            help_command=None,
            intents=intents,
            allowed_mentions=discord.AllowedMentions.none(),
            shard_count=shard_count,
            shard_ids=shard_ids,  # type: ignore[arg-type]
        )
        for name in COMMANDS:
            self.tree.add_command(noop(name))

    async def connect(self, *, reconnect: bool = True) -> None:
        # The gateway /gateway/bot names (discord.py uses its default when shard_count is set).
        _shards, url, _limit = await self.http.get_bot_gateway()
        DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(url)
        await super().connect(reconnect=reconnect)


async def main() -> None:
    Route.BASE = os.environ["DISCORD_API_BASE_URL"].rstrip("/")
    count = os.environ.get("SHARD_COUNT")
    ids = os.environ.get("SHARD_IDS")
    bot = FloorBot(
        int(count) if count else None,
        [int(i) for i in ids.split(",")] if ids else None,
    )
    loop = asyncio.get_running_loop()
    closing: list[asyncio.Task[None]] = []
    loop.add_signal_handler(signal.SIGTERM, lambda: closing.append(loop.create_task(bot.close())))
    async with bot:
        await bot.start(os.environ["DISCORD_TOKEN"])
    log.info("floor shut down")


if __name__ == "__main__":
    discord.utils.setup_logging(level=logging.INFO)
    asyncio.run(main())
