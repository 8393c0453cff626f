"""Reading a console line the way Discord's client reads a slash command.

``/ask question:What is grace? private:true`` becomes the command ``ask`` with its options,
split on `` name:`` boundaries using the command's real option names and converted by option
type, all read from ``command.to_dict(tree)`` (what ``python -m bot sync`` uploads). Anything
Discord's client would not let a person send is a :class:`ConsoleInputError` with one line
that says what exists instead.
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
    name: str
    type: int
    required: bool
    choices: tuple[tuple[str, Any], ...] = ()  # (shown name, value sent)

    def usage(self) -> str:
        hint = "|".join(str(value) for _, value in self.choices) or _TYPE_HINTS.get(self.type, "?")
        text = f"{self.name}:<{hint}>"
        return text if self.required else f"[{text}]"


@dataclass(frozen=True)
class CommandSpec:
    path: tuple[str, ...]  # Discord names: ("account", "link")
    description: str
    options: tuple[OptionSpec, ...]

    @property
    def name(self) -> str:
        return " ".join(self.path)

    def usage(self) -> str:
        return " ".join([f"/{self.name}", *(option.usage() for option in self.options)])

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


def command_specs(tree: app_commands.CommandTree[Any]) -> list[CommandSpec]:
    """Every slash command a person can run, subcommands spelled out, sorted by name."""
    specs: list[CommandSpec] = []
    for command in tree.get_commands(type=AppCommandType.chat_input):
        _collect(command.to_dict(tree), (), specs)
    return sorted(specs, key=lambda spec: spec.path)


def _collect(node: dict[str, Any], parent: tuple[str, ...], into: list[CommandSpec]) -> None:
    path = (*parent, str(node["name"]))
    options: list[dict[str, Any]] = node.get("options") or []
    children = [o for o in options if o["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP)]
    if children:
        for child in children:
            _collect(child, path, into)
        return
    specs = tuple(
        OptionSpec(
            name=str(o["name"]),
            type=int(o["type"]),
            required=bool(o.get("required")),
            choices=tuple((str(c["name"]), c["value"]) for c in o.get("choices") or []),
        )
        for o in options
    )
    into.append(CommandSpec(path, str(node.get("description") or ""), specs))


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
    missing = [o.name for o in command.options if o.required and o.name not in values]
    if missing:
        raise ConsoleInputError(f"/{command.name} needs {', '.join(missing)}: {command.usage()}")
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
        if tuple(typed[: len(spec.path)]) == spec.path:
            return spec, len(spec.path)
    subcommands = [s for s in specs if s.path[0] == typed[0]]
    if subcommands:
        listed = ", ".join(f"/{s.name}" for s in subcommands)
        raise ConsoleInputError(f"/{typed[0]} needs a subcommand: {listed}")
    names = sorted({s.path[0] for s in specs})
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
    names = sorted((o.name for o in command.options), key=len, reverse=True)
    if not names:
        raise ConsoleInputError(f"/{command.name} takes no options")
    boundary = re.compile(r"(?:^|(?<=\s))(" + "|".join(map(re.escape, names)) + r"):", re.I)
    matches = list(boundary.finditer(text))
    if not matches or matches[0].start() > 0:
        raise ConsoleInputError(_unknown_option(text, command))
    values: dict[str, str] = {}
    for match, following in zip(matches, [*matches[1:], None], strict=True):
        name = match.group(1).lower()
        end = following.start() if following is not None else len(text)
        if name in values:
            raise ConsoleInputError(f"option {name} is given twice")
        values[name] = text[match.end() : end].strip()
    _refuse_misspelled(values, command)
    return values


def _refuse_misspelled(values: dict[str, str], command: CommandSpec) -> None:
    """``private:true`` typed as ``privat:true`` would silently become part of the text before
    it; a ``word:`` that is nearly an option name not given is refused instead."""
    missing = [o.name for o in command.options if o.name not in values]
    for value in values.values():
        for word in re.findall(r"(?:^|(?<=\s))([A-Za-z][\w-]*):", value):
            close = difflib.get_close_matches(word.lower(), missing, n=1, cutoff=0.75)
            if close:
                raise ConsoleInputError(
                    f"/{command.name} has no option {word}; did you mean {close[0]}:?"
                )


def _unknown_option(text: str, command: CommandSpec) -> str:
    listed = ", ".join(o.name for o in command.options)
    leading = re.match(r"([\w-]+):", text)
    if leading:
        return f"/{command.name} has no option {leading.group(1)}; it has: {listed}"
    return f"options are written name:value; usage: {command.usage()}"


def _convert(command: CommandSpec, option: OptionSpec, raw: str) -> Any:
    where = f"option {option.name} of /{command.name}"
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
    for name, value in option.choices:
        if wanted in (name.lower(), str(value).lower()):
            return value
    listed = ", ".join(str(value) for _, value in option.choices)
    raise ConsoleInputError(f"{where} accepts: {listed}")


def _unquoted(raw: str) -> str:
    """A value typed in double quotes loses them (Discord has no quoting; shells do)."""
    if len(raw) >= 2 and raw[0] == raw[-1] == '"':
        return raw[1:-1]
    return raw
