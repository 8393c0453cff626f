"""What Discord would show for an interaction, as plain text.

Reads the messages the offline harness recorded (the JSON discord.py sent): content as typed
(markdown left as is), each embed behind a ``┃`` bar (title, description, fields as
``name: value``, footer), attachments, and every button and select numbered so the console
can act on them (``click 2``, ``select 3 …``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Protocol

from babel import Locale
from babel.dates import format_date, format_time, format_timedelta

from bot.dates.vocabulary import babel_locale

JSON = dict[str, Any]
# (kind, id) -> the name Discord would show: kind "#" a channel, "@" a person, "@&" a role.
Names = Callable[[str, int], str | None]

EPHEMERAL_MARK = "(only you can see this)"
BAR = "┃ "
BUTTON, STRING_SELECT, TEXT_INPUT, TEXT_DISPLAY = 2, 3, 4, 10
ENTITY_SELECTS = {5: "user", 6: "role", 7: "user or role", 8: "channel"}
LINK_STYLE = 5
NO_RESPONSE = "(no response: Discord would show “The application did not respond”)"
NOTHING_CHANGED = "(nothing visible changed)"
# What Discord's client replaces: <t:seconds:style> timestamps and <#id>, <@id>, <@&id> mentions.
_MARKUP = re.compile(r"<t:(-?\d+)(?::([tTdDfFR]))?>|<(#|@!?|@&)(\d+)>")


class ShownMessage(Protocol):
    """A message as the harness holds it (``devtools.discord.SentMessage``)."""

    @property
    def id(self) -> int: ...
    @property
    def payload(self) -> JSON: ...
    @property
    def ephemeral(self) -> bool: ...
    @property
    def loading(self) -> bool: ...


class OpenedModal(Protocol):
    @property
    def title(self) -> str: ...
    @property
    def inputs(self) -> list[JSON]: ...


class InteractionOutcome(Protocol):
    """What one interaction left behind (``devtools.discord.InteractionResult``)."""

    @property
    def visible_messages(self) -> Sequence[ShownMessage]: ...
    @property
    def modal(self) -> OpenedModal | None: ...
    @property
    def callback_type(self) -> int | None: ...


@dataclass(frozen=True)
class Control:
    """A button or select shown as ``[number]``, on the message ``message_id``."""

    number: int
    message_id: int
    component: JSON

    @property
    def is_select(self) -> bool:
        return int(self.component["type"]) != BUTTON

    @property
    def link(self) -> str | None:
        return self.component.get("url") if self.component.get("style") == LINK_STYLE else None


@dataclass
class Rendered:
    lines: list[str] = field(default_factory=list)
    controls: list[Control] = field(default_factory=list)
    modal_inputs: list[JSON] = field(default_factory=list)  # the fields of a form it opened

    @property
    def text(self) -> str:
        return "\n".join(self.lines)


def render_result(
    result: InteractionOutcome, names: Names | None = None, locale: str | None = None
) -> Rendered:
    """Every message the interaction left visible, oldest first, or the form it opened;
    timestamps as Discord's client shows them to a person using ``locale`` (a Discord locale)."""
    rendered = Rendered()
    for message in result.visible_messages:
        if rendered.lines:
            rendered.lines.append("")
        _render_message(message, rendered, names, locale)
    modal = result.modal
    if modal is not None:
        rendered.lines.append(f"(a form opened: {modal.title})")
        rendered.lines.extend(render_modal_inputs(modal.inputs))
        rendered.modal_inputs = list(modal.inputs)
    elif not rendered.lines:
        nothing = result.callback_type is None
        rendered.lines.append(NO_RESPONSE if nothing else NOTHING_CHANGED)
    return rendered


def render_modal_inputs(inputs: Sequence[JSON]) -> list[str]:
    lines = []
    for number, component in enumerate(inputs, start=1):
        label = component.get("label") or component.get("placeholder") or component["custom_id"]
        limits = [] if component.get("required", True) is False else ["required"]
        if component.get("max_length"):
            limits.append(f"{component.get('min_length', 0)}-{component['max_length']} characters")
        suffix = f" ({', '.join(limits)})" if limits else ""
        lines.append(f"  [{number}] {label}{suffix}")
    if len(inputs) == 1:
        lines.append("Fill it in with: submit <text>")
    else:
        lines.append("Fill it in with: submit 1:<text> 2:<text> …")
    return lines


def _render_message(
    message: ShownMessage, into: Rendered, names: Names | None, locale: str | None
) -> None:
    payload = message.payload
    if message.ephemeral:
        into.lines.append(EPHEMERAL_MARK)
    if message.loading:
        into.lines.append("(the bot is thinking…)")
    if payload.get("content"):
        into.lines.append(readable(str(payload["content"]), names, locale))
    for embed in payload.get("embeds") or []:
        into.lines.extend(render_embed(embed, names, locale))
    for attachment in payload.get("attachments") or []:
        into.lines.append(f"[file] {attachment.get('filename')} ({attachment.get('size')} bytes)")
    for component in _walk(payload.get("components") or []):
        line = _render_component(component, len(into.controls) + 1)
        if line is None:
            continue
        if int(component["type"]) != TEXT_DISPLAY:
            into.controls.append(Control(len(into.controls) + 1, message.id, component))
        into.lines.extend(line)


