"""/server link | quota | status | unlink | timezone | mentions | askchannel set|off, and
forgetting a server that removed the bot (or a deleted ask channel).

A server's own Magisterium account serves its members who linked none, each within an hourly
allowance the admins set (bot.services.tokens). The commands are for servers only and need
Manage Server by default; everything they answer is private to the admin who ran them.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands
from pydantic import SecretStr

from bot.accounts import AccountStatus, Allowance
from bot.accounts.server_registry import MAX_PER_HOUR, MAX_QA_PER_HOUR
from bot.accounts.wall_clock import utcnow
from bot.app.respond import defer
from bot.i18n import N_, _
from bot.render.embeds import notice_embed
from bot.services.ask_channels import TooManyAskChannels
from bot.services.timezones import ResolvedZone
from bot.services.token_check import TokenVerdict
from bot.services.user_errors import UserFacingError
from bot.storage import StorageUnavailable
from cogs._zones import MAX_LENGTH, SERVER, answer_zone, zone_choices
from cogs.server import ask_channels
from cogs.server.mentions import add_mentions, mentions_embed
from cogs.server.replies import (
    add_feedback,
    quota_embed,
    status_embed,
    unlinked,
    verdict_embed,
)
from cogs.server.sign_in import ServerSignIns
from cogs.server.views import ServerTokenModal

if TYPE_CHECKING:
    from bot.accounts import ServerRegistry
    from bot.app import MagisteriumBot

log = logging.getLogger(__name__)

STORED: Mapping[TokenVerdict, AccountStatus] = MappingProxyType(
    {
        TokenVerdict.VALID: "valid",
        TokenVerdict.RATE_LIMITED: "rate_limited",
    }
)


class NotLinked(UserFacingError):
    def __init__(self) -> None:
        super().__init__(
            _("No server account linked"),
            _("Link this server's Magisterium account first with `/server link`."),
        )


def _guild_id(interaction: discord.Interaction[MagisteriumBot]) -> int:
    if interaction.guild_id is None:  # a server-only command; only a stale client gets here
        raise UserFacingError(
            _("Servers only"), _("`/server` sets up a Magisterium account for a server.")
        )
    return interaction.guild_id


class ServerCog(commands.Cog):
    server = app_commands.Group(
        # Translators: a Discord slash-command name: lowercase, one word, at most 32 characters.
        name=N_("server"),
        # Translators: /server's description, at most 100 characters.
        description=N_("This server's own Magisterium account, for members without their own"),
        default_permissions=discord.Permissions(manage_guild=True),
        # Servers only, installed to a server: made here, not shared through the module, since
        # discord.py's context decorators change these objects in place.
        allowed_contexts=app_commands.AppCommandContext(
            guild=True, dm_channel=False, private_channel=False
        ),
        allowed_installs=app_commands.AppInstallationType(guild=True, user=False),
    )

    askchannel = app_commands.Group(
        # Translators: a Discord subcommand group name (/server askchannel): lowercase, one word.
        name=N_("askchannel"),
        # Translators: /server askchannel's description, at most 100 characters.
        description=N_("Channels where every message is a question, answered in a thread"),
        parent=server,
    )

    def __init__(self, bot: MagisteriumBot) -> None:
        self.bot = bot
        self.sign_ins = ServerSignIns(bot.services.servers)
        self.now = utcnow  # an aware clock: today's date in the zone; tests set it

    async def cog_load(self) -> None:
        self.bot.sign_in_listeners.append(self.sign_ins.linked)

    async def cog_unload(self) -> None:
        self.bot.sign_in_listeners.remove(self.sign_ins.linked)

    @property
    def servers(self) -> ServerRegistry:
        return self.bot.services.servers

    @commands.Cog.listener()
    async def on_guild_remove(self, guild: discord.Guild) -> None:
        """The bot was removed (an outage is ``on_guild_unavailable`` instead): the server's
        account and its usage go at once."""
        try:
            removed = await self.servers.unlink(guild.id)
            zone_removed = await self.bot.services.timezones.forget_server(guild.id)
            await self.bot.services.server_settings.forget_server(guild.id)
            await self.bot.services.ask_channels.forget_server(guild.id)
            await self.bot.services.answer_conversations.forget_server(guild.id)
        except StorageUnavailable:
            log.warning("could not delete the account of guild %s: storage down", guild.id)
            return
        if removed:
            log.info("removed from guild %s: deleted its Magisterium account", guild.id)
        if zone_removed:
            log.info("removed from guild %s: deleted its timezone", guild.id)

    @commands.Cog.listener()
    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        try:
            if await self.bot.services.ask_channels.forget_channel(channel.id):
                log.info("ask channel %s deleted in guild %s", channel.id, channel.guild.id)
        except StorageUnavailable:
            log.warning("could not forget deleted ask channel %s: storage down", channel.id)

    @server.command(
        # Translators: a Discord subcommand name (/server link): lowercase, one word.
        name=N_("link"),
        description=N_("Link this server's Magisterium account, for members without their own"),
    )
    async def link(self, interaction: discord.Interaction[MagisteriumBot]) -> None:
        guild_id = _guild_id(interaction)
        oauth = self.bot.services.oauth
        if oauth is not None:  # Sign in with Magisterium, or paste a token instead
            await self.sign_ins.offer(interaction, oauth, self._store_token, guild_id)
            return
        # A modal must be the first response: nothing may be awaited before it.
        await interaction.response.send_modal(ServerTokenModal(self._store_token))

    async def _store_token(
        self, interaction: discord.Interaction[MagisteriumBot], token: SecretStr
    ) -> None:
        guild_id = _guild_id(interaction)
        await defer(interaction, ephemeral=True)
        verdict = await self.bot.services.magisterium.check_token(token)
        allowance = None
        if verdict in STORED:
            note = "rate-limited when linked" if verdict is TokenVerdict.RATE_LIMITED else None
            linked = await self.servers.link(
                guild_id, interaction.user.id, token, status=STORED[verdict], note=note
            )
            allowance = linked.allowance
        log.info("server link in guild %s: %s", guild_id, verdict.value)
        await interaction.followup.send(embed=verdict_embed(verdict, allowance), ephemeral=True)

    @server.command(
        # Translators: a Discord subcommand name (/server quota): lowercase, one word.
        name=N_("quota"),
        description=N_("Set each member's hourly allowance on this server's account"),
    )
    @app_commands.rename(
        # Translators: a Discord option name (lowercase, no spaces): requests an hour.
        per_hour=N_("per_hour"),
        # Translators: a Discord option name (lowercase, no spaces): /ask questions an hour.
        qa_per_hour=N_("qa_per_hour"),
    )
    @app_commands.describe(
        per_hour=N_("Requests an hour per member, every kind (0 turns the account off)"),
        qa_per_hour=N_("How many of them may be `/ask` questions (0 turns `/ask` off)"),
    )
    async def quota(
        self,
        interaction: discord.Interaction[MagisteriumBot],
        per_hour: app_commands.Range[int, 0, MAX_PER_HOUR],
        qa_per_hour: app_commands.Range[int, 0, MAX_QA_PER_HOUR],
    ) -> None:
        guild_id = _guild_id(interaction)
        await defer(interaction, ephemeral=True)
        allowance = Allowance(per_hour, qa_per_hour)
        if not await self.servers.set_allowance(guild_id, allowance):
            raise NotLinked
        log.info("server quota in guild %s: %d, %d", guild_id, per_hour, qa_per_hour)
        await interaction.followup.send(embed=quota_embed(allowance), ephemeral=True)

    @server.command(
        # Translators: a Discord subcommand name (/server status): lowercase, one word.
        name=N_("status"),
        description=N_("Whether this server's account is linked, its allowances and its use"),
    )
    async def status(self, interaction: discord.Interaction[MagisteriumBot]) -> None:
        guild_id = _guild_id(interaction)
        await defer(interaction, ephemeral=True)
        account = await self.servers.get(guild_id, fresh=True)  # an admin's view: never stale
        usage = await self.bot.services.server_quota.usage(guild_id)
        embed = status_embed(account, usage)
        add_feedback(embed, await self.bot.services.feedback.counts(guild_id))
        add_mentions(embed, await self.bot.services.server_settings.mentions_enabled(guild_id))
        ask_channels.add_ask_channels(
            embed,
            await self.bot.services.ask_channels.of_server(guild_id),
            intent=self.bot.intents.message_content,
        )
        await interaction.followup.send(embed=embed, ephemeral=True)

    @server.command(
        # Translators: a Discord subcommand name (/server unlink): lowercase, one word.
        name=N_("unlink"),
        description=N_("Delete this server's Magisterium account and its usage counts"),
    )
    async def unlink(self, interaction: discord.Interaction[MagisteriumBot]) -> None:
        guild_id = _guild_id(interaction)
        await defer(interaction, ephemeral=True)
        was_linked = await self.servers.unlink(guild_id)
        log.info("server unlink in guild %s", guild_id)
        await interaction.followup.send(
            embed=notice_embed(*unlinked(was_linked=was_linked)), ephemeral=True
        )

    @server.command(
        # Translators: a Discord subcommand name (/server mentions): lowercase, one word.
        name=N_("mentions"),
        # Translators: /server mentions' description, at most 100 characters.
        description=N_("Whether a message that mentions the bot here is answered as a question"),
    )
    # Translators: a Discord option name (lowercase, one word): true/false, on or off.
    @app_commands.rename(enabled=N_("enabled"))
    @app_commands.describe(
        enabled=N_("True: mentions with a question are answered (the default); False: ignored")
    )
    async def mentions(
        self, interaction: discord.Interaction[MagisteriumBot], enabled: bool
    ) -> None:
        guild_id = _guild_id(interaction)
        await defer(interaction, ephemeral=True)
        await self.bot.services.server_settings.set_mentions(guild_id, enabled)
        log.info("server mentions in guild %s: %s", guild_id, "on" if enabled else "off")
        await interaction.followup.send(embed=mentions_embed(enabled), ephemeral=True)

    @askchannel.command(
        # Translators: a Discord subcommand name (/server askchannel set): lowercase, one word.
        name=N_("set"),
        # Translators: /server askchannel set's description, at most 100 characters.
        description=N_("Make every new message or forum post in a channel a question"),
    )
    # Translators: a Discord option name (lowercase, one word): which channel.
    @app_commands.rename(channel=N_("channel"))
    @app_commands.describe(channel=N_("A text or forum channel"))
    async def askchannel_set(
        self,
        interaction: discord.Interaction[MagisteriumBot],
        channel: discord.TextChannel | discord.ForumChannel,
    ) -> None:
        guild_id = _guild_id(interaction)
        if not self.bot.intents.message_content:
            raise ask_channels.NoMessageContent
        guild = interaction.guild
        assert guild is not None and guild.me is not None  # a server command, in its cache
        ask_channels.check_permissions(channel, guild.me)
        await defer(interaction, ephemeral=True)
        kind = ask_channels.kind_of(channel)
        try:
            await self.bot.services.ask_channels.set(guild_id, channel.id, kind)
        except TooManyAskChannels:
            raise ask_channels.TooMany from None
        log.info("ask channel %s (%s) set in guild %s", channel.id, kind.value, guild_id)
        await interaction.followup.send(embed=ask_channels.set_embed(channel), ephemeral=True)

    @askchannel.command(
        # Translators: a Discord subcommand name (/server askchannel off): lowercase, one word.
        name=N_("off"),
        # Translators: /server askchannel off's description, at most 100 characters.
        description=N_("Stop a channel's messages being questions"),
    )
    # Translators: a Discord option name (lowercase, one word): which channel.
    @app_commands.rename(channel=N_("channel"))
    @app_commands.describe(channel=N_("The ask channel to turn off"))
    async def askchannel_off(
        self,
        interaction: discord.Interaction[MagisteriumBot],
        channel: discord.TextChannel | discord.ForumChannel,
    ) -> None:
        guild_id = _guild_id(interaction)
        await defer(interaction, ephemeral=True)
        was_on = await self.bot.services.ask_channels.off(guild_id, channel.id)
        log.info("ask channel %s off in guild %s", channel.id, guild_id)
        embed = ask_channels.off_embed(channel, was_on=was_on)
        await interaction.followup.send(embed=embed, ephemeral=True)

    @server.command(
        # Translators: a Discord subcommand name (/server timezone): lowercase, one word.
        name=N_("timezone"),
        description=N_("This server's timezone: the day “today” is for members who set none"),
    )
    # Translators: a Discord option name (lowercase, one word): a timezone.
    @app_commands.rename(zone=N_("zone"))
    # Translators: keep the example timezones as they are (IANA names).
    @app_commands.describe(
        zone=N_("A timezone such as Europe/Rome, or Automatic; empty: show the server's")
    )
    async def timezone(
        self,
        interaction: discord.Interaction[MagisteriumBot],
        zone: app_commands.Range[str, 1, MAX_LENGTH] | None = None,
    ) -> None:
        guild_id, timezones = _guild_id(interaction), self.bot.services.timezones

        async def save(chosen: str | None) -> None:
            await timezones.set_server(guild_id, chosen)
            log.info("server timezone in guild %s: %s", guild_id, chosen or "automatic")

        async def resolve() -> ResolvedZone:
            return await timezones.resolve(None, guild_id)

        await answer_zone(interaction, zone, SERVER, save=save, resolve=resolve, now=self.now())

    @timezone.autocomplete("zone")
    async def zone_autocomplete(
        self, interaction: discord.Interaction[MagisteriumBot], current: str
    ) -> list[app_commands.Choice[str]]:
        return zone_choices(current, automatic=_(SERVER.choice))
