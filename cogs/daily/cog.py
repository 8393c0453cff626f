"""/daily set|off|status|preview, and the loop that calls ``tick(now)`` every minute."""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any
from zoneinfo import ZoneInfo

import discord
from discord import app_commands
from discord.ext import commands, tasks

from bot.app.lifecycle import DAILY_TICK_TASK
from bot.app.respond import defer
from bot.daily import Feed, ScheduleStore
from bot.daily.planner import MINUTE, SchedulerConfig, TickReport, minute_to_tick, seconds_until
from bot.daily.post_times import local_date, next_post
from bot.i18n import N_, _, using_locale
from bot.services.origin import Origin
from bot.services.user_errors import UserFacingError
from bot.storage import StorageUnavailable
from cogs._zones import zone as checked_zone
from cogs._zones import zone_choices
from cogs.daily import inputs
from cogs.daily.checks import POSTABLE_TYPES
from cogs.daily.post import DAY_BUTTONS, build_post, post_locale
from cogs.daily.replies import (
    feed_choices,
    language_choices,
    off_embed,
    preview_header,
    set_embed,
)
from cogs.daily.sender import DailySender
from cogs.daily.status import status_embed

if TYPE_CHECKING:
    from bot.app import MagisteriumBot

log = logging.getLogger(__name__)


class PostableChannel(app_commands.Transformer[Any]):
    """A text or announcement channel, or a thread, as Discord sent it (id, name, type): the
    command checks whether the bot can see it, so it can say so instead of failing."""

    @property
    def type(self) -> discord.AppCommandOptionType:
        return discord.AppCommandOptionType.channel

    @property
    def channel_types(self) -> list[discord.ChannelType]:
        return list(POSTABLE_TYPES)

    async def transform(
        self, interaction: discord.Interaction[MagisteriumBot], value: Any, /
    ) -> app_commands.AppCommandChannel | app_commands.AppCommandThread:
        return value  # type: ignore[no-any-return]


def _guild(interaction: discord.Interaction[MagisteriumBot]) -> discord.Guild:
    if interaction.guild is None:  # a server-only command; only a stale client gets here
        raise UserFacingError(_("Servers only"), _("`/daily` sets up posts in a server's channel."))
    return interaction.guild


