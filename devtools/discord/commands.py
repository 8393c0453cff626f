"""Finding a command as Discord would, and building the options Discord's client would send.

Everything here reads ``command.to_dict(tree)``, the payload ``python -m bot sync`` uploads:
the option types, choices, ranges, contexts and default permissions Discord enforces before an
interaction ever reaches the bot. What Discord would refuse, the harness refuses too, with
:class:`CommandUnavailable` or :class:`InvalidOptions`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import discord
from discord import app_commands

from devtools.discord.wire import GUILD, JSON, PRIVATE_CHANNEL, Place

AnyCommand = app_commands.Command[Any, ..., Any] | app_commands.Group | app_commands.ContextMenu
Resolve = Callable[[int, Any, JSON], str]  # (option type, value, resolved) -> id

# Option types (Discord's ApplicationCommandOptionType).
SUB_COMMAND, SUB_COMMAND_GROUP = 1, 2
STRING, INTEGER, BOOLEAN, USER, CHANNEL, ROLE, MENTIONABLE, NUMBER, ATTACHMENT = (
    3,
    4,
    5,
    6,
    7,
    8,
    9,
    10,
    11,
)
_MAX_SAFE_INTEGER = 2**53


class CommandUnavailable(AssertionError):
    """Discord would not offer this command to this user here."""


class InvalidOptions(TypeError):
    """Discord's client would not let a user send these options."""


@dataclass
class ResolvedCommand:
    root: AnyCommand
    leaf: AnyCommand
    path: list[str]  # Discord names: ["account", "link"]
    spec: JSON  # root.to_dict(tree)
    leaf_options: list[JSON] = field(default_factory=list)
    guild_id: int | None = None  # set for a guild-scoped command

    @property
    def qualified_name(self) -> str:
        return " ".join(self.path)

    def nest(self, options: list[JSON]) -> list[JSON]:
        """Wrap the leaf's options in the subcommand (group) options Discord sends."""
        nested = options
        node_options: list[JSON] = self.spec.get("options") or []
        chain: list[JSON] = []
        for part in self.path[1:]:
            node = next(o for o in node_options if o["name"] == part)
            chain.append(node)
            node_options = node.get("options") or []
        for node in reversed(chain):
            nested = [{"name": node["name"], "type": node["type"], "options": nested}]
        return nested


def find_command(
    tree: app_commands.CommandTree[Any],
    name: str,
    *,
    guild: discord.Guild | None,
    kind: discord.AppCommandType = discord.AppCommandType.chat_input,
) -> ResolvedCommand:
    """The command a user picks by its full name ("ask", "account link", "Ask Magisterium")."""
    parts = name.split() if kind is discord.AppCommandType.chat_input else [name]
    found: list[tuple[AnyCommand, int | None]] = []
    if guild is not None:
        scoped = tree.get_command(parts[0], guild=guild, type=kind)
        if scoped is not None:
            found.append((scoped, guild.id))
    global_command = tree.get_command(parts[0], type=kind)
    if global_command is not None:
        found.append((global_command, None))
    if not found:
        known = sorted(c.name for c in tree.get_commands(type=kind))
        raise LookupError(f"no {kind.name} command {parts[0]!r}; global commands: {known}")
    root, guild_id = found[0]
    spec = root.to_dict(tree)
    command: AnyCommand = root
    options: list[JSON] = spec.get("options") or []
    for part in parts[1:]:
        child = command.get_command(part) if isinstance(command, app_commands.Group) else None
        if child is None:
            raise LookupError(f"/{' '.join(parts)}: {command.name!r} has no subcommand {part!r}")
        command = child
        options = next(o for o in options if o["name"] == part).get("options") or []
    if isinstance(command, app_commands.Group):
        subs = sorted(c.name for c in command.commands)
        raise LookupError(f"/{name} is a group: pick a subcommand of {subs}")
    return ResolvedCommand(root, command, parts, spec, options, guild_id)


