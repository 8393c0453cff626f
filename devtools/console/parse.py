"""Reading a console line the way Discord's client reads a slash command.

``/ask question:What is grace? private:true`` becomes the command ``ask`` with its options,
split on `` name:`` boundaries using the command's real option names and converted by option
type, all read from the command's translated payload (what ``python -m bot sync`` uploads).
Under a locale, the names Discord shows a person using that language are typed too
(``/lectures date:demain`` under ``fr``); the English ones still work. Anything Discord's
client would not let a person send is a :class:`ConsoleInputError` with one line that says
what exists instead.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from discord import AppCommandType, app_commands

# Discord's ApplicationCommandOptionType values.
SUB_COMMAND, SUB_COMMAND_GROUP = 1, 2
STRING, INTEGER, BOOLEAN, NUMBER = 3, 4, 5, 10
USER, CHANNEL, ROLE, MENTIONABLE, ATTACHMENT = 6, 7, 8, 9, 11
ENTITY_TYPES = frozenset({USER, CHANNEL, ROLE, MENTIONABLE, ATTACHMENT})

_TRUE = frozenset({"true", "yes", "on", "1"})
_FALSE = frozenset({"false", "no", "off", "0"})
_TYPE_HINTS = {
    STRING: "text",
    INTEGER: "whole number",
    BOOLEAN: "true|false",
    NUMBER: "number",
    USER: "user",
    CHANNEL: "#channel",
    ROLE: "role",
    MENTIONABLE: "user or role",
    ATTACHMENT: "file",
}


class ConsoleInputError(ValueError):
    """A line Discord's client would not send; the message is one helpful line."""


@dataclass(frozen=True)
class OptionSpec:
    name: str  # the name the interaction carries, whatever the person's language
    type: int
    required: bool
    choices: tuple[tuple[str, Any], ...] = ()  # (shown name, value sent)
    label: str = ""  # the name the person's Discord shows, when it is not ``name``
    choice_names: tuple[tuple[str, Any], ...] = ()  # (English name, value), also accepted

    @property
    def shown(self) -> str:
        return self.label or self.name

    def usage(self) -> str:
        hint = "|".join(str(value) for _, value in self.choices) or _TYPE_HINTS.get(self.type, "?")
        text = f"{self.shown}:<{hint}>"
        return text if self.required else f"[{text}]"


@dataclass(frozen=True)
class CommandSpec:
    path: tuple[str, ...]  # Discord names: ("account", "link")
    description: str
    options: tuple[OptionSpec, ...]
    labels: tuple[str, ...] = ()  # the path as the person's Discord shows it, when localised

    @property
    def name(self) -> str:
        return " ".join(self.path)

    @property
    def shown(self) -> str:
        return " ".join(self.labels or self.path)

    def usage(self) -> str:
        return " ".join([f"/{self.shown}", *(option.usage() for option in self.options)])

    def option(self, name: str) -> OptionSpec | None:
        return next((o for o in self.options if o.name == name), None)


@dataclass(frozen=True)
class EntityValue:
    """A user, channel, role or file typed as text; the session finds what it names."""

    type: int
    text: str


@dataclass(frozen=True)
class SlashInvocation:
    command: CommandSpec
    values: dict[str, Any]  # Discord option name -> converted value


async def command_payloads(
    tree: app_commands.CommandTree[Any], kind: AppCommandType = AppCommandType.chat_input
) -> list[dict[str, Any]]:
    """The commands of ``kind`` as ``python -m bot sync`` uploads them, localisations included."""
    translator = tree.translator
    return [
        await command.get_translated_payload(tree, translator)
        if translator is not None
        else command.to_dict(tree)
        for command in tree.get_commands(type=kind)
    ]


async def command_specs(
    tree: app_commands.CommandTree[Any], locale: str | None = None
) -> list[CommandSpec]:
    """Every slash command a person can run, subcommands spelled out, sorted by name; named
    as Discord shows them to a person using ``locale`` (English when None)."""
    specs: list[CommandSpec] = []
    for payload in await command_payloads(tree):
        _collect(payload, (), (), specs, locale)
    return sorted(specs, key=lambda spec: spec.path)


