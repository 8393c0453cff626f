"""A day's feed (readings, martyrology) as a message with previous/next day buttons.

The buttons are :class:`DayButton` DynamicItems: the custom id carries the feed and the ISO
date, so they work on any message, including ones sent before a restart. Each cog subclasses
:class:`DayButton` with its own template and :class:`DayFeed`.
"""

from __future__ import annotations

import calendar
import datetime as dt
import logging
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Self

import discord

from bot.a2a.results import Martyrology, NotFound, Readings
from bot.app.respond import defer
from bot.dates import counts_from_today, long_date, long_month, missing_day, resolve, restate_day
from bot.i18n import N_, _, ngettext
from bot.render.embeds import notice_embed, text_pages
from bot.render.look import ERROR
from bot.render.pager import Paginator, ShownPagers
from bot.render.views import ReportedDynamicItem
from bot.services.origin import Origin

if TYPE_CHECKING:
    from bot.app import MagisteriumBot
    from bot.services.magisterium import MagisteriumService

log = logging.getLogger(__name__)

Fetched = Readings | Martyrology | NotFound
Fetch = Callable[["MagisteriumService", Origin, dt.date], Awaitable[Fetched]]
Extras = Callable[[Fetched], list[discord.ui.Item[Any]]]


def no_extras(result: Fetched) -> list[discord.ui.Item[Any]]:
    return []


UNKNOWN_DATE_TITLE = N_("I could not read that date")
# Translators: the examples in backticks are what a person types, in your language (the bot
# reads dates in each language and in English): `mañana`, `el próximo domingo`, `19 de marzo`;
# `YYYY-MM-DD` is the ISO format (its letters may be your language's).
UNKNOWN_DATE_TEXT = N_(
    "Try `today`, `tomorrow`, `yesterday`, a weekday such as `next Sunday`, "
    "a date such as `19 March`, or `YYYY-MM-DD`."
)
# Translators: the title of the error when the date typed names a day its month does not
# have ("2026-02-30", "31 April").
MISSING_DAY_TITLE = N_("That date does not exist")
# Translators: buttons under a day's Mass readings or saints, to the day before and after.
PREVIOUS_DAY = N_("◀ Previous day")
# Translators: a button under a day's Mass readings or saints, to the next day.
NEXT_DAY = N_("Next day ▶")
# Translators: a short heading under a day's readings or saints when the person has set no
# timezone (nor has their server), so "today" was computed in UTC.
UTC_NOTE_TITLE = N_("Today in UTC")
# Translators: under UTC_NOTE_TITLE; keep `/account timezone` in backticks (the command's name).
UTC_NOTE_TEXT = N_(
    "No timezone is set, so “today” is the day in UTC. Set yours with `/account timezone`."
)


@dataclass(frozen=True)
class DayFeed:
    name: str  # custom id prefix and file name: "readings"
    title: str  # "Mass readings", in English: translated where shown
    skill: str
    not_found: str  # the friendly text when the upstream has nothing for the day (English)
    fetch: Fetch
    extras: Extras = no_extras  # more components under the day's text (the saints' menu)

    def custom_id(self, day: dt.date) -> str:
        return f"{self.name}:day:{day.isoformat()}"

    def template(self) -> str:
        return rf"{re.escape(self.name)}:day:(?P<iso>\d{{4}}-\d{{2}}-\d{{2}})"


class NavButton(discord.ui.Button[Any]):
    """A previous/next day button as it appears on a message; :class:`DayButton` answers it.

    Not dispatchable, so no stored view holds it: discord.py unregisters a DynamicItem class
    when a view containing one stops, which would break every day button on a timeout.
    """

    def is_dispatchable(self) -> bool:
        return False


class DayPager(Paginator):
    """A paginator that knows its message and steps aside when a day button replaces it.

    Which pager each message shows is the bot's (``bot.shown_pagers``), shared by /readings,
    /saints and /daily preview: the day buttons work on the messages of all three."""

    message_id: int | None = None
    _shown: ShownPagers | None = None  # the bot's, once the pager knows its message

    def track(
        self,
        message_id: int,
        interaction: discord.Interaction[MagisteriumBot],
        *,
        edit_via: bool = False,
    ) -> None:
        """Show on message ``message_id`` (stopping the pager it replaces); ``edit_via``: edit
        it through ``interaction`` from now on."""
        shown = interaction.client.shown_pagers
        shown.show(message_id, self)
        self.message_id, self._shown = message_id, shown
        if edit_via:
            self._edit_via = interaction

    async def send(
        self, interaction: discord.Interaction[MagisteriumBot], *, ephemeral: bool = False
    ) -> None:
        await super().send(interaction, ephemeral=ephemeral)
        if isinstance(self._edit_via, discord.WebhookMessage):
            self.track(self._edit_via.id, interaction)

    def disable_all(self) -> None:
        """Grey out the page buttons only: the day buttons keep working forever."""
        super().disable_all()
        for item in self.children:
            if isinstance(item, NavButton):
                item.disabled = False

    async def on_timeout(self) -> None:
        shown, message_id = self._shown, self.message_id
        if shown is not None and message_id is not None and not shown.shows(message_id, self):
            return  # replaced by another day: that pager owns the message now
        await super().on_timeout()


