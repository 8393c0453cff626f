"""INTERACTION_CREATE and MESSAGE_CREATE payloads, as Discord's client would make them.

Slash-command options are typed from the commands the bot registered (``python -m bot sync``
against the stand-in, or a list captured from one); without them, from the Python values.
"""

from __future__ import annotations

import copy
from typing import Any

from devtools.discord.records import Session
from devtools.discord.wire import (
    ATTACHMENT_SIZE_LIMIT,
    BOT_PERMISSIONS,
    JSON,
    MEMBER_PERMISSIONS,
    member_payload,
    message_payload,
    snowflake,
    walk_components,
)
from devtools.discord_standin.world import Channel, Person, World

SUB_COMMAND, SUB_COMMAND_GROUP = 1, 2
STRING, INTEGER, BOOLEAN, NUMBER = 3, 4, 5, 10
APPLICATION_COMMAND, MESSAGE_COMPONENT = 2, 3


class CommandError(LookupError):
    """The interaction asked for is one Discord's client could not send."""


def _typed(value: Any, kind: int | None) -> tuple[int, Any]:
    if kind is None:
        kind = (
            BOOLEAN
            if isinstance(value, bool)
            else INTEGER
            if isinstance(value, int)
            else NUMBER
            if isinstance(value, float)
            else STRING
        )
    if kind in (INTEGER, NUMBER, BOOLEAN, STRING):
        return kind, value
    return kind, str(value)


class Commands:
    """The application commands the bot registered (global ones), by name."""

    def __init__(self, application_id: int) -> None:
        self.application_id = application_id
        self.registered: dict[str, JSON] = {}

    def stored(self, command: JSON, guild_id: str | None = None) -> JSON:
        """``command`` as Discord answers a registration: with its ids, version and defaults."""
        stored: JSON = {
            "type": 1,
            "description": "",
            "options": [],
            "default_member_permissions": None,
            "nsfw": False,
            **copy.deepcopy(command),
            "id": str(snowflake()),
            "application_id": str(self.application_id),
            "version": str(snowflake()),
        }
        if guild_id is not None:
            stored["guild_id"] = guild_id
        return stored

    def register(self, commands: list[JSON]) -> list[JSON]:
        """Replace the global commands (PUT …/commands); the stored ones, with ids."""
        self.registered = {str(c["name"]): self.stored(c) for c in commands}
        return list(self.registered.values())

    def data(self, path: str, options: dict[str, Any]) -> JSON:
        """``data`` of a slash command: ``path`` is "ask" or "account link"."""
        root, *subs = path.split()
        command = self.registered.get(root)
        if command is None and self.registered:
            raise CommandError(f"/{root} is not a registered command")
        spec_options: list[JSON] = list((command or {}).get("options") or [])
        nested: list[JSON] = []
        holder = nested
        for sub in subs:
            spec = next((o for o in spec_options if o.get("name") == sub), None)
            if command is not None and spec is None:
                raise CommandError(f"/{path}: no subcommand {sub!r}")
            kind = int(spec["type"]) if spec else SUB_COMMAND
            inner: list[JSON] = []
            holder.append({"name": sub, "type": kind, "options": inner})
            holder, spec_options = inner, list((spec or {}).get("options") or [])
        for name, value in options.items():
            spec = next((o for o in spec_options if o.get("name") == name), None)
            if command is not None and spec is None:
                raise CommandError(f"/{path} has no option {name!r}")
            kind, typed = _typed(value, int(spec["type"]) if spec else None)
            holder.append({"name": name, "type": kind, "value": typed})
        data: JSON = {
            "id": (command or {}).get("id") or str(snowflake()),
            "name": root,
            "type": 1,
            "options": nested,
        }
        return data


def interaction(
    world: World,
    person: Person,
    channel: Channel,
    interaction_type: int,
    data: JSON,
    *,
    message: JSON | None = None,
) -> tuple[JSON, Session]:
    """The INTERACTION_CREATE data, and the session the fake Discord opens for its token."""
    interaction_id = snowflake()
    token = f"standin-interaction-{interaction_id}"
    place = channel.place()
    in_guild = channel.guild_id is not None
    owners = {"0": str(channel.guild_id)} if in_guild else {"0": "0"}
    payload: JSON = {
        "id": str(interaction_id),
        "application_id": str(world.application_id),
        "type": interaction_type,
        "token": token,
        "version": 1,
        "attachment_size_limit": ATTACHMENT_SIZE_LIMIT,
        "data": data,
        "locale": person.locale,
        "app_permissions": str(BOT_PERMISSIONS.value),
        "context": 0 if in_guild else 1,
        "authorizing_integration_owners": owners,
        "entitlements": [],
        "channel": channel.payload(),
        "channel_id": str(channel.id),
    }
    if in_guild:
        guild = world.guilds[int(channel.guild_id or 0)]
        payload.update(
            {
                "guild_id": str(guild.id),
                "guild_locale": guild.locale,
                "guild": {"id": str(guild.id), "locale": guild.locale, "features": []},
                "member": member_payload(person.payload(), permissions=MEMBER_PERMISSIONS),
            }
        )
    else:
        payload["user"] = person.payload()
    if message is not None:
        payload["message"] = message
    session = Session(
        interaction_id=interaction_id,
        token=token,
        interaction_type=interaction_type,
        place=place,
        user_id=person.id,
        user=person.payload(),
        owners=owners,
        command_name=data.get("name"),
        command_type=data.get("type") if interaction_type == APPLICATION_COMMAND else None,
        source_message_id=int(message["id"]) if message is not None else None,
    )
    return payload, session


def click_data(message: JSON, custom_id: str) -> JSON:
    """``data`` of a button press on ``message``; the button must be there and enabled."""
    for component in walk_components(list(message.get("components") or [])):
        if component.get("custom_id") == custom_id:
            if component.get("disabled"):
                raise CommandError(f"button {custom_id!r} is disabled")
            return {"custom_id": custom_id, "component_type": int(component["type"])}
    raise CommandError(f"message {message['id']} has no component {custom_id!r}")


def dm_message(world: World, person: Person, channel: Channel, content: str) -> JSON:
    """MESSAGE_CREATE data of ``person`` writing ``content`` to the bot in a DM."""
    return message_payload(
        message_id=snowflake(),
        place=channel.place(),
        author=person.payload(),
        body={"content": content},
    )


def guild_message(world: World, person: Person, channel: Channel, content: str) -> JSON:
    """MESSAGE_CREATE data of ``person`` writing ``content`` in a server channel: the message
    with the author's partial ``member`` (no ``user``), as the gateway sends it."""
    data = message_payload(
        message_id=snowflake(),
        place=channel.place(),
        author=person.payload(),
        body={"content": content},
    )
    data["member"] = member_payload(person.payload(), with_user=False)
    return data
