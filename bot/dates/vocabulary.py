"""The words a date is typed with in each of the bot's languages, built once per locale.

Month and weekday names, the date order and the little words around a date ("19 de marzo",
"2026년 3월 19일") come from Babel's CLDR data; relative words ("tomorrow", "next") come from
the message catalogue, so translators own them. English is understood in every locale.
"""

from __future__ import annotations

import gettext
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

from babel.dates import get_date_format, get_day_names, get_month_names, tokenize_pattern

from bot.dates.text import fold, words_of
from bot.i18n import N_, _, compiled_catalogues, using_locale
from bot.i18n.locales import LANGUAGES, SUPPORTED_LOCALES, catalogue_locale

ENGLISH = "en_US"  # how an unknown locale's dates are read
_MIN_PREFIX = 3  # "wed", "sept": shorter beginnings are too ambiguous
_MIN_STEM = 4  # "niedzielę" read as "niedziela": the word but its last letter, if this long

# Translators: the words below are what people may TYPE in a date option, not text the bot
# shows. Give every way of writing it in your language, separated by "|" (no spaces around
# "|"); several words in one alternative are fine ("pasado mañana"). Case and accents do not
# matter. English keeps working too, so never just copy the English.
TODAY = N_("today")
# Translators: typed in a date option, alternatives separated by "|" (see "today").
TOMORROW = N_("tomorrow")
# Translators: typed in a date option, alternatives separated by "|" (see "today").
YESTERDAY = N_("yesterday")
# Translators: typed in a date option, alternatives separated by "|" (see "today"): es
# "pasado mañana", de "übermorgen".
AFTER_TOMORROW = N_("the day after tomorrow")
# Translators: typed in a date option, alternatives separated by "|" (see "today"): es
# "anteayer|antes de ayer", de "vorgestern".
BEFORE_YESTERDAY = N_("the day before yesterday")
# Translators: typed before or after a weekday in a date option: "next Sunday" is the Sunday
# after today. Give every form, "|"-separated, all genders and cases used with weekdays (es
# "próximo|próxima|que viene", de "nächster|nächsten|nächste|kommenden").
NEXT = N_("next")
# Translators: typed before or after a weekday in a date option: "last Sunday" is the latest
# Sunday before today. Every form, "|"-separated (es "pasado|pasada|último|última").
LAST = N_("last|previous")
# Translators: typed before or after a weekday in a date option: "this Sunday" is the coming
# Sunday, today included. Every form, "|"-separated (es "este|esta").
THIS = N_("this|coming")
# Translators: small words people may type around a date in a date option, which the bot skips
# ("on the 19th of March"): articles and prepositions, "|"-separated (es "el|la|de|del|en").
SMALL_WORDS = N_("the|on|of")
# Translators: endings typed right after a day's number in a date option ("19th", fr "1er"),
# "|"-separated; if your language has none, repeat the English.
ORDINAL_ENDINGS = N_("st|nd|rd|th")

RELATIVE = {TODAY: 0, TOMORROW: 1, YESTERDAY: -1, AFTER_TOMORROW: 2, BEFORE_YESTERDAY: -2}
QUALIFIERS = {NEXT: "next", LAST: "last", THIS: "this"}
_WIDTHS: tuple[Literal["wide", "abbreviated"], ...] = ("wide", "abbreviated")
_CONTEXTS: tuple[Literal["format", "stand-alone"], ...] = ("format", "stand-alone")
_NUMBERED_MONTH = re.compile(r"\d+(\D+)")  # Korean months: "3월"


@dataclass(frozen=True, slots=True)
class Names:
    """Month or weekday names (folded) → their number; beginnings of 3+ letters when they
    name one only."""

    exact: Mapping[str, int]
    prefixes: Mapping[str, int | None]  # None: the beginning of two different names

    def lookup(self, word: str) -> int | None:
        if (number := self.exact.get(word)) is not None:
            return number
        if len(word) >= _MIN_PREFIX and (number := self.prefixes.get(word)) is not None:
            return number
        if len(word) > _MIN_STEM:
            return self.prefixes.get(word[:-1])
        return None


@dataclass(frozen=True, slots=True)
class Vocabulary:
    months: Names  # 1 for January
    weekdays: Names  # 0 for Monday
    name_tails: frozenset[str]  # "feira" of "segunda-feira": skipped after its first word
    ignored: frozenset[str]  # "the", "de", "am"
    ordinals: frozenset[str]  # "th", "er", glued to a day's number
    markers: Mapping[str, str]  # a word after a number saying what it is: "년" → "y"
    relative: Mapping[str, int]  # "pasado manana" → 2 (days from today)
    qualifiers: Mapping[str, str]  # "proxima" → "next"
    order: str  # the locale's numeric order: "MDY", "DMY", "YMD"

    def key(self, words: Iterable[str]) -> str:
        """A phrase as compared: its words without the small ones."""
        return " ".join(w for w in words if w not in self.ignored)


def babel_locale(locale: str) -> str:
    """The CLDR locale behind a Discord code (``es-419`` → ``es_419``) or a catalogue code
    (``pt_BR``, ``en``); English (US) for any language the bot does not speak."""
    if locale in SUPPORTED_LOCALES:
        return locale.replace("-", "_")
    if locale in LANGUAGES:
        return locale
    return ENGLISH


def vocabulary(locale: str) -> Vocabulary:
    """What dates typed in ``locale`` (a Discord or catalogue code) may be made of."""
    catalogue = catalogue_locale(locale)
    return _build(babel_locale(locale), catalogue, compiled_catalogues.translations(catalogue))


