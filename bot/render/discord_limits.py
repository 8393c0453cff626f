"""Discord's hard limits (lengths count code points), and checks that a payload honours them.

One limit broken fails the whole message with error 50035, so builders enforce these and the
tests check every payload with :func:`check_message_embeds`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import discord

# Embeds
EMBED_TITLE = 256
EMBED_DESCRIPTION = 4096
EMBED_FIELDS = 25
FIELD_NAME = 256
FIELD_VALUE = 1024
EMBED_FOOTER = 2048
EMBED_AUTHOR = 256
EMBEDS_TOTAL = 6000  # across all embeds of one message
EMBEDS_PER_MESSAGE = 10

# Messages and components
MESSAGE_CONTENT = 2000
ACTION_ROWS = 5
BUTTONS_PER_ROW = 5
BUTTON_LABEL = 80
SELECT_OPTIONS = 25
SELECT_OPTION_LABEL = 100
SELECT_OPTION_DESCRIPTION = 100
SELECT_OPTION_VALUE = 100
CUSTOM_ID = 100
LINK_URL = 512

# Modals and autocomplete
MODAL_TITLE = 45
TEXT_INPUT = 4000


def _counted_parts(data: dict[str, Any]) -> list[str]:
    """The strings Discord adds up for the 6000 limit."""
    parts = [data.get("title"), data.get("description")]
    parts.append((data.get("footer") or {}).get("text"))
    parts.append((data.get("author") or {}).get("name"))
    for field in data.get("fields") or []:
        parts += [field.get("name"), field.get("value")]
    return [p for p in parts if isinstance(p, str)]


def embed_size(embed: discord.Embed) -> int:
    """Characters of ``embed`` that count towards :data:`EMBEDS_TOTAL`."""
    return sum(len(p) for p in _counted_parts(dict(embed.to_dict())))


def _length_problems(data: dict[str, Any], where: str) -> list[str]:
    checks: list[tuple[str, Any, int]] = [
        ("title", data.get("title"), EMBED_TITLE),
        ("description", data.get("description"), EMBED_DESCRIPTION),
        ("footer", (data.get("footer") or {}).get("text"), EMBED_FOOTER),
        ("author", (data.get("author") or {}).get("name"), EMBED_AUTHOR),
    ]
    return [
        f"{where}: {name} has {len(value)} characters (limit {limit})"
        for name, value, limit in checks
        if isinstance(value, str) and len(value) > limit
    ]


def _field_problems(data: dict[str, Any], where: str) -> list[str]:
    fields = data.get("fields") or []
    problems = []
    if len(fields) > EMBED_FIELDS:
        problems.append(f"{where}: {len(fields)} fields (limit {EMBED_FIELDS})")
    for i, field in enumerate(fields):
        for key, limit in (("name", FIELD_NAME), ("value", FIELD_VALUE)):
            value = field.get(key)
            if not isinstance(value, str) or not value.strip():
                problems.append(f"{where}: field {i} {key} is empty")
            elif len(value) > limit:
                problems.append(f"{where}: field {i} {key} has {len(value)} (limit {limit})")
    return problems


def check_embed(embed: discord.Embed, where: str = "embed") -> list[str]:
    """Every limit ``embed`` breaks on its own, as readable problems (empty when valid)."""
    data = dict(embed.to_dict())
    problems = _length_problems(data, where) + _field_problems(data, where)
    if not _counted_parts(data) and not data.get("image") and not data.get("thumbnail"):
        problems.append(f"{where}: empty embed")
    size = embed_size(embed)
    if size > EMBEDS_TOTAL:
        problems.append(f"{where}: {size} characters (limit {EMBEDS_TOTAL})")
    return problems


def check_message_embeds(embeds: Sequence[discord.Embed], content: str | None = None) -> list[str]:
    """Every limit one message carrying ``embeds`` (and ``content``) would break."""
    problems: list[str] = []
    if len(embeds) > EMBEDS_PER_MESSAGE:
        problems.append(f"{len(embeds)} embeds (limit {EMBEDS_PER_MESSAGE})")
    for i, embed in enumerate(embeds):
        problems += check_embed(embed, f"embed {i}")
    total = sum(embed_size(e) for e in embeds)
    if total > EMBEDS_TOTAL:
        problems.append(f"{total} characters across embeds (limit {EMBEDS_TOTAL})")
    if content is not None and len(content) > MESSAGE_CONTENT:
        problems.append(f"content has {len(content)} characters (limit {MESSAGE_CONTENT})")
    return problems


def check_view(view: discord.ui.View) -> list[str]:
    """Component limits a view breaks: rows, labels, custom ids, select options, link URLs."""
    problems: list[str] = []
    rows = view.to_components()
    if len(rows) > ACTION_ROWS:
        problems.append(f"{len(rows)} action rows (limit {ACTION_ROWS})")
    for row in rows:
        for item in row.get("components", []):
            problems += _component_problems(item)
    return problems


def _component_problems(item: dict[str, Any]) -> list[str]:
    checks: list[tuple[str, Any, int]] = [
        ("label", item.get("label"), BUTTON_LABEL),
        ("custom_id", item.get("custom_id"), CUSTOM_ID),
        ("url", item.get("url"), LINK_URL),
    ]
    options = item.get("options") or []
    problems = [f"{len(options)} select options"] if len(options) > SELECT_OPTIONS else []
    for option in options:
        checks += [
            ("option label", option.get("label"), SELECT_OPTION_LABEL),
            ("option description", option.get("description"), SELECT_OPTION_DESCRIPTION),
            ("option value", option.get("value"), SELECT_OPTION_VALUE),
        ]
    problems += [
        f"{name} has {len(value)} characters (limit {limit})"
        for name, value, limit in checks
        if isinstance(value, str) and len(value) > limit
    ]
    return problems


def message_batches(embeds: Sequence[discord.Embed]) -> list[list[discord.Embed]]:
    """``embeds`` in order, as few messages as Discord allows: at most 10 embeds and 6000
    characters across the embeds of each (every embed is assumed to fit on its own)."""
    batches: list[list[discord.Embed]] = []
    size = 0
    for embed in embeds:
        this = embed_size(embed)
        if not batches or len(batches[-1]) >= EMBEDS_PER_MESSAGE or size + this > EMBEDS_TOTAL:
            batches.append([])
            size = 0
        batches[-1].append(embed)
        size += this
    return batches
