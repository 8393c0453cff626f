"""Autocomplete choices for a date option: local, instant, at most 25, each showing its date."""

from __future__ import annotations

import datetime as dt

from discord import app_commands

from cogs._dates.parse import WEEKDAYS, long_date, normalize, resolve

MAX_CHOICES = 25
NAME_LIMIT = 100
_TYPED_ROOM = 40  # how much of the user's own text a choice name repeats


def _label_candidates(today: dt.date) -> list[tuple[str, dt.date]]:
    """Named days, most useful first: today, tomorrow, yesterday, then the weekdays."""
    one = dt.timedelta(days=1)
    named = [("Today", today), ("Tomorrow", today + one), ("Yesterday", today - one)]
    for prefix in ("", "Next ", "Last "):
        qualifier = prefix.strip().lower() or None
        for weekday in WEEKDAYS:
            day = resolve(f"{qualifier or ''} {weekday}", today=today)
            if day is not None:
                named.append((f"{prefix}{weekday}", day))
    return named


def choice(label: str, day: dt.date) -> app_commands.Choice[str]:
    name = f"{label} — {long_date(day)}"
    if len(name) > NAME_LIMIT:
        name = name[: NAME_LIMIT - 1] + "…"
    return app_commands.Choice(name=name, value=day.isoformat())


def suggestions(typed: str, *, today: dt.date) -> list[app_commands.Choice[str]]:
    """What to offer for ``typed``: its own date first when it names one, then matching names."""
    query = normalize(typed)
    picked: list[tuple[str, dt.date]] = []
    named = _label_candidates(today)
    if query:
        exact = resolve(query, today=today)
        matching = [
            (label, day)
            for label, day in named
            if label.lower().startswith(query) or query in label.lower()
        ]
        if exact is not None and all(day != exact for _, day in matching):
            shown = " ".join(typed.split())
            if len(shown) > _TYPED_ROOM:
                shown = shown[: _TYPED_ROOM - 1] + "…"
            picked.append((shown, exact))
        picked.extend(matching)
    else:
        picked = named
    return [choice(label, day) for label, day in picked[:MAX_CHOICES]]
