"""What a user puts into an interaction: entities picked in options and selects, modal fields.

Discord sends picked users, roles, channels and uploads as ids plus a ``resolved`` object;
:class:`Resolver` builds both from Python values. The checks mirror Discord's client, which
would not let a user submit a missing required field or a value outside a select's options.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import discord

from devtools.discord.commands import (
    ATTACHMENT,
    CHANNEL,
    MENTIONABLE,
    ROLE,
    USER,
    InvalidOptions,
    Resolve,
)
from devtools.discord.records import RecordedFile
from devtools.discord.wire import (
    JSON,
    MEMBER_PERMISSIONS,
    HarnessUser,
    Place,
    attachment_payload,
    guild_channel_payload,
    member_payload,
    snowflake,
    walk_components,
)

Upload = RecordedFile | tuple[str, bytes]  # an attachment option: (filename, data) is enough


class Resolver:
    """Ids and ``resolved`` data for entity values; uploads are served back from ``cdn``."""

    def __init__(
        self,
        as_user: Callable[[Any], HarnessUser],
        ensure_member: Callable[[HarnessUser, discord.Guild], None],
        cdn: dict[str, bytes],
    ) -> None:
        self.as_user, self.ensure_member, self.cdn = as_user, ensure_member, cdn

    def at(self, place: Place) -> Resolve:
        def resolve(kind: int, value: Any, resolved: JSON) -> str:
            if kind in (USER, MENTIONABLE) and isinstance(
                value, HarnessUser | discord.abc.User | int
            ):
                return self._user(self.as_user(value), place, resolved)
            if kind in (ROLE, MENTIONABLE) and isinstance(value, discord.Role):
                return self._role(value, resolved)
            if kind == CHANNEL and isinstance(value, discord.abc.GuildChannel | discord.Thread):
                channel = guild_channel_payload(value, permissions=MEMBER_PERMISSIONS)
                resolved.setdefault("channels", {})[str(value.id)] = channel
                return str(value.id)
            if kind == ATTACHMENT and isinstance(value, RecordedFile | tuple):
                upload = value if isinstance(value, RecordedFile) else RecordedFile(*value)
                return self._attachment(upload, place, resolved)
            raise InvalidOptions(f"cannot send {value!r} as an option of type {kind}")

        return resolve

    def _user(self, user: HarnessUser, place: Place, resolved: JSON) -> str:
        resolved.setdefault("users", {})[str(user.id)] = user.payload()
        if place.guild is not None:
            self.ensure_member(user, place.guild)
            member = member_payload(user.payload(), permissions=MEMBER_PERMISSIONS, with_user=False)
            resolved.setdefault("members", {})[str(user.id)] = member
        return str(user.id)

    @staticmethod
    def _role(role: discord.Role, resolved: JSON) -> str:
        resolved.setdefault("roles", {})[str(role.id)] = {
            "id": str(role.id),
            "name": role.name,
            "color": role.colour.value,
            "hoist": role.hoist,
            "position": role.position,
            "permissions": str(role.permissions.value),
            "managed": role.managed,
            "mentionable": role.mentionable,
            "flags": 0,
        }
        return str(role.id)

    def _attachment(self, upload: RecordedFile, place: Place, resolved: JSON) -> str:
        attachment_id = snowflake()
        attachment = attachment_payload(
            attachment_id, place.channel_id, upload.filename, len(upload.data), upload.content_type
        )
        self.cdn[attachment["url"]] = upload.data
        resolved.setdefault("attachments", {})[str(attachment_id)] = attachment
        return str(attachment_id)


def select_values(
    component: JSON, values: Sequence[Any], resolve: Resolve
) -> tuple[list[str], JSON]:
    """(``data.values``, ``data.resolved``) for choosing ``values`` in a select menu."""
    low, high = component.get("min_values", 1), component.get("max_values", 1)
    if not low <= len(values) <= high:
        raise InvalidOptions(f"select {component['custom_id']!r} takes {low}-{high} values")
    resolved: JSON = {}
    if component["type"] == 3:
        allowed = [o["value"] for o in component.get("options") or []]
        unknown = [v for v in values if v not in allowed]
        if unknown:
            raise InvalidOptions(f"{unknown} are not options of {component['custom_id']!r}")
        return [str(v) for v in values], resolved
    kind = {5: USER, 6: ROLE, 7: MENTIONABLE, 8: CHANNEL}[int(component["type"])]
    return [resolve(kind, v, resolved) for v in values], resolved


def modal_submission(
    components: list[JSON], values: Mapping[str, str | Sequence[str]]
) -> list[JSON]:
    """The ``data.components`` of a modal submit, mirroring the modal's layout."""
    inputs = {c["custom_id"]: c for c in walk_components(components) if c.get("custom_id")}
    unknown = sorted(set(values) - set(inputs))
    if unknown:
        raise InvalidOptions(f"the modal has no inputs {unknown}; it has {sorted(inputs)}")

    def answer(component: JSON) -> JSON:
        custom_id = component["custom_id"]
        out: JSON = {"type": component["type"], "custom_id": custom_id}
        if component.get("id") is not None:
            out["id"] = component["id"]
        if component["type"] == 4:
            text = values.get(custom_id, "")
            if not isinstance(text, str):
                raise InvalidOptions(f"text input {custom_id!r} takes a string")
            if component.get("required", True) and not text:
                raise InvalidOptions(f"text input {custom_id!r} is required")
            low, high = component.get("min_length", 0), component.get("max_length", 4000)
            if text and not low <= len(text) <= high:
                raise InvalidOptions(f"text input {custom_id!r} takes {low}-{high} characters")
            out["value"] = text
        else:
            chosen = values.get(custom_id, [])
            out["values"] = [chosen] if isinstance(chosen, str) else [str(v) for v in chosen]
        return out

    submitted: list[JSON] = []
    for component in components:
        if component.get("type") == 1:
            inner = [answer(c) for c in component.get("components") or [] if c.get("custom_id")]
            submitted.append({"type": 1, "components": inner})
        elif component.get("type") == 18 and isinstance(component.get("component"), dict):
            inner_component = component["component"]
            if inner_component.get("custom_id"):
                submitted.append({"type": 18, "component": answer(inner_component)})
    return submitted
