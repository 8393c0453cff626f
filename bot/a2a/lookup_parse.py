"""Reading the lookup skills' undocumented artifacts, defensively.

Nothing here trusts a shape: the profile may sit at the top of a data part or under a wrapper
key, keys may be snake_case or camelCase, numbers may arrive as floats or strings, any
field may be missing, and members may come in any order (everything is read by key; facts are
shown in :mod:`bot.a2a.lookup_order`'s order). What cannot be read is left out, never raised.
"""

from __future__ import annotations

import re
from typing import Any

from bot.a2a.lookup_fields import IMAGE_KEYS, MAX_LINKS, NAME_KEYS, Collector
from bot.a2a.lookup_order import ordered_items
from bot.a2a.lookup_values import (
    ID_KEYS,
    Json,
    first_text,
    normalised,
    safe_image_url,
    scalar_text,
    year_rows,
)
from bot.a2a.lookups import (
    Candidate,
    Candidates,
    DioceseStatistics,
    LookupKind,
    Profile,
    YearRow,
)
from bot.a2a.models import Task
from bot.a2a.results import NotFound

NOT_FOUND_TEXT = re.compile(r"^\s*no\b.*\bfound\b", re.IGNORECASE)
MAX_NOT_FOUND = 300  # longer, "No record of her birth was found…" is a biography, not a refusal
WRAPPERS = ("result", "profile", "data", "item", "record", "entry")
CANDIDATE_KEYS = ("candidates", "matches", "results", "options", "choices")
TEXT_KEYS = ("biography", "bio", "summary", "description", "life", "text", "about")
STATISTICS_KEYS = ("statistics", "stats", "headline_statistics", "series", "years", "rows")
SUMMARY_KEYS = ("summary", "description", "title", "status", "dates", "years", "country")

__all__ = ["MAX_LINKS", "parse_lookup", "parse_statistics"]

# --- finding the payload ------------------------------------------------------------------------


def _data(task: Task) -> Json:
    """Every data part merged into one dict, keys in snake_case (later parts win)."""
    merged: Json = {}
    for part in task.data_parts():
        keyed = normalised(part)
        if isinstance(keyed, dict):
            merged.update(keyed)
    return merged


def _single(value: Any) -> Json | None:
    """A non-empty dict, or the one dict of a one-item list (``{"result": [{...}]}``)."""
    if isinstance(value, list) and len(value) == 1:
        value = value[0]
    return value if isinstance(value, dict) and value else None


def _unwrap(raw: Json, kind: LookupKind | None) -> Json:
    """The profile itself when it sits under a wrapper key (``{"saint": {...}}``)."""
    wrappers = (*WRAPPERS, kind.value) if kind else WRAPPERS
    for _ in range(3):
        if first_text(raw, NAME_KEYS) is not None:
            break
        inner = next((v for k in wrappers if (v := _single(raw.get(k))) is not None), None)
        only = next(iter(raw.values())) if len(raw) == 1 else None
        if inner is None and isinstance(only, dict):
            inner = only
        if inner is None:
            break
        raw = inner
    return raw


def _text(task: Task) -> str:
    return "\n\n".join(t.strip() for t in task.text_parts() if t and t.strip())


def _says_not_found(text: str) -> bool:
    return len(text) <= MAX_NOT_FOUND and NOT_FOUND_TEXT.match(text) is not None


def _not_found(task: Task, data: Json, skill: str, query: str) -> NotFound | None:
    text = _text(task)
    if data and any(v not in (None, "", [], {}) for v in data.values()):
        return None
    if not text or _says_not_found(text):
        message = text or "Nothing found."
        return NotFound(
            skill=skill, query=query, message=message, task_id=task.id, context_id=task.context_id
        )
    return None


# --- candidates ---------------------------------------------------------------------------------


def _candidate(raw: Any) -> Candidate | None:
    if isinstance(raw, str):
        name = scalar_text(raw)
        return Candidate(name=name) if name else None
    if not isinstance(raw, dict):
        return None
    raw = normalised(raw)
    name = first_text(raw, NAME_KEYS)
    if name is None:
        return None
    rest = {k: v for k, v in raw.items() if scalar_text(v) != name}
    summary = first_text(rest, SUMMARY_KEYS)
    return Candidate(name=name, id=first_text(raw, ID_KEYS), summary=summary)


