"""A day's feed for /readings and /saints: the message, its day buttons, the two feeds.

Not a cog (no ``setup``): both cogs use it, and cogs never import each other. Reading the date
typed is ``bot.dates``, which knows nothing of Discord.
"""

from cogs._dates.day_message import DayButton, DayFeed, DayPager, build_pager, day_title, show_day

__all__ = [
    "DayButton",
    "DayFeed",
    "DayPager",
    "build_pager",
    "day_title",
    "show_day",
]