def check_available(
    command: ResolvedCommand, place: Place, member_permissions: discord.Permissions
) -> None:
    """Raise :class:`CommandUnavailable` where Discord would hide or refuse the command."""
    where = place.describe()
    if command.guild_id is not None:
        if place.guild_id != command.guild_id:
            raise CommandUnavailable(f"/{command.qualified_name} exists only in its guild")
    else:
        contexts = command.spec.get("contexts")
        if contexts is not None and place.context not in contexts:
            raise CommandUnavailable(
                f"/{command.qualified_name} is not offered in a {where} (contexts {contexts})"
            )
        if contexts is None and place.context != GUILD and not command.spec.get("dm_permission"):
            raise CommandUnavailable(f"/{command.qualified_name} is guild-only")
        installs = command.spec.get("integration_types")
        if place.context == PRIVATE_CHANNEL and installs is not None and 1 not in installs:
            raise CommandUnavailable(
                f"/{command.qualified_name} is not user-installable (integration types "
                f"{installs}), so it is not offered in a private channel"
            )
    required = command.spec.get("default_member_permissions")
    if place.context == GUILD and required is not None and not member_permissions.administrator:
        needed = discord.Permissions(int(required))
        if int(required) == 0 or not needed.is_subset(member_permissions):
            raise CommandUnavailable(
                f"/{command.qualified_name} needs {[n for n, v in needed if v] or 'admin'}"
            )


def _display_names(command: AnyCommand) -> dict[str, str]:
    if isinstance(command, app_commands.Command):
        return {p.name: p.display_name for p in command.parameters}
    return {}


def _check_value(spec: JSON, value: Any) -> None:
    name, kind = spec["name"], spec["type"]
    if kind == STRING:
        if not isinstance(value, str):
            raise InvalidOptions(f"option {name!r} takes a string, not {value!r}")
        low, high = spec.get("min_length", 0), spec.get("max_length", 6000)
        if not low <= len(value) <= high:
            raise InvalidOptions(f"option {name!r} must be {low}-{high} characters long")
    elif kind in (INTEGER, NUMBER):
        allowed: tuple[type, ...] = (int,) if kind == INTEGER else (int, float)
        if isinstance(value, bool) or not isinstance(value, allowed):
            raise InvalidOptions(f"option {name!r} takes a number, not {value!r}")
        low = spec.get("min_value", -_MAX_SAFE_INTEGER)
        high = spec.get("max_value", _MAX_SAFE_INTEGER)
        if not low <= value <= high:
            raise InvalidOptions(f"option {name!r} must be within {low}..{high}")
    elif kind == BOOLEAN and not isinstance(value, bool):
        raise InvalidOptions(f"option {name!r} takes True or False, not {value!r}")
    choices = spec.get("choices")
    if choices and value not in [c["value"] for c in choices]:
        raise InvalidOptions(f"option {name!r} accepts only {[c['value'] for c in choices]}")


def build_options(
    command: ResolvedCommand,
    values: Mapping[str, Any],
    *,
    resolve: Resolve,
    focused: str | None = None,
) -> tuple[list[JSON], JSON]:
    """(leaf options, resolved data) for ``values`` keyed by Discord or Python names.

    With ``focused`` (autocomplete), that option is sent as typed and flagged ``focused``,
    and missing required options are allowed (the user has not filled them in yet).
    """
    specs = {o["name"]: o for o in command.leaf_options}
    renames = _display_names(command.leaf)
    given: dict[str, Any] = {}
    for key, value in values.items():
        name = key if key in specs else renames.get(key, key)
        if name not in specs:
            raise InvalidOptions(
                f"/{command.qualified_name} has no option {key!r}; it has {list(specs)}"
            )
        given[name] = value
    if focused is not None:
        focused = focused if focused in specs else renames.get(focused, focused)
        if focused not in specs:
            raise InvalidOptions(f"/{command.qualified_name} has no option {focused!r}")
        if not specs[focused].get("autocomplete"):
            raise InvalidOptions(
                f"option {focused!r} of /{command.qualified_name} has no autocomplete"
            )
    else:
        missing = [n for n, s in specs.items() if s.get("required") and n not in given]
        if missing:
            raise InvalidOptions(f"/{command.qualified_name} requires {missing}")
    options: list[JSON] = []
    resolved: JSON = {}
    for name, spec in specs.items():
        if name not in given:
            continue
        value = given[name]
        option: JSON = {"name": name, "type": spec["type"]}
        if name == focused:
            option["value"], option["focused"] = value, True
        elif spec["type"] in (USER, CHANNEL, ROLE, MENTIONABLE, ATTACHMENT):
            option["value"] = resolve(spec["type"], value, resolved)
            if spec["type"] == CHANNEL and spec.get("channel_types"):
                channel_type = resolved["channels"][option["value"]]["type"]
                if channel_type not in spec["channel_types"]:
                    raise InvalidOptions(
                        f"option {name!r} accepts channel types {spec['channel_types']}"
                    )
        else:
            _check_value(spec, value)
            option["value"] = value
        options.append(option)
    return options, resolved
