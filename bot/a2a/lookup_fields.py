"""A profile's facts and links, flattened out of whatever nesting the upstream sent.

Every object is read by key, in the order :mod:`bot.a2a.lookup_order` chooses, never in the
order its members arrived: the same profile always gives the same fields, the same phrases
and the same links, each link with the same role.
"""

from __future__ import annotations

from typing import Any

from bot.a2a.lookup_links import link_of
from bot.a2a.lookup_order import ordered_items, periods
from bot.a2a.lookup_values import ID_KEYS, Json, first_text, label, scalar_text
from bot.a2a.lookups import LookupKind, ProfileField, ProfileLink

MAX_LINKS = 25
NAME_KEYS = ("name", "full_name", "display_name", "title", "label")
LINK_NAME_KEYS = ("name", "full_name", "display_name")
IMAGE_KEYS = ("image_url", "image", "thumbnail_url", "thumbnail", "portrait", "photo", "picture")
PERIOD_DASH = "–"


def period_text(raw: Json, start: str, end: str) -> str | None:
    """``1964–1978``; ``2021–`` while it lasts; ``–1978`` when only its end is known."""
    first, last = scalar_text(raw.get(start)), scalar_text(raw.get(end))
    if first is None and last is None:
        return None
    return f"{first or ''}{PERIOD_DASH}{last or ''}"


def _unnamed_facts(raw: Json) -> list[str]:
    """``Label: text`` of each scalar member: its key says what it is (``From: 1964``)."""
    return [
        f"{label(key)}: {text}"
        for key, value in ordered_items(raw)
        if key not in ID_KEYS and (text := scalar_text(value)) is not None
    ]


def _named_facts(raw: Json) -> list[str]:
    """The facts beside a name, unlabelled: a period is one fact (``1964–1978``), at the place
    of its first key, so its ends can never swap."""
    pairs = periods(raw)
    facts: list[str] = []
    done: set[tuple[str, str]] = set()
    for key, value in ordered_items(raw):
        if key in (*ID_KEYS, *NAME_KEYS, "type", "kind") or key.startswith(IMAGE_KEYS):
            continue
        if (pair := pairs.get(key)) is not None:
            text = None if pair in done else period_text(raw, *pair)
            done.add(pair)
        else:
            text = scalar_text(value)
        if text is not None:
            facts.append(text)
    return facts


def summarise(raw: Json) -> str | None:
    """One nested object as a short phrase: its name, then its other facts in brackets."""
    name = first_text(raw, NAME_KEYS)
    if name is None:
        return ", ".join(_unnamed_facts(raw)) or None
    rest = _named_facts(raw)
    return f"{name} ({', '.join(rest)})" if rest else name


class Collector:
    """Walks a profile's members into fields and links, in the bot's own order."""

    def __init__(self, kind: LookupKind) -> None:
        self.kind = kind
        self.fields: list[ProfileField] = []
        self.links: list[ProfileLink] = []
        self._seen: set[tuple[LookupKind, str]] = set()

    def add_link(self, key: str, raw: Json, role: str) -> None:
        link = link_of(key, raw, role)
        if link is None or len(self.links) == MAX_LINKS:
            return
        identity = (link.kind, link.id or link.name.casefold())
        if identity not in self._seen:  # named twice: the role of the first, in field order
            self._seen.add(identity)
            self.links.append(link)

    def walk(self, key: str, value: Any, prefix: str = "") -> None:
        name = f"{prefix} · {label(key)}" if prefix else label(key)
        if isinstance(value, dict):
            self._walk_dict(key, value, name)
        elif isinstance(value, list):
            self._walk_list(key, value, name)
        elif (text := scalar_text(value)) is not None:
            self.fields.append(ProfileField(name=name, value=text))

    def _walk_dict(self, key: str, value: Json, name: str) -> None:
        if any(k in value for k in LINK_NAME_KEYS):
            self.add_link(key, value, name)
            if (summary := summarise(value)) is not None:
                self.fields.append(ProfileField(name=name, value=summary))
            return
        for inner_key, inner in ordered_items(value):
            if inner_key not in ID_KEYS:
                self.walk(inner_key, inner, name)

    def _walk_list(self, key: str, value: list[Any], name: str) -> None:
        items: list[str] = []
        for item in value:
            if isinstance(item, dict):
                self.add_link(key, item, name)
                text = summarise(item)
            else:
                text = scalar_text(item)
            if text:
                items.append(text)
        if not items:
            return
        joiner = "\n" if any(isinstance(i, dict) for i in value) else ", "
        self.fields.append(ProfileField(name=name, value=joiner.join(items)))
