"""Reading request params: strict validation for answering, lenient extraction for recording."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from devtools.fake_magisterium.rpc import JsonDict, invalid_params

DEFAULT_SKILL = "catholic_qa"
_PART_PAYLOAD = {"text": str, "data": dict, "file": dict}


@dataclass(frozen=True)
class IncomingMessage:
    """A validated `message/send` message."""

    raw: JsonDict
    message_id: str
    skill: str
    parts: list[JsonDict]
    context_id: str | None


@dataclass(frozen=True)
class RequestFacts:
    """What can be told about any request body, however malformed; for the request log."""

    method: str = ""
    skill: str | None = None
    message_id: str | None = None
    context_id: str | None = None
    parts: list[JsonDict] = field(default_factory=list)


def _check_part(index: int, part: Any) -> JsonDict:
    if not isinstance(part, dict):
        raise invalid_params(f"message.parts[{index}] must be an object")
    kind = part.get("kind")
    if kind not in _PART_PAYLOAD:
        raise invalid_params(f"message.parts[{index}].kind {kind!r} is not text, data or file")
    if not isinstance(part.get(kind), _PART_PAYLOAD[kind]):
        raise invalid_params(f"message.parts[{index}].{kind} is missing or malformed")
    return part


def _optional_str(message: JsonDict, name: str) -> str | None:
    value = message.get(name)
    if value is not None and not isinstance(value, str):
        raise invalid_params(f"message.{name} must be a string")
    return value


def _skill(message: JsonDict) -> str:
    metadata = message.get("metadata")
    if metadata is None:
        return DEFAULT_SKILL
    if not isinstance(metadata, dict):
        raise invalid_params("message.metadata must be an object")
    skill = metadata.get("skillId", DEFAULT_SKILL)
    if not isinstance(skill, str):
        raise invalid_params("message.metadata.skillId must be a string")
    return skill


def user_message(params: JsonDict) -> IncomingMessage:
    """The `message/send` message, or INVALID_PARAMS."""
    message = params.get("message")
    if not isinstance(message, dict):
        raise invalid_params("params.message is required")
    if message.get("role") != "user":
        raise invalid_params('message.role must be "user"')
    if message.get("kind") != "message":
        raise invalid_params('message.kind must be "message"')
    message_id = message.get("messageId")
    if not isinstance(message_id, str) or not message_id:
        raise invalid_params("message.messageId is required")
    parts = message.get("parts")
    if not isinstance(parts, list) or not parts:
        raise invalid_params("message.parts must hold at least one part")
    checked = [_check_part(index, part) for index, part in enumerate(parts)]
    return IncomingMessage(
        raw=message,
        message_id=message_id,
        skill=_skill(message),
        parts=checked,
        context_id=_optional_str(message, "contextId") or None,
    )


def task_id(params: JsonDict) -> str:
    """The `id` param of tasks/get and tasks/cancel, or INVALID_PARAMS."""
    value = params.get("id")
    if not isinstance(value, str) or not value:
        raise invalid_params("params.id (string) is required")
    return value


def _str_or_none(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def request_facts(payload: Any) -> RequestFacts:
    if not isinstance(payload, dict):
        return RequestFacts()
    method = _str_or_none(payload.get("method")) or ""
    params = payload.get("params")
    message = params.get("message") if isinstance(params, dict) else None
    if method != "message/send" or not isinstance(message, dict):
        return RequestFacts(method=method)
    metadata = message.get("metadata")
    skill = metadata.get("skillId") if isinstance(metadata, dict) else None
    parts = message.get("parts")
    return RequestFacts(
        method=method,
        skill=_str_or_none(skill) or DEFAULT_SKILL,
        message_id=_str_or_none(message.get("messageId")),
        context_id=_str_or_none(message.get("contextId")),
        parts=[p for p in parts if isinstance(p, dict)] if isinstance(parts, list) else [],
    )


def text_of(parts: list[JsonDict]) -> str:
    """All text parts joined: the skill's query."""
    return "\n".join(p["text"] for p in parts if p.get("kind") == "text").strip()


def data_of(parts: list[JsonDict]) -> JsonDict:
    """The data parts merged, later parts winning."""
    merged: JsonDict = {}
    for part in parts:
        if part.get("kind") == "data":
            merged.update(part["data"])
    return merged
