"""What the fake Discord remembers: requests it received, messages it holds, open interactions."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Literal

import discord

from devtools.discord.wire import EPHEMERAL, JSON, LOADING, Place

RequestKind = Literal[
    "callback",  # POST /interactions/{id}/{token}/callback
    "followup",  # POST /webhooks/{app}/{token}
    "get_original",
    "edit_original",
    "delete_original",
    "get_message",  # GET /webhooks/{app}/{token}/messages/{id}
    "edit_message",
    "delete_message",
    "other",
]


@dataclass(frozen=True)
class RecordedFile:
    filename: str
    data: bytes
    content_type: str | None = None


@dataclass
class RecordedRequest:
    """One request discord.py made, with the answer the fake Discord gave."""

    method: str
    path: str  # e.g. "/webhooks/123/harness-interaction-token-4/messages/@original"
    kind: RequestKind
    payload: JSON | None  # the JSON body; ``payload_json`` decoded for multipart requests
    files: list[RecordedFile] = field(default_factory=list)
    params: JSON | None = None
    message_id: int | None = None  # the message it created, edited, fetched or deleted
    status: int = 200
    error: JSON | None = None  # Discord's error body when status >= 400

    @property
    def ok(self) -> bool:
        return self.status < 400

    @property
    def callback_type(self) -> int | None:
        if self.kind != "callback" or self.payload is None:
            return None
        return int(self.payload["type"])

    @property
    def message_body(self) -> JSON | None:
        """The message fields of this request (callback data, followup or edit body)."""
        if self.payload is None:
            return None
        if self.kind == "callback":
            if self.callback_type in (4, 7):
                data: JSON = self.payload.get("data") or {}
                return data
            return None
        if self.kind in ("followup", "edit_original", "edit_message"):
            return self.payload
        return None

    def to_json(self) -> str:
        return json.dumps(
            {
                "method": self.method,
                "path": self.path,
                "status": self.status,
                "payload": self.payload,
                "error": self.error,
                "files": [f.filename for f in self.files],
            },
            default=str,
            ensure_ascii=False,
        )


@dataclass
class StoredMessage:
    """A message as Discord holds it: the latest version plus whom it is visible to."""

    id: int
    data: JSON
    place: Place
    visible_to: int | None = None  # the one user who sees an ephemeral message
    deleted: bool = False
    versions: list[JSON] = field(default_factory=list)  # every earlier state, oldest first

    @property
    def flags(self) -> int:
        return int(self.data.get("flags") or 0)

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)

    @property
    def loading(self) -> bool:
        return bool(self.flags & LOADING)


@dataclass
class Session:
    """One interaction as the fake Discord sees it: its token, its answers, its messages."""

    interaction_id: int
    token: str
    interaction_type: int
    place: Place
    user_id: int
    user: JSON
    owners: JSON = field(default_factory=dict)  # authorizing_integration_owners
    command_name: str | None = None
    command_type: int | None = None  # 1 slash, 2 user menu, 3 message menu
    source_message_id: int | None = None  # the message a component or modal came from
    requests: list[RecordedRequest] = field(default_factory=list)
    acknowledged: bool = False
    original_id: int | None = None  # the message @original refers to
    message_ids: list[int] = field(default_factory=list)  # created or changed, in order
    followup_ids: list[int] = field(default_factory=list)
    deleted_original: bool = False
    expired: bool = False
    choices: list[JSON] | None = None  # what an autocomplete answered
    modal: JSON | None = None  # the modal a callback of type 9 opened
    log_records: list[Any] = field(default_factory=list)

    def touch(self, message_id: int) -> None:
        if message_id in self.message_ids:
            self.message_ids.remove(message_id)
        self.message_ids.append(message_id)


class FakeResponse:
    """Enough of an aiohttp response for discord.py's HTTPException."""

    def __init__(self, status: int, reason: str) -> None:
        self.status = status
        self.reason = reason


def http_error(
    status: int, code: int, message: str = "", errors: JSON | None = None
) -> discord.HTTPException:
    """The exception discord.py raises for Discord's answer ``status`` with error ``code``."""
    body: JSON = {"code": code, "message": message or f"error {code}"}
    if errors:
        body["errors"] = errors
    reason = {400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found"}
    response: Any = FakeResponse(status, reason.get(status, "Error"))
    if status == 403:
        return discord.Forbidden(response, body)
    if status == 404:
        return discord.NotFound(response, body)
    if status >= 500:
        return discord.DiscordServerError(response, body)
    return discord.HTTPException(response, body)
