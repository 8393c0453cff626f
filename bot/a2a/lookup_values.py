"""Values out of undocumented JSON: keys, display text, numbers, URLs and yearly rows."""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Iterator
from typing import Any

from bot.a2a.lookup_order import ordered_metrics
from bot.a2a.lookups import YearRow

Json = dict[str, Any]

ID_KEYS = ("id", "canonical_id", "slug", "uid", "identifier")
YEAR_KEYS = ("year", "yr", "date")
MAX_URL = 2048

_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")


def snake(key: str) -> str:
    """``feastDay`` → ``feast_day``; ``Feast Day`` → ``feast_day``."""
    return re.sub(r"[\s\-]+", "_", _CAMEL.sub("_", key.strip())).casefold()


def label(key: str) -> str:
    """A field label from a key: ``feast_day`` → ``Feast day``."""
    words = snake(key).replace("_", " ").strip()
    return words[:1].upper() + words[1:] if words else "?"


def normalised(raw: Any) -> Any:
    """``raw`` with every dict key in snake_case, recursively.

    Keys that meet in snake_case (``feastDay`` and ``feast_day``) keep one value whatever the
    members' order: the key already in snake_case, else the first by name.
    """
    if isinstance(raw, dict):
        keyed: Json = {}
        for key in sorted(raw, key=lambda k: (snake(str(k)) != str(k), str(k))):
            keyed.setdefault(snake(str(key)), normalised(raw[key]))
        return keyed
    if isinstance(raw, list):
        return [normalised(v) for v in raw]
    return raw


def scalar_text(value: Any) -> str | None:
    """A scalar as display text; None for containers, blanks and non-finite numbers."""
    if value is None or isinstance(value, dict | list):
        return None
    if isinstance(value, bool):
        return "Yes" if value else "No"
    if isinstance(value, float):
        if not math.isfinite(value):
            return None
        if value.is_integer():
            value = int(value)  # protobuf-based peers send every integer as a float
    if isinstance(value, int) and abs(value) >= 10_000:
        return f"{value:,}"  # counts; years (< 10,000) keep their plain digits
    text = " ".join(str(value).split())
    return text or None


def number(value: Any) -> float | None:
    """A metric value as a float, or None when it is missing or not a number."""
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, int | float):
        try:
            parsed = float(value)
        except OverflowError:  # a JSON integer beyond any float
            return None
        return parsed if math.isfinite(parsed) else None
    if isinstance(value, str):
        cleaned = value.strip().replace(",", "").replace("\u202f", "").replace(" ", "")
        try:
            parsed = float(cleaned.rstrip("%"))
        except ValueError:
            return None
        return parsed if math.isfinite(parsed) else None
    return None


def first_text(raw: Json, keys: Iterable[str]) -> str | None:
    for key in keys:
        if (text := scalar_text(raw.get(key))) is not None:
            return text
    return None


def safe_image_url(value: Any) -> str | None:
    """An http(s) image URL, or None: Discord would refuse anything else, and a
    ``javascript:`` or ``data:`` URL has no business in an embed."""
    if isinstance(value, dict):
        value = value.get("url") or value.get("src") or value.get("href")
    if not isinstance(value, str):
        return None
    url = value.strip()
    if len(url) > MAX_URL or any(ch.isspace() or not ch.isprintable() for ch in url):
        return None
    scheme, sep, rest = url.partition("://")
    # lower(), not casefold(): "httpſ".casefold() == "https"
    scheme = scheme.lower()
    if not sep or scheme not in ("http", "https") or not rest or rest[0] == "/":
        return None
    return f"{scheme}://{rest}"


def _year(raw: Json) -> int | None:
    for key in YEAR_KEYS:
        value = raw.get(key)
        if isinstance(value, bool):
            continue
        year = number(value) if isinstance(value, int | float) else None
        if year is not None and 0 < year < 10_000:  # not epoch seconds, not 10**400
            return int(year)
        if isinstance(value, str) and (match := re.match(r"\s*(\d{4})", value)):
            return int(match[1])
    return None


def _year_items(value: Any) -> Iterator[tuple[int, Json]]:
    if isinstance(value, list):
        for item in value:
            if isinstance(item, dict) and (year := _year(item)) is not None:
                yield year, item
    elif isinstance(value, dict):
        for key in sorted(value, key=str):  # " 2020" and "2020" merge the same either way
            item = value[key]
            if isinstance(item, dict) and re.fullmatch(r"\d{4}", str(key).strip()):
                yield int(str(key).strip()), item


def year_rows(value: Any, order: Iterable[str] = ()) -> tuple[list[YearRow], list[str]]:
    """Rows by year (ascending, one per year) and their metric keys: those of ``order`` (the
    upstream's own list) first, then the others as :func:`ordered_metrics` puts them."""
    listed = [key for m in order if isinstance(m, str) and (key := snake(m))]
    by_year: dict[int, dict[str, float | None]] = {}
    for year, item in _year_items(value):
        values: dict[str, float | None] = {}
        for key, raw in normalised(item).items():
            if not key or key in (*YEAR_KEYS, *ID_KEYS) or isinstance(raw, dict | list | bool):
                continue
            if raw is not None and number(raw) is None:
                continue  # a label such as "currency", not a metric
            values[key] = number(raw)
        if values:  # a row of labels only (an event, a note) carries no numbers
            by_year.setdefault(year, {}).update(values)
    seen = {key for values in by_year.values() for key in values}
    rows = [YearRow(year=y, values=v) for y, v in sorted(by_year.items())]
    return rows, ordered_metrics(listed, seen)
