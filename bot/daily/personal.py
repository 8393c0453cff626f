"""What a personal daily post is: one feed sent to one person's DMs at their local time.

The same post times, claim and planner as a server's schedule (``bot.daily.post_times``,
``bot.daily.planner``); what differs is where it goes (a DM, not a channel), whose token it
uses (the person's own, else the operator's: read at every tick, never a server's account) and
the language (chosen, or the person's Discord language when they set it up).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from zoneinfo import ZoneInfo

from bot.daily.schedule import Feed, ScheduleStatus, TokenSource
from bot.i18n import N_

# Stored in English with the schedule (as a server's reasons are); /mydaily status translates.
# Translators: why a personal daily post is paused, shown by /mydaily status.
DMS_CLOSED = N_(
    "Discord would not deliver it: your DMs are closed to me (code 50007). Allow direct "
    "messages from this app, then run `/mydaily set` again."
)
# Translators: why a personal daily post is paused: {code} is Discord's numeric error code.
DM_REFUSED = N_(
    "Discord refused the DM (code {code}). Check that you can receive direct messages from "
    "me, then run `/mydaily set` again."
)
# Translators: why a personal daily post is paused, shown by /mydaily status.
OWN_TOKEN_REFUSED = N_(
    "Magisterium refused your token. It resumes by itself once you link your account again "
    "with `/account link`."
)
# Translators: why a personal daily post is paused, shown by /mydaily status.
NO_TOKEN = N_(
    "The bot's shared Magisterium account is no longer configured. It resumes by itself once "
    "you link your own with `/account link`."
)
# Reasons it resumes from by itself, once a token works again; the others need /mydaily set.
TOKEN_PAUSES = frozenset({OWN_TOKEN_REFUSED, NO_TOKEN})


@dataclass(frozen=True)
class PersonalSchedule:
    user_id: int
    feed: Feed
    post_time: dt.time  # local wall-clock time, minutes precision
    timezone: str  # an IANA name
    locale: str  # a catalogue code: chosen, or the person's Discord language at /mydaily set
    # "own" while the person has a linked account (read with the schedule), else "shared".
    token_source: TokenSource
    status: ScheduleStatus
    status_reason: str | None
    active_since: dt.datetime  # no slot before this instant is ever posted (aware, UTC)
    dm_channel_id: int | None = None  # known after the first DM: later posts skip opening it
    last_posted_date: dt.date | None = None
    last_posted_at: dt.datetime | None = None
    last_message_id: int | None = None
    last_error: str | None = None
    last_error_at: dt.datetime | None = None
    failures: int = 0
    retry_at: dt.datetime | None = None

    @property
    def zone(self) -> ZoneInfo:
        return ZoneInfo(self.timezone)

    @property
    def owner_id(self) -> int:
        return self.user_id

    @property
    def on_shared_token(self) -> bool:
        return self.token_source == "shared"  # noqa: S105 (a source name, not a secret)

    @property
    def key(self) -> tuple[int, Feed]:
        return (self.user_id, self.feed)

    @property
    def where(self) -> str:
        return f"user {self.user_id}"


def shard_of_user(user_id: int, shard_count: int) -> int:
    """The shard whose process sends ``user_id``'s DMs: the formula Discord uses for a guild
    (``(id >> 22) % shard_count``), applied to the person's id, so DMs spread over the
    processes as evenly as servers do and each process paces its own share."""
    return (user_id >> 22) % shard_count