class DailyCog(commands.Cog):
    daily = app_commands.Group(
        # Translators: a Discord slash-command name: lowercase, one word, at most 32 characters.
        name=N_("daily"),
        # Translators: /daily's description, at most 100 characters.
        description=N_("Post the saints of the day or the Mass readings in a channel every day"),
        default_permissions=discord.Permissions(manage_guild=True),
        # Servers only, installed to a server: made here, not shared through the module, since
        # discord.py's context decorators change these objects in place.
        allowed_contexts=app_commands.AppCommandContext(
            guild=True, dm_channel=False, private_channel=False
        ),
        allowed_installs=app_commands.AppInstallationType(guild=True, user=False),
    )

    def __init__(
        self,
        bot: MagisteriumBot,
        *,
        now: Callable[[], dt.datetime] = discord.utils.utcnow,
    ) -> None:
        self.bot = bot
        self.now = now  # the wall clock of the commands and of the loop; tick(now) takes any
        settings = bot.settings
        self.config = SchedulerConfig(
            grace=dt.timedelta(hours=settings.daily_grace_hours),
            concurrency=settings.daily_post_concurrency,
            posts_per_second=settings.daily_posts_per_second,
        )
        self.sender = DailySender(bot, self.store, config=self.config)
        self._ticked: dt.datetime | None = None  # the minute of the loop's last tick

    @property
    def store(self) -> ScheduleStore:
        return self.bot.services.schedules

    async def cog_load(self) -> None:
        self.every_minute.start()

    async def cog_unload(self) -> None:
        self.every_minute.cancel()

    # -- the daily posts

    async def tick(self, now: dt.datetime) -> TickReport:
        """Post every schedule due at ``now`` (aware). The loop calls it each minute."""
        return await self.sender.tick(now)

    # No interval of the loop's own: it would be paced on the real clock whatever `self.now`
    # says. The body ticks for the current whole minute, then waits for the next one.
    @tasks.loop(seconds=0)
    async def every_minute(self) -> None:
        minute = minute_to_tick(self._ticked, self.now())
        self._ticked = minute
        try:
            if not self.bot.draining:  # a restarting bot leaves the next tick to its successor
                await asyncio.create_task(self.tick(minute), name=DAILY_TICK_TASK)
        except Exception:  # the loop must survive anything one tick meets
            log.exception("daily posts: tick failed; next tick in a minute")
        await asyncio.sleep(seconds_until(minute + MINUTE, self.now()))

    @every_minute.before_loop
    async def _until_ready(self) -> None:
        await self.bot.wait_until_ready()

    @commands.Cog.listener()
    async def on_guild_remove(self, guild: discord.Guild) -> None:
        """The bot was removed (an outage is ``on_guild_unavailable`` instead): forget it."""
        try:
            removed = await self.store.remove_guild(guild.id)
        except StorageUnavailable:
            log.warning("could not delete the daily posts of guild %s: storage down", guild.id)
            return
        if removed:
            log.info("removed from guild %s: deleted %d daily schedules", guild.id, removed)

    # -- /daily

    @daily.command(
        # Translators: a Discord subcommand name (/daily set): lowercase, one word.
        name=N_("set"),
        description=N_("Post a feed in a channel every day at a local time"),
    )
    @app_commands.rename(
        # Translators: a Discord option name (lowercase, one word): what to post.
        feed=N_("feed"),
        # Translators: a Discord option name (lowercase, one word): where to post.
        channel=N_("channel"),
        # Translators: a Discord option name (lowercase, one word): the time of day to post.
        time=N_("time"),
        # Translators: a Discord option name (lowercase, one word).
        timezone=N_("timezone"),
        # Translators: a Discord option name (lowercase, one word): a server role to ping.
        role=N_("role"),
        # Translators: a Discord option name (lowercase, one word): the posts' language.
        language=N_("language"),
    )
    @app_commands.describe(
        feed=N_("What to post"),
        channel=N_("Where to post it (a text or announcement channel, or a thread)"),
        # Translators: keep the example time as it is: the bot reads HH:MM.
        time=N_("Local time, 24-hour HH:MM — for example 07:00"),
        # Translators: keep the example timezones as they are (IANA names).
        timezone=N_("Your timezone, for example Europe/Berlin or America/New_York"),
        role=N_("A role to ping with each post (optional)"),
        language=N_("The language of the posts (default: the server's language)"),
    )
    @app_commands.choices(feed=feed_choices(), language=language_choices())
    async def set_schedule(  # noqa: PLR0917 (the options of the command, passed by name)
        self,
        interaction: discord.Interaction[MagisteriumBot],
        feed: str,
        channel: app_commands.Transform[
            app_commands.AppCommandChannel | app_commands.AppCommandThread, PostableChannel
        ],
        time: app_commands.Range[str, 1, 10],
        timezone: app_commands.Range[str, 1, 64],
        role: discord.Role | None = None,
        language: str | None = None,
    ) -> None:
        guild = _guild(interaction)
        chosen_feed = Feed(feed)
        post_time = inputs.post_time(time)
        zone = checked_zone(timezone)
        target = inputs.postable_channel(guild, channel.id)
        inputs.check_role(role, guild.me)
        source = await self.bot.services.chooser.source_for(interaction.user.id)
        now = self.now()
        schedule = await self.store.save(
            guild_id=guild.id,
            feed=chosen_feed,
            channel_id=target.id,
            post_time=post_time,
            timezone=zone,
            role_id=role.id if role else None,
            owner_id=interaction.user.id,
            token_source=source,
            now=now,
            locale=language,
        )
        upcoming = next_post(schedule, now, grace=self.config.grace)
        embed = set_embed(schedule, target, role, upcoming)
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @set_schedule.autocomplete("timezone")
    async def timezone_autocomplete(
        self, interaction: discord.Interaction[MagisteriumBot], current: str
    ) -> list[app_commands.Choice[str]]:
        return zone_choices(current)

    @daily.command(
        # Translators: a Discord subcommand name (/daily off): lowercase, one word.
        name=N_("off"),
        description=N_("Stop a daily post"),
    )
    # Translators: a Discord option name (lowercase, one word): which daily post.
    @app_commands.rename(feed=N_("feed"))
    @app_commands.describe(feed=N_("Which daily post to stop"))
    @app_commands.choices(feed=feed_choices())
    async def off(self, interaction: discord.Interaction[MagisteriumBot], feed: str) -> None:
        guild = _guild(interaction)
        chosen = Feed(feed)
        stopped = await self.store.remove(guild.id, chosen)
        await interaction.response.send_message(
            embed=off_embed(chosen, stopped=stopped), ephemeral=True
        )

    @daily.command(
        # Translators: a Discord subcommand name (/daily status): lowercase, one word.
        name=N_("status"),
        description=N_("This server's daily posts: next, last, problems"),
    )
    async def status(self, interaction: discord.Interaction[MagisteriumBot]) -> None:
        guild = _guild(interaction)
        schedules = await self.store.of_guild(guild.id)
        embed = status_embed(
            schedules, self.now(), grace=self.config.grace, server_locale=guild.preferred_locale
        )
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @daily.command(
        # Translators: a Discord subcommand name (/daily preview): lowercase, one word.
        name=N_("preview"),
        description=N_("See today's daily post now, just for you"),
    )
    # Translators: a Discord option name (lowercase, one word): which daily post.
    @app_commands.rename(feed=N_("feed"))
    @app_commands.describe(feed=N_("Which daily post to preview"))
    @app_commands.choices(feed=feed_choices())
    async def preview(self, interaction: discord.Interaction[MagisteriumBot], feed: str) -> None:
        guild = _guild(interaction)
        chosen = Feed(feed)
        schedule = await self.store.get(guild.id, chosen)
        zone = schedule.timezone if schedule else "UTC"
        day = local_date(self.now(), ZoneInfo(zone))
        await defer(interaction, ephemeral=True)
        button = DAY_BUTTONS[chosen]
        service = self.bot.services.magisterium
        result = await button.feed.fetch(service, Origin.of(interaction), day)
        role = guild.get_role(schedule.role_id) if schedule and schedule.role_id else None
        header = preview_header(schedule, role)  # in the admin's language
        with using_locale(post_locale(schedule, guild)):
            post = build_post(chosen, day, result, role=role)  # in the channel's
        await interaction.followup.send(
            content=header,
            embeds=post.embeds,
            view=post.view or discord.utils.MISSING,
            ephemeral=True,
            allowed_mentions=discord.AllowedMentions.none(),
        )
