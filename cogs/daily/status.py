"""How /daily set and /daily status describe a schedule: times in its zone, in UTC, and as a
Discord timestamp (which each reader sees in their own time); in the admin's language."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from types import MappingProxyType
from zoneinfo import ZoneInfo

import discord

from bot.daily import Schedule, ScheduleStatus, next_post
from bot.daily.schedule import Slotted
from bot.dates import long_date
from bot.i18n import LANGUAGES, N_, _, catalogue_locale
from bot.render.embeds import fit_embed
from bot.render.look import BRAND, NOTICE, footer_text
from cogs.daily.reasons import shown

STATUS_LABELS: Mapping[ScheduleStatus, str] = MappingProxyType(
    {
        # Translators: a daily post's state in /daily status, after its feed's name.
        ScheduleStatus.ACTIVE: N_("✅ active"),
        # Translators: a daily post's state: waiting for a working Magisterium token.
        ScheduleStatus.PAUSED: N_("⏸️ paused"),
        # Translators: a daily post's state: an admin must run /daily set again.
        ScheduleStatus.DISABLED: N_("⛔ stopped"),
    }
)
NO_SCHEDULES = N_("No daily posts are set up in this server. Start one with `/daily set`.")
DAILY_POSTS = N_("Daily posts")


def when(instant: dt.datetime, zone_name: str) -> str:
    """``Tuesday 1 December 2026, 07:00 Europe/Berlin (06:00 UTC) · <t:…:R>``."""
    local = instant.astimezone(ZoneInfo(zone_name))
    utc = instant.astimezone(dt.UTC)
    # Translators: when a daily post goes out: {date} is the long date, {time} the 24-hour
    # local time (07:00), {zone} an IANA timezone (Europe/Berlin), {utc_time} the same
    # instant in UTC, {relative} a Discord timestamp each reader sees as "in 3 hours".
    return _("{date}, {time} {zone} ({utc_time} UTC) · {relative}").format(
        date=long_date(local.date()),
        time=f"{local:%H:%M}",
        zone=zone_name,
        utc_time=f"{utc:%H:%M}",
        relative=discord.utils.format_dt(instant, "R"),
    )


def language_name(locale: str | None, server_locale: object) -> str:
    """The language a schedule posts in: its own choice, or the server's (named)."""
    if locale is not None:
        return LANGUAGES.get(locale, locale)
    server = LANGUAGES[catalogue_locale(server_locale)]
    # Translators: the language daily posts use when none was chosen; {language} is the
    # server's language as it names itself ("Deutsch").
    return _("the server's language ({language})").format(language=server)


def _where(schedule: Schedule) -> str:
    values = {
        "channel": f"<#{schedule.channel_id}>",
        "time": f"{schedule.post_time:%H:%M}",
        "zone": schedule.timezone,
        "role": f"<@&{schedule.role_id}>",
    }
    if schedule.role_id:
        # Translators: {channel} is a channel mention, {time} a 24-hour time, {zone} an IANA
        # timezone, {role} a role mention.
        return _("Posts in {channel} every day at {time} ({zone}), pinging {role}.").format(
            **values
        )
    return _("Posts in {channel} every day at {time} ({zone}).").format(**values)


def _last_post(schedule: Schedule) -> str:
    if schedule.last_posted_at is None or schedule.last_posted_date is None:
        return _("**Last post:** none yet")
    values = {
        "date": long_date(schedule.last_posted_date),
        "time": discord.utils.format_dt(schedule.last_posted_at, "f"),
        "link": (
            f"https://discord.com/channels/{schedule.guild_id}/"
            f"{schedule.channel_id}/{schedule.last_message_id}"
        ),
    }
    if schedule.last_message_id:
        # Translators: {date} is the long date of the day posted, {time} a Discord timestamp
        # of when, {link} the message's address: "[open](…)" is a Markdown link, keep it.
        return _("**Last post:** {date} ({time}) — [open]({link})").format(**values)
    return _("**Last post:** {date} ({time})").format(**values)


def _posts_with(schedule: Schedule) -> str:
    if schedule.on_shared_token:
        return _("**Posts with:** the bot's shared Magisterium account")
    if schedule.owner_id:
        # Translators: {user} is a mention of the admin whose Magisterium account is used.
        return _("**Posts with:** {user}'s Magisterium account").format(
            user=f"<@{schedule.owner_id}>"
        )
    return _("**Posts with:** nobody")


def next_or_why(schedule: Slotted, now: dt.datetime, *, grace: dt.timedelta) -> str:
    """A status line of a server's or a person's schedule: its next post, or why it waits."""
    if schedule.status is ScheduleStatus.ACTIVE:
        upcoming = next_post(schedule, now, posted_through=schedule.last_posted_date, grace=grace)
        # Translators: {when} is the date and time of the next daily post.
        return _("**Next post:** {when}").format(when=when(upcoming, schedule.timezone))
    reason = shown(schedule.status_reason) if schedule.status_reason else _("unknown")
    # Translators: why a daily post is paused or stopped; {reason} is a sentence.
    return _("**Why:** {reason}").format(reason=reason)


def last_error_lines(error: str | None, at: dt.datetime | None) -> list[str]:
    """The status line of a schedule's last error, if it had one."""
    if not error or not at:
        return []
    # Translators: {time} is a Discord timestamp, {error} a sentence saying what failed.
    text = _("**Last error:** {time} — {error}")
    return [text.format(time=discord.utils.format_dt(at, "f"), error=shown(error))]


def describe(
    schedule: Schedule, now: dt.datetime, *, grace: dt.timedelta, server_locale: object = None
) -> str:
    """The lines of one schedule in /daily status."""
    lines = [_where(schedule), next_or_why(schedule, now, grace=grace), _last_post(schedule)]
    lines += last_error_lines(schedule.last_error, schedule.last_error_at)
    lines.append(_posts_with(schedule))
    language = language_name(schedule.locale, server_locale)
    # Translators: the language a daily post is written in.
    lines.append(_("**Language:** {language}").format(language=language))
    return "\n".join(lines)


def status_embed(
    schedules: list[Schedule],
    now: dt.datetime,
    *,
    grace: dt.timedelta,
    server_locale: object = None,
) -> discord.Embed:
    """The server's schedules; ``server_locale`` (its ``preferred_locale``) names the
    language of those that did not choose one."""
    if not schedules:
        embed = discord.Embed(title=_(DAILY_POSTS), description=_(NO_SCHEDULES), colour=NOTICE)
        return fit_embed(embed)
    embed = discord.Embed(title=_(DAILY_POSTS), colour=BRAND)
    for schedule in schedules:
        # Translators: a schedule's heading in /daily status: {feed} is "Saints of the day" or
        # "Mass readings", {status} its state ("✅ active").
        name = _("{feed} — {status}").format(
            feed=_(schedule.feed.label), status=_(STATUS_LABELS[schedule.status])
        )
        value = describe(schedule, now, grace=grace, server_locale=server_locale)
        embed.add_field(name=name, value=value, inline=False)
    embed.set_footer(text=footer_text("daily"))
    return fit_embed(embed)
