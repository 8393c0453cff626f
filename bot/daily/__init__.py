"""Daily posts: schedules (one per server and feed), their clock, their store, and the
planner's decisions (``bot.daily.planner``: what is due, the claim, the fetch, the outcome).

Nothing here touches Discord; ``cogs.daily`` sends the posts and answers ``/daily``.
"""

from bot.daily.post_times import DEFAULT_GRACE, due_date, next_post, parse_time, slot_instant
from bot.daily.schedule import Feed, Schedule, ScheduleStatus, TokenSource
from bot.daily.store import ScheduleStore
from bot.daily.zones import find_zone, suggest_zones

__all__ = [
    "DEFAULT_GRACE",
    "Feed",
    "Schedule",
    "ScheduleStatus",
    "ScheduleStore",
    "TokenSource",
    "due_date",
    "find_zone",
    "next_post",
    "parse_time",
    "slot_instant",
    "suggest_zones",
]
