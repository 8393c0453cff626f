"""Dates for the /readings and /saints options: local parsing, autocomplete, day buttons.

Not a cog (no ``setup``): both cogs use it, and cogs never import each other.
"""

from cogs._dates.day_message import DayButton, DayFeed, DayPager, build_pager, day_title, show_day
from cogs._dates.parse import long_date, resolve
from cogs._dates.suggest import suggestions

__all__ = [
    "DayButton",
    "DayFeed",
    "DayPager",
    "build_pager",
    "day_title",
    "long_date",
    "resolve",
    "show_day",
    "suggestions",
]
