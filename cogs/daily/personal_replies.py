"""What /mydaily set, off and status answer, in the person's language."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from types import MappingProxyType

import discord

from bot.daily import Feed
from bot.daily.personal import PersonalSchedule
from bot.dates import long_date
from bot.i18n import LANGUAGES, N_, _
from bot.render.embeds import fit_embed, notice_embed
from bot.render.look import BRAND, NOTICE, footer_text
from cogs.daily.replies import SET_TITLES, STOPPED_TITLES, posts_with_footer
from cogs.daily.status import STATUS_LABELS, last_error_lines, next_or_why, when

NOTHING_TO_STOP: Mapping[Feed, str] = MappingProxyType(
    {
        Feed.SAINTS: N_("You get no daily saints of the day in your DMs."),
        Feed.READINGS: N_("You get no daily Mass readings in your DMs."),
    }
)
# Translators: /mydaily status's title: the daily posts the bot sends to this person's DMs.
MY_DAILY_POSTS = N_("Your daily posts")
NO_SCHEDULES = N_("You get no daily posts in your DMs. Start one with `/mydaily set`.")


def _every_day(schedule: PersonalSchedule) -> str:
    # Translators: {time} is a 24-hour time, {zone} an IANA timezone.
    return _("Every day at **{time}** ({zone}) in your DMs.").format(
        time=f"{schedule.post_time:%H:%M}", zone=schedule.timezone
    )


def _language(schedule: PersonalSchedule) -> str:
    language = LANGUAGES.get(schedule.locale, schedule.locale)
    # Translators: the language a daily post is written in.
    return _("**Language:** {language}").format(language=language)


def set_embed(schedule: PersonalSchedule, upcoming: dt.datetime) -> discord.Embed:
    """/mydaily set's confirmation: when, the first post, the language, whose account."""
    lines = [
        _every_day(schedule),
        # Translators: {when} is the date and time of the first daily post.
        _("**First post:** {when}").format(when=when(upcoming, schedule.timezone)),
        _language(schedule),
    ]
    embed = discord.Embed(
        title=_(SET_TITLES[schedule.feed]), description="\n".join(lines), colour=BRAND
    )
    embed.set_footer(text=posts_with_footer(on_shared_token=schedule.on_shared_token))
    return fit_embed(embed)


def off_embed(feed: Feed, *, stopped: bool) -> discord.Embed:
    if stopped:
        return notice_embed(
            _(STOPPED_TITLES[feed]),
            _("Nothing more will be sent. `/mydaily set` starts it again."),
        )
    return notice_embed(_("Nothing to stop"), _(NOTHING_TO_STOP[feed]))


def _last_post(schedule: PersonalSchedule) -> str:
    if schedule.last_posted_at is None or schedule.last_posted_date is None:
        return _("**Last post:** none yet")
    values = {
        "date": long_date(schedule.last_posted_date),
        "time": discord.utils.format_dt(schedule.last_posted_at, "f"),
        "link": (
            f"https://discord.com/channels/@me/{schedule.dm_channel_id}/{schedule.last_message_id}"
        ),
    }
    if schedule.last_message_id and schedule.dm_channel_id:
        # Translators: {date} is the long date of the day posted, {time} a Discord timestamp
        # of when, {link} the message's address: "[open](…)" is a Markdown link, keep it.
        return _("**Last post:** {date} ({time}) — [open]({link})").format(**values)
    return _("**Last post:** {date} ({time})").format(**values)


def describe(schedule: PersonalSchedule, now: dt.datetime, *, grace: dt.timedelta) -> str:
    """The lines of one schedule in /mydaily status."""
    lines = [_every_day(schedule), next_or_why(schedule, now, grace=grace), _last_post(schedule)]
    lines += last_error_lines(schedule.last_error, schedule.last_error_at)
    if schedule.on_shared_token:
        lines.append(_("**Posts with:** the bot's shared Magisterium account"))
    else:
        lines.append(_("**Posts with:** your Magisterium account"))
    lines.append(_language(schedule))
    return "\n".join(lines)


def status_embed(
    schedules: list[PersonalSchedule], now: dt.datetime, *, grace: dt.timedelta
) -> discord.Embed:
    if not schedules:
        embed = discord.Embed(title=_(MY_DAILY_POSTS), description=_(NO_SCHEDULES), colour=NOTICE)
        return fit_embed(embed)
    embed = discord.Embed(title=_(MY_DAILY_POSTS), colour=BRAND)
    for schedule in schedules:
        # Translators: a schedule's heading in /daily status: {feed} is "Saints of the day" or
        # "Mass readings", {status} its state ("✅ active").
        name = _("{feed} — {status}").format(
            feed=_(schedule.feed.label), status=_(STATUS_LABELS[schedule.status])
        )
        embed.add_field(name=name, value=describe(schedule, now, grace=grace), inline=False)
    embed.set_footer(text=footer_text("daily"))
    return fit_embed(embed)
