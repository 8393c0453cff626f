"""/mydaily set|off|status: the saints of the day or the Mass readings in the person's DMs.

Usable everywhere (a server, the bot's DM, a private channel) and installable to a server or
to the person's own account. The posts themselves go out in the daily tick (``DailyCog.tick``,
``cogs.daily.personal_sender``). Lives in the daily package, not a cog of its own: it shares
the daily inputs, replies and reasons, and no cog imports another.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.app.application import ANY_INSTALL, EVERYWHERE
from bot.daily import Feed, next_post
from bot.daily.personal_store import PersonalScheduleStore
from bot.daily.planner import SchedulerConfig
from bot.i18n import N_, locale_of
from cogs._zones import zone as checked_zone
from cogs._zones import zone_choices
from cogs.daily import inputs
from cogs.daily.personal_replies import off_embed, set_embed, status_embed
from cogs.daily.replies import feed_choices, language_choices

if TYPE_CHECKING:
    from bot.app import MagisteriumBot


class PersonalDailyCog(commands.Cog):
    mydaily = app_commands.Group(
        # Translators: a Discord slash-command name: lowercase, one word, at most 32 characters
        # ("my daily": the daily posts sent to oneself).
        name=N_("mydaily"),
        # Translators: /mydaily's description, at most 100 characters.
        description=N_("Get the saints of the day or the Mass readings in your DMs every day"),
        allowed_contexts=EVERYWHERE,
        allowed_installs=ANY_INSTALL,
    )

    def __init__(
        self,
        bot: MagisteriumBot,
        config: SchedulerConfig,
        *,
        now: Callable[[], dt.datetime] = discord.utils.utcnow,
    ) -> None:
        self.bot = bot
        self.config = config  # the daily tick's: its grace says when the next post is
        self.now = now

    @property
    def store(self) -> PersonalScheduleStore:
        return self.bot.services.personal_schedules

    @mydaily.command(
        # Translators: a Discord subcommand name (/mydaily set): lowercase, one word.
        name=N_("set"),
        description=N_("Get a feed in your DMs every day at your local time"),
    )
    @app_commands.rename(
        # Translators: a Discord option name (lowercase, one word): what to post.
        feed=N_("feed"),
        # Translators: a Discord option name (lowercase, one word): the time of day to post.
        time=N_("time"),
        # Translators: a Discord option name (lowercase, one word).
        timezone=N_("timezone"),
        # Translators: a Discord option name (lowercase, one word): the posts' language.
        language=N_("language"),
    )
    @app_commands.describe(
        feed=N_("What to send you"),
        # Translators: keep the example time as it is: the bot reads HH:MM.
        time=N_("Local time, 24-hour HH:MM — for example 07:00"),
        # Translators: keep the example timezones as they are (IANA names).
        timezone=N_("Your timezone, for example Europe/Berlin or America/New_York"),
        language=N_("The language of the posts (default: your Discord language)"),
    )
    @app_commands.choices(feed=feed_choices(), language=language_choices())
    async def set_schedule(
        self,
        interaction: discord.Interaction[MagisteriumBot],
        feed: str,
        time: app_commands.Range[str, 1, 10],
        timezone: app_commands.Range[str, 1, 64],
        language: str | None = None,
    ) -> None:
        chosen_feed = Feed(feed)
        post_time = inputs.post_time(time)
        zone = checked_zone(timezone)
        # Refuses, saying how to link, when neither their own token nor the shared one exists.
        await self.bot.services.chooser.source_for(interaction.user.id)
        in_bot_dm = interaction.context.dm_channel
        now = self.now()
        schedule = await self.store.save(
            user_id=interaction.user.id,
            feed=chosen_feed,
            post_time=post_time,
            timezone=zone,
            locale=language or locale_of(interaction),
            now=now,
            dm_channel_id=interaction.channel_id if in_bot_dm else None,
        )
        upcoming = next_post(schedule, now, grace=self.config.grace)
        await interaction.response.send_message(embed=set_embed(schedule, upcoming), ephemeral=True)

    @set_schedule.autocomplete("timezone")
    async def timezone_autocomplete(
        self, interaction: discord.Interaction[MagisteriumBot], current: str
    ) -> list[app_commands.Choice[str]]:
        return zone_choices(current)

    @mydaily.command(
        # Translators: a Discord subcommand name (/mydaily off): lowercase, one word.
        name=N_("off"),
        description=N_("Stop a daily post in your DMs"),
    )
    # Translators: a Discord option name (lowercase, one word): which daily post.
    @app_commands.rename(feed=N_("feed"))
    @app_commands.describe(feed=N_("Which daily post to stop"))
    @app_commands.choices(feed=feed_choices())
    async def off(self, interaction: discord.Interaction[MagisteriumBot], feed: str) -> None:
        chosen = Feed(feed)
        stopped = await self.store.remove(interaction.user.id, chosen)
        await interaction.response.send_message(
            embed=off_embed(chosen, stopped=stopped), ephemeral=True
        )

    @mydaily.command(
        # Translators: a Discord subcommand name (/mydaily status): lowercase, one word.
        name=N_("status"),
        description=N_("Your daily posts in your DMs: next, last, problems"),
    )
    async def status(self, interaction: discord.Interaction[MagisteriumBot]) -> None:
        schedules = await self.store.of_user(interaction.user.id)
        embed = status_embed(schedules, self.now(), grace=self.config.grace)
        await interaction.response.send_message(embed=embed, ephemeral=True)
