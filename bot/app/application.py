"""The bot application: composition of settings, upstream client and cogs.

``create_bot`` builds it without connecting anywhere; ``setup_hook`` starts the web servers (the
operator's when ``OPERATOR_PORT`` is set, the public one when ``WEB_PORT`` is), opens resources
and loads every extension; ``close`` releases what ``setup_hook`` opened. Commands are synced
only by the explicit ``python -m bot sync`` step.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.app.acknowledgements import Acknowledgements
from bot.app.composition import Services, open_services
from bot.app.discord_endpoints import use_gateway_from_discord
from bot.app.error_reporting import report_interaction_error
from bot.app.heap import freeze_startup_heap
from bot.app.invite import invite_url
from bot.app.metrics_sampler import MetricsSampler
from bot.app.tree import MagisteriumTree
from bot.i18n.translator import CatalogueTranslator
from bot.oauth import LinkedBySignIn
from bot.observability import Metrics, register_settings_secrets
from bot.render.pager import ShownPagers
from bot.settings import Settings
from bot.storage import StorageUnavailable
from bot.web import (
    ConnectionLimits,
    OAuthRateLimit,
    Readiness,
    WebServer,
    operator_app,
    public_app,
)
from bot.web.pages import SiteInfo

log = logging.getLogger(__name__)

EXTENSIONS: tuple[str, ...] = (
    "cogs.help",
    "cogs.account",
    "cogs.qa",
    "cogs.dm",
    "cogs.search",
    "cogs.documents",
    "cogs.readings",
    "cogs.saints_of_the_day",
    "cogs.lookups",
    "cogs.daily",
    "cogs.server",
)

EVERYWHERE = app_commands.AppCommandContext(guild=True, dm_channel=True, private_channel=True)
ANY_INSTALL = app_commands.AppInstallationType(guild=True, user=True)


class NotReadyError(RuntimeError):
    """A resource was used before ``setup_hook`` opened it."""


class MagisteriumBot(commands.AutoShardedBot):
    def __init__(self, settings: Settings, *, intents: discord.Intents | None = None) -> None:
        super().__init__(
            # Required by commands.Bot, never used: on_message below runs no prefix commands
            # (a mention is a question, answered by cogs.qa.mentions).
            command_prefix=commands.when_mentioned,
            help_command=None,
            intents=intents or default_intents(message_content=settings.message_content_intent),
            tree_cls=MagisteriumTree,
            allowed_mentions=discord.AllowedMentions.none(),
            # Nothing reads discord.py's message cache (2 MB, a scan per edit; bench/guild_messages)
            max_messages=None,
            allowed_contexts=EVERYWHERE,
            allowed_installs=ANY_INSTALL,
            shard_count=settings.shard_count,
            # discord.py reads shard_ids with a None default; its annotation just omits None.
            shard_ids=settings.shard_ids,  # type: ignore[arg-type]
        )
        self.settings = settings
        register_settings_secrets(settings)
        self.metrics = Metrics()
        # Each interaction's wait for its first response (see dispatch below).
        self.acknowledgements = Acknowledgements(self.metrics)
        self.metrics_sampler = MetricsSampler(self)
        self._services: Services | None = None
        self.web_server: WebServer | None = None  # the public listener (WEB_PORT)
        self.operator_server: WebServer | None = None  # /healthz, /readyz, /metrics
        # Called when someone links their account through the sign-in page (cogs.account).
        self.sign_in_listeners: list[Callable[[LinkedBySignIn], Awaitable[None]]] = []
        # The pager each message shows now (the day buttons of /readings, /saints and /daily
        # preview replace theirs), so that a replaced one never edits it again on its timeout.
        self.shown_pagers = ShownPagers()
        # Set on SIGTERM (bot.app.lifecycle): new commands are turned away; running ones finish.
        self.draining = False

    @property
    def services(self) -> Services:
        if self._services is None:
            raise NotReadyError("services are opened in setup_hook")
        return self._services

    async def setup_hook(self) -> None:
        # First, so that /healthz answers while the rest starts (and /readyz says why not).
        await self._start_web_servers()
        self.metrics_sampler.start()
        self._services = await open_services(self.settings, metrics=self.metrics)
        if self.tree.translator is None:  # localised names and descriptions for `sync`
            await self.tree.set_translator(CatalogueTranslator())
        for extension in EXTENSIONS:
            try:
                await self.load_extension(extension)
            except commands.ExtensionError:
                log.exception("failed to load extension %s", extension)
                raise
        log.info("loaded %d extensions", len(EXTENSIONS))
        freeze_startup_heap()  # what startup made lives as long as the process

    async def connect(self, *, reconnect: bool = True) -> None:
        # The gateway /gateway/bot names, for every shard and every re-identify (discord.py
        # would use its built-in default when SHARD_COUNT is set).
        await use_gateway_from_discord(self.http, configured_shards=self.settings.shard_count)
        await super().connect(reconnect=reconnect)

    async def close(self) -> None:
        self.metrics_sampler.stop()
        try:
            await super().close()
        finally:
            try:
                await self._stop_web_servers()
            finally:
                if self._services is not None:
                    await self._services.aclose()
                    self._services = None

    async def _start_web_servers(self) -> None:
        settings = self.settings
        limits = ConnectionLimits.from_settings(settings)
        if settings.operator_port is not None:
            app = operator_app(self.readiness(), self.metrics)
            server = WebServer(
                app, settings.operator_host, settings.operator_port, limits=limits.for_operator()
            )
            await server.start()
            self.operator_server = server
        elif settings.web_port is not None:
            log.info("no /readyz or /metrics: they are served only when OPERATOR_PORT is set")
        if settings.web_port is not None:
            app = public_app(
                SiteInfo(invite_url=self._invite_url),
                https=(settings.public_base_url or "").startswith("https:"),
                oauth_rate_limit=OAuthRateLimit.from_settings(
                    settings, record=self.metrics.web_refused
                ),
                oauth=lambda: self._services.oauth if self._services else None,
                on_linked=self._announce_linked,
            )
            server = WebServer(
                app,
                settings.web_host,
                settings.web_port,
                limits=limits,
                record=self.metrics.web_refused,
            )
            await server.start()
            self.web_server = server

    async def _stop_web_servers(self) -> None:
        public, self.web_server = self.web_server, None
        operator, self.operator_server = self.operator_server, None
        try:
            if public is not None:
                await public.stop()
        finally:
            if operator is not None:
                await operator.stop()

    def _invite_url(self) -> str | None:
        return invite_url(self.application_id) if self.application_id else None

    async def _announce_linked(self, linked: LinkedBySignIn) -> None:
        """An account was linked through the web page: tell whoever listens (the account cog
        edits the Discord message the sign-in started from)."""
        for listener in list(self.sign_in_listeners):
            await listener(linked)

    def readiness(self) -> Readiness:
        """Connected to the gateway, not shutting down, and the database answering."""
        return Readiness(
            gateway_connected=lambda: self.is_ready() and not self.is_closed(),
            ping_database=self._ping_database,
            shutting_down=lambda: self.draining,
        )

    async def _ping_database(self) -> None:
        if self._services is None:
            raise StorageUnavailable("the database is not open (the bot is starting or stopping)")
        await self._services.db.ping()

    def dispatch(self, event_name: str, /, *args: Any, **kwargs: Any) -> None:
        # discord.py dispatches "interaction" after creating the tasks that answer it and
        # before any of them runs: the one place to time every interaction's first response.
        if event_name == "interaction":
            self.acknowledgements.watch(args[0])
        super().dispatch(event_name, *args, **kwargs)

    async def on_message(self, message: discord.Message, /) -> None:
        """No prefix commands: commands.Bot would read "<@bot> What is grace?" as a command
        "What" and log CommandNotFound as an ERROR. Cogs' listeners still get every message."""

    async def on_app_command_completion(
        self,
        interaction: discord.Interaction[MagisteriumBot],
        command: app_commands.Command[Any, ..., Any] | app_commands.ContextMenu,
    ) -> None:
        """A command that ran to its end; failed ones are counted by bot.app.error_reporting."""
        self.metrics.command_finished(command.qualified_name, "ok")

    async def report_interaction_error(
        self, interaction: discord.Interaction[Any], error: BaseException, *, where: str
    ) -> None:
        """The one error path, for the views and modals of ``bot.render.views``."""
        await report_interaction_error(interaction, error, where=where)


def default_intents(*, message_content: bool = False) -> discord.Intents:
    """Guilds, server messages and DMs; no privileged intent unless ``message_content``
    (``MESSAGE_CONTENT_INTENT``, for ask channels). Without Message Content, Discord sends a
    server message's text only when it mentions the bot or replies to it (the questions of
    cogs.qa.mentions); DMs to the bot carry their content anyway."""
    intents = discord.Intents.none()
    intents.guilds = True
    intents.guild_messages = True
    intents.dm_messages = True
    intents.message_content = message_content
    return intents


def create_bot(settings: Settings | None = None) -> MagisteriumBot:
    """The bot, built without any network call; ``None`` reads settings from the environment."""
    return MagisteriumBot(settings if settings is not None else Settings())
