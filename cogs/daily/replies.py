"""What /daily set, off and preview answer an admin, in the admin's language."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from types import MappingProxyType

import discord
from discord import app_commands

from bot.daily import Feed, Schedule
from bot.i18n import LANGUAGES, N_, _
from bot.render.embeds import fit_embed, notice_embed
from bot.render.look import BRAND, footer_text
from cogs.daily.status import when


# The choices are made afresh for each command that offers them: discord.py wants a list and
# sets attributes on each Choice (its locale string), so none is shared through the module.
def feed_choices() -> list[app_commands.Choice[str]]:
    """The feed option's choices, for /daily and /mydaily."""
    return [
        app_commands.Choice(
            # Translators: a choice of /daily's feed option; the Roman Martyrology is the Church's
            # official list of saints by day (use its usual name in your language).
            name=N_("Saints of the day (Roman Martyrology)"),
            value=Feed.SAINTS.value,
        ),
        # Translators: a choice of /daily's feed option: the readings of the day's Mass.
        app_commands.Choice(name=N_("Mass readings"), value=Feed.READINGS.value),
    ]


def language_choices() -> list[app_commands.Choice[str]]:
    """Each language by its own name, whatever the admin's: the name a reader of it looks
    for."""
    return [app_commands.Choice(name=name, value=code) for code, name in LANGUAGES.items()]


SET_TITLES: Mapping[Feed, str] = MappingProxyType(
    {
        # Translators: /daily set's confirmation title.
        Feed.SAINTS: N_("Daily saints of the day set"),
        # Translators: /daily set's confirmation title ("Mass readings": the readings of the
        # Mass, the name the feed has everywhere else).
        Feed.READINGS: N_("Daily Mass readings set"),
    }
)
STOPPED_TITLES: Mapping[Feed, str] = MappingProxyType(
    {
        Feed.SAINTS: N_("Daily saints of the day stopped"),
        Feed.READINGS: N_("Daily Mass readings stopped"),
    }
)
NOTHING_TO_STOP: Mapping[Feed, str] = MappingProxyType(
    {
        Feed.SAINTS: N_("This server has no daily saints of the day post."),
        Feed.READINGS: N_("This server has no daily Mass readings post."),
    }
)


def set_embed(
    schedule: Schedule,
    channel: discord.TextChannel | discord.Thread,
    role: discord.Role | None,
    upcoming: dt.datetime,
) -> discord.Embed:
    """/daily set's confirmation: when, where, whom it pings, the first post."""
    values = {
        "time": f"{schedule.post_time:%H:%M}",
        "zone": schedule.timezone,
        "channel": channel.mention,
        "role": role.mention if role else "",
    }
    if role is not None:
        # Translators: {time} is a 24-hour time, {zone} an IANA timezone, {channel} a channel
        # mention, {role} a role mention.
        where = _("Every day at **{time}** ({zone}) in {channel}, pinging {role}.")
    else:
        where = _("Every day at **{time}** ({zone}) in {channel}.")
    lines = [where.format(**values)]
    # Translators: {when} is the date and time of the first daily post.
    lines.append(_("**First post:** {when}").format(when=when(upcoming, schedule.timezone)))
    if schedule.locale is not None:
        language = LANGUAGES.get(schedule.locale, schedule.locale)
        # Translators: the language a daily post is written in.
        lines.append(_("**Language:** {language}").format(language=language))
    embed = discord.Embed(
        title=_(SET_TITLES[schedule.feed]), description="\n".join(lines), colour=BRAND
    )
    embed.set_footer(text=posts_with_footer(on_shared_token=schedule.on_shared_token))
    return fit_embed(embed)


def posts_with_footer(*, on_shared_token: bool) -> str:
    """The footer of a daily post's confirmation: whose account it posts with."""
    if on_shared_token:
        # Translators: appended to the footer ("Magisterium AI · daily"), kept in {footer}.
        text = _("{footer} · posts with the bot's shared account")
    else:
        # Translators: appended to the footer ("Magisterium AI · daily"), kept in {footer}.
        text = _("{footer} · posts with your Magisterium account")
    return text.format(footer=footer_text("daily"))


def off_embed(feed: Feed, *, stopped: bool) -> discord.Embed:
    if stopped:
        return notice_embed(
            _(STOPPED_TITLES[feed]),
            _("Nothing more will be posted. `/daily set` starts it again."),
        )
    return notice_embed(_("Nothing to stop"), _(NOTHING_TO_STOP[feed]))


def preview_header(schedule: Schedule | None, role: discord.Role | None) -> str:
    """The line above /daily preview's post: where and when it goes, or that it does not."""
    if schedule is None:
        # Translators: "Preview" heads a private copy of a daily post.
        return _("**Preview** — not scheduled yet; `/daily set` posts this every day.")
    values = {
        "channel": f"<#{schedule.channel_id}>",
        "time": f"{schedule.post_time:%H:%M}",
        "zone": schedule.timezone,
        "role": role.mention if role else "",
    }
    if role is not None:
        # Translators: {channel} is a channel mention, {time} a 24-hour time, {zone} an IANA
        # timezone, {role} a role mention.
        return _("**Preview** — what {channel} gets at {time} ({zone}), pinging {role}.").format(
            **values
        )
    return _("**Preview** — what {channel} gets at {time} ({zone}).").format(**values)