def render_embed(embed: JSON, names: Names | None = None, locale: str | None = None) -> list[str]:
    lines: list[str] = []
    author = (embed.get("author") or {}).get("name")
    if author:
        lines.append(author)
    if embed.get("title"):
        title = str(embed["title"])
        lines.append(f"{title} <{embed['url']}>" if embed.get("url") else title)
    if embed.get("description"):
        if lines:
            lines.append("")
        lines.extend(str(embed["description"]).splitlines())
    for embed_field in embed.get("fields") or []:
        lines.append("")
        name, value = str(embed_field.get("name", "")), str(embed_field.get("value", ""))
        if "\n" in value:
            lines.append(f"{name}:")
            lines.extend(f"  {part}" for part in value.splitlines())
        else:
            lines.append(f"{name}: {value}")
    for key in ("image", "thumbnail"):
        url = (embed.get(key) or {}).get("url")
        if url:
            lines.append(f"{key}: {url}")
    footer = (embed.get("footer") or {}).get("text")
    if footer:
        lines.extend(["", f"— {footer}"])
    return [f"{BAR}{readable(line, names, locale)}".rstrip() for line in lines]


def readable(text: str, names: Names | None = None, locale: str | None = None) -> str:
    """Timestamps and mentions as Discord's client shows them to a person using ``locale``
    (a Discord locale the bot speaks; US English when None), times in UTC."""

    def replace(match: re.Match[str]) -> str:
        seconds, style, kind, ident = match.groups()
        if seconds is not None:
            cldr = Locale.parse(babel_locale(locale or "en-US"))
            return _timestamp(int(seconds), style, cldr)
        kind = "@" if kind == "@!" else kind
        name = names(kind, int(ident)) if names is not None else None
        return match.group(0) if name is None else f"{kind.rstrip('&')}{name}"

    return _MARKUP.sub(replace, text)


def _timestamp(seconds: int, style: str | None, locale: Locale) -> str:
    """Discord's styles: d 12/3/26, D December 3, 2026, t 2:37 PM, T 2:37:05 PM, f (the
    default) the long date and short time, F with the weekday, R "in 3 hours"."""
    when = datetime.fromtimestamp(seconds, UTC)
    return _discord_spaces(_formatted(when, style, locale))


def _discord_spaces(text: str) -> str:
    """CLDR puts a narrow no-break space before "PM"; a terminal shows a plain one better."""
    return text.replace("\u202f", " ").replace("\xa0", " ")


def _formatted(when: datetime, style: str | None, locale: Locale) -> str:
    if style == "R":
        return format_timedelta(when - datetime.now(UTC), add_direction=True, locale=locale)
    if style in ("d", "D"):
        return format_date(when, "short" if style == "d" else "long", locale=locale)
    if style in ("t", "T"):
        return f"{format_time(when, 'short' if style == 't' else 'medium', locale=locale)} UTC"
    date_format = "full" if style == "F" else "long"
    day = format_date(when, date_format, locale=locale)
    return f"{day} {format_time(when, 'short', locale=locale)} UTC"


def _render_component(component: JSON, number: int) -> list[str] | None:
    kind = int(component.get("type", 0))
    if kind == TEXT_DISPLAY:
        return str(component.get("content", "")).splitlines()
    if kind == BUTTON:
        if component.get("sku_id"):
            return None  # a premium button: nothing to press offline
        label = " ".join(filter(None, [_emoji(component), component.get("label")]))
        line = f"[{number}] {label or '(button)'}"
        if component.get("style") == LINK_STYLE:
            line += f" → {component.get('url')}"
        return [line + (" (disabled)" if component.get("disabled") else "")]
    if kind == STRING_SELECT:
        return _render_select(component, number)
    if kind in ENTITY_SELECTS:
        return [f"[{number}] {ENTITY_SELECTS[kind]} menu: {component.get('placeholder') or ''}"]
    return None


def _render_select(component: JSON, number: int) -> list[str]:
    low, high = component.get("min_values", 1), component.get("max_values", 1)
    pick = f"pick {low}" if low == high else f"pick {low}-{high}"
    placeholder = component.get("placeholder") or "menu"
    disabled = " (disabled)" if component.get("disabled") else ""
    lines = [f"[{number}] {placeholder} ({pick}){disabled}:"]
    for index, option in enumerate(component.get("options") or [], start=1):
        label = " ".join(filter(None, [_emoji(option), option.get("label")]))
        description = f" — {option['description']}" if option.get("description") else ""
        lines.append(f"      {index}) {label}{description}")
    return lines


def _emoji(component: JSON) -> str | None:
    emoji = component.get("emoji") or {}
    return None if emoji.get("id") else emoji.get("name")


def _walk(components: list[JSON]) -> Iterator[JSON]:
    """Every component in display order, through action rows, sections and containers."""
    for component in components:
        if int(component.get("type", 0)) != TEXT_INPUT:
            yield component
        yield from _walk(component.get("components") or [])
        for key in ("accessory", "component"):
            if isinstance(component.get(key), dict):
                yield from _walk([component[key]])