def _candidates(data: Json) -> list[Candidate] | None:
    for key in CANDIDATE_KEYS:
        value = data.get(key)
        if isinstance(value, list) and value:
            found = [c for c in (_candidate(item) for item in value) if c is not None]
            return _dedupe_candidates(found)
    return None


def _dedupe_candidates(found: list[Candidate]) -> list[Candidate]:
    seen: set[str] = set()
    unique = []
    for candidate in found:
        key = candidate.id or candidate.name.casefold()
        if key not in seen:
            seen.add(key)
            unique.append(candidate)
    return unique


# --- statistics ---------------------------------------------------------------------------------


def _statistics_of(raw: Json) -> tuple[str | None, list[YearRow], list[str]]:
    listed = raw.get("metrics")
    order: list[Any] = listed if isinstance(listed, list) else []
    for key in STATISTICS_KEYS:
        rows, metrics = year_rows(raw.get(key), order)
        if rows:
            return key, rows, metrics
    return None, [], []


# --- the parsers --------------------------------------------------------------------------------


def parse_lookup(task: Task, kind: LookupKind, query: str) -> Profile | Candidates | NotFound:
    data = _data(task)
    if (missing := _not_found(task, data, kind.skill, query)) is not None:
        return missing
    profile = _unwrap(data, kind)
    named = first_text(profile, NAME_KEYS) is not None
    candidates = _candidates(data) or _candidates(profile)
    if candidates and (len(candidates) > 1 or not named):
        return Candidates(
            kind=kind,
            query=query,
            message=_text(task),
            candidates=candidates,
            task_id=task.id,
            context_id=task.context_id,
        )
    text = _text(task)
    if not named and (not text or _says_not_found(text)):
        return NotFound(
            skill=kind.skill,
            query=query,
            message=text or "Nothing found.",
            task_id=task.id,
            context_id=task.context_id,
        )
    return _profile(task, kind, query, profile)


def _profile(task: Task, kind: LookupKind, query: str, raw: Json) -> Profile:
    text = _text(task)
    name_keys = ("name", "full_name", "display_name", "label", "title")
    title = first_text(raw, name_keys) or _heading(text) or query
    used = {k for k in name_keys if scalar_text(raw.get(k)) == title}
    image_url = next((u for k in IMAGE_KEYS if (u := safe_image_url(raw.get(k)))), None)
    stats_key, statistics, metrics = _statistics_of(raw)
    if not text:
        text_key = next((k for k in TEXT_KEYS if scalar_text(raw.get(k))), None)
        if text_key is not None:
            text = str(raw[text_key]).strip()
            used.add(text_key)
    skip = used | set(ID_KEYS) | set(IMAGE_KEYS) | {stats_key, "metrics"}
    collector = Collector(kind)
    for key, value in ordered_items(raw):
        if key in skip or key in CANDIDATE_KEYS:
            continue
        collector.walk(key, value)
    return Profile(
        kind=kind,
        query=query,
        id=first_text(raw, ID_KEYS),
        title=title,
        text=text,
        fields=collector.fields,
        image_url=image_url,
        links=collector.links,
        statistics=statistics,
        statistics_metrics=metrics,
        task_id=task.id,
        context_id=task.context_id,
    )


def _heading(text: str) -> str | None:
    for raw_line in text.splitlines():
        line = raw_line.strip()
        stripped = line.lstrip("#").strip().strip("*").strip()
        if stripped:
            bold = line.startswith("**") and line.endswith("**")  # not "**Name** was born…"
            return stripped if line.startswith("#") or bold else None
    return None


def parse_statistics(task: Task, query: str) -> DioceseStatistics | NotFound:
    data = _data(task)
    raw = _unwrap(data, None) if not _statistics_of(data)[1] else data
    _, rows, metrics = _statistics_of(raw)
    if not rows:
        listed = raw.get("metrics")
        rows, metrics = year_rows(raw, listed if isinstance(listed, list) else ())
    if not rows:
        message = _text(task) or "No diocese statistics found."
        return NotFound(
            skill="diocese_statistics_lookup",
            query=query,
            message=message,
            task_id=task.id,
            context_id=task.context_id,
        )
    nested = raw.get("diocese")
    diocese: Json = nested if isinstance(nested, dict) else raw
    return DioceseStatistics(
        query=query,
        diocese_id=first_text(diocese, ID_KEYS),
        diocese_name=first_text(diocese, ("name", "full_name", "display_name", "title")),
        text=_text(task),
        metrics=metrics,
        rows=rows,
        task_id=task.id,
        context_id=task.context_id,
    )