class DayButton(ReportedDynamicItem[discord.ui.Button[Any]], template=r"(?!)"):
    """Previous/next day; subclasses set ``feed`` and a template from ``feed.template()``."""

    feed: ClassVar[DayFeed]

    def __init__(self, day: dt.date) -> None:
        super().__init__(
            discord.ui.Button(
                label=long_date(day),
                style=discord.ButtonStyle.secondary,
                custom_id=self.feed.custom_id(day),
            ),
            row=1,
        )
        self.day = day

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[discord.Client],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> Self:
        return cls(dt.date.fromisoformat(match["iso"]))

    async def respond(self, interaction: discord.Interaction[MagisteriumBot]) -> None:
        await interaction.response.defer()  # fetching may take longer than 3 s
        result = await self.feed.fetch(
            interaction.client.services.magisterium, Origin.of(interaction), self.day
        )
        pager = build_pager(type(self), self.day, result, author_id=interaction.user.id)
        await interaction.edit_original_response(embed=pager.current, view=pager)
        if interaction.message is not None:
            pager.track(interaction.message.id, interaction, edit_via=True)


def _shift(day: dt.date, days: int) -> dt.date | None:
    try:
        return day + dt.timedelta(days=days)
    except OverflowError:
        return None


def nav_buttons(feed: DayFeed, day: dt.date) -> list[NavButton]:
    buttons = []
    for days, label in ((-1, PREVIOUS_DAY), (1, NEXT_DAY)):
        if (other := _shift(day, days)) is not None:
            buttons.append(NavButton(label=_(label), custom_id=feed.custom_id(other), row=1))
    return buttons


def day_title(title: str, day: dt.date) -> str:
    """``Mass readings — Tuesday 1 December 2026`` in the current locale; ``title`` in English."""
    # Translators: the title of a day's feed: {feed} is "Mass readings" or "Saints of the day",
    # {date} the long date, "Tuesday 1 December 2026".
    return _("{feed} — {date}").format(feed=_(title), date=long_date(day))


def build_pager(
    button: type[DayButton],
    day: dt.date,
    result: Fetched,
    *,
    author_id: int,
    in_utc: bool = False,
) -> DayPager:
    """The day's pages (or the friendly not-found notice) with previous/next day buttons.

    ``in_utc``: "today" was UTC's because no timezone is set; every page says so."""
    feed = button.feed
    title = day_title(feed.title, day)
    if isinstance(result, NotFound):
        pages = [notice_embed(title, _(feed.not_found))]
        full_text = None
    else:
        full_text = restate_day(result.text, day)  # the day written as in the title
        pages = text_pages(title, full_text, feed.skill, task_id=result.task_id)
    if in_utc:
        for page in pages:
            page.add_field(name=_(UTC_NOTE_TITLE), value=_(UTC_NOTE_TEXT), inline=False)
    pager = DayPager(
        pages, author_id=author_id, full_text=full_text, filename=f"{feed.name}-{day}.md"
    )
    for item in [*nav_buttons(feed, day), *feed.extras(result)]:
        pager.add_item(item)
    return pager


async def show_day(
    interaction: discord.Interaction[MagisteriumBot],
    button: type[DayButton],
    text: str,
    *,
    today: dt.date,
    in_utc: bool = False,
) -> None:
    """The slash command: resolve locally (no call for a bad date), then defer and fetch.

    ``today``: the date in the person's timezone; ``in_utc``: that zone is the UTC fallback,
    said under the day only when ``text`` counts from today ("tomorrow", not "19 March")."""
    locale = str(interaction.locale)
    day = resolve(text, today=today, locale=locale)
    if day is None:
        embed = unread_date_embed(text, today=today, locale=locale)
        await interaction.response.send_message(embed=embed, ephemeral=True)
        return
    await defer(interaction, ephemeral=False)
    result = await button.feed.fetch(
        interaction.client.services.magisterium, Origin.of(interaction), day
    )
    in_utc = in_utc and counts_from_today(text)
    pager = build_pager(button, day, result, author_id=interaction.user.id, in_utc=in_utc)
    await pager.send(interaction)


def unread_date_embed(text: str, *, today: dt.date, locale: str) -> discord.Embed:
    """Why ``text`` names no day: a day its month lacks ("2026-02-30"), or nothing read."""
    missing = missing_day(text, today=today, locale=locale)
    if missing is None:
        return notice_embed(_(UNKNOWN_DATE_TITLE), _(UNKNOWN_DATE_TEXT), colour=ERROR)
    year, month = missing[0], missing[1]
    days = calendar.monthrange(year, month)[1]
    # Translators: why a typed date does not exist: {month} is a month and its year
    # ("February 2026"), {count} how many days it has (28 to 31).
    reason = ngettext("{month} has {count} day.", "{month} has {count} days.", days)
    return notice_embed(
        _(MISSING_DAY_TITLE), reason.format(month=long_month(year, month), count=days), colour=ERROR
    )
