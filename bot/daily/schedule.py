"""What a daily schedule is: a feed posted at a local time, once per local date; in a server's
channel (:class:`Schedule`) or in a person's DMs (``bot.daily.personal``). :class:`Slotted` is
what the clock and the planner read of either."""

from __future__ import annotations

import datetime as dt
import enum
from dataclasses import dataclass
from typing import Literal, Protocol
from zoneinfo import ZoneInfo

from bot.a2a.skills import LITURGICAL_READINGS, SAINTS_OF_THE_DAY
from bot.i18n import N_

TokenSource = Literal["own", "shared"]


class ScheduleStatus(enum.StrEnum):
    ACTIVE = "active"
    # The token it posts with stopped working; resumes by itself once it works again.
    PAUSED = "paused"
    # Posting cannot work (channel gone, permission missing): an admin must run /daily set.
    DISABLED = "disabled"


class Feed(enum.StrEnum):
    SAINTS = "saints"
    READINGS = "readings"

    @property
    def skill(self) -> str:
        return SAINTS_OF_THE_DAY.id if self is Feed.SAINTS else LITURGICAL_READINGS.id

    @property
    def label(self) -> str:
        """The feed's name, in English: translate it with ``_()`` where it is shown."""
        if self is Feed.SAINTS:
            # Translators: the saints the Roman Martyrology commemorates on a day, a title.
            return N_("Saints of the day")
        # Translators: the readings of the day's Mass (the Catholic liturgy), a title.
        return N_("Mass readings")


class Slotted(Protocol):
    """A schedule as the clock and the planner see it, whoever it posts to."""

    @property
    def feed(self) -> Feed: ...
    @property
    def post_time(self) -> dt.time: ...
    @property
    def timezone(self) -> str: ...
    @property
    def zone(self) -> ZoneInfo: ...
    @property
    def active_since(self) -> dt.datetime: ...
    @property
    def status(self) -> ScheduleStatus: ...
    @property
    def status_reason(self) -> str | None: ...
    @property
    def last_posted_date(self) -> dt.date | None: ...
    @property
    def retry_at(self) -> dt.datetime | None: ...
    @property
    def failures(self) -> int: ...
    @property
    def owner_id(self) -> int | None: ...
    @property
    def token_source(self) -> TokenSource: ...
    @property
    def key(self) -> tuple[int, Feed]:
        """(server or person id, feed): the schedule's primary key in its own table."""
        ...

    @property
    def where(self) -> str:
        """Whose schedule it is, for logs: ``guild 123`` or ``user 456``."""
        ...


@dataclass(frozen=True)
class Schedule:
    guild_id: int
    feed: Feed
    channel_id: int
    post_time: dt.time  # local wall-clock time, minutes precision
    timezone: str  # an IANA name
    role_id: int | None
    owner_id: int | None  # the admin whose token it posts with (None once they unlinked)
    token_source: TokenSource
    status: ScheduleStatus
    status_reason: str | None
    active_since: dt.datetime  # no slot before this instant is ever posted (aware, UTC)
    last_posted_date: dt.date | None = None
    last_posted_at: dt.datetime | None = None
    last_message_id: int | None = None
    last_error: str | None = None
    last_error_at: dt.datetime | None = None
    failures: int = 0
    retry_at: dt.datetime | None = None
    # The language posts are written in (a catalogue code, ``bot.i18n.LANGUAGES``); None: the
    # server's own (its Community "preferred locale").
    locale: str | None = None

    @property
    def zone(self) -> ZoneInfo:
        return ZoneInfo(self.timezone)

    @property
    def on_shared_token(self) -> bool:
        """Posts with the operator's shared token rather than its admin's own."""
        return self.token_source == "shared"  # noqa: S105 (a source name, not a secret)

    @property
    def key(self) -> tuple[int, Feed]:
        return (self.guild_id, self.feed)

    @property
    def where(self) -> str:
        return f"guild {self.guild_id}"
