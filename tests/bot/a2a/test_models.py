"""Wire models: tolerant of unknown fields and kinds, camelCase on the wire."""

from __future__ import annotations

import json

from bot.a2a.models import DataPart, FilePart, Message, Task, TextPart, UnknownPart


def _task(**overrides: object) -> dict[str, object]:
    task: dict[str, object] = {
        "kind": "task",
        "id": "t-1",
        "contextId": "c-1",
        "status": {"state": "completed", "timestamp": "2026-11-30T05:00:00Z"},
        "artifacts": [
            {
                "artifactId": "a-1",
                "name": "catholic_qa_response",
                "parts": [
                    {"kind": "text", "text": "Grace is a gift."},
                    {"kind": "data", "data": {"citations": []}},
                    {"kind": "file", "file": {"uri": "https://example.org/x.pdf"}},
                ],
            }
        ],
        "history": [
            {
                "role": "user",
                "kind": "message",
                "messageId": "m-1",
                "parts": [{"kind": "text", "text": "What is grace?"}],
            }
        ],
    }
    task.update(overrides)
    return task


def test_task_parses_every_part_kind_and_history() -> None:
    task = Task.model_validate(_task())
    kinds = [type(p) for p in task.parts()]
    assert kinds == [TextPart, DataPart, FilePart]
    assert task.context_id == "c-1"
    assert task.text_parts() == ["Grace is a gift."]
    assert task.data_parts() == [{"citations": []}]
    assert task.history[0].text() == "What is grace?"


def test_unknown_fields_and_part_kinds_are_kept_not_rejected() -> None:
    raw = _task(futureField={"x": 1})
    raw["artifacts"][0]["parts"].append({"kind": "hologram", "beam": 3})  # type: ignore[index]
    task = Task.model_validate(raw)
    assert isinstance(task.parts()[-1], UnknownPart)
    assert task.model_extra == {"futureField": {"x": 1}}


def test_missing_optional_fields_default() -> None:
    task = Task.model_validate({"id": "t", "status": {"state": "completed"}})
    assert task.artifacts == [] and task.history == [] and task.context_id is None


def test_message_serialises_camel_case_with_skill_metadata() -> None:
    message = Message.from_user([TextPart(text="hi")], skill_id="document_search", context_id="ctx")
    wire = json.loads(message.model_dump_json(exclude_none=True))
    assert wire == {
        "role": "user",
        "parts": [{"kind": "text", "text": "hi"}],
        "messageId": message.message_id,
        "kind": "message",
        "contextId": "ctx",
        "metadata": {"skillId": "document_search"},
    }


def test_each_new_message_has_a_unique_id() -> None:
    ids = {Message.from_user([TextPart(text="x")]).message_id for _ in range(50)}
    assert len(ids) == 50
