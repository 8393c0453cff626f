"""Autocomplete choices for a date option: local, instant, at most 25, each showing its date.

What is typed is matched in English (the language dates are read in) and in the person's
language; each choice's name is in their language, its value an ISO date.
"""

from __future__ import annotations

import datetime as dt

from discord import app_commands

from bot.i18n import N_, _
from cogs._dates.parse import WEEKDAYS, long_date, normalize, resolve

MAX_CHOICES = 25
NAME_LIMIT = 100
_TYPED_ROOM = 40  # how much of the user's own text a choice name repeats

RELATIVE_LABELS = (
    # Translators: an autocomplete choice name, followed by the date it names ("Today —
    # Monday 30 November 2026"); the same for Tomorrow and Yesterday.
    N_("Today"),
    N_("Tomorrow"),
    N_("Yesterday"),
)
# Autocomplete choice names for a date, each followed by the date it names: the weekday (today
# included), then "Next …" (strictly after today), then "Last …" (strictly before today).
WEEKDAY_LABELS: dict[str, tuple[str, ...]] = {
    "": (
        # Translators: an autocomplete choice name, followed by the date it names: the coming
        # Monday, today included (the same for the other weekdays).
        N_("Monday"),
        N_("Tuesday"),
        N_("Wednesday"),
        N_("Thursday"),
        N_("Friday"),
        N_("Saturday"),
        N_("Sunday"),
    ),
    "next": (
        # Translators: an autocomplete choice name, followed by the date it names: the Monday
        # after today (the same for the other weekdays).
        N_("Next Monday"),
        N_("Next Tuesday"),
        N_("Next Wednesday"),
        N_("Next Thursday"),
        N_("Next Friday"),
        N_("Next Saturday"),
        N_("Next Sunday"),
    ),
    "last": (
        # Translators: an autocomplete choice name, followed by the date it names: the latest
        # Monday before today (the same for the other weekdays).
        N_("Last Monday"),
        N_("Last Tuesday"),
        N_("Last Wednesday"),
        N_("Last Thursday"),
        N_("Last Friday"),
        N_("Last Saturday"),
        N_("Last Sunday"),
    ),
}


def _label_candidates(today: dt.date) -> list[tuple[str, dt.date]]:
    """Named days, most useful first: today, tomorrow, yesterday, then the weekdays (English
    labels: translate them with ``_()`` where they are shown)."""
    one = dt.timedelta(days=1)
    today_, tomorrow, yesterday = RELATIVE_LABELS
    named = [(today_, today), (tomorrow, today + one), (yesterday, today - one)]
    for qualifier, labels in WEEKDAY_LABELS.items():
        for weekday, label in zip(WEEKDAYS, labels, strict=True):
            day = resolve(f"{qualifier} {weekday}", today=today)
            if day is not None:
                named.append((label, day))
    return named


def choice(label: str, day: dt.date) -> app_commands.Choice[str]:
    """A choice named ``label`` (already in the person's language) and ``day``'s date."""
    # Translators: an autocomplete choice: {label} is "Tomorrow", "Next Sunday" or what the
    # person typed; {date} is the long date it names, "Tuesday 1 December 2026".
    name = _("{label} — {date}").format(label=label, date=long_date(day))
    if len(name) > NAME_LIMIT:
        name = name[: NAME_LIMIT - 1] + "…"
    return app_commands.Choice(name=name, value=day.isoformat())


def _matches(query: str, label: str) -> bool:
    """``query`` is in the English label or in the person's language's."""
    return query in label.lower() or query in _(label).lower()


def suggestions(typed: str, *, today: dt.date) -> list[app_commands.Choice[str]]:
    """What to offer for ``typed``: its own date first when it names one, then matching names."""
    query = normalize(typed)  # empty: every name matches
    picked = [(_(label), day) for label, day in _label_candidates(today) if _matches(query, label)]
    exact = resolve(query, today=today) if query else None
    if exact is not None and all(day != exact for _label, day in picked):
        shown = " ".join(typed.split())
        if len(shown) > _TYPED_ROOM:
            shown = shown[: _TYPED_ROOM - 1] + "…"
        picked.insert(0, (shown, exact))
    return [choice(label, day) for label, day in picked[:MAX_CHOICES]]
