"""What ``/account timezone`` and ``/server timezone`` answer: the zone, where it comes from,
and today's date there."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

import discord

from bot.i18n import N_, _, format_long_date
from bot.render.embeds import notice_embed
from bot.render.look import BRAND
from bot.services.timezones import ResolvedZone, ZoneSource

# Where a zone comes from, after "**Europe/Rome** — ". Translated where shown.
SOURCES: Mapping[ZoneSource, str] = MappingProxyType(
    {
        # Translators: where a person's timezone comes from; keep `/account timezone` in backticks.
        ZoneSource.PERSON: N_("set with `/account timezone`"),
        # Translators: where a person's timezone comes from: their personal daily post.
        ZoneSource.PERSONAL_DAILY: N_("the timezone of your `/mydaily` post"),
        # Translators: where a person's timezone comes from: the server they asked in.
        ZoneSource.SERVER: N_("this server's timezone, set with `/server timezone`"),
        # Translators: where a timezone comes from: the server's daily post (/daily).
        ZoneSource.SERVER_DAILY: N_("the timezone of this server's `/daily` post"),
        # Translators: no timezone is set anywhere, so the bot uses UTC.
        ZoneSource.FALLBACK: N_("UTC, as no timezone is set"),
    }
)


@dataclass(frozen=True)
class Wording:
    """The texts of one command (translated where shown)."""

    shown: str  # the title when asked without a zone
    saved: str  # the title after a zone was saved
    automatic: str  # the title after "Automatic" was picked
    hint: str  # how to change it
    choice: str  # the autocomplete label of "Automatic" (at most 100 characters)


PERSON = Wording(
    shown=N_("Your timezone"),
    saved=N_("Timezone saved"),
    automatic=N_("Timezone set to automatic"),
    # Translators: keep `/account timezone`, `/readings` and `/saints` in backticks.
    hint=N_(
        "`/readings` and `/saints` show “today” in it. Change it with `/account timezone`: "
        "pick a zone, or “Automatic” for your `/mydaily` timezone, else the server's, else UTC."
    ),
    # Translators: an autocomplete choice, at most 100 characters.
    choice=N_("Automatic — your /mydaily timezone, else the server's, else UTC"),
)
SERVER = Wording(
    shown=N_("This server's timezone"),
    saved=N_("Server timezone saved"),
    automatic=N_("Server timezone set to automatic"),
    # Translators: keep `/readings`, `/saints`, `/account timezone`, `/server timezone` in
    # backticks.
    hint=N_(
        "Here `/readings` and `/saints` show “today” in it to members who set no timezone "
        "with `/account timezone`. Change it with `/server timezone`: pick a zone, or "
        "“Automatic” for this server's `/daily` timezone, else UTC."
    ),
    # Translators: an autocomplete choice, at most 100 characters.
    choice=N_("Automatic — this server's /daily timezone, else UTC"),
)


def zone_line(zone: ResolvedZone, now: dt.datetime) -> str:
    # Translators: {zone} is an IANA timezone name (Europe/Rome), {source} where it comes
    # from, {date} today's long date in that timezone.
    return _("**{zone}** — {source}. There, today is {date}.").format(
        zone=zone.name, source=_(SOURCES[zone.source]), date=format_long_date(zone.today(now))
    )


def zone_embed(title: str, wording: Wording, zone: ResolvedZone, now: dt.datetime) -> discord.Embed:
    """``title`` (English, translated here), the zone and where it comes from, and the hint."""
    text = f"{zone_line(zone, now)}\n\n{_(wording.hint)}"
    return notice_embed(_(title), text, colour=BRAND)
