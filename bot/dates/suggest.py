"""Autocomplete choices for a date option: local, instant, at most 25, each showing its date.

What is typed is matched, without accents or case, in English and in the person's language;
each choice's name is in their language, its value an ISO date. Never any I/O, and nothing of
Discord: a :class:`Suggestion` is what the cog turns into an ``app_commands.Choice``.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from functools import lru_cache
from gettext import NullTranslations

from bot.dates.parse import long_date, resolve, shift, weekday_date
from bot.dates.text import words_of
from bot.dates.vocabulary import vocabulary
from bot.i18n import N_, _, catalogue_locale, compiled_catalogues, current_locale, using_locale

MAX_CHOICES = 25
NAME_LIMIT = 100
_TYPED_ROOM = 40  # how much of the user's own text a choice name repeats
_MAX_TYPED = 100  # Discord sends at most this much of an option; longer matches nothing

# Autocomplete choice names for a date, each with its distance in days from today.
RELATIVE_LABELS: tuple[tuple[str, int], ...] = (
    # Translators: an autocomplete choice name, followed by the date it names ("Today —
    # Monday 30 November 2026"); the same for Tomorrow and Yesterday.
    (N_("Today"), 0),
    (N_("Tomorrow"), 1),
    (N_("Yesterday"), -1),
    # Translators: an autocomplete choice name, followed by the date it names ("The day after
    # tomorrow — Wednesday 2 December 2026"); the same for the day before yesterday.
    (N_("The day after tomorrow"), 2),
    (N_("The day before yesterday"), -2),
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
ALL_LABELS = (
    *(label for label, _days in RELATIVE_LABELS),
    *(label for labels in WEEKDAY_LABELS.values() for label in labels),
)


def _label_candidates(today: dt.date) -> list[tuple[str, dt.date]]:
    """Named days, most useful first: today, tomorrow, yesterday, the days after and before
    those, then the weekdays (English labels: translate them with ``_()`` where they are
    shown)."""
    named = [(label, shift(today, days)) for label, days in RELATIVE_LABELS]
    for qualifier, labels in WEEKDAY_LABELS.items():
        named += [
            (label, weekday_date(weekday, today, qualifier or None))
            for weekday, label in enumerate(labels)
        ]
    return [(label, day) for label, day in named if day is not None]


@dataclass(frozen=True, slots=True)
class Suggestion:
    """One autocomplete choice: ``name`` shown (at most 100 characters), ``value`` an ISO date."""

    name: str
    value: str


def suggestion(label: str, day: dt.date) -> Suggestion:
    """A choice named ``label`` (already in the person's language) and ``day``'s date."""
    # Translators: an autocomplete choice: {label} is "Tomorrow", "Next Sunday" or what the
    # person typed; {date} is the long date it names, "Tuesday 1 December 2026".
    name = _("{label} — {date}").format(label=label, date=long_date(day))
    if len(name) > NAME_LIMIT:
        name = name[: NAME_LIMIT - 1] + "…"
    return Suggestion(name=name, value=day.isoformat())


def _key(text: str) -> str:
    """How a label and what is typed are compared: folded words ("Próximo  domingo" →
    "proximo domingo")."""
    return " ".join(words_of(text))


@lru_cache(maxsize=32)
def _label_keys(catalogue: str, translations: NullTranslations) -> dict[str, frozenset[str]]:
    """Each label's keys: the label in English and in ``catalogue``'s language, and for a
    day counted from today the words typed for it there ("pasado manana", "ubermorgen")."""
    typed_days = vocabulary(catalogue).relative
    with using_locale(catalogue):
        keys = {label: {_key(label), _key(_(label))} for label in ALL_LABELS}
    for label, days in RELATIVE_LABELS:
        keys[label].update(key for key, offset in typed_days.items() if offset == days)
    return {label: frozenset(found) for label, found in keys.items()}


def _keys(catalogue: str) -> dict[str, frozenset[str]]:
    return _label_keys(catalogue, compiled_catalogues.translations(catalogue))


def starts_a_word_of(query: str, key: str) -> bool:
    """Whether ``key`` has ``query`` at the start of one of its words: "day after" and "the
    day" in "the day after tomorrow", "uber" in "ubermorgen", but not "morgen"."""
    return key.startswith(query) or f" {query}" in key


def suggestions(typed: str, *, today: dt.date, locale: str = "en-US") -> list[Suggestion]:
    """What to offer for ``typed``: its own date first when it names one (read in ``locale``),
    then the names with a word starting with it in English or in the person's language
    (without accents or case). Names are shown in the current locale's language."""
    if len(typed) > _MAX_TYPED:
        return []
    queries = _queries(typed, locale)
    exact = resolve(typed, today=today, locale=locale) if typed.strip() else None
    theirs, shown = _keys(catalogue_locale(locale)), _keys(current_locale())
    candidates = _label_candidates(today)
    picked = [
        (_(label), day)
        for label, day in candidates
        if any(starts_a_word_of(q, key) for q in queries for key in theirs[label] | shown[label])
    ]
    if exact is not None:
        if all(day != exact for _label, day in picked):
            picked.insert(0, (_exact_label(typed, exact, candidates), exact))
        else:  # its own date first: "domingo" shows Sunday before "Last Sunday"
            picked.sort(key=lambda named: named[1] != exact)
    return [suggestion(label, day) for label, day in picked[:MAX_CHOICES]]


def _queries(typed: str, locale: str) -> set[str]:
    """What is typed as compared with the names, and without the small words the typed
    words for a day skip ("depois de am" as "depois am", for "depois amanha"); "" matches
    every name."""
    query = _key(typed)
    without_small_words = vocabulary(locale).key(query.split())
    return {query, without_small_words} if without_small_words else {query}


def _exact_label(typed: str, exact: dt.date, candidates: list[tuple[str, dt.date]]) -> str:
    """The typed date's name: the first named day it is ("domingo que viene" is "Sunday"),
    else what was typed ("19 March")."""
    named = next((label for label, day in candidates if day == exact), None)
    return _(named) if named is not None else _typed_label(typed)


def _typed_label(typed: str) -> str:
    shown = " ".join(typed.split())
    return shown if len(shown) <= _TYPED_ROOM else shown[: _TYPED_ROOM - 1] + "…"
