"""The daily post: what a channel receives each morning, and what /daily preview shows.

As much of the day's text as fits in one message is shown; when it does not all fit, a "Read it
all" button opens the whole text, paged, privately for whoever presses it. The button is a
DynamicItem (its custom id names the feed and date), so it keeps working after restarts and
no view is kept in memory per post.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import re
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Self

import discord

from bot.a2a.results import NotFound
from bot.app.respond import defer
from bot.daily import Feed, Schedule
from bot.daily.planner import Content
from bot.dates import restate_day
from bot.i18n import N_, _, catalogue_locale
from bot.render.discord_limits import EMBEDS_PER_MESSAGE, EMBEDS_TOTAL, embed_size
from bot.render.embeds import notice_embed, text_pages
from bot.render.views import ReportedDynamicItem
from bot.services.origin import Origin
from cogs._day_feed import DayButton, build_pager, day_title
from cogs._day_feed.day_message import NavButton
from cogs._day_feed.feeds import ReadingsDay, SaintsDay, saints_menu

if TYPE_CHECKING:
    from bot.app import MagisteriumBot

DAY_BUTTONS: Mapping[Feed, type[DayButton]] = MappingProxyType(
    {Feed.SAINTS: SaintsDay, Feed.READINGS: ReadingsDay}
)
# Translators: a button under a daily post that did not fit: opens the whole day's text.
READ_ALL = N_("Read it all")
NOT_FOUND: Mapping[Feed, str] = MappingProxyType(
    {
        # Translators: the Roman Martyrology is the Church's official list of saints by day (use
        # its usual name in your language); Magisterium is a proper name, never translated.
        Feed.SAINTS: N_("The Roman Martyrology has no entry Magisterium can show for this day."),
        # Translators: Magisterium is a proper name (the AI service the bot asks); never translated.
        Feed.READINGS: N_("Magisterium has no Mass readings for this day."),
    }
)


@dataclass(frozen=True)
class DailyPost:
    content: str | None
    embeds: list[discord.Embed]
    view: discord.ui.View | None
    allowed_mentions: discord.AllowedMentions


def post_locale(schedule: Schedule | None, guild: discord.Guild) -> str:
    """The language of a server's daily post: its schedule's choice, else the server's."""
    if schedule is not None and schedule.locale is not None:
        return schedule.locale
    return catalogue_locale(guild.preferred_locale)


def title_of(feed: Feed, day: dt.date) -> str:
    """``Saints of the day — Tuesday 1 December 2026``, in the current locale."""
    return day_title(feed.label, day)


def build_post(
    feed: Feed, day: dt.date, result: Content, *, role: discord.Role | None
) -> DailyPost:
    """The message for ``feed`` on ``day`` in the current locale (the server's language, or
    the one its schedule chose); ``role`` is pinged, and only that role."""
    if isinstance(result, NotFound):
        embeds = [notice_embed(title_of(feed, day), _(NOT_FOUND[feed]))]
        complete = True
    else:
        text = restate_day(result.text, day)  # the day written as in the title
        pages = text_pages(title_of(feed, day), text, feed.skill, task_id=result.task_id)
        embeds = _fitting(pages)
        complete = len(embeds) == len(pages)
    items: list[discord.ui.Item[Any]] = []
    if not complete:
        button = NavButton(label=_(READ_ALL), custom_id=read_all_id(feed, day), emoji="📖", row=0)
        items.append(button)
    if feed is Feed.SAINTS:
        items += saints_menu(result, row=1)
    view = None
    if items:
        view = discord.ui.View(timeout=None)
        for item in items:
            view.add_item(item)
    mentions = discord.AllowedMentions(
        everyone=False, users=False, roles=[role] if role else False, replied_user=False
    )
    return DailyPost(role.mention if role else None, embeds, view, mentions)


def _fitting(pages: list[discord.Embed]) -> list[discord.Embed]:
    """The leading pages that fit in one message (10 embeds, 6,000 characters in all)."""
    kept: list[discord.Embed] = []
    total = 0
    for page in pages[:EMBEDS_PER_MESSAGE]:
        total += embed_size(page)
        if total > EMBEDS_TOTAL:
            break
        kept.append(page)
    return kept or pages[:1]


def nonce_of(guild_id: int, feed: Feed, day: dt.date) -> int:
    """The Discord nonce of one server's post for one date: the same on every retry and in
    every process, so Discord drops a resend of a message that did go out (enforce_nonce)."""
    digest = hashlib.sha256(f"daily:{guild_id}:{feed.value}:{day.isoformat()}".encode())
    return int.from_bytes(digest.digest()[:8], "big") >> 1  # 19 digits at most (limit 25)


def read_all_id(feed: Feed, day: dt.date) -> str:
    return f"daily:all:{feed.value}:{day.isoformat()}"


class ReadAll(
    ReportedDynamicItem[discord.ui.Button[Any]],
    template=r"daily:all:(?P<feed>saints|readings):(?P<iso>\d{4}-\d{2}-\d{2})",
):
    """ "Read it all" under a daily post: the whole day's text, paged, just for the presser."""

    def __init__(self, feed: Feed, day: dt.date) -> None:
        super().__init__(
            discord.ui.Button(label=_(READ_ALL), custom_id=read_all_id(feed, day), emoji="📖")
        )
        self.feed, self.day = feed, day

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[discord.Client],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> Self:
        return cls(Feed(match["feed"]), dt.date.fromisoformat(match["iso"]))

    async def respond(self, interaction: discord.Interaction[MagisteriumBot]) -> None:
        await defer(interaction, ephemeral=True)
        service = interaction.client.services.magisterium
        button = DAY_BUTTONS[self.feed]
        result = await button.feed.fetch(service, Origin.of(interaction), self.day)
        pager = build_pager(button, self.day, result, author_id=interaction.user.id)
        await pager.send(interaction, ephemeral=True)