async def menu_names(tree: app_commands.CommandTree[Any], locale: str | None) -> dict[str, str]:
    """Each message menu's shown name (in ``locale``, and in English), lowercased, to its name."""
    names: dict[str, str] = {}
    for payload in await command_payloads(tree, AppCommandType.message):
        name = str(payload["name"])
        names[name.lower()] = name
        names[localised(payload, "name", locale).lower()] = name
    return names


def localised(node: dict[str, Any], key: str, locale: str | None) -> str:
    """``node[key]`` as Discord shows it to a person using ``locale``."""
    translations: dict[str, str] = node.get(f"{key}_localizations") or {}
    return str(translations.get(locale or "", "") or node.get(key) or "")


def _option_spec(option: dict[str, Any], locale: str | None) -> OptionSpec:
    choices: list[dict[str, Any]] = option.get("choices") or []
    label = localised(option, "name", locale)
    return OptionSpec(
        name=str(option["name"]),
        type=int(option["type"]),
        required=bool(option.get("required")),
        choices=tuple((localised(c, "name", locale), c["value"]) for c in choices),
        label="" if label == option["name"] else label,
        choice_names=tuple((str(c["name"]), c["value"]) for c in choices),
    )


def _collect(
    node: dict[str, Any],
    parent: tuple[str, ...],
    parent_labels: tuple[str, ...],
    into: list[CommandSpec],
    locale: str | None,
) -> None:
    path = (*parent, str(node["name"]))
    labels = (*parent_labels, localised(node, "name", locale))
    options: list[dict[str, Any]] = node.get("options") or []
    children = [o for o in options if o["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP)]
    if children:
        for child in children:
            _collect(child, path, labels, into, locale)
        return
    specs = tuple(_option_spec(option, locale) for option in options)
    description = localised(node, "description", locale)
    into.append(CommandSpec(path, description, specs, () if labels == path else labels))


def parse_slash(line: str, specs: Sequence[CommandSpec]) -> SlashInvocation:
    """The command and option values of ``/name option:value …``."""
    text = line.strip().removeprefix("/")
    words = text.split()
    if not words:
        raise ConsoleInputError("type a command after the slash, e.g. /help")
    command, used = _find_command(words, specs)
    rest = _after_words(text, used)
    values: dict[str, Any] = {}
    for name, raw in split_options(rest, command).items():
        option = command.option(name)
        assert option is not None  # split_options matches only the command's own names
        values[name] = _convert(command, option, raw)
    missing = [o.shown for o in command.options if o.required and o.name not in values]
    if missing:
        raise ConsoleInputError(f"/{command.shown} needs {', '.join(missing)}: {command.usage()}")
    return SlashInvocation(command, values)


def parse_partial(line: str, specs: Sequence[CommandSpec]) -> tuple[SlashInvocation, str, str]:
    """``/name option:value … focused:typed`` as Discord's autocomplete sends it: the command
    and the other options' values, the option being typed (the last one) and what is typed."""
    text = line.strip().removeprefix("/")
    words = text.split()
    if not words:
        raise ConsoleInputError("usage: complete /COMMAND OPTION:TYPED")
    command, used = _find_command(words, specs)
    raw = split_options(_after_words(text, used), command)
    if not raw:
        raise ConsoleInputError(f"type an option to complete: {command.usage()}")
    focused = list(raw)[-1]
    values = {
        name: _convert(command, option, value)
        for name, value in raw.items()
        if name != focused and (option := command.option(name)) is not None
    }
    return SlashInvocation(command, values), focused, raw[focused]


def _find_command(words: list[str], specs: Sequence[CommandSpec]) -> tuple[CommandSpec, int]:
    typed = [word.lower() for word in words]
    for spec in sorted(specs, key=lambda s: len(s.path), reverse=True):
        for path in (spec.labels, spec.path):
            if path and tuple(typed[: len(path)]) == tuple(w.lower() for w in path):
                return spec, len(path)
    subcommands = [s for s in specs if typed[0] in (s.path[0], (s.labels or s.path)[0].lower())]
    if subcommands:
        listed = ", ".join(f"/{s.shown}" for s in subcommands)
        raise ConsoleInputError(f"/{typed[0]} needs a subcommand: {listed}")
    names = sorted({(s.labels or s.path)[0] for s in specs})
    close = difflib.get_close_matches(typed[0], names, n=1)
    hint = f"did you mean /{close[0]}? " if close else ""
    listed = ", ".join(f"/{name}" for name in names)
    raise ConsoleInputError(f"there is no /{typed[0]}; {hint}commands: {listed}")


def _after_words(text: str, count: int) -> str:
    """``text`` after its first ``count`` whitespace-separated words."""
    match = re.match(r"\s*" + r"\s+".join([r"\S+"] * count), text)
    return text[match.end() :] if match else ""


def split_options(text: str, command: CommandSpec) -> dict[str, str]:
    """``name:value`` pairs, split where a known option name follows whitespace."""
    text = text.strip()
    if not text:
        return {}
    if not command.options:
        raise ConsoleInputError(f"/{command.shown} takes no options")
    # What a person may type for each option (its shown name, and its Discord name) -> its name.
    typed_names = {o.name.lower(): o.name for o in command.options}
    typed_names.update({o.shown.lower(): o.name for o in command.options})
    names = sorted(typed_names, key=len, reverse=True)
    boundary = re.compile(r"(?:^|(?<=\s))(" + "|".join(map(re.escape, names)) + r"):", re.I)
    matches = list(boundary.finditer(text))
    if not matches or matches[0].start() > 0:
        raise ConsoleInputError(_unknown_option(text, command))
    values: dict[str, str] = {}
    for match, following in zip(matches, [*matches[1:], None], strict=True):
        name = typed_names[match.group(1).lower()]
        end = following.start() if following is not None else len(text)
        if name in values:
            raise ConsoleInputError(f"option {match.group(1)} is given twice")
        values[name] = text[match.end() : end].strip()
    _refuse_misspelled(values, command)
    return values


def _refuse_misspelled(values: dict[str, str], command: CommandSpec) -> None:
    """``private:true`` typed as ``privat:true`` would silently become part of the text before
    it; a ``word:`` that is nearly an option name not given is refused instead."""
    missing = [o.shown for o in command.options if o.name not in values]
    for value in values.values():
        for word in re.findall(r"(?:^|(?<=\s))([^\W\d][\w-]*):", value):
            close = difflib.get_close_matches(word.lower(), missing, n=1, cutoff=0.75)
            if close:
                raise ConsoleInputError(
                    f"/{command.shown} has no option {word}; did you mean {close[0]}:?"
                )


def _unknown_option(text: str, command: CommandSpec) -> str:
    listed = ", ".join(o.shown for o in command.options)
    leading = re.match(r"([\w-]+):", text)
    if leading:
        return f"/{command.shown} has no option {leading.group(1)}; it has: {listed}"
    return f"options are written name:value; usage: {command.usage()}"


def _convert(command: CommandSpec, option: OptionSpec, raw: str) -> Any:
    where = f"option {option.shown} of /{command.shown}"
    if not raw:
        raise ConsoleInputError(f"{where} has no value")
    if option.choices:
        return _choice(where, option, raw)
    if option.type in ENTITY_TYPES:
        return EntityValue(option.type, raw)
    if option.type == BOOLEAN:
        if raw.lower() in _TRUE | _FALSE:
            return raw.lower() in _TRUE
        raise ConsoleInputError(f"{where} takes true or false, not {raw!r}")
    if option.type == INTEGER:
        try:
            return int(raw)
        except ValueError:
            raise ConsoleInputError(f"{where} takes a whole number, not {raw!r}") from None
    if option.type == NUMBER:
        try:
            return float(raw)
        except ValueError:
            raise ConsoleInputError(f"{where} takes a number, not {raw!r}") from None
    return _unquoted(raw)


def _choice(where: str, option: OptionSpec, raw: str) -> Any:
    wanted = _unquoted(raw).lower()
    named = (*option.choices, *option.choice_names)
    for name, value in named:
        if wanted in (name.lower(), str(value).lower()):
            return value
    # Discord's client narrows the choices to those whose name holds what is typed.
    narrowed = {value for name, value in named if wanted in name.lower()}
    if len(narrowed) == 1:
        return narrowed.pop()
    listed = ", ".join(
        f"{value} ({name})" if name.lower() != str(value).lower() else str(value)
        for name, value in option.choices
    )
    raise ConsoleInputError(f"{where} accepts: {listed}")


def _unquoted(raw: str) -> str:
    """A value typed in double quotes loses them (Discord has no quoting; shells do)."""
    if len(raw) >= 2 and raw[0] == raw[-1] == '"':
        return raw[1:-1]
    return raw
