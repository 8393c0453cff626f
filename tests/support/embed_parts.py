"""Assertions on where a text is shown in an embed, instead of substring checks on a repr.

``"x" in str(embeds)`` cannot tell a title from a footer, passes on a key name or an escaped
character, and fails on text the repr escapes. These read the JSON Discord would receive
(``SentMessage.embeds``, ``InteractionResult.embeds``): a list of embed objects.

    assert_shown("Grace", result.embeds, "title")
    assert field_value(result.embeds[0], "Feast day") == "1 November"
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Literal

JSON = Mapping[str, Any]
Part = Literal["title", "description", "footer", "author", "field_name", "field_value", "url"]
PARTS: tuple[Part, ...] = (
    "title",
    "description",
    "footer",
    "author",
    "field_name",
    "field_value",
    "url",
)


def parts_of(embed: JSON) -> dict[Part, list[str]]:
    """Every text of ``embed``, by the part of the embed that shows it."""
    fields = embed.get("fields") or []
    found: dict[Part, list[str | None]] = {
        "title": [embed.get("title")],
        "description": [embed.get("description")],
        "footer": [(embed.get("footer") or {}).get("text")],
        "author": [(embed.get("author") or {}).get("name")],
        "field_name": [field.get("name") for field in fields],
        "field_value": [field.get("value") for field in fields],
        "url": [embed.get("url")],
    }
    return {
        part: [text for text in texts if isinstance(text, str)] for part, texts in found.items()
    }


def shown(embeds: Iterable[JSON], part: Part) -> list[str]:
    """The texts in ``part`` of each embed, in order."""
    return [text for embed in embeds for text in parts_of(embed)[part]]


def everything_shown(embeds: Iterable[JSON]) -> list[str]:
    """Every text of every part of every embed (for "nowhere in the message" assertions)."""
    return [text for embed in embeds for texts in parts_of(embed).values() for text in texts]


def assert_shown(text: str, embeds: Iterable[JSON], part: Part) -> None:
    """``text`` appears inside ``part`` of one of ``embeds``; else fail naming what is there."""
    texts = shown(list(embeds), part)
    assert any(text in candidate for candidate in texts), (
        f"{text!r} is in no embed's {part}; the {part}s are {texts!r}"
    )


def assert_not_shown(text: str, embeds: Iterable[JSON]) -> None:
    """``text`` appears in no part of any of ``embeds``."""
    embeds = list(embeds)
    where = [
        (part, candidate)
        for embed in embeds
        for part, texts in parts_of(embed).items()
        for candidate in texts
        if text in candidate
    ]
    assert not where, f"{text!r} is shown in {where!r}"


def field_value(embed: JSON, name: str) -> str:
    """The value of the one field of ``embed`` whose name is ``name``."""
    fields = embed.get("fields") or []
    values = [field.get("value") for field in fields if field.get("name") == name]
    names = [field.get("name") for field in fields]
    assert len(values) == 1, f"{len(values)} fields named {name!r}; the fields are {names!r}"
    value = values[0]
    assert isinstance(value, str)
    return value
