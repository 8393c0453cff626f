"""Benchmark: how long reading a typed date and building its autocomplete take, per locale.

Run by hand from the repository root (offline, a second or two):

    .venv/bin/python bench/date_parsing.py [--calls 2000]

For each of the bot's locales it prints, in microseconds per call:
  first    the first resolve() of the process in that locale: builds its vocabulary from
           Babel's CLDR data and the catalogue (Babel's own data loads on the first locale);
  rebuilt  the same after clearing the vocabulary caches, Babel's data already loaded
           (median of 20);
  resolve  warm resolve() over a mix of inputs typed in that language (relative words,
           weekdays with next/last, written and numeric dates, nonsense);
  suggest  warm suggestions() over the same inputs, and for "" (all 24 named days).
Discord gives autocomplete 3 s in all; these figures are what the bot itself adds.
"""

from __future__ import annotations

import argparse
import datetime as dt
import statistics
import time
from collections.abc import Callable

from bot.dates import resolve, suggest, suggestions, text, vocabulary
from bot.i18n import using_locale
from bot.i18n.locales import SUPPORTED_LOCALES, catalogue_locale

TODAY = dt.date(2026, 11, 30)
INPUTS: dict[str, list[str]] = {
    "en-US": ["tomorrow", "next sunday", "last mon", "03/04", "March 19th, 2027", "banana"],
    "en-GB": ["today", "next friday", "03/04", "19 March", "19/03/2027", "tom"],
    "ko": ["내일", "다음 주 일요일", "지난 금요일", "3월 19일", "2026. 3. 19.", "바나나"],
    "es-ES": ["mañana", "el próximo domingo", "domingo pasado", "19 de marzo", "19/03", "dom"],
    "es-419": ["antier", "próximo sábado", "viernes", "1º de enero", "03/04", "banana"],
    "pt-BR": ["amanhã", "próxima segunda-feira", "sexta passada", "19 de março", "03/04", "seg"],
    "it": ["domani", "domenica prossima", "lunedì scorso", "19 marzo", "19/03/27", "dom"],
    "fr": ["demain", "lundi prochain", "dimanche dernier", "mercredi 19 mars", "03/04", "lun"],
    "de": ["morgen", "nächsten Sonntag", "letzten Freitag", "19. März 2027", "19.03.", "so"],
    "pl": ["jutro", "w przyszłą niedzielę", "w zeszły piątek", "19 marca", "19.03", "pon"],
}


def _clear() -> None:
    vocabulary._build.cache_clear()
    suggest._label_keys.cache_clear()
    text.fold.cache_clear()


def _each(calls: int, work: Callable[[], object]) -> float:
    """Microseconds per call of ``work``, over ``calls`` calls."""
    start = time.perf_counter_ns()
    for _ in range(calls):
        work()
    return (time.perf_counter_ns() - start) / calls / 1000


def _once(work: Callable[[], object]) -> float:
    start = time.perf_counter_ns()
    work()
    return (time.perf_counter_ns() - start) / 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=2000, help="warm calls per figure")
    calls = parser.parse_args().calls
    print(f"{'locale':8} {'first':>9} {'rebuilt':>9} {'resolve':>9} {'suggest':>9} {'all 24':>9}")
    for locale in SUPPORTED_LOCALES:
        inputs = INPUTS[locale]

        def read_all(inputs: list[str] = inputs, locale: str = locale) -> None:
            for typed in inputs:
                resolve(typed, today=TODAY, locale=locale)

        def suggest_all(inputs: list[str] = inputs, locale: str = locale) -> None:
            for typed in inputs:
                suggestions(typed, today=TODAY, locale=locale)

        with using_locale(catalogue_locale(locale)):  # as an interaction in that language
            first = _once(lambda locale=locale: resolve("tomorrow", today=TODAY, locale=locale))
            rebuilt = []
            for _ in range(20):
                _clear()
                rebuilt.append(
                    _once(lambda loc=locale: resolve("tomorrow", today=TODAY, locale=loc))
                )
            suggest_all()  # warm the label caches
            warm_resolve = _each(calls, read_all) / len(inputs)
            warm_suggest = _each(max(calls // 10, 1), suggest_all) / len(inputs)
            everything = _each(
                max(calls // 10, 1), lambda loc=locale: suggestions("", today=TODAY, locale=loc)
            )
        print(
            f"{locale:8} {first:9.0f} {statistics.median(rebuilt):9.0f} "
            f"{warm_resolve:9.1f} {warm_suggest:9.1f} {everything:9.1f}"
        )
    print("(microseconds per call)")


if __name__ == "__main__":
    main()
