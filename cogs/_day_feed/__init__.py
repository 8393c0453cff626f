"""A day's feed for /readings and /saints: the cog they share, the message, its day buttons,
the two feeds.

Not a cog of its own (no ``setup``): both cogs and ``/daily`` use it, and cogs never import
each other. Reading the date typed is ``bot.dates``, which knows nothing of Discord.
"""

from cogs._day_feed.cog import DayFeedCog
from cogs._day_feed.day_message import (
    DayButton,
    DayFeed,
    DayPager,
    build_pager,
    day_title,
    show_day,
)

__all__ = [
    "DayButton",
    "DayFeed",
    "DayFeedCog",
    "DayPager",
    "build_pager",
    "day_title",
    "show_day",
]
