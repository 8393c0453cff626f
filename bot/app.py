"""The bot application: composition of settings, upstream client and cogs.

``create_bot`` builds it without connecting anywhere; ``setup_hook`` opens resources and loads
every extension; ``close`` releases what ``setup_hook`` opened. Commands are synced only by the
explicit ``python -m bot sync`` step.
"""

from __future__ import annotations

import logging

import discord
from discord import app_commands
from discord.ext import commands

from bot.composition import Services, open_services
from bot.settings import Settings
from bot.tree import MagisteriumTree

log = logging.getLogger(__name__)

EXTENSIONS: tuple[str, ...] = (
    "cogs.help",
    "cogs.account",
    "cogs.qa",
    "cogs.dm",
    "cogs.search",
    "cogs.documents",
    "cogs.readings",
    "cogs.saints",
    "cogs.daily",
)

EVERYWHERE = app_commands.AppCommandContext(guild=True, dm_channel=True, private_channel=True)
ANY_INSTALL = app_commands.AppInstallationType(guild=True, user=True)


class NotReadyError(RuntimeError):
    """A resource was used before ``setup_hook`` opened it."""


class MagisteriumBot(commands.AutoShardedBot):
    def __init__(self, settings: Settings, *, intents: discord.Intents | None = None) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned,  # slash-only; no prefix commands exist
            help_command=None,
            intents=intents or default_intents(),
            tree_cls=MagisteriumTree,
            allowed_mentions=discord.AllowedMentions.none(),
            allowed_contexts=EVERYWHERE,
            allowed_installs=ANY_INSTALL,
            shard_count=settings.shard_count,
            # discord.py reads shard_ids with a None default; its annotation just omits None.
            shard_ids=settings.shard_ids,  # type: ignore[arg-type]
        )
        self.settings = settings
        self._services: Services | None = None
        # Set on SIGTERM (bot.lifecycle): new commands are turned away while running ones finish.
        self.draining = False

    @property
    def services(self) -> Services:
        if self._services is None:
            raise NotReadyError("services are opened in setup_hook")
        return self._services

    async def setup_hook(self) -> None:
        self._services = await open_services(self.settings)
        for extension in EXTENSIONS:
            try:
                await self.load_extension(extension)
            except commands.ExtensionError:
                log.exception("failed to load extension %s", extension)
                raise
        log.info("loaded %d extensions", len(EXTENSIONS))

    async def close(self) -> None:
        try:
            await super().close()
        finally:
            if self._services is not None:
                await self._services.aclose()
                self._services = None


def default_intents() -> discord.Intents:
    """Guilds and DMs; no privileged intents (DMs to the bot carry their content anyway)."""
    intents = discord.Intents.none()
    intents.guilds = True
    intents.dm_messages = True
    return intents


def create_bot(settings: Settings | None = None) -> MagisteriumBot:
    """The bot, built without any network call; ``None`` reads settings from the environment."""
    return MagisteriumBot(settings if settings is not None else Settings())
