"""How /daily set and /daily status describe a schedule: times in its zone, in UTC, and as a
Discord timestamp (which each reader sees in their own time)."""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

import discord

from bot.daily import Schedule, ScheduleStatus, next_post
from bot.render.embeds import fit_embed
from bot.render.look import BRAND, NOTICE, footer_text
from cogs._dates import long_date

STATUS_LABELS = {
    ScheduleStatus.ACTIVE: "✅ active",
    ScheduleStatus.PAUSED: "⏸️ paused",
    ScheduleStatus.DISABLED: "⛔ stopped",
}
NO_SCHEDULES = "No daily posts are set up in this server. Start one with `/daily set`."


def when(instant: dt.datetime, zone_name: str) -> str:
    """``Tuesday 1 December 2026, 07:00 Europe/Berlin (06:00 UTC) · <t:…:R>``."""
    local = instant.astimezone(ZoneInfo(zone_name))
    utc = instant.astimezone(dt.UTC)
    return (
        f"{long_date(local.date())}, {local:%H:%M} {zone_name} ({utc:%H:%M} UTC) · "
        f"{discord.utils.format_dt(instant, 'R')}"
    )


def describe(schedule: Schedule, now: dt.datetime, *, grace: dt.timedelta) -> str:
    """The lines of one schedule in /daily status."""
    lines = [
        f"Posts in <#{schedule.channel_id}> every day at {schedule.post_time:%H:%M} "
        f"({schedule.timezone})"
        + (f", pinging <@&{schedule.role_id}>" if schedule.role_id else "")
        + ".",
    ]
    if schedule.status is ScheduleStatus.ACTIVE:
        upcoming = next_post(schedule, now, posted_through=schedule.last_posted_date, grace=grace)
        lines.append(f"**Next post:** {when(upcoming, schedule.timezone)}")
    else:
        lines.append(f"**Why:** {schedule.status_reason or 'unknown'}")
    if schedule.last_posted_at is not None and schedule.last_posted_date is not None:
        link = (
            f" — [open](https://discord.com/channels/{schedule.guild_id}/"
            f"{schedule.channel_id}/{schedule.last_message_id})"
            if schedule.last_message_id
            else ""
        )
        lines.append(
            f"**Last post:** {long_date(schedule.last_posted_date)} "
            f"({discord.utils.format_dt(schedule.last_posted_at, 'f')}){link}"
        )
    else:
        lines.append("**Last post:** none yet")
    if schedule.last_error and schedule.last_error_at:
        lines.append(
            f"**Last error:** {discord.utils.format_dt(schedule.last_error_at, 'f')} — "
            f"{schedule.last_error}"
        )
    account = (
        "the bot's shared Magisterium account"
        if schedule.on_shared_token
        else (f"<@{schedule.owner_id}>'s Magisterium account" if schedule.owner_id else "nobody")
    )
    lines.append(f"**Posts with:** {account}")
    return "\n".join(lines)


def status_embed(
    schedules: list[Schedule], now: dt.datetime, *, grace: dt.timedelta
) -> discord.Embed:
    if not schedules:
        embed = discord.Embed(title="Daily posts", description=NO_SCHEDULES, colour=NOTICE)
        return fit_embed(embed)
    embed = discord.Embed(title="Daily posts", colour=BRAND)
    for schedule in schedules:
        embed.add_field(
            name=f"{schedule.feed.label} — {STATUS_LABELS[schedule.status]}",
            value=describe(schedule, now, grace=grace),
            inline=False,
        )
    embed.set_footer(text=footer_text("daily"))
    return fit_embed(embed)
