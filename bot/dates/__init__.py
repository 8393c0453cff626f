"""Dates as people type them in a date option, read locally in their language.

What /readings and /saints (and the daily posts) need of a date that has nothing to do with
Discord: reading what is typed (:func:`resolve`, :func:`missing_day`), writing a date in the
person's language (:func:`long_date`, :func:`restate_day`) and the autocomplete's suggestions
(:func:`suggestions`). The messages, buttons and commands around them are ``cogs/_day_feed``.

- ``text``: typed text folded (case, accents) and cut into numbers, words and separators;
- ``vocabulary``: the words a date is typed with in each language (CLDR and the catalogues);
- ``numeric``: dates typed as numbers only, in the locale's order;
- ``parse``: one calendar date from what is typed, given today;
- ``suggest``: the autocomplete's choices for what is typed so far;
- ``restate``: the upstream's English spellings of a day rewritten as the bot writes dates.
"""

from bot.dates.parse import counts_from_today, long_date, long_month, missing_day, resolve
from bot.dates.restate import restate_day
from bot.dates.suggest import Suggestion, suggestions

__all__ = [
    "Suggestion",
    "counts_from_today",
    "long_date",
    "long_month",
    "missing_day",
    "resolve",
    "restate_day",
    "suggestions",
]
