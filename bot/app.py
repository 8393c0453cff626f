"""The bot application: composition of settings, upstream client and cogs.

``create_bot`` builds it without connecting anywhere; ``setup_hook`` opens resources and loads
every extension; ``close`` releases what ``setup_hook`` opened. Commands are synced only by the
explicit ``python -m bot sync`` step.
"""

from __future__ import annotations

import logging

import discord
import httpx
from discord import app_commands
from discord.ext import commands

from bot.a2a import A2AClient, MagisteriumSkills
from bot.a2a.http import new_http_client
from bot.settings import Settings
from bot.tree import MagisteriumTree

log = logging.getLogger(__name__)

EXTENSIONS: tuple[str, ...] = ("cogs.help",)

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
        self._http_client: httpx.AsyncClient | None = None
        self._skills: MagisteriumSkills | None = None

    @property
    def skills(self) -> MagisteriumSkills:
        if self._skills is None:
            raise NotReadyError("the Magisterium client is opened in setup_hook")
        return self._skills

    async def setup_hook(self) -> None:
        self._http_client = new_http_client(max_connections=self.settings.upstream_max_connections)
        client = A2AClient(
            self._http_client,
            self.settings.magisterium_api_url,
            deadline=self.settings.upstream_deadline_seconds,
        )
        self._skills = MagisteriumSkills(client)
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
            if self._http_client is not None:
                await self._http_client.aclose()
                self._http_client = None


def default_intents() -> discord.Intents:
    """Guilds and DMs; no privileged intents (DMs to the bot carry their content anyway)."""
    intents = discord.Intents.none()
    intents.guilds = True
    intents.dm_messages = True
    return intents


def create_bot(settings: Settings | None = None) -> MagisteriumBot:
    """The bot, built without any network call; ``None`` reads settings from the environment."""
    return MagisteriumBot(settings if settings is not None else Settings())