@lru_cache(maxsize=32)
def _build(cldr: str, catalogue: str, translations: gettext.NullTranslations) -> Vocabulary:
    # Keyed on the catalogue object too: a test that swaps catalogues gets its own words.
    sources = (ENGLISH, cldr) if cldr != ENGLISH else (ENGLISH,)
    markers, pattern_words = _pattern_words(cldr)
    ignored = pattern_words | _alternatives(SMALL_WORDS, catalogue, single=True)
    months, _tails = _names(sources, months=True)
    weekdays, tails = _names(sources, months=False)
    relative = {
        key: offset
        for msgid, offset in RELATIVE.items()
        for key in _phrases(msgid, catalogue, ignored)
    }
    qualifiers = {
        key: kind
        for msgid, kind in QUALIFIERS.items()
        for key in _phrases(msgid, catalogue, ignored)
    }
    return Vocabulary(
        months=months,
        weekdays=weekdays,
        name_tails=tails,
        ignored=ignored,
        ordinals=_alternatives(ORDINAL_ENDINGS, catalogue, single=True),
        markers=markers,
        relative=relative,
        qualifiers=qualifiers,
        order=_order(get_date_format("short", locale=cldr).pattern),
    )


def _alternatives(msgid: str, catalogue: str, *, single: bool = False) -> frozenset[str]:
    """The English and the catalogue's alternatives of ``msgid``, folded."""
    with using_locale(catalogue):
        translated = _(msgid)
    found: set[str] = set()
    for text in {*msgid.split("|"), *translated.split("|")}:
        words = words_of(text)
        if single:
            found.update(words)
        elif words:
            found.add(" ".join(words))
    return frozenset(found)


def _phrases(msgid: str, catalogue: str, ignored: frozenset[str]) -> list[str]:
    keys = (
        " ".join(w for w in p.split() if w not in ignored) for p in _alternatives(msgid, catalogue)
    )
    return [key for key in keys if key]


def _cldr_names(months: bool, cldr: str) -> dict[int, list[str]]:
    """Babel numbers months from 1 and weekdays from Monday 0, as :mod:`datetime` does."""
    found: dict[int, list[str]] = {}
    for width in _WIDTHS:
        for context in _CONTEXTS:
            if months:
                names = get_month_names(width, context, cldr)
            else:
                names = get_day_names(width, context, cldr)
            for number, name in names.items():
                found.setdefault(int(number), []).append(str(name))
    return found


def _names(sources: Iterable[str], *, months: bool) -> tuple[Names, frozenset[str]]:
    """English first, then the locale's, which wins where the same word names another."""
    exact: dict[str, int] = {}
    tails: set[str] = set()
    for cldr in sources:
        for number, names in _cldr_names(months, cldr).items():
            for name in names:
                words = words_of(name)
                if not words or any(w.isdigit() for w in words):
                    continue  # "3월": a number and a marker, read as such
                exact[" ".join(words)] = number
                if len(words) > 1:
                    exact[words[0]] = number  # "segunda" for "segunda-feira"
                    tails.update(words[1:])
    prefixes: dict[str, int | None] = {}
    for name, number in exact.items():
        if " " in name:
            continue
        for end in range(_MIN_PREFIX, len(name) + 1):
            seen = prefixes.setdefault(name[:end], number)
            if seen != number:
                prefixes[name[:end]] = None
    return Names(exact, prefixes), frozenset(tails)


def _pattern_words(cldr: str) -> tuple[dict[str, str], frozenset[str]]:
    """From the locale's written date patterns: words glued after the year or day ("년",
    "일"), what a number followed by them is; and the other words ("de"), to skip."""
    markers: dict[str, str] = {}
    words: set[str] = set()
    for width in ("medium", "long", "full"):
        parts = _pattern_parts(get_date_format(width, locale=cldr).pattern)
        for (field, _text), (_field, literal) in zip([("", ""), *parts], parts, strict=False):
            rest = literal
            if field in ("y", "d") and literal[:1].isalpha():
                marker, _space, rest = literal.partition(" ")
                markers[fold(marker)] = field
            words.update(w for w in words_of(rest) if not w.isdigit())
    months = get_month_names("wide", "format", cldr)
    suffixes = {m[1] for name in months.values() if (m := _NUMBERED_MONTH.fullmatch(str(name)))}
    if len(suffixes) == 1:
        markers[fold(suffixes.pop())] = "m"
    return markers, frozenset(words)


def _pattern_parts(pattern: str) -> list[tuple[str, str]]:
    """``y년 MMMM d일`` → ``[("y", ""), ("", "년 "), ("M", ""), ("", " "), ("d", ""),
    ("", "일")]``: a field's letter, or the literal text between fields."""
    parts: list[tuple[str, str]] = []
    for kind, value in tokenize_pattern(pattern):
        if kind == "field" and isinstance(value, tuple):
            parts.append((str(value[0]), ""))
        elif parts and not parts[-1][0]:
            parts[-1] = ("", parts[-1][1] + str(value))
        else:
            parts.append(("", str(value)))
    return parts


def _order(pattern: str) -> str:
    """``M/d/yy`` → ``MDY``: the order of the fields in a short date pattern."""
    order = ""
    for field, _text in _pattern_parts(pattern):
        letter = field.upper()
        if letter and letter in "DMY" and letter not in order:
            order += letter
    return order if sorted(order) == ["D", "M", "Y"] else "MDY"
