"""/daily set|off|status|preview, and the loop that calls ``tick(now)`` every minute."""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any
from zoneinfo import ZoneInfo

import discord
from discord import app_commands
from discord.ext import commands, tasks

from bot.daily import Feed, ScheduleStore, find_zone, parse_time, suggest_zones
from bot.daily.clock import local_date, next_post
from bot.render.embeds import fit_embed, notice_embed
from bot.render.look import BRAND, footer_text
from bot.respond import defer
from bot.storage import StorageUnavailable
from bot.user_errors import UserFacingError
from cogs.daily.checks import POSTABLE_TYPES, describe_missing, missing_permissions, role_problem
from cogs.daily.post import DAY_BUTTONS, build_post
from cogs.daily.scheduler import DailyScheduler, SchedulerConfig, TickReport
from cogs.daily.status import status_embed, when

if TYPE_CHECKING:
    from bot.app import MagisteriumBot

log = logging.getLogger(__name__)

FEED_CHOICES = [
    app_commands.Choice(name="Saints of the day (Roman Martyrology)", value=Feed.SAINTS.value),
    app_commands.Choice(name="Mass readings", value=Feed.READINGS.value),
]
SERVER_ONLY = app_commands.AppCommandContext(guild=True, dm_channel=False, private_channel=False)
SERVER_INSTALL = app_commands.AppInstallationType(guild=True, user=False)


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
        self, interaction: discord.Interaction[Any], value: Any, /
    ) -> app_commands.AppCommandChannel | app_commands.AppCommandThread:
        return value  # type: ignore[no-any-return]


def _guild(interaction: discord.Interaction[Any]) -> discord.Guild:
    if interaction.guild is None:  # a server-only command; only a stale client gets here
        raise UserFacingError("Servers only", "`/daily` sets up posts in a server's channel.")
    return interaction.guild


