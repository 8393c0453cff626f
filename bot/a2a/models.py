"""Pydantic models of the A2A v0.3 wire format as Magisterium speaks it.

Every model accepts unknown fields and tolerates missing optional ones: the upstream
reference is incomplete, so parsing must never fail on something it does not know.
"""

from __future__ import annotations

import uuid
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Discriminator, Field, Tag
from pydantic.alias_generators import to_camel


class WireModel(BaseModel):
    """Base for every wire model: camelCase on the wire, snake_case in Python, extras kept."""

    model_config = ConfigDict(
        extra="allow",
        alias_generator=to_camel,
        populate_by_name=True,
        serialize_by_alias=True,
    )


class TextPart(WireModel):
    kind: Literal["text"] = "text"
    text: str
    metadata: dict[str, Any] | None = None


class DataPart(WireModel):
    kind: Literal["data"] = "data"
    data: dict[str, Any]
    metadata: dict[str, Any] | None = None


class FileContent(WireModel):
    name: str | None = None
    mime_type: str | None = None
    bytes: str | None = None
    uri: str | None = None


class FilePart(WireModel):
    kind: Literal["file"] = "file"
    file: FileContent
    metadata: dict[str, Any] | None = None


class UnknownPart(WireModel):
    """A part of a kind this client does not know; kept, never rendered."""

    kind: str = "unknown"


def _part_kind(value: Any) -> str:
    kind = value.get("kind") if isinstance(value, dict) else getattr(value, "kind", None)
    return kind if kind in {"text", "data", "file"} else "unknown"


Part = Annotated[
    Annotated[TextPart, Tag("text")]
    | Annotated[DataPart, Tag("data")]
    | Annotated[FilePart, Tag("file")]
    | Annotated[UnknownPart, Tag("unknown")],
    Discriminator(_part_kind),
]


class Message(WireModel):
    role: Literal["user", "agent"]
    parts: list[Part]
    message_id: str
    kind: Literal["message"] = "message"
    context_id: str | None = None
    task_id: str | None = None
    metadata: dict[str, Any] | None = None

    @classmethod
    def from_user(
        cls,
        parts: list[Part],
        *,
        skill_id: str | None = None,
        context_id: str | None = None,
    ) -> Message:
        """A new user message with a fresh ``messageId`` (kept across retries by the client)."""
        return cls(
            role="user",
            parts=parts,
            message_id=str(uuid.uuid4()),
            context_id=context_id,
            metadata={"skillId": skill_id} if skill_id else None,
        )

    def text(self) -> str:
        """All text parts joined, the way a human would read the message."""
        return "\n\n".join(p.text for p in self.parts if isinstance(p, TextPart))


class TaskStatus(WireModel):
    state: str
    message: Message | None = None
    timestamp: str | None = None


class Artifact(WireModel):
    artifact_id: str | None = None
    name: str | None = None
    description: str | None = None
    parts: list[Part] = Field(default_factory=list)
    metadata: dict[str, Any] | None = None


class Task(WireModel):
    id: str
    context_id: str | None = None
    status: TaskStatus
    kind: Literal["task"] = "task"
    artifacts: list[Artifact] = Field(default_factory=list)
    history: list[Message] = Field(default_factory=list)
    metadata: dict[str, Any] | None = None

    def parts(self) -> list[Part]:
        """Every part of every artifact, in order."""
        return [part for artifact in self.artifacts for part in artifact.parts]

    def text_parts(self) -> list[str]:
        return [p.text for p in self.parts() if isinstance(p, TextPart)]

    def data_parts(self) -> list[dict[str, Any]]:
        return [p.data for p in self.parts() if isinstance(p, DataPart)]


class JSONRPCError(WireModel):
    code: int
    message: str = ""
    data: Any = None