class DailyCog(commands.Cog):
    daily = app_commands.Group(
        name="daily",
        description="Post the saints of the day or the Mass readings in a channel every day",
        default_permissions=discord.Permissions(manage_guild=True),
        allowed_contexts=SERVER_ONLY,
        allowed_installs=SERVER_INSTALL,
    )

    def __init__(
        self,
        bot: MagisteriumBot,
        *,
        now: Callable[[], dt.datetime] = discord.utils.utcnow,
    ) -> None:
        self.bot = bot
        self.now = now  # the clock of the commands; the scheduler gets `now` from tick()
        settings = bot.settings
        self.config = SchedulerConfig(
            grace=dt.timedelta(hours=settings.daily_grace_hours),
            concurrency=settings.daily_post_concurrency,
        )
        self.scheduler = DailyScheduler(bot, self.store, config=self.config)

    @property
    def store(self) -> ScheduleStore:
        return self.bot.services.schedules

    async def cog_load(self) -> None:
        self.every_minute.start()

    async def cog_unload(self) -> None:
        self.every_minute.cancel()

    # -- the scheduler

    async def tick(self, now: dt.datetime) -> TickReport:
        """Post every schedule due at ``now`` (aware). The loop calls it each minute."""
        return await self.scheduler.tick(now)

    @tasks.loop(minutes=1)
    async def every_minute(self) -> None:
        try:
            await self.tick(discord.utils.utcnow())
        except Exception:  # the loop must survive anything one tick meets
            log.exception("daily posts: tick failed; next tick in a minute")

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

    @daily.command(name="set", description="Post a feed in a channel every day at a local time")
    @app_commands.describe(
        feed="What to post",
        channel="Where to post it (a text or announcement channel, or a thread)",
        time="Local time, 24-hour HH:MM — for example 07:00",
        timezone="Your timezone, for example Europe/Berlin or America/New_York",
        role="A role to ping with each post (optional)",
    )
    @app_commands.choices(feed=FEED_CHOICES)
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
    ) -> None:
        guild = _guild(interaction)
        chosen_feed = Feed(feed)
        post_time = parse_time(time)
        if post_time is None:
            raise UserFacingError(
                "That time is not HH:MM",
                f"`{discord.utils.escape_markdown(time)}` is not a time I can read. Use the "
                "24-hour clock, for example `07:00` or `18:30`.",
            )
        zone = find_zone(timezone)
        if zone is None:
            close = suggest_zones(timezone, limit=3)
            hint = f" Did you mean {', '.join(f'`{z}`' for z in close)}?" if close else ""
            raise UserFacingError(
                "Unknown timezone",
                "Pick a timezone from the list, such as `Europe/Berlin` or `America/New_York`."
                + hint,
            )
        target = guild.get_channel_or_thread(channel.id)
        if not isinstance(target, discord.TextChannel | discord.Thread):
            raise UserFacingError(
                "I cannot see that channel",
                f"Give me **View Channel** in <#{channel.id}>, or pick another channel.",
            )
        missing = missing_permissions(target, guild.me)
        if missing:
            raise UserFacingError(
                "I cannot post there yet",
                describe_missing(target, missing) + " Then run this again.",
            )
        if role is not None and (problem := role_problem(role, guild.me)) is not None:
            raise UserFacingError("That role cannot be pinged", problem)
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
        )
        upcoming = next_post(schedule, now, grace=self.config.grace)
        ping = f", pinging {role.mention}" if role else ""
        embed = discord.Embed(
            title=f"Daily {chosen_feed.label.lower()} set",
            description=(
                f"Every day at **{post_time:%H:%M}** ({zone}) in {target.mention}{ping}.\n"
                f"**First post:** {when(upcoming, zone)}"
            ),
            colour=BRAND,
        )
        account = "your Magisterium account" if source == "own" else "the bot's shared account"
        embed.set_footer(text=footer_text("daily") + f" · posts with {account}")
        await interaction.response.send_message(embed=fit_embed(embed), ephemeral=True)

    @set_schedule.autocomplete("timezone")
    async def timezone_autocomplete(
        self, interaction: discord.Interaction[MagisteriumBot], current: str
    ) -> list[app_commands.Choice[str]]:
        return [app_commands.Choice(name=z, value=z) for z in suggest_zones(current)]

    @daily.command(name="off", description="Stop a daily post")
    @app_commands.describe(feed="Which daily post to stop")
    @app_commands.choices(feed=FEED_CHOICES)
    async def off(self, interaction: discord.Interaction[MagisteriumBot], feed: str) -> None:
        guild = _guild(interaction)
        chosen = Feed(feed)
        if await self.store.remove(guild.id, chosen):
            embed = notice_embed(
                f"Daily {chosen.label.lower()} stopped",
                "Nothing more will be posted. `/daily set` starts it again.",
            )
        else:
            embed = notice_embed(
                "Nothing to stop", f"This server has no daily {chosen.label.lower()} post."
            )
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @daily.command(name="status", description="This server's daily posts: next, last, problems")
    async def status(self, interaction: discord.Interaction[MagisteriumBot]) -> None:
        guild = _guild(interaction)
        schedules = await self.store.of_guild(guild.id)
        embed = status_embed(schedules, self.now(), grace=self.config.grace)
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @daily.command(name="preview", description="See today's daily post now, just for you")
    @app_commands.describe(feed="Which daily post to preview")
    @app_commands.choices(feed=FEED_CHOICES)
    async def preview(self, interaction: discord.Interaction[MagisteriumBot], feed: str) -> None:
        guild = _guild(interaction)
        chosen = Feed(feed)
        schedule = await self.store.get(guild.id, chosen)
        zone = schedule.timezone if schedule else "UTC"
        day = local_date(self.now(), ZoneInfo(zone))
        await defer(interaction, ephemeral=True)
        button = DAY_BUTTONS[chosen]
        result = await button.feed.fetch(self.bot, interaction.user.id, day)
        role = guild.get_role(schedule.role_id) if schedule and schedule.role_id else None
        post = build_post(chosen, day, result, role=role)
        if schedule is None:
            header = "**Preview** — not scheduled yet; `/daily set` posts this every day."
        else:
            header = (
                f"**Preview** — what <#{schedule.channel_id}> gets at "
                f"{schedule.post_time:%H:%M} ({zone})"
                + (f", pinging {role.mention}" if role else "")
                + "."
            )
        await interaction.followup.send(
            content=header,
            embeds=post.embeds,
            view=post.view or discord.utils.MISSING,
            ephemeral=True,
            allowed_mentions=discord.AllowedMentions.none(),
        )
